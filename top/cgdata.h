/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgdata.h - the records of one cgroup that a report publishes: its
 * memory.* files (struct cg_mem, filled by cgfiles.c) and its page counts
 * over one cycle (struct cg_pages, filled by the scanner).  Plain types
 * and constants, no functions: the model (stats.h) owns them and every
 * screen and printer reads them from there, so none of them needs the
 * tree reader's, the scanner's or the kernel ABI's headers.
 */
#ifndef IDLETOP_CGDATA_H
#define IDLETOP_CGDATA_H

#include <stdint.h>
#include "config.h"

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

/* Kinds of resident user memory that idletop tells apart (kpf.h). */
enum page_kind {
	PK_ANON,	/* KPF_ANON */
	PK_FILE,	/* page cache, not swap-backed */
	PK_SHMEM,	/* swap-backed, not anon: shmem, tmpfs, memfd */
	PK_NR
};

/*
 * Idle-age buckets: a page idle for a consecutive cycles is in bucket
 * i when age_bucket_min[i] <= a < age_bucket_min[i + 1]; the last bucket
 * is open (16+); age_bucket() (acct.c) sorts pages into them.
 */
#define AGE_BUCKETS 5
static const unsigned age_bucket_min[AGE_BUCKETS] = { 1, 2, 4, 8, 16 };

/* Page counts of one cgroup over one cycle (all in pages). */
struct cg_pages {
	uint64_t resident[PK_NR];	/* LRU pages, THP tails included */
	uint64_t idle[PK_NR];		/* idle this cycle (age >= 1), evictable */
	uint64_t unevictable;		/* resident, never counted idle */
	uint64_t ws_idle[PK_NR];	/* evictable with age >= ws_cycles */
	uint64_t age[AGE_BUCKETS];	/* idle pages by age bucket */
	uint64_t idle_t[IDLE_TBUCKETS_MAX];	/* idle pages by time bucket */
	/* pages found accessed this cycle, by the bucket of the age they
	 * had reached (idle cycles in a row before): reaccess, promotion */
	uint64_t reaccess[AGE_BUCKETS];
};

#endif
