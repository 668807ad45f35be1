/*
 * threads TEST - what multi-threaded programs ask of the kernel, through
 * the C library's pthreads (built twice: with musl as /usr/lib/exec-tests/threads and with
 * glibc as /usr/lib/exec-tests/threads-glibc). Each TEST prints lines "what: ok" (or
 * "what: FAILED ...") that hold on Linux and here alike.
 *
 *   create      100 threads created and joined; getpid, gettid
 *   mutex       mutex and condition variable under contention
 *   signals     kill() to the process, tgkill() to one thread, sigwait
 *   fatal       a fatal signal, and exit_group from a thread, end all threads
 *   stop        SIGSTOP and SIGCONT stop and continue every thread
 *   exec        execve from a thread that is not the leader
 *   wait        wait4 reports a process when its last thread is gone
 *   proc        /proc/self/task and the Tgid, Pid and Threads lines
 *   robust      a robust mutex whose owner died: EOWNERDEAD (the kernel's
 *               robust-list walk at thread and process exit)
 *   leak N      N thread create/join cycles leave free memory unchanged
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

static pid_t gettid_(void) { return syscall(SYS_gettid); }
static int tgkill_(pid_t tgid, pid_t tid, int sig) { return syscall(SYS_tgkill, tgid, tid, sig); }

/* ---- create ---- */

#define N 100
static pid_t tids[N], pids[N];

static void *create_fn(void *arg)
{
	long i = (long)arg;
	tids[i] = gettid_();
	pids[i] = getpid();
	return (void *)(i * 2);
}

static int t_create(void)
{
	pthread_t th[N];
	long sum = 0;
	int made = 0, distinct = 1, same_pid = 1;

	for (long i = 0; i < N; i++)
		if (pthread_create(&th[i], NULL, create_fn, (void *)i) == 0)
			made++;
	for (long i = 0; i < made; i++) {
		void *ret;
		if (pthread_join(th[i], &ret) == 0)
			sum += (long)ret;
	}
	for (int i = 0; i < N; i++) {
		if (pids[i] != getpid())
			same_pid = 0;
		if (tids[i] == getpid() || tids[i] <= 0)
			distinct = 0;
		for (int j = 0; j < i; j++)
			if (tids[i] == tids[j])
				distinct = 0;
	}
	say("100 threads created", made == N);
	say("100 threads joined, each with its own return value", sum == (long)N * (N - 1));
	say("getpid is the process id in every thread", same_pid);
	say("every thread has its own tid, not the pid", distinct);
	say("the main thread's tid is the pid", gettid_() == getpid());
	return 0;
}

