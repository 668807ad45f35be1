/*
 * anon_inodes.h - files with no name of their own (fs/anon_inodes.c): a
 * pidfd, an epoll instance. They all share one inode of the internal
 * filesystem anon_inodefs, as in Linux; what each one is comes from its
 * file operations and private data.
 */
#pragma once
#include <kernel.h>

struct file;
struct file_operations;

/*
 * A new file with operations fops and private_data priv. name says what
 * it is, in brackets ("[pidfd]"): /proc/PID/fd/N reads "anon_inode:[pidfd]".
 * flags: the access mode (O_RDONLY, O_WRONLY, O_RDWR) and O_NONBLOCK are
 * kept as the file's status flags. The file or ERR_PTR(-ENOMEM).
 */
struct file *anon_inode_getfile(const char *name, const struct file_operations *fops,
				void *priv, int flags);
/* The same, installed at current's lowest free descriptor (close-on-exec
 * if flags has O_CLOEXEC): the descriptor, or -EMFILE, -ENOMEM. On error
 * nothing is left: the caller releases priv itself. */
int anon_inode_getfd(const char *name, const struct file_operations *fops, void *priv, int flags);
