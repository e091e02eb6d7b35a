/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - one report: the cgroup tree joined with one scan cycle's
 * page counts, hierarchical totals and derived numbers.  Every derived
 * number a screen or a printer shows is computed here (or by a field
 * getter, fields.h); they only format, pages times the page size at most.
 *
 * Derivation (per cgroup, from the hierarchical total):
 *   working_set    = resident - pages idle for >= ws_cycles cycles
 *                    (unevictable pages are never idle)
 *   idle_pct       = 100 * idle (>= 1 cycle) / resident
 *   ws_kind[k]     = resident[k] - pages of kind k idle for >= ws_cycles
 *                    (they sum to working_set)
 *   suggested_low  = working_set
 *   idle_for[i]    = evictable pages idle for at least tb.secs[i] seconds,
 *                    measured on the cycles' clocks (config.h)
 *   kernel         = memory.current - resident, at least 0: what
 *                    memory.high counts and the scan cannot see (kernel
 *                    memory, pages off the LRU)
 *   suggested_high = base * (100 + headroom_pct) / 100 + kernel, rounded
 *                    up to 4 MiB, at least 4 MiB; base = working_set(K),
 *                    and at least anon + shmem where they cannot be
 *                    swapped out (no_swap: the node has no swap, or this
 *                    cgroup's or an ancestor's memory.swap.max is 0).  K
 *                    (sugg_cycles) is the smallest of ws_cycles and the
 *                    age buckets' bounds above it whose cut costs at most
 *                    STATS_PROMO_PERMILLE/10 % of working_set(K) a minute
 *                    in reaccess (pages found accessed after >= K idle
 *                    cycles); 0 when none does: resident is the base
 *   no_sugg        = no suggestion: the root, the pseudo entry and
 *                    aggregates (ident_aggregate(): slices, kubepods'
 *                    QoS levels), where memory.high sizes no workload
 *   reaccess       = bytes found accessed this cycle after >= 1 idle cycle
 *   limit_pct      = 100 * memory.current / min(memory.high, memory.max)
 *   refault_rate   = workingset_refault_anon + _file (memory.stat) per
 *                    second, between this report and the one before
 */
#ifndef IDLETOP_STATS_H
#define IDLETOP_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "cgdata.h"
#include "config.h"

struct cg_tree;		/* cgroup.h */
struct scan_cycle;	/* scan.h */

#define STATS_HIGH_ROUND (4ULL << 20)
#define STATS_PROMO_PERMILLE 2	/* 0.2 % of the working set a minute */
#define UNKNOWN_CGROUP "(unknown)"

struct cg_stat {
	const char *path;	/* raw bytes: escape before printing */
	const char *name;
	uint64_t ino;		/* 0 for the pseudo entry */
	int parent, depth;	/* parent index, -1 for the root */
	int pseudo;		/* "(unknown)": pages of vanished/unseen memcgs */
	struct cg_mem mem;	/* memory.* files */
	struct cg_pages self;	/* pages charged to this cgroup itself, and
				 * to those folded into it (select.h) */
	unsigned folded;	/* cgroups left out whose self is in self */
	struct cg_pages total;	/* self plus all descendants */
	/* derived from total, in bytes */
	uint64_t resident, idle, working_set, sugg_low, sugg_high;
	uint64_t ws_kind[PK_NR];	/* working set by kind */
	uint64_t kernel;	/* memory.current - resident, >= 0 */
	uint64_t sugg_floor;	/* anon + shmem when no_swap, else 0 */
	int no_swap;		/* anon and shmem cannot be swapped out */
	int no_sugg;		/* an aggregate: no suggestions */
	uint64_t reaccess;	/* bytes, accessed after >= 1 idle cycle */
	unsigned sugg_cycles;	/* K of sugg_high, 0: resident */
	double idle_pct;
	/* bytes idle for at least report_params.tb.secs[i] (cumulative) */
	uint64_t idle_for[IDLE_TBUCKETS_MAX];
	int has_limit_pct, has_rate;
	double limit_pct;	/* memory.current of the lower limit, % */
	double refault_rate;	/* pages per second */
};

/* Why numbers may be wrong; each with a text saying what to do. */
enum report_warning {
	REPORT_WARN_MGLRU = 1 << 0,	/* idlesrc_mglru_unfixed() */
	REPORT_WARN_DAMON = 1 << 1,	/* idlesrc_damon_paddr() */
	REPORT_WARN_APPROX = 1 << 2,	/* the mglru source: approximate */
};
#define REPORT_WARN_ALL (REPORT_WARN_MGLRU | REPORT_WARN_DAMON | \
			 REPORT_WARN_APPROX)

