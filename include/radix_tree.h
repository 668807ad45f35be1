/*
 * radix_tree.h - a sparse map from a 64-bit index to a pointer (lib/radix_tree.c),
 * as Linux's page cache keeps a file's pages (its xarray, once the radix
 * tree): a file of a terabyte with one page written costs a few small
 * nodes, not an array a slot per page.
 *
 * Each node has 64 slots; a tree of height h holds the indexes below
 * 64^h, and grows a level when a larger index comes. Empty nodes are
 * freed as their last item goes. The caller serializes all calls on one
 * tree (the inode's lock, once there is one).
 */
#pragma once
#include <kernel.h>

struct radix_tree_node;

struct radix_tree_root {
	struct radix_tree_node *node;   /* NULL: empty */
	unsigned int height;            /* levels of nodes; 0 when empty */
};

/* The item at index, or NULL. */
void *radix_tree_lookup(const struct radix_tree_root *root, uint64_t index);
/* Store item (not NULL) at index, which must be empty. 0 or -ENOMEM. */
int radix_tree_insert(struct radix_tree_root *root, uint64_t index, void *item);
/* Take the item at index out; it is returned (NULL if there was none). */
void *radix_tree_delete(struct radix_tree_root *root, uint64_t index);
/* The first item at an index >= *index, which is set to that index; NULL
 * if there is none. Walks present items only: for (i = 0; (p =
 * radix_tree_next(root, &i)); i++) visits them all in index order. */
void *radix_tree_next(const struct radix_tree_root *root, uint64_t *index);
