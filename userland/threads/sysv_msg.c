/*
 * sysv_msg - System V message queues (ipc/msg.c, msgop.c): msgget's
 * errors, msgsnd and msgrcv by type (0, > 0, < 0, MSG_EXCEPT), MSG_NOERROR
 * and E2BIG, MSG_COPY, a full queue, sleeping senders and receivers (woken
 * by a message, IPC_RMID with EIDRM, a signal with EINTR), msgctl's
 * commands, /proc/sysvipc/msg and /proc/sys/kernel/msg*. Prints "what: ok"
 * lines that hold on Linux and here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MSG_COPY
#define MSG_COPY 040000
#endif

struct mbuf {
	long mtype;
	char mtext[16384];
};

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

static int err(long r, int e) { return r == -1 && errno == e; }

static int snd(int id, long type, const char *text, int flg)
{
	static struct mbuf b;
	b.mtype = type;
	strcpy(b.mtext, text);
	return msgsnd(id, &b, strlen(text), flg);
}

/* The type of the message received (its text in got), or -errno. */
static struct mbuf got;
static long rcv(int id, size_t sz, long type, int flg)
{
	memset(&got, 0, sizeof(got));
	long n = msgrcv(id, &got, sz, type, flg | IPC_NOWAIT);
	return n < 0 ? -errno : got.mtype;
}

static struct msqid_ds st(int id)
{
	struct msqid_ds ds;
	memset(&ds, 0xff, sizeof(ds));
	msgctl(id, IPC_STAT, &ds);
	return ds;
}