/* ---- mutex ---- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long counter;
static int queue[16], qhead, qtail, produced_sum, consumed_sum, done;

static void *count_fn(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		if (i % 1000 == 0)
			sched_yield(); /* hold the lock across a switch now and then */
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *consumer_fn(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (qhead == qtail && !done)
			pthread_cond_wait(&cond, &lock);
		if (qhead == qtail && done)
			break;
		consumed_sum += queue[qhead++ % 16];
		pthread_cond_broadcast(&cond);
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

static int t_mutex(void)
{
	pthread_t th[4], cons[3];

	for (int i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, count_fn, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	say("4 threads x 20000 increments under a mutex: 80000", counter == 80000);

	for (int i = 0; i < 3; i++)
		pthread_create(&cons[i], NULL, consumer_fn, NULL);
	for (int v = 1; v <= 2000; v++) {
		pthread_mutex_lock(&lock);
		while (qtail - qhead == 16)
			pthread_cond_wait(&cond, &lock);
		queue[qtail++ % 16] = v;
		produced_sum += v;
		pthread_cond_broadcast(&cond);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < 3; i++)
		pthread_join(cons[i], NULL);
	say("condition variable: 3 consumers took all 2000 items once", consumed_sum == produced_sum);
	return 0;
}

/* ---- signals ---- */

static volatile pid_t handled_by;
static volatile int handled;

static void on_usr(int sig)
{
	(void)sig;
	handled_by = gettid_();
	handled++;
}

static pthread_barrier_t barrier;
static volatile pid_t worker_tid;

static void *signal_worker(void *arg)
{
	(void)arg;
	worker_tid = gettid_();
	pthread_barrier_wait(&barrier);
	while (!handled)
		usleep(1000);
	pthread_barrier_wait(&barrier);
	return NULL;
}

static void *sigwait_worker(void *arg)
{
	sigset_t set;
	int sig = 0;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigwait(&set, &sig);
	return (void *)(long)sig;
}

static int t_signals(void)
{
	struct sigaction sa = { .sa_handler = on_usr };
	sigset_t set;
	pthread_t th;

	sigaction(SIGUSR1, &sa, NULL);
	/* The main thread blocks SIGUSR1; the worker (created before) does not. */
	pthread_barrier_init(&barrier, NULL, 2);
	pthread_create(&th, NULL, signal_worker, NULL);
	pthread_barrier_wait(&barrier);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	pthread_barrier_wait(&barrier);
	pthread_join(th, NULL);
	say("kill() to the process: the handler runs in the thread that does not block it",
	    handled == 1 && handled_by == worker_tid);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);

	/* tgkill: that thread and no other. */
	handled = 0;
	pthread_barrier_init(&barrier, NULL, 2);
	pthread_create(&th, NULL, signal_worker, NULL);
	pthread_barrier_wait(&barrier);
	tgkill_(getpid(), worker_tid, SIGUSR1);
	pthread_barrier_wait(&barrier);
	pthread_join(th, NULL);
	say("tgkill() to one thread: its handler runs in that thread",
	    handled == 1 && handled_by == worker_tid);
	say("tgkill() with a tid of another process: ESRCH",
	    tgkill_(getpid() == 1 ? 2 : 1, worker_tid, 0) == -1 && errno == ESRCH);
	say("tgkill() with tid 0: EINVAL", tgkill_(getpid(), 0, SIGUSR1) == -1 && errno == EINVAL);

	/* sigwait in one thread takes a signal sent to the process. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_create(&th, NULL, sigwait_worker, NULL);
	usleep(20000);
	kill(getpid(), SIGUSR2);
	void *got;
	pthread_join(th, &got);
	say("sigwait() in a thread takes kill()'s SIGUSR2", (long)got == SIGUSR2);
	return 0;
}

/* ---- fatal, stop, wait: children with threads ---- */

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *exit_group_fn(void *arg)
{
	usleep(10000);
	syscall(SYS_exit_group, (int)(long)arg);
	return NULL;
}

/* A child with three threads that all sleep; returns its pid. */
static pid_t sleeping_child(int (*in_child)(void))
{
	int p[2];
	char c;

	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t th;
		pthread_create(&th, NULL, sleeper, NULL);
		pthread_create(&th, NULL, sleeper, NULL);
		write(p[1], "x", 1);
		if (in_child)
			_exit(in_child());
		for (;;)
			pause();
	}
	read(p[0], &c, 1);
	close(p[0]);
	close(p[1]);
	return pid;
}

static int exit_from_thread(void)
{
	pthread_t th;
	pthread_create(&th, NULL, exit_group_fn, (void *)7L);
	for (;;)
		pause();
	return 0;
}

static int t_fatal(void)
{
	int status;
	pid_t pid = sleeping_child(NULL);

	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	say("SIGTERM to a process of 3 threads: all die, killed by SIGTERM",
	    WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);

	pid = sleeping_child(NULL);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	struct dirent *e;
	pid_t other = 0;
	while (d && (e = readdir(d)))
		if (atoi(e->d_name) > 0 && atoi(e->d_name) != pid)
			other = atoi(e->d_name);
	if (d)
		closedir(d);
	tgkill_(pid, other, SIGUSR2);
	waitpid(pid, &status, 0);
	say("an unhandled SIGUSR2 to one thread (tgkill) kills the whole process",
	    other > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR2);

	pid = sleeping_child(exit_from_thread);
	waitpid(pid, &status, 0);
	say("exit_group(7) from a thread: the process ends with status 7",
	    WIFEXITED(status) && WEXITSTATUS(status) == 7);
	return 0;
}

static int count_state(pid_t pid, char state, int *threads)
{
	char path[320], line[128];
	int n = 0;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	*threads = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		(*threads)++;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/status", pid, e->d_name);
		FILE *f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (strncmp(line, "State:\t", 7) == 0 && line[7] == state)
				n++;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

static int t_stop(void)
{
	int status, threads;
	pid_t pid = sleeping_child(NULL);

	kill(pid, SIGSTOP);
	waitpid(pid, &status, WUNTRACED);
	say("SIGSTOP: wait4 reports the process stopped by SIGSTOP",
	    WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	int stopped = count_state(pid, 'T', &threads);
	say("every one of its 3 threads is stopped", threads == 3 && stopped == 3);
	kill(pid, SIGCONT);
	waitpid(pid, &status, WCONTINUED);
	say("SIGCONT: wait4 reports it continued", WIFCONTINUED(status));
	usleep(50000); /* they run, and go back to sleep */
	int sleeping = count_state(pid, 'S', &threads);
	say("its 3 threads sleep again, none stopped", threads == 3 && sleeping == 3);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	say("SIGKILL ends it", WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	return 0;
}

static int gate[2];

static void *last_thread(void *arg)
{
	char c;
	(void)arg;
	read(gate[0], &c, 1); /* until the parent has looked */
	syscall(SYS_exit, 5);
	return NULL;
}

static int t_wait(void)
{
	int status;
	pipe(gate);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t th;
		pthread_create(&th, NULL, last_thread, NULL);
		syscall(SYS_exit, 3); /* the leader ends, the thread lives on */
	}
	usleep(50000);
	char path[64], line[128], state = '?';
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "State:\t", 7) == 0)
			state = line[7];
	if (f)
		fclose(f);
	say("the leader has exited: /proc/PID/status says zombie", state == 'Z');
	say("but wait4 does not report the process while a thread lives",
	    waitpid(pid, &status, WNOHANG) == 0);
	write(gate[1], "x", 1);
	say("once the last thread exits, wait4 reports it", waitpid(pid, &status, 0) == pid);
	printf("its status: %s %d (the leader exited with 3, the last thread with 5)\n",
	       WIFEXITED(status) ? "exited with" : "killed by", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return 0;
}

/*
 * Which zombie wait(-1) reports first when threads made the children: a
 * thread's own children in the order it made them, thread after thread,
 * the main thread first; a thread's children passed, when it exits, to
 * the end of another thread's list.
 */
static pid_t fork_quitter(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	return pid;
}

/* A pipe each way: a thread that read from the pipe it had just written
 * to could take its own byte. */
struct order_thread {
	pid_t child;
	int forked[2]; /* the thread to the main thread: B is made */
	int go[2];     /* the main thread to the thread: exit now */
};

static void *fork_then_wait(void *arg)
{
	struct order_thread *o = arg;
	char c;

	o->child = fork_quitter();
	write(o->forked[1], "f", 1);
	read(o->go[0], &c, 1);
	return NULL;
}

static void print_wait_order(pid_t a, pid_t b, pid_t c)
{
	usleep(100000); /* all three are zombies now */
	printf("wait(-1) reports:");
	for (int i = 0; i < 3; i++) {
		pid_t p = wait(NULL);
		printf(" %s", p == a ? "A" : p == b ? "B" : p == c ? "C" : "?");
	}
	printf("\n");
}

/* alive: the thread still runs when the main thread waits. */
static void wait_order(int alive)
{
	struct order_thread o;
	pthread_t th;
	char c;

	pipe(o.forked);
	pipe(o.go);
	pid_t a = fork_quitter();
	pthread_create(&th, NULL, fork_then_wait, &o);
	read(o.forked[0], &c, 1);
	pid_t cc = fork_quitter();
	if (!alive) {
		write(o.go[1], "x", 1);
		pthread_join(th, NULL);
	}
	printf("A by the main thread, B by a second one %s, then C by the main thread: ",
	       alive ? "(still running)" : "(exited since)");
	print_wait_order(a, o.child, cc);
	if (alive) {
		write(o.go[1], "x", 1);
		pthread_join(th, NULL);
	}
	close(o.forked[0]);
	close(o.forked[1]);
	close(o.go[0]);
	close(o.go[1]);
}

static int t_waitorder(void)
{
	wait_order(1);
	wait_order(0);
	return 0;
}

/* ---- exec ---- */

static char *self_path;

static void *exec_fn(void *arg)
{
	char *argv[] = { self_path, "execd", arg, NULL };
	execv(self_path, argv);
	return NULL;
}

static int t_exec(void)
{
	int status, p[2], n, got = 0;
	char buf[1024] = "";

	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t th;
		char arg[32];
		dup2(p[1], 1);
		snprintf(arg, sizeof(arg), "%d", getpid());
		pthread_create(&th, NULL, sleeper, NULL);
		pthread_create(&th, NULL, exec_fn, arg);
		for (;;)
			pause();
	}
	close(p[1]);
	while ((n = read(p[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	waitpid(pid, &status, 0);
	printf("%s", buf);
	say("the exec'd program ends normally", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return 0;
}

static int execd(const char *pid_before)
{
	char line[128];
	int threads = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "Threads: %d", &threads);
	if (f)
		fclose(f);
	printf("exec from a thread: the process keeps its pid: %s\n",
	       atoi(pid_before) == getpid() ? "ok" : "FAILED");
	printf("exec from a thread: the new program's tid is the pid: %s\n",
	       gettid_() == getpid() ? "ok" : "FAILED");
	printf("exec from a thread: one thread left: %s\n", threads == 1 ? "ok" : "FAILED");
	fflush(stdout);
	return 0;
}

/* ---- proc ---- */

static int t_proc(void)
{
	pthread_t th[3];
	char line[128], path[64];
	int threads = -1, tgid = -1, pidl = -1, entries = 0, tid_ok = 1, listed = 0;

	pthread_barrier_init(&barrier, NULL, 1);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, sleeper, NULL);
	usleep(20000);
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "Threads: %d", &threads);
		sscanf(line, "Tgid: %d", &tgid);
		sscanf(line, "Pid: %d", &pidl);
	}
	fclose(f);
	say("/proc/self/status: Threads: 4", threads == 4);
	say("/proc/self/status: Tgid and Pid are the pid", tgid == getpid() && pidl == getpid());
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	pid_t other = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		entries++;
		int tid = atoi(e->d_name), t_tgid = -1, t_pid = -1;
		if (tid != getpid())
			other = tid;
		snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f)) {
			sscanf(line, "Tgid: %d", &t_tgid);
			sscanf(line, "Pid: %d", &t_pid);
		}
		if (f)
			fclose(f);
		if (t_tgid != getpid() || t_pid != tid)
			tid_ok = 0;
	}
	closedir(d);
	say("/proc/self/task has 4 entries", entries == 4);
	say("/proc/self/task/TID/status: Tgid is the pid, Pid is the tid", tid_ok);
	d = opendir("/proc");
	while (d && (e = readdir(d)))
		if (atoi(e->d_name) == other)
			listed = 1;
	closedir(d);
	snprintf(path, sizeof(path), "/proc/%d/status", other);
	say("a thread's tid is not listed in /proc", !listed);
	say("but /proc/TID can be opened", access(path, R_OK) == 0);
	return 0;
}

