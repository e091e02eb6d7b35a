/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - the cgroup v2 tree: inode number -> path, memory.* files.
 * kpagecgroup reports the st_ino of a memcg's cgroup directory.
 */
#ifndef IDLETOP_CGROUP_H
#define IDLETOP_CGROUP_H

#include <stddef.h>
#include <stdint.h>

#define CG_NOLIMIT UINT64_MAX	/* "max" in memory.low/high/max */

/* memory.* files of one cgroup; has_* say which were readable. */
struct cg_mem {
	int has_current, has_stat, has_low, has_high, has_max, has_pressure;
	int has_events, has_swap, has_swap_max;
	uint64_t current;			/* bytes */
	uint64_t anon, file, shmem, file_mapped, unevictable;
	uint64_t anon_thp, file_thp, shmem_thp;
	uint64_t active_anon, inactive_anon, active_file, inactive_file;
	uint64_t refault_anon, refault_file;	/* memory.stat, events */
	/* memory.events (hierarchical counts since the cgroup's creation) */
	uint64_t ev_low, ev_high, ev_max, ev_oom, ev_oom_kill;
	uint64_t swap_current;			/* memory.swap.current, bytes */
	uint64_t swap_max;			/* memory.swap.max, CG_NOLIMIT */
	uint64_t low, high, max;		/* bytes or CG_NOLIMIT */
	double some_avg10, some_avg60, some_avg300;	/* memory.pressure, % */
	double full_avg10, full_avg60, full_avg300;
	uint64_t some_total, full_total;	/* microseconds */
};

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