/* What failed in a refresh that idletop retried (engine.h). */
enum report_error {
	REPORT_ERR_SCAN,	/* a scan slice: kpageflags, the idle source */
	REPORT_ERR_TREE,	/* the cgroup tree, memory.*, the report */
	REPORT_ERR_NR,
};

struct report_params {
	unsigned warnings;	/* REPORT_WARN_*, checked at each report */
	unsigned ws_cycles;
	unsigned headroom_pct;
	double period;		/* of the report's cycle; params: the engine's */
	double cycle_seconds;	/* the cycle's length (monotonic clock) */
	const char *source;	/* "kpageidle" / "bitmap" / "mglru" */
	/* "scan-folios" / "read-write"; mglru: "forced-aging" / "generations" */
	const char *method;
	const char *node;	/* --node-label: a label on every metric */
	uint64_t page_size;
	struct idle_tbuckets tb;	/* idle time buckets, seconds */
	int no_swap;		/* the node has no swap (SwapTotal 0, or no
				 * /proc/meminfo) */
	uint64_t errors[REPORT_ERR_NR];	/* failed refreshes since start */
};

struct report {
	struct report_params p;
	uint64_t cycle;		/* 1, 2, ... */
	int first;		/* the first, short window (scan.h) */
	double steady;		/* the period after it */
	double taken;		/* monotonic time the tree was read */
	double start, end;	/* timestamps; the length: p.cycle_seconds */
	double cpu;		/* CPU seconds the cycle cost */
	double cpu_total;	/* CPU seconds of all cycles, priming too */
	/* cycles the idle ages reach back (since the last priming pass) */
	uint64_t reach;
	/* the working set's window is covered: not the first window and
	 * reach >= ws_cycles (before, idle is understated) */
	int ws_complete;
	/* least idle age in cycles counted in idle_for[i]; 0: none yet */
	unsigned tb_min_age[IDLE_TBUCKETS_MAX];
	int cpu_bound;		/* the period was stretched by --cpu */
	uint64_t pfns;
	/*
	 * Bytes the kernel reported busy this cycle only because it could
	 * not walk their page tables (KPAGEIDLE_SCAN's nr_skipped, summed
	 * over the pass): idle is understated by up to this much.  Known
	 * (has_skipped) with the scan-folios method alone.
	 */
	int has_skipped;
	uint64_t skipped;
	struct cg_stat *cg;	/* pre-order; cg[0] is the root */
	size_t n;
	size_t folded;		/* cgroups left out by a selection (select.h) */
	struct cg_tree *tree;	/* owns the path strings */
};

/*
 * Build from a freshly scanned tree: its contents move into r (*tree is
 * left empty).  0, or -1 on ENOMEM.
 */
int report_build(struct report *r, struct cg_tree *tree,
		 const struct scan_cycle *c, const struct report_params *p);
void report_free(struct report *r);
/* Sums over the page counts of one cgroup (struct cg_pages, cgdata.h). */
void cg_pages_add(struct cg_pages *dst, const struct cg_pages *src);
uint64_t cg_pages_resident(const struct cg_pages *p);
uint64_t cg_pages_idle(const struct cg_pages *p);
uint64_t cg_pages_ws_idle(const struct cg_pages *p);	/* all kinds */
/* Rates between two reports of the same tree (refault_rate). */
void report_rates(struct report *r, const struct report *old);
/* Pages found accessed after >= bucket i's idle cycles (cumulative). */
uint64_t stats_reaccess_ge(const struct cg_pages *p, int bucket);
/* Pages idle for >= bucket i's cycles (cumulative). */
uint64_t stats_idle_ge(const struct cg_pages *p, int bucket);
/*
 * Reaccess ("promotion") of cgroup s: what a cut at the working set of
 * age_bucket_min[bucket] cycles would have cost this cycle, bytes found
 * accessed after that many idle cycles, and the same per minute (on the
 * cycle's length, else the period) as a percentage of the working set
 * at that cut (0 when there is none).
 */
void stats_reaccess(const struct report *r, const struct cg_stat *s,
		    int bucket, uint64_t *bytes, double *pct_min);
/*
 * For one REPORT_WARN_* bit: a stable id ("mglru_unfixed"), a one-line
 * summary for a header, and the full text with what to do.
 */
const char *report_warning_id(unsigned bit);
const char *report_warning_short(unsigned bit);
const char *report_warning_text(unsigned bit);
/* A REPORT_ERR_*'s stable id: "scan", "tree". */
const char *report_error_id(enum report_error e);
void stats_derive(struct cg_stat *s, const struct report_params *p);
uint64_t round_up(uint64_t v, uint64_t to);

#endif
