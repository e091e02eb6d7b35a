/* SPDX-License-Identifier: GPL-2.0 */
/*
 * procs.h - what the screens show besides a report, read by the engine
 * (engine_procs(), engine_host()), never by a screen: the processes of a
 * cgroup subtree and facts about the host.
 */
#ifndef IDLETOP_PROCS_H
#define IDLETOP_PROCS_H

#include <stddef.h>
#include <stdint.h>
#include "stats.h"

struct proc_ent {
	long pid;
	char *name;		/* raw bytes from status "Name:" */
	char *cg;		/* cgroup path, relative to the subtree's root */
	uint64_t rss;		/* bytes; UINT64_MAX: unknown (gone, kthread) */
};

struct proc_list {
	struct proc_ent *v;
	size_t n, cap;
	int err;		/* first errno reading a cgroup.procs, 0 ok */
	size_t nerr;		/* cgroups whose cgroup.procs could not be read */
};

/*
 * The processes of report cgroup i and its descendants, largest RSS
 * first, read from <cgdir><path>/cgroup.procs and <root>/proc/PID/status.
 * No cap: the list grows as far as memory allows; l->err and l->nerr say
 * what could not be read.  l is emptied first.
 */
void procs_read(struct proc_list *l, const char *root, const char *cgdir,
		const struct report *r, size_t i);
void procs_free(struct proc_list *l);

struct host_info {
	char *name;		/* kernel.hostname, raw bytes; NULL: unknown */
	char *kernel;		/* kernel.osrelease; NULL: unknown */
	uint64_t mem_total;	/* MemTotal, bytes; 0: unknown */
};

/* Read from <root>/proc; what cannot be read stays unknown. */
void host_read(struct host_info *h, const char *root);
void host_free(struct host_info *h);

#endif
