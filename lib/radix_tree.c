/*
 * radix_tree.c - the sparse index-to-pointer map of include/radix_tree.h.
 *
 * A node's slot i at level L (leaves are level 1) covers the indexes
 * whose digit L - 1, in base 64, is i. The root node is at level
 * root->height. Each node counts its non-NULL slots, so that delete frees
 * a node the moment it empties, and the tree never keeps empty nodes.
 */
#include <errno.h>
#include <mm.h>
#include <radix_tree.h>

#define SHIFT 6
#define SLOTS (1u << SHIFT)
#define MAX_HEIGHT ((64 + SHIFT - 1) / SHIFT)

struct radix_tree_node {
	void *slots[SLOTS];
	unsigned int count;
};

static unsigned int digit(uint64_t index, unsigned int level)
{
	return (index >> (SHIFT * (level - 1))) & (SLOTS - 1);
}

/* Does a tree of this height hold index? */
static bool fits(uint64_t index, unsigned int height)
{
	return height >= MAX_HEIGHT || (height && index >> (SHIFT * height) == 0);
}

void *radix_tree_lookup(const struct radix_tree_root *root, uint64_t index)
{
	struct radix_tree_node *node = root->node;

	if (!fits(index, root->height))
		return NULL;
	for (unsigned int level = root->height; node && level > 1; level--)
		node = node->slots[digit(index, level)];
	return node ? node->slots[digit(index, 1)] : NULL;
}

/* Add levels above the root until it holds index. */
static int grow(struct radix_tree_root *root, uint64_t index)
{
	while (!fits(index, root->height)) {
		if (!root->node) {
			root->height++;
			continue;
		}
		struct radix_tree_node *top = kzalloc(sizeof(*top));
		if (!top)
			return -ENOMEM;
		top->slots[0] = root->node;
		top->count = 1;
		root->node = top;
		root->height++;
	}
	return 0;
}

/*
 * The nodes on index's path, nodes[level] from root->height down to 1,
 * as far as they exist; the lowest level reached (1: the whole path),
 * or root->height + 1 if the tree is empty or too short for index.
 */
static unsigned int walk_path(const struct radix_tree_root *root, uint64_t index,
			      struct radix_tree_node *nodes[MAX_HEIGHT + 1])
{
	struct radix_tree_node *node = root->node;
	unsigned int level = root->height;

	if (!node || !fits(index, root->height))
		return root->height + 1;
	for (;;) {
		nodes[level] = node;
		if (level == 1)
			return 1;
		node = node->slots[digit(index, level)];
		if (!node)
			return level;
		level--;
	}
}

/* Free the empty nodes on index's path, from the bottom up. */
static void prune(struct radix_tree_root *root, uint64_t index)
{
	struct radix_tree_node *nodes[MAX_HEIGHT + 1];
	unsigned int level = walk_path(root, index, nodes);

	for (; level <= root->height && nodes[level]->count == 0; level++) {
		kfree(nodes[level]);
		if (level == root->height) {
			root->node = NULL;
			root->height = 0;
			return;
		}
		nodes[level + 1]->slots[digit(index, level + 1)] = NULL;
		nodes[level + 1]->count--;
	}
}

int radix_tree_insert(struct radix_tree_root *root, uint64_t index, void *item)
{
	struct radix_tree_node **slot = &root->node, *parent = NULL;

	if (grow(root, index))
		return -ENOMEM;
	for (unsigned int level = root->height;; level--) {
		if (!*slot) {
			*slot = kzalloc(sizeof(**slot));
			if (!*slot) {
				prune(root, index); /* the empty nodes just made */
				return -ENOMEM;
			}
			if (parent)
				parent->count++;
		}
		parent = *slot;
		if (level == 1)
			break;
		slot = (struct radix_tree_node **)&parent->slots[digit(index, level)];
	}
	parent->slots[digit(index, 1)] = item;
	parent->count++;
	return 0;
}

void *radix_tree_delete(struct radix_tree_root *root, uint64_t index)
{
	struct radix_tree_node *nodes[MAX_HEIGHT + 1];
	void *item;

	if (walk_path(root, index, nodes) != 1)
		return NULL;
	item = nodes[1]->slots[digit(index, 1)];
	if (!item)
		return NULL;
	nodes[1]->slots[digit(index, 1)] = NULL;
	nodes[1]->count--;
	prune(root, index);
	return item;
}

/* The first item below node (at level) at an index >= *index; *index's
 * digits above level are node's. */
static void *first_from(struct radix_tree_node *node, unsigned int level, uint64_t *index)
{
	unsigned int shift = SHIFT * (level - 1);

	for (unsigned int i = digit(*index, level); i < SLOTS; i++) {
		void *p = node->slots[i];
		if (p) {
			void *item = level == 1 ? p : first_from(p, level - 1, index);
			if (item)
				return item;
		}
		if (i + 1 == SLOTS)
			break;
		/* On to slot i + 1, from its first index. */
		*index = (*index & ~(((uint64_t)SLOTS << shift) - 1)) | ((uint64_t)(i + 1) << shift);
	}
	return NULL;
}

void *radix_tree_next(const struct radix_tree_root *root, uint64_t *index)
{
	if (!root->node || !fits(*index, root->height))
		return NULL;
	return first_from(root->node, root->height, index);
}