/* ---- robust ---- */

static pthread_mutex_t *robust;

static void *die_holding(void *arg)
{
	(void)arg;
	pthread_mutex_lock(robust);
	return NULL; /* ends without unlocking */
}

static int t_robust(void)
{
	pthread_mutexattr_t a;
	pthread_t th;
	int status;

	robust = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(robust, &a);
	pthread_create(&th, NULL, die_holding, NULL);
	pthread_join(th, NULL);
	int r = pthread_mutex_lock(robust);
	say("a thread ended holding a robust mutex: the next lock says EOWNERDEAD", r == EOWNERDEAD);
	pthread_mutex_consistent(robust);
	pthread_mutex_unlock(robust);
	say("made consistent, it locks again", pthread_mutex_lock(robust) == 0);
	pthread_mutex_unlock(robust);

	pid_t pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(robust);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	r = pthread_mutex_lock(robust);
	say("a process ended holding a shared robust mutex: EOWNERDEAD in the other", r == EOWNERDEAD);
	long head = 0;
	size_t len = 0;
	say("get_robust_list gives the head the C library set, 24 bytes",
	    syscall(SYS_get_robust_list, 0, &head, &len) == 0 && head != 0 && len == 24);
	say("set_robust_list with another length: EINVAL",
	    syscall(SYS_set_robust_list, head, 16) == -1 && errno == EINVAL);
	return 0;
}

