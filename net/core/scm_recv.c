/*
 * scm_recv.c - writing control messages into recvmsg's buffer (Linux's
 * put_cmsg and scm_detach_fds, net/core/scm.c): the receiving half of
 * scm.c.
 */
#include <errno.h>
#include <linux/pid_namespace.h>
#include <fs.h>
#include <mm.h>
#include <net.h>
#include <sched.h>
#include <uaccess.h>

int put_cmsg(struct msghdr *msg, int level, int type, size_t len, const void *data)
{
	struct cmsghdr h = { .cmsg_len = CMSG_LEN(len), .cmsg_level = level, .cmsg_type = type };
	char __user *p = msg->msg_control;
	size_t cmlen = h.cmsg_len;

	if (!p || msg->msg_controllen < sizeof(h)) {
		msg->msg_flags |= MSG_CTRUNC;
		return 0;
	}
	if (msg->msg_controllen < cmlen) {
		msg->msg_flags |= MSG_CTRUNC;
		cmlen = h.cmsg_len = msg->msg_controllen;
	}
	if (copy_to_user(p, &h, sizeof(h)) || copy_to_user(p + sizeof(h), data, cmlen - sizeof(h)))
		return -EFAULT;
	cmlen = MIN(CMSG_SPACE(len), msg->msg_controllen);
	msg->msg_control = p + cmlen;
	msg->msg_controllen -= cmlen;
	msg->msg_control_used += cmlen;
	return 0;
}

/* Give the receiver descriptors for as many files as fit. */
static void scm_detach_fds(struct msghdr *msg, struct scm_cookie *scm)
{
	struct scm_fp_list *fpl = scm->fp;
	int fdmax = 0, i, fds[SCM_MAX_FD];

	if (msg->msg_control && msg->msg_controllen > sizeof(struct cmsghdr))
		fdmax = (msg->msg_controllen - sizeof(struct cmsghdr)) / sizeof(int);
	for (i = 0; i < fdmax && i < fpl->count; i++) {
		int fd = fd_install_lowest(current->files, get_file(fpl->fp[i]),
					   msg->msg_cmsg_cloexec);
		if (fd < 0) {
			fput(fpl->fp[i]);
			msg->msg_flags |= MSG_CTRUNC;
			break;
		}
		fds[i] = fd;
	}
	if (i > 0)
		put_cmsg(msg, SOL_SOCKET, SCM_RIGHTS, i * sizeof(int), fds);
	if (i < fpl->count || (fpl->count && fdmax <= 0))
		msg->msg_flags |= MSG_CTRUNC;
}

void scm_recv(struct socket *sock, struct msghdr *msg, struct scm_cookie *scm, bool passcred)
{
	(void)sock;
	if (!msg->msg_control) {
		if (passcred || scm->fp)
			msg->msg_flags |= MSG_CTRUNC;
		scm_destroy(scm);
		return;
	}
	if (passcred) {
		struct ucred creds = scm->creds;

		creds.pid = pid_global_to_vnr(creds.pid); /* 0: not in our pid namespace */
		put_cmsg(msg, SOL_SOCKET, SCM_CREDENTIALS, sizeof(creds), &creds);
	}
	if (scm->fp)
		scm_detach_fds(msg, scm);
	scm_destroy(scm);
}
