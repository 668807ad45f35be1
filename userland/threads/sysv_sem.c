/*
 * sysv_sem - System V semaphores (ipc/sem.c, semop.c, sem_undo.c): semget's
 * errors, semctl's commands, semop's all-or-nothing arrays and their
 * errors, sleeping between processes (woken by semop, SETVAL, IPC_RMID
 * with EIDRM, a signal with EINTR, semtimedop's timeout with EAGAIN),
 * SEM_UNDO at exit (with CLONE_SYSVSEM and without), /proc/sysvipc/sem and
 * /proc/sys/kernel/sem. Prints "what: ok" lines that hold on Linux and here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sem.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
	struct seminfo *__buf;
};

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

static int err(long r, int e) { return r == -1 && errno == e; }

static int op(int id, int num, int delta, int flg)
{
	struct sembuf sb = { .sem_num = num, .sem_op = delta, .sem_flg = flg };
	return semop(id, &sb, 1);
}

static int val(int id, int num) { return semctl(id, num, GETVAL); }
static int setval(int id, int num, int v) { return semctl(id, num, SETVAL, (union semun){ .val = v }); }

/* Wait (up to 5 s) until cmd (GETNCNT, GETZCNT) of semaphore num is n. */
static int wait_cnt(int id, int num, int cmd, int n)
{
	for (int i = 0; i < 5000; i++) {
		if (semctl(id, num, cmd) == n)
			return 1;
		usleep(1000);
	}
	return 0;
}