/* ---- leak ---- */

static void *nothing(void *arg) { return arg; }

static long free_kib(void)
{
	struct sysinfo si;
	sysinfo(&si);
	return (long)(si.freeram * si.mem_unit / 1024);
}

static int t_leak(int n)
{
	pthread_t th[10];
	for (int round = 0; round < 2; round++) {
		long before = free_kib();
		for (int i = 0; i < (round ? n : 20) / 10; i++) {
			for (int j = 0; j < 10; j++)
				pthread_create(&th[j], NULL, nothing, NULL);
			for (int j = 0; j < 10; j++)
				pthread_join(th[j], NULL);
		}
		long after = free_kib();
		if (round)
			printf("free memory before and after %d thread create+exit cycles: %s\n", n,
			       before == after ? "same" : "differs");
		if (round && before != after)
			printf("(%ld KiB before, %ld KiB after)\n", before, after);
	}
	return 0;
}

int main(int argc, char *argv[])
{
	self_path = argv[0];
	if (argc < 2)
		return 2;
	mount("proc", "/proc", "proc", 0, NULL); /* EBUSY if it is there already */
	const char *t = argv[1];
	if (!strcmp(t, "create"))
		return t_create();
	if (!strcmp(t, "mutex"))
		return t_mutex();
	if (!strcmp(t, "signals"))
		return t_signals();
	if (!strcmp(t, "fatal"))
		return t_fatal();
	if (!strcmp(t, "stop"))
		return t_stop();
	if (!strcmp(t, "wait"))
		return t_wait();
	if (!strcmp(t, "waitorder"))
		return t_waitorder();
	if (!strcmp(t, "exec"))
		return t_exec();
	if (!strcmp(t, "execd") && argc > 2)
		return execd(argv[2]);
	if (!strcmp(t, "proc"))
		return t_proc();
	if (!strcmp(t, "robust"))
		return t_robust();
	if (!strcmp(t, "leak") && argc > 2)
		return t_leak(atoi(argv[2]));
	fprintf(stderr, "threads: unknown test %s\n", t);
	return 2;
}
