/*
 * kmsg - the kernel log from user space: syslog(2), which busybox's dmesg
 * uses, and /dev/kmsg, one record per read. Prints what is the same on any
 * kernel: the formats with the numbers blanked, the errors, the text of
 * the lines this program writes. Creates /dev/kmsg (1:11) if missing, as
 * an initramfs without devtmpfs must.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

static void result(const char *what, long ret)
{
	if (ret < 0)
		printf("%s: %s\n", what, strerror(errno));
	else
		printf("%s: ok\n", what);
}

/* A /dev/kmsg record with its numbers blanked: "13,N,N,-;text". */
static void show_record(const char *what, const char *rec, long n)
{
	char out[4200];
	int commas = 0;
	size_t o = 0;

	if (n < 0) {
		printf("%s: %s\n", what, strerror(errno));
		return;
	}
	for (long i = 0; i < n && o < sizeof(out) - 2; i++) {
		char c = rec[i];
		if (commas >= 1 && commas <= 2 && c >= '0' && c <= '9') {
			if (o && out[o - 1] == 'N')
				continue;
			c = 'N';
		}
		if (rec[i] == ',')
			commas++;
		if (rec[i] == ';')
			commas = 99;
		out[o++] = c;
	}
	out[o] = '\0';
	printf("%s: %s", what, out); /* the record ends with its newline */
}

/* Does syslog's buffer hold a line with this text? Print it, time blanked. */
static void find_in_syslog(const char *text)
{
	static char buf[1 << 20];
	int n = klogctl(3, buf, sizeof(buf) - 1);

	if (n < 0) {
		printf("syslog read all: %s\n", strerror(errno));
		return;
	}
	buf[n] = '\0';
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *t = strchr(line, ']');
		if (strstr(line, text) && t)
			printf("syslog has: %.*s[T]%s\n", (int)(strchr(line, '[') - line), line, t + 1);
		line = nl ? nl + 1 : NULL;
	}
}

static void as_user(void)
{
	char buf[64];

	if (setgid(1000) || setuid(1000)) {
		perror("setuid");
		exit(1);
	}
	result("user: syslog size", klogctl(10, NULL, 0));
	result("user: syslog read all", klogctl(3, buf, sizeof(buf)));
	result("user: syslog bad action", klogctl(99, NULL, 0));
	result("user: open /dev/kmsg to read", open("/dev/kmsg", O_RDONLY));
	result("user: open /dev/kmsg to write", open("/dev/kmsg", O_WRONLY));
	exit(0);
}

int main(void)
{
	char rec[8192];
	int status;

	if (access("/dev/kmsg", F_OK) && mknod("/dev/kmsg", S_IFCHR | 0644, makedev(1, 11)))
		perror("mknod /dev/kmsg");

	int rd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	int wr = open("/dev/kmsg", O_WRONLY);
	result("open to read", rd);
	result("open to write", wr);
	result("seek to the end", lseek(rd, 0, SEEK_END));
	show_record("nothing new", rec, read(rd, rec, sizeof(rec)));

	result("write", write(wr, "<5>kmsg test: hello\n", 20));
	show_record("read", rec, read(rd, rec, sizeof(rec)));
	result("write without a prefix", write(wr, "kmsg test: no prefix\n", 21));
	show_record("read", rec, read(rd, rec, sizeof(rec)));
	result("write facility 3", write(wr, "<30>kmsg test: daemon info\n", 27));
	show_record("read", rec, read(rd, rec, sizeof(rec)));
	result("write facility 0", write(wr, "<2>kmsg test: not the kernel\n", 29));
	show_record("read", rec, read(rd, rec, sizeof(rec)));
	result("write a bad prefix", write(wr, "<x>kmsg test: bad\n", 18));
	show_record("read", rec, read(rd, rec, sizeof(rec)));
	result("write controls", write(wr, "kmsg test: a\001b\\c\xe9\n", 18));
	show_record("read", rec, read(rd, rec, sizeof(rec)));

	result("write", write(wr, "kmsg test: too small a buffer\n", 30));
	show_record("read into 10 bytes", rec, read(rd, rec, 10));
	show_record("read again", rec, read(rd, rec, sizeof(rec)));

	memset(rec, 'x', 2000);
	result("write 2000 bytes", write(wr, rec, 2000));
	result("seek to 1", lseek(rd, 1, SEEK_SET));
	result("seek whence 7", lseek(rd, 0, 7));
	result("seek to the start", lseek(rd, 0, SEEK_SET));
	long n = read(rd, rec, sizeof(rec));
	char *semi = n > 0 ? memchr(rec, ';', n) : NULL;
	if (semi) {
		size_t k = 0;
		for (char *p = rec; p <= semi; p++)
			if (!(*p >= '0' && *p <= '9') || !k || rec[k - 1] != 'N')
				rec[k++] = (*p >= '0' && *p <= '9') ? 'N' : *p;
		rec[k] = '\0';
		printf("the first record starts: %s\n", rec);
	} else {
		printf("the first record: %s\n", n < 0 ? strerror(errno) : "no ';'");
	}

	/* Ten messages per five seconds per open file get through. */
	int wr2 = open("/dev/kmsg", O_WRONLY);
	lseek(rd, 0, SEEK_END);
	for (int i = 0; i < 14; i++) {
		char line[64];
		int n = snprintf(line, sizeof(line), "kmsg test: burst %d\n", i);
		if (write(wr2, line, n) != n)
			perror("write");
	}
	int got = 0;
	while (read(rd, rec, sizeof(rec)) > 0)
		got++;
	printf("burst of 14 lines: %d logged\n", got);
	close(wr2);

	/* syslog(2), as dmesg uses it. */
	printf("syslog size > 0: %s\n", klogctl(10, NULL, 0) > 0 ? "yes" : "no");
	find_in_syslog("kmsg test: hello");
	find_in_syslog("kmsg test: daemon");
	result("syslog read all into NULL", klogctl(3, NULL, 10));
	result("syslog read all, length -1", klogctl(3, rec, -1));
	printf("syslog read all, length 0: %d\n", klogctl(3, rec, 0));
	result("syslog read all into a bad pointer", klogctl(3, (char *)8, 10));
	result("syslog bad action", klogctl(11, NULL, 0));
	result("syslog console level 0", klogctl(8, NULL, 0));
	result("syslog console level 9", klogctl(8, NULL, 9));
	result("syslog console level 4", klogctl(8, NULL, 4));
	result("syslog open", klogctl(1, NULL, 0));
	result("syslog close", klogctl(0, NULL, 0));

	pid_t pid = fork();
	if (pid == 0)
		as_user();
	waitpid(pid, &status, 0);
	close(rd);
	close(wr);
	return 0;
}
