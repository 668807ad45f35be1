/*
 * garbage.c - collecting sockets that only files in flight keep alive.
 *
 * A socket's file sent with SCM_RIGHTS is held by the buffer that carries
 * it until the receiver reads it. If the receiving socket is itself in
 * flight (A's file queued on B, B's on A, and both closed), nothing will
 * ever read those buffers: a cycle no close can free. As Linux does, every
 * close of an AF_UNIX socket while files are in flight runs a collector:
 *
 *   1. candidates: sockets whose file's every reference is in flight
 *      (file_count == inflight);
 *   2. each candidate's count of references starts at file_count, and
 *      loses one for every reference held by a buffer queued on a
 *      candidate: what is left comes from outside (a descriptor, or a
 *      buffer on a live socket);
 *   3. candidates with references left, and everything they hold in
 *      their queues, are reachable;
 *   4. the buffers that carry files on the others' queues are unlinked and
 *      freed, which closes the files, which releases the sockets.
 *
 * Lock: unix_gc_lock, after unix_table_lock (include/net.h), guards the
 * in-flight counts and the collector's marks.
 */
#include "af_unix.h"
#include <fs.h>

unsigned int unix_tot_inflight;
static net_lock_t unix_gc_lock = NET_LOCK_INIT("unix_gc_lock");
static bool gc_in_progress;

struct sock *unix_get_socket(struct file *filp)
{
	struct socket *sock = sock_from_file(filp);

	if (sock && sock->ops && sock->ops->family == AF_UNIX)
		return sock->sk;
	return NULL;
}

static void count_inflight(struct scm_fp_list *fpl, int delta)
{
	net_lock(&unix_gc_lock);
	for (int i = 0; i < fpl->count; i++) {
		struct sock *sk = unix_get_socket(fpl->fp[i]);
		if (sk) {
			unix_sk(sk)->inflight += delta;
			unix_tot_inflight += delta;
		}
	}
	net_unlock(&unix_gc_lock);
}

void unix_inflight(struct scm_fp_list *fpl)
{
	count_inflight(fpl, 1);
}

void unix_notinflight(struct scm_fp_list *fpl)
{
	count_inflight(fpl, -1);
}

/* Call fn on every candidate whose file a buffer queued on u (or on a
 * connection waiting in u's queue) holds. */
static void for_each_child(struct unix_sock *u, void (*fn)(struct unix_sock *child, bool *chg),
			   bool *changed)
{
	struct sk_buff_head *q = &u->sk.sk_receive_queue;

	for (struct sk_buff *skb = skb_peek(q); skb; skb = skb_peek_next(q, skb)) {
		if (skb->newsk)
			for_each_child(unix_sk(skb->newsk), fn, changed);
		for (int i = 0; skb->fp && i < skb->fp->count; i++) {
			struct sock *child = unix_get_socket(skb->fp->fp[i]);
			if (child && unix_sk(child)->gc_candidate)
				fn(unix_sk(child), changed);
		}
	}
}

static void dec_refs(struct unix_sock *child, bool *changed)
{
	(void)changed;
	child->gc_refs--;
}

static void mark_reachable(struct unix_sock *child, bool *changed)
{
	if (!child->gc_reachable) {
		child->gc_reachable = true;
		*changed = true;
	}
}

/* Steps 1 to 3: the marks. */
static void gc_mark(void)
{
	bool changed = true;
	struct unix_sock *u;

	for (u = unix_all; u; u = u->next_all) {
		struct file *file = u->sk.sk_socket ? u->sk.sk_socket->file : NULL;
		u->gc_candidate = file && u->inflight && file_count(file) == (int)u->inflight;
		u->gc_refs = file ? file_count(file) : 0;
		u->gc_reachable = false;
	}
	for (u = unix_all; u; u = u->next_all)
		if (u->gc_candidate)
			for_each_child(u, dec_refs, NULL);
	for (u = unix_all; u; u = u->next_all)
		if (u->gc_candidate && u->gc_refs > 0)
			u->gc_reachable = true;
	while (changed) {
		changed = false;
		for (u = unix_all; u; u = u->next_all)
			if (u->gc_candidate && u->gc_reachable)
				for_each_child(u, mark_reachable, &changed);
	}
}

/* Step 4's first half: the buffers that carry files on q, into hit. */
static void gc_collect(struct sk_buff_head *q, struct sk_buff_head *hit)
{
	struct sk_buff *skb = skb_peek(q), *next;

	for (; skb; skb = next) {
		next = skb_peek_next(q, skb);
		if (skb->newsk)
			gc_collect(&skb->newsk->sk_receive_queue, hit);
		if (skb->fp) {
			skb_unlink(q, skb);
			skb_queue_tail(hit, skb);
		}
	}
}

void unix_gc(void)
{
	struct sk_buff_head hit;

	if (gc_in_progress)
		return;
	gc_in_progress = true;
	skb_queue_head_init(&hit, "gc hitlist");
	net_lock(&unix_table_lock);
	gc_mark();
	for (struct unix_sock *u = unix_all; u; u = u->next_all)
		if (u->gc_candidate && !u->gc_reachable)
			gc_collect(&u->sk.sk_receive_queue, &hit);
	net_unlock(&unix_table_lock);
	/* Freeing closes the files, and so releases sockets (whose own
	 * collector runs return at once: gc_in_progress). */
	skb_queue_purge(&hit);
	gc_in_progress = false;
}
