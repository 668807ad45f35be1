/*
 * ipc_ns - IPC namespaces (CLONE_NEWIPC), compared with Linux: each has
 * its own System V ids and limits, /proc/sysvipc and /proc/sys/kernel
 * show the caller's, setns enters another, leaving one applies the
 * SEM_UNDO list, and an attached segment outlives its namespace.
 *
 * Runs as root. Each case runs in a child, so that the initial namespace
 * is left as it was; every line names what was seen.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NS_GET_NSTYPE 0xb703
#define KEY 0x1c0de

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EIDRM: return "EIDRM";
	case EACCES: return "EACCES";
	case ENOSPC: return "ENOSPC";
	default: return "E?";
	}
}

/* "0" or the errno's name (or the value, for a get call). */
static void show(const char *what, long rv)
{
	if (rv < 0)
		printf("%s: %s\n", what, errname(errno));
	else
		printf("%s: %ld\n", what, rv);
}

static void in_child(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

/* The first line of a /proc file, without its newline; "?" if none. */
static const char *first_line(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		strcpy(buf, "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	long rv = fd < 0 ? -1 : write(fd, text, strlen(text));

	printf("write %s '%s': %s\n", path, text, rv < 0 ? errname(errno) : "0");
	if (fd >= 0)
		close(fd);
}

static const char *const sysctls[] = {
	"shmmax", "shmall", "shmmni", "shm_rmid_forced", "sem", "msgmax", "msgmnb",
	"msgmni", "msg_next_id", "sem_next_id", "shm_next_id",
};

static void show_sysctls(const char *who)
{
	char path[64];

	for (size_t i = 0; i < sizeof(sysctls) / sizeof(sysctls[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", sysctls[i]);
		printf("%s %s: %s\n", who, sysctls[i], first_line(path));
	}
}

static void show_listings(const char *who)
{
	printf("%s /proc/sysvipc lines: shm %d, sem %d, msg %d\n", who,
	       count_lines("/proc/sysvipc/shm"), count_lines("/proc/sysvipc/sem"),
	       count_lines("/proc/sysvipc/msg"));
}

/* ---- the cases ---------------------------------------------------------- */

static void case_link(void)
{
	char buf[64] = "";
	struct stat st;

	readlink("/proc/self/ns/ipc", buf, sizeof(buf) - 1);
	stat("/proc/self/ns/ipc", &st);
	printf("initial ipc link: %s, st_ino %lu\n", buf, (unsigned long)st.st_ino);
	int fd = open("/proc/self/ns/ipc", O_RDONLY);
	printf("NS_GET_NSTYPE: %#x\n", ioctl(fd, NS_GET_NSTYPE));
	show("unshare(CLONE_NEWIPC)", unshare(CLONE_NEWIPC));
	char now[64] = "";
	readlink("/proc/self/ns/ipc", now, sizeof(now) - 1);
	printf("new ipc link differs: %s\n", strcmp(buf, now) ? "yes" : "no");
}

/* Objects of the initial namespace are not seen from a new one. */
static void case_ids(void)
{
	show("new ns: shmget(KEY)", shmget(KEY, 0, 0));
	show("new ns: semget(KEY)", semget(KEY, 0, 0));
	show("new ns: msgget(KEY)", msgget(KEY, 0));
	show_listings("new ns");
	show("new ns: shmget(IPC_PRIVATE)", shmget(IPC_PRIVATE, 4096, 0600));
	show("new ns: semget(IPC_PRIVATE)", semget(IPC_PRIVATE, 2, 0600));
	show("new ns: msgget(IPC_PRIVATE)", msgget(IPC_PRIVATE, 0600));
	show("new ns: shmget(KEY, IPC_CREAT)", shmget(KEY, 8192, IPC_CREAT | 0600));
	show_listings("new ns");
	struct shm_info si;
	shmctl(0, SHM_INFO, (struct shmid_ds *)&si);
	printf("new ns: SHM_INFO used_ids %d, shm_tot %lu\n", si.__used_ids, si.shm_tot);
}

static void in_new_ns(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (unshare(CLONE_NEWIPC) < 0)
			printf("unshare(CLONE_NEWIPC): %s\n", errname(errno));
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void case_sysctls(void)
{
	show_sysctls("new ns");
	write_file("/proc/sys/kernel/shmmni", "100");
	write_file("/proc/sys/kernel/shmmax", "65536");
	write_file("/proc/sys/kernel/shmall", "16");
	write_file("/proc/sys/kernel/msgmni", "7");
	write_file("/proc/sys/kernel/sem", "10 20 30 40");
	write_file("/proc/sys/kernel/shmmni", "40000");
	write_file("/proc/sys/kernel/shm_rmid_forced", "2");
	write_file("/proc/sys/kernel/shmmax", "-1");
	show_sysctls("changed");
	show("shmget(65537 bytes) over shmmax", shmget(IPC_PRIVATE, 65537, 0600));
	show("shmget(65536 bytes)", shmget(IPC_PRIVATE, 65536, 0600));
	show("shmget(4096 bytes) over shmall", shmget(IPC_PRIVATE, 4096, 0600));
	show("semget(11 sems) over semmsl", semget(IPC_PRIVATE, 11, 0600));
	struct shminfo info;
	shmctl(0, IPC_INFO, (struct shmid_ds *)&info);
	printf("IPC_INFO: shmmax %lu, shmmni %lu, shmall %lu\n", info.shmmax, info.shmmni, info.shmall);
}

/* Its values stay its own: a second new namespace starts from Linux's
 * defaults again, and the initial one was not changed. */
static void show_sysctls_again(void)
{
	show_sysctls("second new ns");
}

static void case_sysctls_initial(void)
{
	printf("initial shmmni: %s\n", first_line("/proc/sys/kernel/shmmni"));
	printf("initial sem: %s\n", first_line("/proc/sys/kernel/sem"));
	printf("initial msgmni: %s\n", first_line("/proc/sys/kernel/msgmni"));
	printf("initial msgmax: %s\n", first_line("/proc/sys/kernel/msgmax"));
}

static void case_msg(void)
{
	struct { long type; char text[8]; } m = { 3, "hello" };
	int q = msgget(KEY, IPC_CREAT | 0600);

	show("msgsnd in new ns", msgsnd(q, &m, 6, 0));
	show_listings("after msgsnd");
}

/* setns into a child's namespace: its objects, its listing. */
static void case_setns(void)
{
	int p[2];
	char c;

	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		unshare(CLONE_NEWIPC);
		shmget(KEY + 1, 4096, IPC_CREAT | 0600);
		semget(KEY + 1, 1, IPC_CREAT | 0600);
		write(p[1], "x", 1);
		pause();
		_exit(0);
	}
	read(p[0], &c, 1);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", pid);
	int fd = open(path, O_RDONLY);
	show("before setns: shmget(KEY+1)", shmget(KEY + 1, 0, 0));
	show("setns(ipc fd, CLONE_NEWUTS)", setns(fd, CLONE_NEWUTS));
	show("setns(ipc fd, CLONE_NEWIPC)", setns(fd, CLONE_NEWIPC));
	show("after setns: shmget(KEY+1)", shmget(KEY + 1, 0, 0));
	show("after setns: semget(KEY+1)", semget(KEY + 1, 0, 0));
	show_listings("after setns");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* The namespace lives on: we are in it. */
	show("its creator gone: shmget(KEY+1)", shmget(KEY + 1, 0, 0));
}

/* A namespace kept by an open nsfs file alone still has its objects. */
static void case_nsfs_keeps(void)
{
	int p[2];
	char c;

	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		unshare(CLONE_NEWIPC);
		msgget(KEY + 2, IPC_CREAT | 0600);
		write(p[1], "x", 1);
		pause();
		_exit(0);
	}
	read(p[0], &c, 1);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", pid);
	int fd = open(path, O_RDONLY);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	show("nsfs file only, then setns", setns(fd, 0));
	show("its queue: msgget(KEY+2)", msgget(KEY + 2, 0));
}

/* SEM_UNDO is applied when the process leaves its namespace. */
static int undo_set;

static void undo_then(int how)
{
	int p[2], q[2];
	char c;

	pipe(p);
	pipe(q);
	pid_t pid = fork();
	if (pid == 0) {
		struct sembuf op = { 0, 1, SEM_UNDO };
		semop(undo_set, &op, 1);
		write(p[1], "x", 1);
		read(q[0], &c, 1);
		if (how == 0)
			unshare(CLONE_NEWIPC);
		else if (how == 1)
			unshare(CLONE_SYSVSEM);
		else if (how == 2)
			setns(open("/proc/1/ns/ipc", O_RDONLY), CLONE_NEWIPC);
		write(p[1], "x", 1);
		read(q[0], &c, 1);
		_exit(0);
	}
	static const char *const names[] = { "unshare(CLONE_NEWIPC)", "unshare(CLONE_SYSVSEM)",
					      "setns(its own ipc ns)" };
	read(p[0], &c, 1);
	printf("semop +1 with SEM_UNDO: value %d\n", semctl(undo_set, 0, GETVAL));
	write(q[1], "x", 1);
	read(p[0], &c, 1);
	printf("after %s: value %d\n", names[how], semctl(undo_set, 0, GETVAL));
	write(q[1], "x", 1);
	waitpid(pid, NULL, 0);
	printf("after exit: value %d\n", semctl(undo_set, 0, GETVAL));
}

static void case_undo(void)
{
	undo_set = semget(IPC_PRIVATE, 1, 0600);
	for (int how = 0; how < 3; how++)
		undo_then(how);
	semctl(undo_set, 0, IPC_RMID);
}

/* An attached segment outlives its namespace: still mapped, still
 * readable after the process went back to the initial one. */
static void case_attached(void)
{
	int initial = open("/proc/self/ns/ipc", O_RDONLY);

	unshare(CLONE_NEWIPC);
	int id = shmget(KEY + 3, 4096, IPC_CREAT | 0600);
	char *p = shmat(id, NULL, 0);
	strcpy(p, "kept");
	show("setns back to the initial ns", setns(initial, CLONE_NEWIPC));
	printf("segment still reads: %s\n", p);
	show("initial ns: shmget(KEY+3)", shmget(KEY + 3, 0, 0));
	show("shmdt of the old ns's segment", shmdt(p));
	show("shmdt again", shmdt(p));
}

/* shm_rmid_forced: set, it destroys segments whose creator has gone. */
static void create_and_exit(void)
{
	shmget(KEY + 4, 4096, IPC_CREAT | 0600);
}

static void case_rmid_forced(void)
{
	in_child(create_and_exit);
	show("creator gone: shmget(KEY+4)", shmget(KEY + 4, 0, 0));
	write_file("/proc/sys/kernel/shm_rmid_forced", "1");
	show("forced: shmget(KEY+4)", shmget(KEY + 4, 0, 0));
	int id = shmget(KEY + 5, 4096, IPC_CREAT | 0600);
	char *p = shmat(id, NULL, 0);
	show("forced, attached: shmget(KEY+5)", shmget(KEY + 5, 0, 0));
	shmdt(p);
	show("forced, detached: shmget(KEY+5)", shmget(KEY + 5, 0, 0));
}

static void case_clone_flags(void)
{
	long pid = syscall(SYS_clone, CLONE_NEWIPC | CLONE_SYSVSEM | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		_exit(0);
	show("clone(CLONE_NEWIPC|CLONE_SYSVSEM)", pid < 0 ? -1 : 0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	pid = syscall(SYS_clone, CLONE_NEWIPC | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		printf("clone(CLONE_NEWIPC) child: shmget(KEY) %s\n",
		       shmget(KEY, 0, 0) < 0 ? errname(errno) : "found");
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void case_unprivileged(void)
{
	setuid(1000);
	show("unshare(CLONE_NEWIPC) as uid 1000", unshare(CLONE_NEWIPC));
}

int main(void)
{
	if (access("/proc/self", F_OK)) {
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	/* Objects of the initial namespace, that no other one sees. */
	int shm = shmget(KEY, 4096, IPC_CREAT | 0600);
	int sem = semget(KEY, 1, IPC_CREAT | 0600);
	int msg = msgget(KEY, IPC_CREAT | 0600);
	write_file("/proc/sys/kernel/msgmax", "1000");

	in_child(case_link);
	in_new_ns(case_ids);
	in_new_ns(case_sysctls);
	in_new_ns(show_sysctls_again);
	in_child(case_sysctls_initial);
	in_new_ns(case_msg);
	in_child(case_setns);
	in_child(case_nsfs_keeps);
	in_child(case_undo);
	in_child(case_attached);
	in_new_ns(case_rmid_forced);
	in_child(case_clone_flags);
	in_child(case_unprivileged);

	write_file("/proc/sys/kernel/msgmax", "8192");
	show_listings("initial ns");
	shmctl(shm, IPC_RMID, NULL);
	semctl(sem, 0, IPC_RMID);
	msgctl(msg, IPC_RMID, NULL);
	show_listings("initial ns, removed");
	return 0;
}
