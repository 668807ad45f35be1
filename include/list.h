/*
 * list.h - a circular doubly linked list threaded through the structures
 * it holds (Linux's list_head, in spirit): a struct list_node inside each
 * member, and one as the head. Adding at the tail and removing a member
 * take constant time and need nothing but the member; the list's lock is
 * whatever guards the structure that holds the head.
 *
 * An empty list, and a node on no list, point to themselves (list_init),
 * so that list_del of a node that was never added does nothing.
 */
#pragma once
#include <kernel.h>

struct list_node {
	struct list_node *next, *prev;
};

static inline void list_init(struct list_node *node) { node->next = node->prev = node; }

static inline bool list_empty(const struct list_node *head) { return head->next == head; }

/* node, on no list, becomes the last of head's. */
static inline void list_add_tail(struct list_node *node, struct list_node *head)
{
	node->prev = head->prev;
	node->next = head;
	head->prev->next = node;
	head->prev = node;
}

/* node leaves its list (if on one) and is on none after. */
static inline void list_del(struct list_node *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	list_init(node);
}

/* new, on no list, takes old's place on its list; old is on none after. */
static inline void list_replace(struct list_node *old, struct list_node *new)
{
	new->next = old->next;
	new->prev = old->prev;
	new->next->prev = new;
	new->prev->next = new;
	list_init(old);
}

/* The structure of type holding node as its member. */
#define list_entry(node, type, member) container_of(node, type, member)

/* pos (a pointer to the holding type) over every member, in order; the
 * loop must not remove pos. */
#define list_for_each_entry(pos, head, member)                                   \
	for (pos = list_entry((head)->next, __typeof__(*pos), member); &pos->member != (head); \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

/* The member after pos on the list headed by head, or NULL at its end. */
#define list_next_entry_or_null(pos, head, member)                                          \
	((pos)->member.next == (head) ? NULL                                                    \
				      : list_entry((pos)->member.next, __typeof__(*(pos)), member))
