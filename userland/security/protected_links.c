/*
 * protected_links - what Debian's kernel refuses a user in a directory
 * that everyone shares (/tmp): following another user's symlink there
 * (fs.protected_symlinks) and hard-linking a file the user could not
 * write, or a set-user-ID one (fs.protected_hardlinks), both on in Debian;
 * and what a set-user-ID or set-group-ID exec takes from the personality
 * (PER_CLEAR_ON_SETID: no ASLR, the legacy layout, READ_IMPLIES_EXEC).
 *
 *   protected_links          the whole test, as root
 *   protected_links show     print the personality (what the exec left)
 */
#include "exectest.h"
#include <sys/mount.h>
#include <sys/personality.h>

#define DIR "/tmp/protected"
#define WEAK (ADDR_NO_RANDOMIZE | ADDR_COMPAT_LAYOUT | READ_IMPLIES_EXEC)

static void as_user(uid_t uid)
{
	if (setgid(uid) || setuid(uid))
		exit(99);
}

/* In a child running as uid: the symlink and hard-link cases. */
static void user_cases(uid_t uid)
{
	as_user(uid);
	say("uid %d: open my own link:         %s\n", uid, res(open(DIR "/link1000", O_RDONLY)));
	say("uid %d: open root's link:         %s\n", uid, res(open(DIR "/linkroot", O_RDONLY)));
	say("uid %d: open uid 1001's link:     %s\n", uid, res(open(DIR "/link1001", O_RDONLY)));
	say("uid %d: stat uid 1001's link:     %s\n", uid, res(stat(DIR "/link1001", &(struct stat){ 0 })));
	say("uid %d: lstat uid 1001's link:    %s\n", uid, res(lstat(DIR "/link1001", &(struct stat){ 0 })));
	say("uid %d: link root's 0644 file:    %s\n", uid, res(link(DIR "/root644", DIR "/h1")));
	say("uid %d: link root's 0666 file:    %s\n", uid, res(link(DIR "/root666", DIR "/h2")));
	say("uid %d: link root's 04777 file:   %s\n", uid, res(link(DIR "/suid", DIR "/h3")));
	say("uid %d: link root's directory:    %s\n", uid, res(link(DIR "/sub", DIR "/h4")));
	say("uid %d: link my own file:         %s\n", uid, res(link(DIR "/mine", DIR "/h5")));
	say("uid %d: read protected_symlinks:  %s\n", uid, res(open("/proc/sys/fs/protected_symlinks", O_RDONLY)));
	exit(0);
}

static void in_child(void (*fn)(uid_t), uid_t uid)
{
	pid_t pid = fork();
	if (pid == 0)
		fn(uid);
	waitpid(pid, NULL, 0);
}

static void make_link_as(uid_t uid)
{
	char name[64];
	as_user(uid);
	snprintf(name, sizeof(name), DIR "/link%d", uid);
	if (symlink(DIR "/root644", name))
		exit(1);
	if (uid == 1000 && close(open(DIR "/mine", O_CREAT | O_WRONLY, 0600)))
		exit(1);
	exit(0);
}

static int make_file(const char *path, mode_t mode)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "x\n", 2) != 2)
		return -1;
	close(fd);
	return chmod(path, mode);
}

/* Exec a copy of this program, with every weakening personality bit set. */
static void exec_with_weak_personality(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		personality(WEAK);
		execl(path, "protected_links", "show", (char *)NULL);
		exit(98);
	}
	waitpid(pid, NULL, 0);
}

static int copy_self(const char *to, mode_t mode)
{
	char buf[4096];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY), out = open(to, O_CREAT | O_WRONLY | O_TRUNC, 0700);

	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	close(out);
	return chmod(to, mode);
}

int main(int argc, char *argv[])
{
	if (argc > 1 && !strcmp(argv[1], "show")) {
		say("  personality after exec: %#x\n", personality(0xffffffff) & WEAK);
		return 0;
	}
	mount("proc", "/proc", "proc", 0, NULL); /* init mounts it only for a shell */
	mkdir(DIR, 0755);
	if (chmod(DIR, 01777) || mkdir(DIR "/sub", 0755) || make_file(DIR "/root644", 0644) ||
	    make_file(DIR "/root666", 0666) || make_file(DIR "/suid", 04777) ||
	    symlink(DIR "/root644", DIR "/linkroot")) {
		perror("protected_links: setup");
		return 1;
	}
	in_child(make_link_as, 1000);
	in_child(make_link_as, 1001);
	in_child(user_cases, 1000);
	say("root: open uid 1001's link:       %s\n", res(open(DIR "/link1001", O_RDONLY)));
	say("root: read protected_symlinks:    %s\n", res(open("/proc/sys/fs/protected_symlinks", O_RDONLY)));

	say("exec, not set-user-ID, personality %#x:\n", WEAK);
	if (copy_self(DIR "/plain", 0755) || copy_self(DIR "/setuid", 04755) || copy_self(DIR "/setgid", 02755))
		return 1;
	exec_with_weak_personality(DIR "/plain");
	say("exec, set-user-ID:\n");
	exec_with_weak_personality(DIR "/setuid");
	say("exec, set-group-ID:\n");
	exec_with_weak_personality(DIR "/setgid");
	return 0;
}