static int child_status(pid_t pid)
{
	int status;
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_get(void)
{
	key_t key = 0x5e3b0001;
	int id = msgget(IPC_PRIVATE, 0600);
	struct msqid_ds ds = st(id);
	say("msgget(IPC_PRIVATE): empty, qbytes msgmnb, mode 600",
	    id >= 0 && ds.msg_qnum == 0 && ds.msg_qbytes == 16384 && ds.msg_cbytes == 0 &&
		    (ds.msg_perm.mode & 0777) == 0600 && ds.msg_stime == 0 && ds.msg_ctime != 0);
	msgctl(id, IPC_RMID, NULL);
	say("no such key: ENOENT", err(msgget(key, 0600), ENOENT));
	int k = msgget(key, IPC_CREAT | 0600);
	say("the key again: the id; IPC_EXCL: EEXIST",
	    k >= 0 && msgget(key, 0) == k && err(msgget(key, IPC_CREAT | IPC_EXCL), EEXIST));
	msgctl(k, IPC_RMID, NULL);
	say("removed: ENOENT for the key, EINVAL for the id",
	    err(msgget(key, 0), ENOENT) && err(snd(k, 1, "x", 0), EINVAL) &&
		    err(msgctl(k, IPC_STAT, &ds), EINVAL) && err(msgctl(-1, IPC_RMID, NULL), EINVAL));
}

static void test_types(void)
{
	int id = msgget(IPC_PRIVATE, 0600);
	snd(id, 3, "three", 0);
	snd(id, 1, "one", 0);
	snd(id, 2, "two", 0);
	snd(id, 1, "one again", 0);
	struct msqid_ds ds = st(id);
	say("4 messages queued: qnum, cbytes, lspid",
	    ds.msg_qnum == 4 && ds.msg_cbytes == 20 && ds.msg_lspid == getpid() && ds.msg_stime != 0);
	say("msgtyp 2: the first of type 2", rcv(id, 100, 2, 0) == 2 && !strcmp(got.mtext, "two"));
	say("msgtyp -3: the lowest type, first of it", rcv(id, 100, -3, 0) == 1 && !strcmp(got.mtext, "one"));
	say("MSG_EXCEPT 1: the first of another type", rcv(id, 100, 1, MSG_EXCEPT) == 3);
	say("msgtyp 0: the first", rcv(id, 100, 0, 0) == 1 && !strcmp(got.mtext, "one again"));
	say("empty, IPC_NOWAIT: ENOMSG", rcv(id, 100, 0, 0) == -ENOMSG);
	ds = st(id);
	say("qnum 0, lrpid", ds.msg_qnum == 0 && ds.msg_cbytes == 0 && ds.msg_lrpid == getpid());

	snd(id, 5, "a long message", 0);
	say("a buffer too small: E2BIG, the message stays", rcv(id, 4, 0, 0) == -E2BIG && st(id).msg_qnum == 1);
	say("MSG_COPY: a copy of message 0; of message 1: ENOMSG",
	    rcv(id, 100, 0, MSG_COPY) == 5 && !strcmp(got.mtext, "a long message") &&
		    st(id).msg_qnum == 1 && rcv(id, 100, 1, MSG_COPY) == -ENOMSG);
	say("MSG_COPY without IPC_NOWAIT or with MSG_EXCEPT: EINVAL",
	    err(msgrcv(id, &got, 100, 0, MSG_COPY), EINVAL) &&
		    rcv(id, 100, 0, MSG_COPY | MSG_EXCEPT) == -EINVAL);
	say("MSG_NOERROR: cut to the buffer",
	    msgrcv(id, &got, 4, 0, MSG_NOERROR) == 4 && !strcmp(got.mtext, "a lo"));

	static struct mbuf b = { .mtype = 1 };
	say("msgsnd: type 0, size above msgmax, negative size: EINVAL",
	    err(msgsnd(id, &(struct mbuf){ .mtype = 0 }, 1, 0), EINVAL) &&
		    err(msgsnd(id, &b, 8193, 0), EINVAL) && err(msgsnd(id, &b, (size_t)-1, 0), EINVAL) &&
		    err(msgsnd(id, (void *)8, 1, 0), EFAULT) && err(msgrcv(id, &b, (size_t)-1, 0, 0), EINVAL));
	say("an 8192-byte message and an empty one", !msgsnd(id, &b, 8192, 0) && !msgsnd(id, &b, 0, 0) &&
							 msgrcv(id, &got, 8192, 0, 0) == 8192 &&
							 msgrcv(id, &got, 0, 0, 0) == 0);
	say("full queue (16384 bytes): IPC_NOWAIT gives EAGAIN",
	    !msgsnd(id, &b, 8192, 0) && !msgsnd(id, &b, 8192, 0) && err(msgsnd(id, &b, 1, IPC_NOWAIT), EAGAIN));
	msgctl(id, IPC_RMID, NULL);
}

static void on_usr1(int sig) { (void)sig; }

static void test_sleep(void)
{
	int id = msgget(IPC_PRIVATE, 0600);
	pid_t c = fork();
	if (c == 0) {
		long n = msgrcv(id, &got, 100, 7, 0);
		_exit(n == 5 && !strcmp(got.mtext, "seven") ? 0 : 1);
	}
	usleep(100000);
	snd(id, 6, "six", 0);
	snd(id, 7, "seven", 0);
	say("a sleeping receiver gets the type it waits for", child_status(c) == 0 && st(id).msg_qnum == 1);
	rcv(id, 100, 0, 0);

	c = fork();
	if (c == 0)
		_exit(err(msgrcv(id, &got, 2, 0, 0), E2BIG) ? 0 : 1);
	usleep(100000);
	snd(id, 1, "too long", 0);
	say("a sleeping receiver with a small buffer: E2BIG, the message queued",
	    child_status(c) == 0 && st(id).msg_qnum == 1);
	rcv(id, 100, 0, 0);

	static struct mbuf b = { .mtype = 1 };
	msgsnd(id, &b, 8192, 0);
	msgsnd(id, &b, 8192, 0);
	c = fork();
	if (c == 0)
		_exit(msgsnd(id, &b, 100, 0) == 0 ? 0 : 1);
	usleep(100000);
	int waited = st(id).msg_qnum == 2;
	msgrcv(id, &got, 8192, 0, 0);
	say("a sender waits for room, a msgrcv makes it", waited && child_status(c) == 0 && st(id).msg_qnum == 2);

	msgsnd(id, &b, 8000, 0);
	c = fork();
	if (c == 0) {
		struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
		sigaction(SIGUSR1, &sa, NULL);
		_exit(err(msgsnd(id, &b, 8192, 0), EINTR) ? 0 : 1);
	}
	usleep(100000);
	kill(c, SIGUSR1);
	say("a signal ends a sender's wait with EINTR, even with SA_RESTART", child_status(c) == 0);

	pid_t r = fork();
	if (r == 0)
		_exit(err(msgrcv(id, &got, 100, 99, 0), EIDRM) ? 0 : 1);
	c = fork();
	if (c == 0)
		_exit(err(msgsnd(id, &b, 8192, 0), EIDRM) ? 0 : 1);
	usleep(100000);
	msgctl(id, IPC_RMID, NULL);
	say("IPC_RMID wakes a receiver and a sender with EIDRM", child_status(r) == 0 && child_status(c) == 0);
}

static void test_ctl(void)
{
	int id = msgget(IPC_PRIVATE, 0600);
	struct msqid_ds ds = st(id);
	ds.msg_qbytes = 100;
	ds.msg_perm.mode = 0640;
	say("IPC_SET: qbytes and mode", !msgctl(id, IPC_SET, &ds) && st(id).msg_qbytes == 100 &&
					      (st(id).msg_perm.mode & 0777) == 0640);
	say("qbytes 100: a 101-byte message never fits (EAGAIN)",
	    err(msgsnd(id, &(struct mbuf){ .mtype = 1 }, 101, IPC_NOWAIT), EAGAIN));
	struct msginfo mi;
	int max = msgctl(id, IPC_INFO, (struct msqid_ds *)&mi);
	say("IPC_INFO: Linux's limits", max >= 0 && mi.msgmax == 8192 && mi.msgmnb == 16384 &&
					    mi.msgmni == 32000 && mi.msgssz == 16 && mi.msgseg == 0xffff &&
					    mi.msgpool == 512000 && mi.msgmap == 16384 && mi.msgtql == 16384);
	snd(id, 1, "abc", 0);
	int max2 = msgctl(id, MSG_INFO, (struct msqid_ds *)&mi);
	say("MSG_INFO: queues, messages and bytes in use",
	    max2 == max && mi.msgpool >= 1 && mi.msgmap >= 1 && mi.msgtql >= 3);
	say("MSG_STAT and MSG_STAT_ANY by index: the id",
	    msgctl(id & 0x7fff, MSG_STAT, &ds) == id && msgctl(id & 0x7fff, MSG_STAT_ANY, &ds) == id &&
		    ds.msg_qnum == 1);
	say("unknown command: EINVAL", err(msgctl(id, 99, &ds), EINVAL));
	pid_t c = fork();
	if (c == 0) {
		if (setgid(1000) || setuid(1000))
			_exit(2);
		int ok = err(snd(id, 1, "x", 0), EACCES) && rcv(id, 100, 0, 0) == -EACCES &&
			 err(msgctl(id, IPC_STAT, &ds), EACCES) && err(msgctl(id, IPC_RMID, NULL), EPERM) &&
			 msgctl(id & 0x7fff, MSG_STAT_ANY, &ds) == id;
		_exit(ok ? 0 : 1);
	}
	say("another user: EACCES, EPERM for IPC_RMID, MSG_STAT_ANY is fine", child_status(c) == 0);
	msgctl(id, IPC_RMID, NULL);
}

static void print_file(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");
	if (f && fgets(line, sizeof(line), f))
		printf("%s: %s", path, line);
	if (f)
		fclose(f);
}

static void test_proc(void)
{
	int id = msgget(0x5e3b0002, IPC_CREAT | 0640);
	snd(id, 1, "hello", 0);
	FILE *f = fopen("/proc/sysvipc/msg", "r");
	char line[256];
	int found = 0;
	if (f && fgets(line, sizeof(line), f))
		printf("/proc/sysvipc/msg: %s", line);
	while (f && fgets(line, sizeof(line), f)) {
		int key, msqid, cbytes, qnum, lspid;
		unsigned perms;
		if (sscanf(line, "%d %d %o %d %d %d", &key, &msqid, &perms, &cbytes, &qnum, &lspid) == 6 &&
		    msqid == id)
			found = key == 0x5e3b0002 && perms == 0640 && cbytes == 5 && qnum == 1 && lspid == getpid();
	}
	if (f)
		fclose(f);
	say("/proc/sysvipc/msg lists the queue", found);
	msgctl(id, IPC_RMID, NULL);
	print_file("/proc/sys/kernel/msgmax");
	print_file("/proc/sys/kernel/msgmnb");
	print_file("/proc/sys/kernel/msgmni");
	f = fopen("/proc/sys/kernel/msgmax", "w");
	int w = f && fprintf(f, "100\n") > 0 && !fclose(f);
	static struct mbuf b = { .mtype = 1 };
	id = msgget(IPC_PRIVATE, 0600);
	say("msgmax 100: a 101-byte message is EINVAL", w && err(msgsnd(id, &b, 101, 0), EINVAL));
	msgctl(id, IPC_RMID, NULL);
	f = fopen("/proc/sys/kernel/msgmax", "w");
	int bad = f && fprintf(f, "-1\n") > 0 && fclose(f) != 0;
	say("msgmax -1: EINVAL", bad && errno == EINVAL);
	f = fopen("/proc/sys/kernel/msgmax", "w");
	if (f) {
		fprintf(f, "8192\n");
		fclose(f);
	}
}

int main(void)
{
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL); /* if it is not yet */
	test_get();
	test_types();
	test_sleep();
	test_ctl();
	test_proc();
	return 0;
}
