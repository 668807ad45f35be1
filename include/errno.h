/* errno.h - Linux's error numbers (asm-generic/errno-base.h and errno.h).
 * System calls return -ERRNO in rax. */
#pragma once

#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define EWOULDBLOCK EAGAIN
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define ENOTBLK 15
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ENOTTY 25
#define ETXTBSY 26
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define EMLINK 31
#define EPIPE 32
#define EDOM 33
#define ERANGE 34
#define EDEADLK 35
#define ENAMETOOLONG 36
#define ENOLCK 37
#define ENOSYS 38
#define ENOTEMPTY 39
#define ELOOP 40
#define ENOMSG 42
#define EIDRM 43
#define ENODATA 61
#define ETIME 62
#define EBADMSG 74
#define EOVERFLOW 75
#define ELIBBAD 80
#define EUSERS 87
#define ENOTSOCK 88
#define EDESTADDRREQ 89
#define EMSGSIZE 90
#define EPROTOTYPE 91
#define ENOPROTOOPT 92
#define EPROTONOSUPPORT 93
#define ESOCKTNOSUPPORT 94
#define EOPNOTSUPP 95
#define EAFNOSUPPORT 97
#define EADDRINUSE 98
#define EADDRNOTAVAIL 99
#define ECONNABORTED 103
#define ECONNRESET 104
#define ENOBUFS 105
#define EISCONN 106
#define ENOTCONN 107
#define ESHUTDOWN 108
#define ETOOMANYREFS 109
#define ECONNREFUSED 111
#define ETIMEDOUT 110
#define ECANCELED 125

/*
 * Kernel-internal: never seen by user space. A blocking call interrupted by
 * a signal returns one of these; the signal code turns it into EINTR or
 * restarts the call:
 *   ERESTARTSYS     restart if the handler has SA_RESTART (or no handler ran)
 *   ERESTARTNOINTR  always restart
 *   ERESTARTNOHAND  restart only if no handler ran (poll, select, pause)
 *   ERESTART_RESTARTBLOCK  if no handler ran, go on through restart_syscall
 *                   with what current->restart_block saved (a sleep's
 *                   remaining time); else EINTR
 */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516

/* Pointers that carry an errno, as Linux's ERR_PTR / IS_ERR. */
#define MAX_ERRNO 4095
#define ERR_PTR(err) ((void *)(long)(err))
#define PTR_ERR(ptr) ((long)(ptr))
#define IS_ERR(ptr) ((unsigned long)(ptr) >= (unsigned long)-MAX_ERRNO)
#define IS_ERR_OR_NULL(ptr) (!(ptr) || IS_ERR(ptr))
