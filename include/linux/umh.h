/*
 * linux/umh.h - the usermode helper (kernel/umh.c): the kernel runs a user
 * program and, if asked, waits for it. request_module runs modprobe this
 * way (kernel/kmod.c).
 */
#pragma once
#include <kernel.h>

struct task;

/* How long call_usermodehelper waits (Linux's UMH_* values). */
#define UMH_NO_WAIT 0x00   /* start it and return at once */
#define UMH_WAIT_EXEC 0x01 /* until its exec succeeded or failed */
#define UMH_WAIT_PROC 0x02 /* until it has exited */
#define UMH_KILLABLE 0x04  /* a fatal signal to the caller stops the wait */

/*
 * Run the program at path (an absolute name) with argv and envp, copied
 * first, as a new process: root, no open files, "/" as its working
 * directory, no parent process. Returns:
 *   -errno       the process could not be made (ENOMEM), or its exec
 *                failed (ENOENT, EACCES, ENOEXEC...), or (UMH_KILLABLE) the
 *                caller got a fatal signal while waiting (ERESTARTSYS);
 *   0 or more    with UMH_WAIT_PROC, its wait status (exit code << 8, or
 *                the signal that killed it), as Linux's kernel_wait gives
 *                it; 0 otherwise.
 */
int call_usermodehelper(const char *path, char *const argv[], char *const envp[], int wait);

/* do_exit of a process with no parent: a helper has ended. */
void umh_task_exited(struct task *t);
