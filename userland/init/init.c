/*
 * init - the first user program (pid 1). Not a shell: it runs programs one
 * after another and powers the machine off.
 *
 *   /init CMD ARGS... ; CMD ARGS... ; ...
 *	Runs each command (CMD is a path, no $PATH search) with init's own
 *	environment, waits for it, then powers off. The commands run in
 *	TESTS_DIR, /usr/lib/exec-tests, where the test programs and scripts
 *	are (so ./wrapper names one). The kernel gives init the words after
 *	"--" on its command line, so a test boots with
 *	"console=ttyS0 quiet -- /usr/lib/exec-tests/hello ; /usr/lib/exec-tests/show_info a b".
 *   /init
 *	(no arguments: make run) Sets up a session on the console, as a
 *	distribution's init does before it starts a login shell: setsid(),
 *	the console as controlling terminal (TIOCSCTTY), /proc mounted, the
 *	modules of /etc/modules loaded, binfmt_misc mounted on
 *	/proc/sys/fs/binfmt_misc, PATH set, and root's home /root (where the
 *	article's do_execve, show_info and show_info.sh are) as HOME and
 *	working directory. Then prints a banner and runs
 *	"/bin/sh -i" (Debian's busybox), and powers off when that shell
 *	exits. Each of these steps may fail
 *	on a kernel that lacks the call; init says so in one line and goes
 *	on. Without /bin/sh, init reads commands from the console itself,
 *	one a line, until "poweroff" or end of input. busybox's poweroff,
 *	halt and reboot ask pid 1 with SIGUSR2, SIGUSR1 and SIGTERM: init
 *	obeys.
 *
 * A command that fails is reported in plain numbers, so that the output is
 * the same with any C library:
 *   init: '/usr/lib/exec-tests/segv' killed by signal 11
 *   init: '/usr/lib/exec-tests/do_execve' exited with status 1
 *   init: cannot run '/nonexistent': No such file or directory
 * After "cannot run" the child exits with status 127; init does not report
 * status 127 again (a program that itself exits 127 is therefore silent).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define MAX_WORDS 64

extern char **environ;

/* printf to the console at once: output must never wait in a buffer that
 * fork would copy. */
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* The reboot(2) command asked for by a signal (see on_signal), or 0. */
static volatile sig_atomic_t shutdown_cmd;

static void on_signal(int sig)
{
	shutdown_cmd = sig == SIGTERM ? RB_AUTOBOOT : RB_POWER_OFF;
}

/* Obey busybox's halt (SIGUSR1), poweroff (SIGUSR2) and reboot (SIGTERM).
 * No SA_RESTART: the signal interrupts init's wait4. */
