/*
 * scm.c - control messages ("socket-level control messages"): what
 * sendmsg passes besides data, and what recvmsg hands back.
 *
 *   SCM_RIGHTS       open files: the sender's descriptors become files
 *                    in flight (references held by the message), and the
 *                    receiver gets new descriptors for them.
 *   SCM_CREDENTIALS  pid, uid and gid: the sender may claim only its own
 *                    (or any, with CAP_SYS_ADMIN / CAP_SETUID / CAP_SETGID);
 *                    a receiver with SO_PASSCRED gets them with each read.
 *
 * On receipt, what does not fit in the caller's control buffer is lost and
 * MSG_CTRUNC set: files that get no descriptor are closed, as in Linux.
 */
#include <cred.h>
#include <linux/pid_namespace.h>
#include <errno.h>
#include <fs.h>
#include <mm.h>
#include <net.h>
#include <sched.h>
#include <string.h>
#include <uaccess.h>

void scm_destroy(struct scm_cookie *scm)
{
	struct scm_fp_list *fpl = scm->fp;

	if (!fpl)
		return;
	scm->fp = NULL;
	for (int i = 0; i < fpl->count; i++)
		fput(fpl->fp[i]);
	kfree(fpl);
}

struct scm_fp_list *scm_fp_dup(struct scm_fp_list *fpl)
{
	struct scm_fp_list *copy = kmalloc(sizeof(*copy));

	if (!copy)
		return NULL;
	copy->count = fpl->count;
	for (int i = 0; i < fpl->count; i++)
		copy->fp[i] = get_file(fpl->fp[i]);
	return copy;
}

/* SCM_RIGHTS: take a reference on each descriptor's file. */
static int scm_fp_copy(const int *fds, int num, struct scm_cookie *scm)
{
	struct scm_fp_list *fpl = scm->fp;

	if (num <= 0)
		return 0;
	if (num > SCM_MAX_FD || (fpl && fpl->count + num > SCM_MAX_FD))
		return -EINVAL;
	if (!fpl) {
		fpl = scm->fp = kmalloc(sizeof(*fpl));
		if (!fpl)
			return -ENOMEM;
		fpl->count = 0;
	}
	for (int i = 0; i < num; i++) {
		struct file *file = fget(fds[i]);
		if (!file)
			return -EBADF;
		fpl->fp[fpl->count++] = file;
	}
	return 0;
}

/* SCM_CREDENTIALS: one may only tell the truth, unless privileged. */
static int scm_check_creds(const struct ucred *creds)
{
	const struct cred *cred = current_cred();

	if (creds->pid != task_tgid_vnr(current) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (creds->uid != cred->uid && creds->uid != cred->euid &&
	    creds->uid != cred->suid && !capable(CAP_SETUID))
		return -EPERM;
	if (creds->gid != cred->gid && creds->gid != cred->egid &&
	    creds->gid != cred->sgid && !capable(CAP_SETGID))
		return -EPERM;
	return 0;
}

static int scm_one(struct socket *sock, const struct cmsghdr *cmsg, struct scm_cookie *scm)
{
	const void *data = cmsg + 1;
	size_t dlen = cmsg->cmsg_len - sizeof(*cmsg);

	if (cmsg->cmsg_level != SOL_SOCKET)
		return 0;
	switch (cmsg->cmsg_type) {
	case SCM_RIGHTS:
		if (!sock->ops || sock->ops->family != AF_UNIX)
			return -EINVAL;
		return scm_fp_copy(data, dlen / sizeof(int), scm);
	case SCM_CREDENTIALS:
		if (cmsg->cmsg_len != CMSG_LEN(sizeof(struct ucred)))
			return -EINVAL;
		memcpy(&scm->creds, data, sizeof(struct ucred));
		scm->has_creds = true;
		int err = scm_check_creds(&scm->creds);
		/* Kept as the kernel numbers it; the receiver sees its own number. */
		scm->creds.pid = pid_vnr_to_global(scm->creds.pid);
		return err;
	default:
		return -EINVAL;
	}
}

/* Walk the control buffer, already copied to ctl, header by header. */
static int scm_parse(struct socket *sock, const char *ctl, size_t size, struct scm_cookie *scm)
{
	size_t off = 0;

	while (off + sizeof(struct cmsghdr) <= size) {
		const struct cmsghdr *cmsg = (const void *)(ctl + off);
		int err;

		if (cmsg->cmsg_len < sizeof(*cmsg) || cmsg->cmsg_len > size - off)
			return -EINVAL;
		err = scm_one(sock, cmsg, scm);
		if (err)
			return err;
		off += CMSG_ALIGN(cmsg->cmsg_len);
	}
	return 0;
}

int scm_send(struct socket *sock, struct msghdr *msg, struct scm_cookie *scm)
{
	const struct cred *cred = current_cred();
	char *ctl;
	int err;

	memset(scm, 0, sizeof(*scm));
	scm->creds = (struct ucred){ .pid = current->tgid, .uid = cred->uid, .gid = cred->gid };
	if (!msg->msg_controllen)
		return 0;
	if (msg->msg_controllen > 0x7fffffff)
		return -ENOBUFS;
	ctl = kmalloc(msg->msg_controllen);
	if (!ctl)
		return -ENOMEM;
	err = copy_from_user(ctl, msg->msg_control, msg->msg_controllen) ? -EFAULT
		: scm_parse(sock, ctl, msg->msg_controllen, scm);
	kfree(ctl);
	if (err)
		scm_destroy(scm);
	return err;
}
