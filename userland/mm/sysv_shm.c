/*
 * sysv_shm - System V shared memory (ipc/shm.c): shmget by key and
 * private, shmat's address rules, the attach count through fork, exit,
 * munmap and shmdt, shmctl's IPC_STAT, IPC_SET, IPC_RMID (a removed
 * segment lives until its last detach), SHM_STAT, IPC_INFO, and stale ids.
 * Prints "what: ok" lines that hold on Linux and here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#define SHM_DEST 01000
#define SHM_LOCKED 02000

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "FAILED");
	fflush(stdout);
}

static int err(long r, int e) { return r == -1 && errno == e; }
static int bad(void *p, int e) { return p == (void *)-1 && errno == e; }

static struct shmid_ds st(int id)
{
	struct shmid_ds ds;
	memset(&ds, 0xff, sizeof(ds));
	if (shmctl(id, IPC_STAT, &ds))
		ds.shm_nattch = 999;
	return ds;
}

static void test_attach(void)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	struct shmid_ds ds = st(id);
	say("shmget(IPC_PRIVATE): a segment of 4096 bytes, none attached, mode 600",
	    id >= 0 && ds.shm_segsz == 4096 && ds.shm_nattch == 0 && ds.shm_perm.mode == 0600 &&
		    ds.shm_cpid == getpid() && ds.shm_lpid == 0 && ds.shm_atime == 0);
	char *p = shmat(id, NULL, 0), *q = shmat(id, NULL, SHM_RDONLY);
	strcpy(p, "hello");
	ds = st(id);
	say("two shmat: the same memory, 2 attached, shm_lpid and shm_atime set",
	    p != (void *)-1 && q != (void *)-1 && !strcmp(q, "hello") && ds.shm_nattch == 2 &&
		    ds.shm_lpid == getpid() && ds.shm_atime != 0 && ds.shm_dtime == 0);
	pid_t c = fork();
	if (c == 0) {
		strcpy(p, "child");
		_exit(st(id).shm_nattch == 4 ? 0 : 1);
	}
	int status;
	waitpid(c, &status, 0);
	ds = st(id);
	say("a child has them too (4); its exit detaches them, with shm_dtime",
	    status == 0 && !strcmp(p, "child") && ds.shm_nattch == 2 && ds.shm_lpid == c && ds.shm_dtime != 0);
	say("shmdt: 0, then EINVAL", shmdt(q) == 0 && err(shmdt(q), EINVAL) && st(id).shm_nattch == 1);
	say("shmdt of an unaligned address: EINVAL", err(shmdt(p + 1), EINVAL));
	say("shmdt of memory that is not a segment: EINVAL", err(shmdt((void *)test_attach), EINVAL));
	say("shmctl(IPC_RMID) of an attached segment: 0, SHM_DEST, key private",
	    shmctl(id, IPC_RMID, NULL) == 0 && st(id).shm_perm.mode == (SHM_DEST | 0600) &&
		    st(id).shm_perm.__key == 0);
	say("shmat of it still works: 2 attached", (q = shmat(id, NULL, 0)) != (void *)-1 && st(id).shm_nattch == 2);
	shmdt(q);
	shmdt(p);
	say("the last shmdt frees it: IPC_STAT says EINVAL", err(shmctl(id, IPC_STAT, &ds), EINVAL));
}

static void test_keys(void)
{
	key_t key = 0x5eed0000 + getpid() % 4096;
	say("shmget of a key of size 0 with IPC_CREAT: EINVAL", err(shmget(key, 0, IPC_CREAT | 0600), EINVAL));
	say("shmget of an absent key: ENOENT", err(shmget(key, 100, 0600), ENOENT));
	int k = shmget(key, 10000, IPC_CREAT | 0600);
	say("shmget(key, IPC_CREAT) twice: the same id", k >= 0 && shmget(key, 100, IPC_CREAT | 0600) == k);
	say("... with IPC_EXCL: EEXIST", err(shmget(key, 100, IPC_CREAT | IPC_EXCL | 0600), EEXIST));
	say("... asking for more than its size: EINVAL", err(shmget(key, 20000, 0600), EINVAL));
	say("shmget of a size too large: EINVAL", err(shmget(IPC_PRIVATE, -1UL, 0600), EINVAL));
	char *at = (char *)0x200000000000UL;
	say("shmat at an address off SHMLBA: EINVAL", bad(shmat(k, at + 1, 0), EINVAL));
	char *r = shmat(k, at + 1, SHM_RND);
	say("... with SHM_RND: rounded down", r == at);
	say("shmat over a mapping: EINVAL", bad(shmat(k, r, 0), EINVAL));
	say("... with SHM_REMAP: replaces it", shmat(k, r, SHM_REMAP) == r && st(k).shm_nattch == 1);
	say("SHM_REMAP without an address: EINVAL", bad(shmat(k, NULL, SHM_REMAP), EINVAL));
	say("munmap of a page inside: 2 pieces attached", munmap(r + 4096, 4096) == 0 && st(k).shm_nattch == 2);
	say("shmdt detaches both pieces", shmdt(r) == 0 && st(k).shm_nattch == 0);
	say("shmat of a bad id: EINVAL", bad(shmat(123456, NULL, 0), EINVAL) && bad(shmat(-1, NULL, 0), EINVAL));
	struct shmid_ds ds;
	say("IPC_RMID of an unattached segment frees it",
	    shmctl(k, IPC_RMID, NULL) == 0 && err(shmctl(k, IPC_STAT, &ds), EINVAL) &&
		    err(shmget(key, 100, 0600), ENOENT));
}

static void test_ctl(void)
{
	int id = shmget(IPC_PRIVATE, 1, 0600);
	struct shmid_ds ds = st(id);
	ds.shm_perm.mode = 0640;
	say("IPC_SET changes the permission bits", shmctl(id, IPC_SET, &ds) == 0 && st(id).shm_perm.mode == 0640);
	ds.shm_perm.uid = -1;
	say("IPC_SET of uid -1: EINVAL", err(shmctl(id, IPC_SET, &ds), EINVAL));
	say("IPC_SET from a bad pointer: EFAULT", err(shmctl(id, IPC_SET, NULL), EFAULT));
	say("SHM_LOCK marks it, SHM_UNLOCK clears it",
	    shmctl(id, SHM_LOCK, NULL) == 0 && st(id).shm_perm.mode == (SHM_LOCKED | 0640) &&
		    shmctl(id, SHM_UNLOCK, NULL) == 0 && st(id).shm_perm.mode == 0640);
	say("an unknown command: EINVAL", err(shmctl(id, 99, NULL), EINVAL) && err(shmctl(id, -1, NULL), EINVAL));
	struct shminfo info;
	say("IPC_INFO: SHMMNI 4096, SHMMIN 1",
	    shmctl(0, IPC_INFO, (void *)&info) >= 0 && info.shmmni == 4096 && info.shmmin == 1 &&
		    info.shmseg == 4096);
	say("SHM_STAT of its index gives its id", shmctl(id & 0x7fff, SHM_STAT, &ds) == id);
	int id2 = shmget(IPC_PRIVATE, 1, 0600);
	say("the next id is the next index", id2 == id + 1);
	shmctl(id, IPC_RMID, NULL);
	shmctl(id2, IPC_RMID, NULL);
	say("a removed id is stale: EINVAL", err(shmctl(id, IPC_STAT, &ds), EINVAL));
}

/* /proc/sysvipc/shm: Linux's header, and a line for the segment. */
static void test_proc(void)
{
	int id = shmget(0x5e3c0001, 5000, IPC_CREAT | 0640);
	char *p = shmat(id, NULL, 0), line[512];
	FILE *f = fopen("/proc/sysvipc/shm", "r");
	int found = 0;
	if (f && fgets(line, sizeof(line), f))
		printf("/proc/sysvipc/shm: %s", line);
	while (f && fgets(line, sizeof(line), f)) {
		int key, shmid, cpid, lpid, nattch;
		unsigned perms;
		unsigned long size;
		if (sscanf(line, "%d %d %o %lu %d %d %d", &key, &shmid, &perms, &size, &cpid, &lpid,
			   &nattch) == 7 && shmid == id)
			found = key == 0x5e3c0001 && perms == 0640 && size == 5000 && cpid == getpid() &&
				lpid == getpid() && nattch == 1;
	}
	if (f)
		fclose(f);
	say("/proc/sysvipc/shm lists the segment", found);
	shmdt(p);
	shmctl(id, IPC_RMID, NULL);
}

int main(void)
{
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL); /* if it is not yet */
	test_attach();
	test_keys();
	test_ctl();
	test_proc();
	return 0;
}