static void catch_shutdown_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Run one command (a NULL-terminated word list) and report how it ended. */
static void run(char **cmd)
{
	int status;
	pid_t pid, got;

	pid = fork();
	if (pid < 0) {
		say("init: fork: %s\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		execve(cmd[0], cmd, environ);
		say("init: cannot run '%s': %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	/* As pid 1 we also inherit orphans: reap them until ours is done. */
	do {
		got = wait4(-1, &status, 0, NULL);
	} while (got != pid && !(got < 0 && errno != EINTR) && !shutdown_cmd);
	if (shutdown_cmd)
		return;
	if (got < 0)
		say("init: wait4: %s\n", strerror(errno));
	else if (WIFSIGNALED(status))
		say("init: '%s' killed by signal %d\n", cmd[0], WTERMSIG(status));
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
		 WEXITSTATUS(status) != 127)
		say("init: '%s' exited with status %d\n", cmd[0], WEXITSTATUS(status));
}

#define TESTS_DIR "/usr/lib/exec-tests"

/* Run every command of argv (words separated by ";"), in order. */
static void run_list(char **argv)
{
	char **cmd = argv;

	if (chdir(TESTS_DIR) < 0)
		say("init: cd %s: %s\n", TESTS_DIR, strerror(errno));
	for (char **w = argv;; w++) {
		int end = *w == NULL;

		if (end || strcmp(*w, ";") == 0) {
			*w = NULL;
			if (*cmd)
				run(cmd);
			if (end || shutdown_cmd)
				return;
			cmd = w + 1;
		}
	}
}

/* Read commands from the console until "poweroff" or end of input. */
static void interactive(void)
{
	char line[1024], *words[MAX_WORDS + 1];

	say("init: no command on the kernel command line; type a program's path "
	    "and its arguments, or poweroff\n");
	for (;;) {
		int n = 0;

		say("init> ");
		if (!fgets(line, sizeof(line), stdin)) {
			say("\n");
			return;
		}
		for (char *w = strtok(line, " \t\r\n"); w && n < MAX_WORDS;
		     w = strtok(NULL, " \t\r\n"))
			words[n++] = w;
		words[n] = NULL;
		if (n == 0)
			continue;
		if (strcmp(words[0], "poweroff") == 0)
			return;
		run(words);
		if (shutdown_cmd)
			return;
	}
}

/*
 * The modules named in /etc/modules, one a line ('#' starts a comment),
 * loaded with modprobe as Debian does at boot (systemd-modules-load reads
 * that file). A module that is built in is no error: modprobe knows it
 * from modules.builtin. Without modprobe (no busybox), nothing is done.
 */
static void load_modules(void)
{
	char line[256], *cmd[MAX_WORDS + 1] = { "/sbin/modprobe", "-a", "-q" };
	int n = 3;
	FILE *f = fopen("/etc/modules", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n < MAX_WORDS) {
		char *hash = strchr(line, '#'), *name;

		if (hash)
			*hash = '\0';
		name = strtok(line, " \t\r\n");
		if (name)
			cmd[n++] = strdup(name);
	}
	fclose(f);
	cmd[n] = NULL;
	if (n > 3 && access(cmd[0], X_OK) == 0)
		run(cmd);
}

/*
 * binfmt_misc on /proc/sys/fs/binfmt_misc, with the options Debian's mount
 * unit (and binfmt-support) use. Debian's Linux has binfmt_misc as a
 * module, which the mount loads (the kernel asks modprobe for
 * "fs-binfmt_misc"); without modprobe, init loads binfmt_misc.ko itself
 * (scripts/modules-install.sh puts Linux's in the initramfs). A kernel
 * without binfmt_misc at all (ENODEV) is not worth a line.
 */
static void mount_binfmt_misc(void)
{
	static const char dir[] = "/proc/sys/fs/binfmt_misc";
	unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
	struct dirent *de;
	DIR *d;

	if (mount("binfmt_misc", dir, "binfmt_misc", flags, NULL) == 0)
		return;
	if (errno == ENODEV && (d = opendir("/lib/modules"))) {
		while ((de = readdir(d))) {
			char ko[512];
			int fd;

			snprintf(ko, sizeof(ko), "/lib/modules/%s/kernel/fs/binfmt_misc.ko", de->d_name);
			fd = open(ko, O_RDONLY | O_CLOEXEC);
			if (fd >= 0) {
				syscall(SYS_finit_module, fd, "", 0);
				close(fd);
			}
		}
		closedir(d);
		if (mount("binfmt_misc", dir, "binfmt_misc", flags, NULL) == 0)
			return;
	}
	if (errno != ENODEV)
		say("init: mount -t binfmt_misc binfmt_misc %s: %s\n", dir, strerror(errno));
}

/* make run passes the host terminal's size as LINES=R COLUMNS=C on the
 * command line (Linux hands such words to init as its environment). A
 * serial console has no size of its own, so init gives it that one
 * (TIOCSWINSZ), and drops the two variables: programs then ask the
 * terminal, as on any console, and vi and long lines use all of it. */
static void set_console_size(void)
{
	const char *lines = getenv("LINES"), *columns = getenv("COLUMNS");
	struct winsize ws = { 0 };

	if (!lines || !columns)
		return;
	ws.ws_row = (unsigned short)atoi(lines);
	ws.ws_col = (unsigned short)atoi(columns);
	if (ws.ws_row && ws.ws_col && ioctl(STDIN_FILENO, TIOCSWINSZ, &ws) < 0)
		say("init: the console's size (TIOCSWINSZ): %s\n", strerror(errno));
	unsetenv("LINES");
	unsetenv("COLUMNS");
}

/* make run: a session on the console with a shell in it: busybox's
 * /bin/sh, or the one SHELL names (make run ROOTFS=debian: Debian's bash). */
static void session(void)
{
	char *shell[] = { getenv("SHELL") ? getenv("SHELL") : "/bin/sh", "-i", NULL };

	/* Our own session, with the console as its controlling terminal:
	 * then the shell can do job control and ^C reaches its jobs. (On
	 * Linux pid 1 starts in session 0; a kernel that makes it a session
	 * leader already refuses setsid with EPERM, which is as good.) */
	if (setsid() < 0 && getsid(0) != getpid())
		say("init: setsid: %s\n", strerror(errno));
	if (ioctl(STDIN_FILENO, TIOCSCTTY, 0) < 0)
		say("init: the console as controlling terminal (TIOCSCTTY): %s\n",
		    strerror(errno));
	if (mount("proc", "/proc", "proc", 0, NULL) < 0)
		say("init: mount -t proc proc /proc: %s\n", strerror(errno));
	load_modules();
	mount_binfmt_misc();
	set_console_size();
	setenv("PATH", "/sbin:/usr/sbin:/bin:/usr/bin", 0);
	if (chdir("/root") == 0)
		setenv("HOME", "/root", 1);

	if (access(shell[0], X_OK) < 0) {
		interactive();
		return;
	}
	say("\nexecve teaching kernel: %s on the console. Try ls -l /,\n"
	    "cat /proc/meminfo or ./do_execve ./show_info.sh; exit powers off.\n",
	    strcmp(shell[0], "/bin/sh") ? shell[0] : "busybox sh");
	run(shell);
}

int main(int argc, char *argv[])
{
	catch_shutdown_signals();
	if (argc > 1)
		run_list(argv + 1);
	else
		session();

	/* Let the console send everything before the machine stops. */
	tcdrain(STDOUT_FILENO);
	reboot(shutdown_cmd ? shutdown_cmd : RB_POWER_OFF);
	say("init: reboot: %s\n", strerror(errno));
	return 1;
}
