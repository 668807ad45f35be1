/* nettest.h - reporting helpers for the socket tests: each call's result
 * is printed as a number or as its errno's name, so that the output can be
 * compared with Linux's. */
#pragma once
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *errname(int e)
{
	static const struct { int e; const char *n; } t[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" }, { EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
		{ EEXIST, "EEXIST" }, { ENOTDIR, "ENOTDIR" }, { EINVAL, "EINVAL" }, { EMFILE, "EMFILE" },
		{ ENOTTY, "ENOTTY" }, { ESPIPE, "ESPIPE" }, { EPIPE, "EPIPE" }, { EDOM, "EDOM" },
		{ ENOTSOCK, "ENOTSOCK" }, { EDESTADDRREQ, "EDESTADDRREQ" }, { EMSGSIZE, "EMSGSIZE" },
		{ EPROTOTYPE, "EPROTOTYPE" }, { ENOPROTOOPT, "ENOPROTOOPT" },
		{ EPROTONOSUPPORT, "EPROTONOSUPPORT" }, { ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ EADDRINUSE, "EADDRINUSE" }, { EADDRNOTAVAIL, "EADDRNOTAVAIL" },
		{ ECONNABORTED, "ECONNABORTED" }, { ECONNRESET, "ECONNRESET" }, { ENOBUFS, "ENOBUFS" },
		{ EISCONN, "EISCONN" }, { ENOTCONN, "ENOTCONN" }, { ESHUTDOWN, "ESHUTDOWN" },
		{ ETOOMANYREFS, "ETOOMANYREFS" }, { ECONNREFUSED, "ECONNREFUSED" }, { ENOSYS, "ENOSYS" },
	};
	static char buf[32];
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* Print "what: N" or "what: ENAME"; return ret. */
static long rep(const char *what, long ret)
{
	if (ret < 0)
		printf("%s: %s\n", what, errname(errno));
	else
		printf("%s: %ld\n", what, ret);
	fflush(stdout);
	return ret;
}