static int child_status(pid_t pid)
{
	int status;
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_get(void)
{
	int id = semget(IPC_PRIVATE, 3, IPC_CREAT | 0600);
	struct semid_ds ds;
	say("semget(IPC_PRIVATE, 3): a set of 3 at 0, mode 600, never operated on",
	    id >= 0 && !semctl(id, 0, IPC_STAT, (union semun){ .buf = &ds }) && ds.sem_nsems == 3 &&
		    (ds.sem_perm.mode & 0777) == 0600 && ds.sem_otime == 0 && ds.sem_ctime != 0 &&
		    val(id, 2) == 0 && semctl(id, 1, GETPID) == 0);
	say("nsems < 0 or > SEMMSL, or 0 for a new set: EINVAL",
	    err(semget(IPC_PRIVATE, -1, 0600), EINVAL) && err(semget(IPC_PRIVATE, 32001, 0600), EINVAL) &&
		    err(semget(IPC_PRIVATE, 0, 0600), EINVAL));
	semctl(id, 0, IPC_RMID);
	key_t key = 0x5e3a0001;
	say("a key nobody made, without IPC_CREAT: ENOENT", err(semget(key, 1, 0600), ENOENT));
	int k = semget(key, 2, IPC_CREAT | 0640);
	say("the key's set again: same id (nsems 0 or fewer is fine); IPC_EXCL: EEXIST; more: EINVAL",
	    k >= 0 && semget(key, 0, 0) == k && semget(key, 2, IPC_CREAT) == k &&
		    err(semget(key, 1, IPC_CREAT | IPC_EXCL | 0600), EEXIST) && err(semget(key, 3, 0), EINVAL));
	semctl(k, 0, IPC_RMID);
	say("removed: the key is free (ENOENT), the id refused (EINVAL)",
	    err(semget(key, 1, 0), ENOENT) && err(semctl(k, 0, GETVAL), EINVAL) &&
		    err(op(k, 0, 1, 0), EINVAL) && err(semctl(-1, 0, GETVAL), EINVAL));
}

static void test_ctl(void)
{
	int id = semget(IPC_PRIVATE, 3, 0600);
	unsigned short all[3] = { 1, 2, 3 }, got[3] = { 0 };
	say("SETVAL, GETVAL, GETPID",
	    !setval(id, 1, 5) && val(id, 1) == 5 && semctl(id, 1, GETPID) == getpid() &&
		    semctl(id, 0, GETPID) == 0);
	say("SETVAL above SEMVMX or below 0: ERANGE; semnum out of the set: EINVAL",
	    err(setval(id, 0, 32768), ERANGE) && err(setval(id, 0, -1), ERANGE) &&
		    setval(id, 0, 32767) == 0 && err(setval(id, 3, 1), EINVAL) &&
		    err(semctl(id, -1, GETVAL), EINVAL) && err(semctl(id, 3, GETNCNT), EINVAL));
	say("SETALL, GETALL",
	    !semctl(id, 0, SETALL, (union semun){ .array = all }) &&
		    !semctl(id, 0, GETALL, (union semun){ .array = got }) && !memcmp(all, got, sizeof(all)));
	all[1] = 40000;
	say("SETALL with a value above SEMVMX: ERANGE, nothing set",
	    err(semctl(id, 0, SETALL, (union semun){ .array = all }), ERANGE) && val(id, 0) == 1);
	say("GETALL, SETALL to a bad address: EFAULT",
	    err(semctl(id, 0, GETALL, (union semun){ .array = (void *)8 }), EFAULT) &&
		    err(semctl(id, 0, SETALL, (union semun){ .array = (void *)8 }), EFAULT));
	say("an unknown command: EINVAL", err(semctl(id, 0, 99), EINVAL));
	struct seminfo si;
	int max = semctl(id, 0, IPC_INFO, (union semun){ .__buf = &si });
	say("IPC_INFO: Linux's limits",
	    max >= 0 && si.semmsl == 32000 && si.semopm == 500 && si.semmni == 32000 &&
		    si.semvmx == 32767 && si.semmns == 1024000000 && si.semusz == 20 && si.semaem == 32767);
	int max2 = semctl(id, 0, SEM_INFO, (union semun){ .__buf = &si });
	say("SEM_INFO: sets in use, semaphores in use", max2 == max && si.semusz >= 1 && si.semaem >= 3);
	struct semid_ds ds;
	int idx = id & 0x7fff;
	say("SEM_STAT and SEM_STAT_ANY by index: the id",
	    semctl(idx, 0, SEM_STAT, (union semun){ .buf = &ds }) == id &&
		    semctl(idx, 0, SEM_STAT_ANY, (union semun){ .buf = &ds }) == id && ds.sem_nsems == 3);
	ds.sem_perm.mode = 0404;
	ds.sem_perm.uid = 0;
	say("IPC_SET: the mode", !semctl(id, 0, IPC_SET, (union semun){ .buf = &ds }) &&
				     !semctl(id, 0, IPC_STAT, (union semun){ .buf = &ds }) &&
				     (ds.sem_perm.mode & 0777) == 0404);
	ds.sem_perm.uid = -1;
	say("IPC_SET with uid -1: EINVAL", err(semctl(id, 0, IPC_SET, (union semun){ .buf = &ds }), EINVAL));
	semctl(id, 0, IPC_RMID);
}

static void test_semop_errors(void)
{
	int id = semget(IPC_PRIVATE, 2, 0600);
	struct sembuf two[2] = { { 0, 1, 0 }, { 1, -1, IPC_NOWAIT } };
	static struct sembuf many[501];
	struct timespec ts = { 0, 1000000000 };
	say("nsops 0: EINVAL; above SEMOPM: E2BIG; a semaphore past the set: EFBIG",
	    err(semop(id, two, 0), EINVAL) && err(semop(id, many, 501), E2BIG) &&
		    err(op(id, 2, 1, 0), EFBIG) && err(semop(id, (void *)8, 1), EFAULT));
	say("all or nothing: the second cannot (IPC_NOWAIT): EAGAIN, the first not done",
	    err(semop(id, two, 2), EAGAIN) && val(id, 0) == 0);
	two[0].sem_op = 32767;
	two[1].sem_op = 0;
	two[1].sem_num = 0;
	say("a zero operation waits for 0: EAGAIN after an increment in the same array",
	    err(semop(id, two, 2), EAGAIN) && val(id, 0) == 0);
	say("above SEMVMX: ERANGE", !op(id, 0, 1, 0) && err(op(id, 0, 32767, 0), ERANGE) && val(id, 0) == 1);
	two[0] = (struct sembuf){ 0, 2, 0 };
	two[1] = (struct sembuf){ 0, -3, 0 };
	say("the operations apply in order: +2 then -3 on 1 is 0",
	    !semop(id, two, 2) && val(id, 0) == 0 && semctl(id, 0, GETPID) == getpid());
	say("semtimedop: tv_nsec out of range EINVAL, a bad timeout EFAULT",
	    err(semtimedop(id, two, 1, &ts), EINVAL) && err(semtimedop(id, two, 1, (void *)8), EFAULT));
	ts.tv_nsec = 50000000;
	say("semtimedop that times out: EAGAIN, and no waiter left",
	    err(semtimedop(id, &two[1], 1, &ts), EAGAIN) && semctl(id, 0, GETNCNT) == 0);
	struct semid_ds ds;
	semctl(id, 0, IPC_STAT, (union semun){ .buf = &ds });
	say("a semop sets sem_otime", ds.sem_otime != 0);
	semctl(id, 0, IPC_RMID);
}

static void test_sleep(void)
{
	int id = semget(IPC_PRIVATE, 2, 0600);
	pid_t c = fork();
	if (c == 0)
		_exit(op(id, 0, -2, 0) == 0 && val(id, 0) == 0 ? 0 : 1);
	int waits = wait_cnt(id, 0, GETNCNT, 1);
	say("a child waits to take 2: GETNCNT 1, GETZCNT 0", waits && semctl(id, 0, GETZCNT) == 0);
	op(id, 0, 1, 0);
	usleep(20000);
	say("+1 is not enough: it still waits", semctl(id, 0, GETNCNT) == 1 && val(id, 0) == 1);
	op(id, 0, 1, 0);
	say("+1 more: its semop completes; GETPID is the child's",
	    child_status(c) == 0 && val(id, 0) == 0 && semctl(id, 0, GETPID) == c);

	setval(id, 1, 1);
	c = fork();
	if (c == 0)
		_exit(op(id, 1, 0, 0) == 0 ? 0 : 1);
	say("a wait for zero: GETZCNT 1", wait_cnt(id, 1, GETZCNT, 1));
	setval(id, 1, 0);
	say("SETVAL 0 wakes it", child_status(c) == 0);

	c = fork();
	if (c == 0)
		_exit(err(op(id, 0, -1, 0), EIDRM) ? 0 : 1);
	wait_cnt(id, 0, GETNCNT, 1);
	semctl(id, 0, IPC_RMID);
	say("IPC_RMID wakes a waiter with EIDRM", child_status(c) == 0);
}

static void on_usr1(int sig) { (void)sig; }

static void test_signal(void)
{
	int id = semget(IPC_PRIVATE, 1, 0600);
	pid_t c = fork();
	if (c == 0) {
		struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
		sigaction(SIGUSR1, &sa, NULL);
		_exit(err(op(id, 0, -1, 0), EINTR) ? 0 : 1);
	}
	wait_cnt(id, 0, GETNCNT, 1);
	kill(c, SIGUSR1);
	say("a signal ends the wait with EINTR, even with SA_RESTART",
	    child_status(c) == 0 && semctl(id, 0, GETNCNT) == 0);
	semctl(id, 0, IPC_RMID);
}

static void test_undo(void)
{
	int id = semget(IPC_PRIVATE, 2, 0600);
	pid_t c = fork();
	if (c == 0) {
		op(id, 0, 3, SEM_UNDO);
		op(id, 0, -2, 0);
		_exit(val(id, 0) == 1 ? 0 : 1);
	}
	say("SEM_UNDO: +3 undone at exit, the value clamped at 0; GETPID the child's",
	    child_status(c) == 0 && val(id, 0) == 0 && semctl(id, 0, GETPID) == c);
	c = fork();
	if (c == 0) {
		op(id, 1, 2, SEM_UNDO);
		setval(id, 1, 7);
		_exit(0);
	}
	say("SETVAL forgets the adjustment", child_status(c) == 0 && val(id, 1) == 7);
	setval(id, 1, 0);
	c = fork();
	if (c == 0) {
		op(id, 0, 1, SEM_UNDO);
		pid_t g = fork(); /* has no adjustments of its own */
		if (g == 0)
			_exit(0);
		int gone = child_status(g) == 0 && val(id, 0) == 1;
		_exit(gone ? 0 : 1);
	}
	say("a forked child does not undo its parent's semops", child_status(c) == 0 && val(id, 0) == 0);
	c = fork();
	if (c == 0)
		_exit(op(id, 0, -1, 0) == 0 ? 0 : 1);
	wait_cnt(id, 0, GETNCNT, 1);
	pid_t d = fork();
	if (d == 0) {
		op(id, 0, 1, SEM_UNDO);
		_exit(0);
	}
	say("a sleeper woken by a semop later undone keeps what it took",
	    child_status(c) == 0 && child_status(d) == 0 && val(id, 0) == 0);
	semctl(id, 0, IPC_RMID);
}

static char stack[65536];
static int sem_for_clone;

static int clone_child(void *arg)
{
	(void)arg;
	op(sem_for_clone, 0, 1, SEM_UNDO);
	return 0;
}

static void test_sysvsem(void)
{
	int id = sem_for_clone = semget(IPC_PRIVATE, 1, 0600);
	pid_t p = fork();
	if (p == 0) {
		op(id, 0, 1, SEM_UNDO);
		pid_t t = clone(clone_child, stack + sizeof(stack), CLONE_VM | CLONE_SYSVSEM | SIGCHLD, NULL);
		int ok = t > 0 && child_status(t) == 0 && val(id, 0) == 2;
		_exit(ok ? 0 : 1);
	}
	say("CLONE_SYSVSEM: the list is shared, applied when the last user exits",
	    child_status(p) == 0 && val(id, 0) == 0);
	p = fork();
	if (p == 0) {
		op(id, 0, 1, SEM_UNDO);
		semctl(id, 0, IPC_RMID);
		_exit(0);
	}
	say("IPC_RMID drops the undo entries: the exit after it is fine",
	    child_status(p) == 0 && err(val(id, 0), EINVAL));
}

static void test_perm(void)
{
	int id = semget(IPC_PRIVATE, 1, 0600);
	pid_t c = fork();
	if (c == 0) {
		if (setuid(1000))
			_exit(2);
		struct semid_ds ds;
		int ok = err(op(id, 0, 1, 0), EACCES) && err(val(id, 0), EACCES) &&
			 err(semctl(id, 0, IPC_STAT, (union semun){ .buf = &ds }), EACCES) &&
			 semctl(id & 0x7fff, 0, SEM_STAT_ANY, (union semun){ .buf = &ds }) == id &&
			 err(semctl(id, 0, IPC_RMID), EPERM) && err(op(id, 0, 0, IPC_NOWAIT), EACCES);
		_exit(ok ? 0 : 1);
	}
	say("another user: EACCES for semop and GETVAL, EPERM for IPC_RMID; SEM_STAT_ANY is fine",
	    child_status(c) == 0);
	semctl(id, 0, IPC_RMID);
}

static void test_proc(void)
{
	int id = semget(0x5e3a0002, 4, IPC_CREAT | 0640);
	FILE *f = fopen("/proc/sysvipc/sem", "r");
	char line[256];
	int found = 0;
	if (f && fgets(line, sizeof(line), f))
		printf("/proc/sysvipc/sem: %s", line);
	while (f && fgets(line, sizeof(line), f)) {
		int key, semid, nsems, uid;
		unsigned perms;
		if (sscanf(line, "%d %d %o %d %d", &key, &semid, &perms, &nsems, &uid) == 5 &&
		    semid == id)
			found = key == 0x5e3a0002 && perms == 0640 && nsems == 4 && uid == 0;
	}
	if (f)
		fclose(f);
	say("/proc/sysvipc/sem lists the set", found);
	semctl(id, 0, IPC_RMID);
	f = fopen("/proc/sys/kernel/sem", "r");
	if (f && fgets(line, sizeof(line), f))
		printf("/proc/sys/kernel/sem: %s", line);
	if (f)
		fclose(f);
	f = fopen("/proc/sys/kernel/sem", "w");
	int w = f && fprintf(f, "250 32000 32 128\n") > 0 && !fclose(f);
	f = fopen("/proc/sys/kernel/sem", "r");
	if (w && f && fgets(line, sizeof(line), f))
		printf("after writing 250 32000 32 128: %s", line);
	if (f)
		fclose(f);
	static struct sembuf ops[33];
	say("semopm 32: 33 operations are E2BIG", err(semop(0, ops, 33), E2BIG));
	f = fopen("/proc/sys/kernel/sem", "w");
	int bad = f && fprintf(f, "1 2 3 40000\n") > 0 && fclose(f) != 0;
	say("semmni above 32768: ERANGE", bad && errno == ERANGE);
	f = fopen("/proc/sys/kernel/sem", "w");
	if (f) {
		fprintf(f, "32000 1024000000 500 32000\n");
		fclose(f);
	}
}

int main(void)
{
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL); /* if it is not yet */
	test_get();
	test_ctl();
	test_semop_errors();
	test_sleep();
	test_signal();
	test_undo();
	test_sysvsem();
	test_perm();
	test_proc();
	return 0;
}
