/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - the scanner, the cgroup tree and the latest report behind
 * one handle, for batch mode and the TUI alike:
 *
 *	engine_open(&e, &cfg);
 *	for (;;) {
 *		poll(stdin or nothing, engine_wait(&e));	// input first
 *		if (engine_step(&e) == 1)			// one slice
 *			show(&e.report);			// new report
 *	}
 */
#ifndef IDLETOP_ENGINE_H
#define IDLETOP_ENGINE_H

#include <signal.h>
#include "options.h"
#include "scan.h"
#include "stats.h"

/*
 * Screens and printers read e->report (and e->params for what the
 * engine is set to) and call the functions below; the scanner inside
 * (e->sc) is the engine's own.
 */
struct engine {
	struct scanner sc;
	char *cgdir;			/* cgroup2 root directory */
	struct report_params params;
	struct report report;		/* shown; report.cycle 0 = none yet */
	struct report held;		/* newer, while frozen */
	int frozen;
	unsigned warn_last;		/* REPORT_WARN_* at the last look */
	int unbuilt;			/* sc.last's report failed: again */
	unsigned fails;			/* failures in a row (below) */
	unsigned fails_of[REPORT_ERR_NR];	/* ... of each kind */
	double retry_at;		/* monotonic: no step before it */
	char err[512];			/* why the last call failed */
};

/*
 * Errors: a failed engine_step() or engine_refresh() keeps e->report,
 * counts the failure in e->params.errors (and in e->report.p.errors, so
 * that the report shown says so), and engine_wait() holds the next step
 * back: a period, doubled after each failure in a row, at most
 * ENGINE_RETRY_MAX seconds.  A cycle whose report failed is built again
 * at the next step.  Failures in a row are counted per kind (a scan
 * slice that works does not clear the tree's, nor a tree read the
 * scan's); e->fails is the larger count, and at ENGINE_FAILS_MAX
 * callers give up.
 */
#define ENGINE_FAILS_MAX 5u
#define ENGINE_RETRY_MAX 600

/* Where the measurement stands, for a progress display. */
struct engine_progress {
	uint64_t cycle;		/* the cycle in progress */
	int priming;		/* it only marks (start, after a new period) */
	int fresh;		/* priming, or the first cycle counted after */
	int first;		/* in the first window (scan.h) */
	double done;		/* fraction of the time to the next report */
	double left;		/* seconds to the next report */
	double period;		/* of the cycle in progress */
	double steady;		/* the period it settles at (--period, d) */
	int frozen;		/* engine_freeze() on */
	uint64_t newer;		/* cycles completed after the one shown */
	const char *source, *method;	/* idle source and method in use */
};

/* Find the cgroup root, open the sources. 0, or -1 with e->err. */
int engine_open(struct engine *e, const struct config *cfg);
void engine_close(struct engine *e);
/* Seconds until the next slice is due (or the retry after an error). */
double engine_wait(const struct engine *e);
/*
 * One scan slice. 1: a cycle completed and e->report holds its report
 * (the tree was rescanned for it), 0: nothing new, -1: error (e->err;
 * e->report stays: see Errors above).
 */
int engine_step(struct engine *e);
/*
 * Between cycles: read the cgroup tree and memory.* files again and
 * rebuild e->report with the last completed cycle's pages (cycle 0: no
 * page counts yet), so memory.current, PSI and refault rates are fresh
 * at the display's refresh rate while idle numbers change once a cycle.
 * Does nothing while frozen. 1: e->report was rebuilt, 0: frozen, -1:
 * error (e->err; e->report stays).
 */
int engine_refresh(struct engine *e);
/*
 * A new period: the cycle in progress is dropped and a priming pass at
 * the new period starts (idle ages restart), so the next report, two
 * periods on, is measured at that period throughout; e->report stays
 * until then. 0, or -1 with e->err for a period out of range.
 */
int engine_set_period(struct engine *e, double seconds);
/*
 * Freeze (on) or thaw the report: measuring goes on, engine_step() keeps
 * scanning, but completed cycles go to e->held, not e->report.  Thawing
 * returns 1 when e->report was replaced by a newer cycle, else 0.
 */
int engine_freeze(struct engine *e, int on);
void engine_progress(const struct engine *e, struct engine_progress *p);
/*
 * One shot (--mark-wait): mark everything, wait `seconds` (or until
 * *stop), read everything once and build e->report. 0, 1 if stopped,
 * -1 on error.
 */
int engine_mark_wait(struct engine *e, double seconds,
		     volatile sig_atomic_t *stop);

#endif
