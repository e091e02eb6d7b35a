/* SPDX-License-Identifier: GPL-2.0 */
/*
 * select.h - which cgroups the batch outputs and the exporter show
 * (--max-depth, --min-bytes, --include, --exclude), to bound the number
 * of series a node emits.  The root is always shown.  A cgroup left out
 * still counts in its ancestors' subtree numbers, and its own pages fold
 * into the self pages of its nearest shown ancestor, so the shown self
 * pages still sum to the root's resident pages.
 *
 * --min-bytes has hysteresis: a cgroup shown in the last view stays
 * while its resident bytes are at least half the threshold, so one that
 * hovers around it keeps one continuous series.
 */
#ifndef IDLETOP_SELECT_H
#define IDLETOP_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include "config.h"
#include "stats.h"

/* The cgroups (inodes) the last view showed, for --min-bytes hysteresis. */
struct select_state {
	uint64_t *ino;			/* sorted */
	size_t n;
};

void select_default(struct cg_select *s);
/* 1 when the selection leaves anything out. */
int select_active(const struct cg_select *s);
/* 1 when cgroup s of a report is shown; was: it was shown last time. */
int select_keep(const struct cg_select *sel, const struct cg_stat *s,
		int was);
/*
 * A view of r with only the shown cgroups: out->cg is its own array (the
 * strings are r's), each parent is the nearest shown ancestor, whose
 * self pages include those of the cgroups folded into it (cg_stat's
 * folded counts them, out->folded all of them).  With st, --min-bytes
 * keeps what st says was shown, and st becomes this view's set (the
 * caller frees it with select_state_free()).  Free out with
 * report_free(); it does not own r's tree.  0, or -1 on ENOMEM (st
 * unchanged).
 */
int report_select(const struct report *r, const struct cg_select *sel,
		  struct select_state *st, struct report *out);
void select_state_free(struct select_state *st);

#endif
