/* SPDX-License-Identifier: GPL-2.0 */
/*
 * select.h - which cgroups the batch outputs and the exporter show
 * (--max-depth, --min-bytes, --include, --exclude), to bound the number
 * of series a node emits.  The root is always shown.  A cgroup left out
 * still counts in its ancestors' subtree numbers; nothing is re-added.
 */
#ifndef IDLETOP_SELECT_H
#define IDLETOP_SELECT_H

#include <stdint.h>
#include "stats.h"

#define SELECT_MAX_PATTERNS 32

struct cg_select {
	int max_depth;			/* -1: any depth */
	uint64_t min_bytes;		/* least subtree resident bytes */
	/* fnmatch(3) globs on the path, no flags: '*' matches '/' too */
	const char *include[SELECT_MAX_PATTERNS];
	const char *exclude[SELECT_MAX_PATTERNS];
	unsigned n_include, n_exclude;
};

void select_default(struct cg_select *s);
/* 1 when the selection leaves anything out. */
int select_active(const struct cg_select *s);
/* 1 when cgroup s of a report is shown. */
int select_keep(const struct cg_select *sel, const struct cg_stat *s);
/*
 * A view of r with only the shown cgroups: out->cg is its own array (the
 * strings are r's), each parent is the nearest shown ancestor.  Free it
 * with report_free(); it does not own r's tree.  0, or -1 on ENOMEM.
 */
int report_select(const struct report *r, const struct cg_select *sel,
		  struct report *out);

#endif
