#define _GNU_SOURCE
/*
 * binfmt_misc_creds - flag C: the new credentials come from the program,
 * not from the interpreter (test binfmt_misc_creds; fs/exec.c's
 * bprm_creds_from_file honours bprm->execfd_creds).
 *
 * As uid 1000, runs /tmp/suid (root's, mode 4755, starting "BMSU") through
 * entries whose interpreter is this program, which then prints its ids:
 *   O only        the interpreter's credentials: euid 1000
 *   C             the program's set-user-ID bit: euid 0
 *   C, program not set-user-ID: euid 1000
 *   no flag, the interpreter set-user-ID root: euid 0
 */
#include "bm_common.h"
#include <sys/mount.h>

static void as_user(const char *path)
{
	char *const argv[] = { "x", NULL };

	fflush(stdout);
	if (fork() == 0) {
		if (setgid(1000) || setuid(1000))
			printf("setuid: %s\n", errname(errno));
		execve(path, argv, NULL);
		printf("exec %s: %s\n", path, errname(errno));
		_exit(0);
	}
	wait(NULL);
}

int main(int argc, char *argv[] __attribute__((unused)))
{
	uid_t r, e, s;

	if (argc > 1) { /* the interpreter */
		getresuid(&r, &e, &s);
		printf("  interpreter: uid %d euid %d suid %d\n", r, e, s);
		return 0;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	put_file("/tmp/suid", "BMSU", 4, 04755);
	copy_file("/usr/lib/exec-tests/binfmt_misc_creds", "/tmp/interp", 0755);
	printf("O only:\n");
	bm_register(":c:M::BMSU::/tmp/interp:O");
	as_user("/tmp/suid");
	bm_clear();
	printf("C:\n");
	bm_register(":c:M::BMSU::/tmp/interp:C");
	as_user("/tmp/suid");
	printf("C, the program not set-user-ID:\n");
	chmod("/tmp/suid", 0755);
	as_user("/tmp/suid");
	bm_clear();
	printf("no flag, the interpreter set-user-ID root:\n");
	chmod("/tmp/interp", 04755);
	bm_register(":c:M::BMSU::/tmp/interp:");
	as_user("/tmp/suid");
	bm_clear();
	return 0;
}
