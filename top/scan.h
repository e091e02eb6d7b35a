/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan.h - the PFN scanner: walks all PFNs in slices, reads kpageflags,
 * kpagecgroup and the idle source for a range, counts per memcg inode,
 * keeps one idle-age byte per PFN and re-marks the range idle: with the
 * KPAGEIDLE_SCAN ioctl's folio records, one call that tests, re-marks and
 * tells each folio's size, memcg and kind (no kpageflags or kpagecgroup
 * then: scan_folio.h), else with a read and a write of the PFNs the
 * kernel would mark (LRU, not THP tails: scan_pfn.h).
 *
 * Cycle 0 is a priming pass (mark only); cycles 1, 2, ... are counted and
 * published in `last` when complete. Every cycle, the priming one too,
 * is paced to the period, so each PFN is read about one period after it
 * was marked; the first report comes after two periods. A cycle is
 * published by the first scan_slice() call after its period is over.
 * scan_restart() drops the cycle in progress and primes again (a new
 * period): every counted cycle is read one period after its marks.
 *
 * First window (cfg.first_period): the first priming pass and the first
 * counted cycle run at that short period, so the first report comes
 * after two short periods (cycle.first says so); then the scanner
 * primes again at the period, as scan_restart() does.  The first
 * window's slices do not wait for the CPU budget; the debt it leaves is
 * waited out before the priming pass at the period starts, so that pass,
 * and every cycle after it, keeps its pacing.
 */
#ifndef IDLETOP_SCAN_H
#define IDLETOP_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include "acct.h"
#include "idlesrc.h"

struct scan_config {
	size_t slice_pfns;	/* most PFNs per slice (multiple of 64) */
	double slice_ms;	/* a slice longer than this halves the next */
	double period;		/* target seconds per cycle */
	double first_period;	/* > 0 and < period: a first window (below) */
	double cpu_frac;	/* CPU budget, fraction of one core */
	unsigned ws_cycles;	/* idle >= this many cycles: not working set */
	enum idlesrc_kind source;
	int mglru_aging;	/* the mglru source ages each cycle */
	const char *cgdir;	/* cgroup2 root, for the mglru source's paths */
	struct idle_tbuckets tb;	/* idle time buckets (acct.h) */
	idlesrc_ioctl_fn *scan_ioctl;	/* NULL: ioctl(2); tests pass a fake */
	/* the mglru source's aging step (mglru.h); NULL: mglru_age() */
	int (*mglru_age)(int fd, unsigned id, int node, uint64_t seq);
};

/* One completed cycle. */
struct scan_cycle {
	uint64_t number;	/* 0: none completed yet */
	double seconds;		/* its length, on CLOCK_MONOTONIC */
	/* timestamps (CLOCK_REALTIME at the end): start = end - seconds */
	double start, end;
	double period;		/* the period it was paced to */
	int first;		/* the first window (cfg.first_period) */
	double cpu;		/* CPU seconds spent on the cycle */
	double cpu_total;	/* ... on every cycle so far, priming too */
	int cpu_bound;		/* the CPU budget stretched it past period */
	uint64_t pfns;		/* PFNs visited */
	/*
	 * has_skipped: every call of the pass was a marking KPAGEIDLE_SCAN
	 * (scan-folios, not --mark-wait's counting pass); skipped: the sum
	 * of their nr_skipped, pages reported busy only because their page
	 * tables could not be walked, 0 without has_skipped.  Other sources
	 * do not know it.
	 */
	int has_skipped;
	uint64_t skipped;
	uint64_t reach;		/* most idle age it counts: cycles since the
				 * last priming pass */
	/* least age (cycles) counted in idle time bucket i; 0: none */
	unsigned tb_min_age[IDLE_TBUCKETS_MAX];
	struct acct acct;	/* page counts per cgroup inode */
};

struct thp_carry {		/* the compound head whose tails follow */
	int active;
	uint64_t flags, ino;
	uint8_t idle;
};

struct scanner {
	struct scan_config cfg;
	char *root;
	int flags_fd, cgroup_fd;	/* cgroup_fd -1 without kpagecgroup */
	struct idlesrc src;
	uint64_t nr_pfns;
	uint8_t *age;			/* nr_pfns bytes: cycles idle in a row */
	uint64_t *kflags, *kcg;		/* one slice of raw entries */
	uint8_t *idle, *mark;
	int no_mark;			/* read only (end of --mark-wait) */
	uint64_t cursor;		/* next PFN */
	uint64_t cycle;			/* cycle in progress */
	int priming;			/* it only marks: cycle 0, restarts */
	uint64_t prime_cycle;		/* number of the last priming pass */
	int first;			/* in the first window */
	double steady_period;		/* the period after it */
	int pass_done;			/* all PFNs visited; publish when due */
	size_t slice;			/* current adaptive slice size */
	int cpu_bound;			/* in this cycle */
	uint64_t skipped;		/* in this cycle: scan_cycle.skipped */
	struct thp_carry thp;
	struct acct cur;
	uint64_t last_ino;		/* one-entry lookup cache */
	struct cg_pages *last_pages;
	double cycle_mono, cycle_cpu;	/* when the cycle began */
	double next_at;			/* monotonic time the next slice is due */
	double debt_mono, debt_cpu;	/* clocks when the debt was last updated */
	double cpu_debt;		/* pace.h: wait owed to the CPU budget */
	/* monotonic time of the first slice of cycle n, at [n % 256] */
	double first_slice[256];
	double cpu_total;		/* CPU of all cycles ended */
	uint8_t tmap[256];		/* age -> idle time bucket + 1, 0 none */
	struct scan_cycle last;
	struct scan_mglru *mg;		/* the mglru source (scan_mglru.h) */
};

int scan_open(struct scanner *sc, const char *root,
	      const struct scan_config *cfg, char *err, size_t errlen);
void scan_close(struct scanner *sc);
/* One slice. 1: a cycle was completed (see sc->last), 0: not yet, -1: error. */
int scan_slice(struct scanner *sc, char *err, size_t errlen);
/*
 * Drop the cycle in progress and the idle ages, and start a priming pass
 * (the next cycle number) at this period.
 */
void scan_restart(struct scanner *sc, double period);
/* The period the scanner settles at (after a first window). */
static inline double scan_period(const struct scanner *sc)
{
	return sc->first ? sc->steady_period : sc->cfg.period;
}
/* Seconds until the next slice is due (0 = now). */
double scan_wait(const struct scanner *sc);

/*
 * Charge the CPU the process used since the last call to the scanner's
 * debt (pace.h) and return the monotonic time; shared by the sources'
 * scanners.
 */
double scan_update_debt(struct scanner *sc);
/* Number of PFNs: binary search for the end of kpageflags. */
uint64_t scan_count_pfns(int flags_fd);
/* Footprint of the age array in bytes. */
static inline uint64_t scan_age_bytes(const struct scanner *sc)
{
	return sc->nr_pfns;
}

#endif
