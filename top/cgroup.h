/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - the cgroup v2 tree: inode number -> path, memory.* files.
 * kpagecgroup reports the st_ino of a memcg's cgroup directory.
 */
#ifndef IDLETOP_CGROUP_H
#define IDLETOP_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include "cgdata.h"

struct cg_node {
	char *path;		/* "/" or "/a/b" under the mount; raw bytes */
	const char *name;	/* last component, points into path */
	uint64_t ino;		/* st_ino of the directory */
	int parent;		/* index into cg_tree.v, -1 for the root */
	int depth;
	struct cg_mem mem;
};

struct cg_tree {
	struct cg_node *v;	/* pre-order, children sorted by name */
	size_t n, cap;
	struct cg_ino *by_ino;	/* sorted index for cg_tree_find */
};

struct cg_ino {
	uint64_t ino;
	size_t idx;
};

/*
 * The cgroup2 mount point from <root>/proc/self/mountinfo, prefixed with
 * root; malloc'ed. NULL with a message in err when there is none.
 */
char *cg_find_mount(const char *root, char *err, size_t errlen);
/* Mount point from one mountinfo text (unprefixed, malloc'ed) or NULL. */
char *cg_mountinfo_cgroup2(const char *mountinfo);

/*
 * (Re)build the tree under dir. Directories that vanish while walking are
 * skipped. 0, or -1 with a message and an empty tree when any part of it
 * cannot be read (dir itself, a stat, opendir or readdir error, ENOMEM):
 * never a partial tree.
 */
int cg_tree_scan(struct cg_tree *t, const char *dir, char *err, size_t errlen);
void cg_tree_free(struct cg_tree *t);
/* Index of the cgroup with this inode, or -1. */
long cg_tree_find(const struct cg_tree *t, uint64_t ino);

/*
 * cgfiles.c: read and parse the memory.* files of the cgroup directory
 * open at dir (each file one lookup in it, all from that one directory).
 */
void cg_read_mem(int dir, struct cg_mem *m);
int cg_parse_memstat(const char *text, struct cg_mem *m);
int cg_parse_events(const char *text, struct cg_mem *m);
int cg_parse_limit(const char *text, uint64_t *v);
int cg_parse_pressure(const char *text, struct cg_mem *m);

#endif
