/*
 * syscalls.h - the system call table: Linux x86-64 numbers, names and the
 * kernel functions behind them.
 *
 * SYSCALL_LIST(X) expands X(number, name) once for each call we implement;
 * kernel/syscall.c uses it to build the dispatch table and the names that
 * the "strace" switch prints. A number not in the list gives -ENOSYS.
 *
 * Arguments arrive as in Linux: rdi, rsi, rdx, r10, r8, r9.
 */
#pragma once
#include <kernel.h>

#define SYSCALL_LIST(X)                                                        \
	/* fs/read_write.c */                                                  \
	X(0, read) X(1, write) X(8, lseek) X(17, pread64) X(18, pwrite64)      \
	X(19, readv) X(20, writev) X(295, preadv) X(296, pwritev)              \
	/* fs/open.c */                                                        \
	X(2, open) X(3, close) X(436, close_range) X(85, creat) X(257, openat) \
	X(21, access) X(285, fallocate)                                        \
	X(269, faccessat) X(439, faccessat2) X(80, chdir) X(81, fchdir)        \
	X(76, truncate) X(77, ftruncate) X(90, chmod) X(91, fchmod)            \
	X(268, fchmodat) X(95, umask) X(92, chown) X(93, fchown)               \
	X(94, lchown) X(260, fchownat)                                         \
	/* fs/stat.c */                                                        \
	X(4, stat) X(5, fstat) X(6, lstat) X(262, newfstatat) X(89, readlink)  \
	X(267, readlinkat) X(332, statx)                                       \
	/* fs/namei.c */                                                       \
	X(83, mkdir) X(258, mkdirat) X(84, rmdir) X(87, unlink)                \
	X(263, unlinkat) X(82, rename) X(264, renameat) X(316, renameat2)      \
	X(88, symlink) X(266, symlinkat) X(79, getcwd) X(86, link)             \
	X(265, linkat) X(133, mknod) X(259, mknodat)                           \
	/* fs/readdir.c */                                                     \
	X(217, getdents64)                                                     \
	/* fs/fcntl.c, fs/ioctl.c */                                           \
	X(32, dup) X(33, dup2) X(292, dup3) X(72, fcntl) X(16, ioctl)          \
	/* fs/pipe.c, fs/select.c */                                           \
	X(22, pipe) X(293, pipe2) X(7, poll) X(271, ppoll) X(23, select)       \
	X(270, pselect6)                                                       \
	/* fs/eventpoll.c */                                                   \
	X(213, epoll_create) X(291, epoll_create1) X(233, epoll_ctl)           \
	X(232, epoll_wait) X(281, epoll_pwait) X(441, epoll_pwait2)            \
	/* fs/eventfd.c, fs/signalfd.c */                                      \
	X(284, eventfd) X(290, eventfd2) X(282, signalfd) X(289, signalfd4)    \
	/* fs/timerfd.c */                                                     \
	X(283, timerfd_create) X(286, timerfd_settime) X(287, timerfd_gettime) \
	/* fs/xattr.c */                                                       \
	X(188, setxattr) X(189, lsetxattr) X(190, fsetxattr) X(191, getxattr)  \
	X(192, lgetxattr) X(193, fgetxattr) X(194, listxattr)                  \
	X(195, llistxattr) X(196, flistxattr) X(197, removexattr)              \
	X(198, lremovexattr) X(199, fremovexattr)                              \
	/* fs/namespace.c, fs/fsopen.c, fs/statfs.c, fs/utimes.c, read_write.c */\
	X(165, mount) X(166, umount2) X(161, chroot) X(137, statfs)            \
	X(430, fsopen) X(431, fsconfig) X(432, fsmount) X(429, move_mount)     \
	X(433, fspick) X(428, open_tree)                                       \
	X(138, fstatfs) X(162, sync) X(306, syncfs) X(74, fsync)               \
	X(75, fdatasync) X(280, utimensat) X(235, utimes) X(261, futimesat)    \
	X(132, utime) X(40, sendfile) X(78, getdents)                          \
	/* mm/mincore.c, mm/mlock.c */                                         \
	X(27, mincore) X(149, mlock) X(325, mlock2) X(150, munlock)            \
	X(151, mlockall) X(152, munlockall)                                    \
	/* mm/mmap.c */                                                        \
	X(12, brk) X(9, mmap) X(11, munmap) X(10, mprotect) X(25, mremap)      \
	X(28, madvise) X(26, msync)                                            \
	/* mm/memfd.c */                                                       \
	X(319, memfd_create)                                                   \
	/* ipc/shm.c, ipc/sem.c, ipc/semop.c, ipc/msg.c */                     \
	X(29, shmget) X(30, shmat) X(31, shmctl) X(67, shmdt)                  \
	X(64, semget) X(65, semop) X(66, semctl) X(220, semtimedop)            \
	X(68, msgget) X(69, msgsnd) X(70, msgrcv) X(71, msgctl)                \
	/* fs/exec.c */                                                        \
	X(59, execve) X(322, execveat)                                         \
	/* kernel/fork.c, kernel/exit.c */                                     \
	X(57, fork) X(58, vfork) X(56, clone) X(60, exit) X(231, exit_group)   \
	X(61, wait4) X(247, waitid) X(435, clone3)                             \
	/* kernel/pidfd.c */                                                     \
	X(434, pidfd_open) X(438, pidfd_getfd)                                 \
	/* kernel/nsproxy.c */                                                 \
	X(272, unshare) X(308, setns)                                          \
	/* kernel/futex.c */                                                   \
	X(202, futex) X(449, futex_waitv)                                      \
	/* kernel/signal.c, arch/x86/kernel/signal_frame.c */                           \
	X(13, rt_sigaction) X(14, rt_sigprocmask) X(15, rt_sigreturn)          \
	X(127, rt_sigpending) X(130, rt_sigsuspend) X(131, sigaltstack)        \
	X(62, kill) X(200, tkill) X(234, tgkill) X(34, pause)                  \
	X(219, restart_syscall) X(128, rt_sigtimedwait)                        \
	X(129, rt_sigqueueinfo) X(297, rt_tgsigqueueinfo)                      \
	X(424, pidfd_send_signal)                                              \
	/* kernel/cred.c */                                                    \
	X(102, getuid) X(107, geteuid) X(104, getgid) X(108, getegid)          \
	X(105, setuid) X(106, setgid) X(113, setreuid) X(114, setregid)        \
	X(117, setresuid) X(118, getresuid) X(119, setresgid)                  \
	X(120, getresgid) X(115, getgroups) X(116, setgroups)                  \
	X(122, setfsuid) X(123, setfsgid)                                      \
	/* kernel/capability.c */                                              \
	X(125, capget) X(126, capset)                                          \
	/* kernel/utsname.c */                                                 \
	X(63, uname) X(170, sethostname) X(171, setdomainname)                 \
	/* kernel/sys.c */                                                     \
	X(39, getpid) X(186, gettid) X(110, getppid) X(99, sysinfo)            \
	X(169, reboot) X(318, getrandom) X(158, arch_prctl)                    \
	X(218, set_tid_address) X(24, sched_yield) X(111, getpgrp)             \
	X(121, getpgid) X(109, setpgid) X(112, setsid) X(124, getsid)          \
	X(97, getrlimit) X(160, setrlimit) X(302, prlimit64) X(100, times)     \
	X(98, getrusage) X(157, prctl) X(273, set_robust_list) X(309, getcpu)  \
	X(274, get_robust_list)                                                \
	/* LAB 01: BEGIN */                                                     \
	X(204, sched_getaffinity)                                              \
	/* LAB 01: END */                                                       \
	/* kernel/sched/core.c */                                               \
	X(203, sched_setaffinity)                                              \
	X(142, sched_setparam) X(143, sched_getparam)                          \
	X(144, sched_setscheduler) X(145, sched_getscheduler)                  \
	X(146, sched_get_priority_max) X(147, sched_get_priority_min)          \
	/* kernel/sched/membarrier.c, kernel/rseq.c */                          \
	X(324, membarrier) X(334, rseq)                                        \
	/* kernel/kcmp.c */                                                    \
	X(312, kcmp)                                                           \
	/* kernel/exec_domain.c */                                             \
	X(135, personality)                                                    \
	/* arch/x86/kernel/ioport.c */                                         \
	X(172, iopl) X(173, ioperm)                                            \
	/* arch/x86/kernel/ldt.c */                                            \
	X(154, modify_ldt)                                                     \
	/* kernel/time/sys_time.c */                                            \
	X(228, clock_gettime) X(35, nanosleep) X(230, clock_nanosleep)         \
	X(229, clock_getres) X(96, gettimeofday) X(227, clock_settime)         \
	X(164, settimeofday)                                                   \
	X(201, time)                                                           \
	/* kernel/time/itimer.c */                                              \
	X(37, alarm) X(36, getitimer) X(38, setitimer)                         \
	/* kernel/time/posix-timers.c */                                       \
	X(222, timer_create) X(223, timer_settime) X(224, timer_gettime)       \
	X(225, timer_getoverrun) X(226, timer_delete)                          \
	/* ipc/mqueue_msg.c */                                                 \
	X(240, mq_open) X(241, mq_unlink) X(242, mq_timedsend)                 \
	X(243, mq_timedreceive) X(244, mq_notify) X(245, mq_getsetattr)        \
	/* kernel/module/main.c */                                             \
	X(175, init_module) X(313, finit_module) X(176, delete_module)        \
	/* net/socket.c, net/socket_call.c, net/socket_msg.c */                \
	X(41, socket) X(53, socketpair) X(49, bind) X(50, listen)              \
	X(42, connect) X(43, accept) X(288, accept4) X(51, getsockname)        \
	X(52, getpeername) X(44, sendto) X(45, recvfrom) X(46, sendmsg)        \
	X(47, recvmsg) X(307, sendmmsg) X(299, recvmmsg) X(48, shutdown)       \
	X(54, setsockopt) X(55, getsockopt)                                    \
	/* kernel/log_buf.c */                                                 \
	X(103, syslog)

typedef long (*syscall_fn)(long, long, long, long, long, long);

#define DECLARE_SYSCALL(nr, name) long sys_##name();
SYSCALL_LIST(DECLARE_SYSCALL)
#undef DECLARE_SYSCALL
