/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - the scanner, the cgroup tree and the latest report behind
 * one opaque handle, for batch mode, the exporter and the TUI alike:
 *
 *	e = engine_new(&cfg, err, sizeof(err));
 *	for (;;) {
 *		poll(stdin or nothing, engine_wait(e));		// input first
 *		if (engine_step(e) == 1)			// one slice
 *			show(engine_report(e));			// new report
 *	}
 *
 * This is the model's face to the screens and printers: it brings
 * neither the scanner's nor the kernel's headers (docs/design.md,
 * "Layers"); a report, the process list and the host facts come from
 * here, no screen reads /proc or a cgroup file itself.
 */
#ifndef IDLETOP_ENGINE_H
#define IDLETOP_ENGINE_H

#include <signal.h>
#include <stddef.h>
#include "config.h"
#include "procs.h"
#include "stats.h"

struct engine;		/* engine_impl.h: the engine's own */

/* Find the cgroup root, open the sources. NULL with why in err. */
struct engine *engine_new(const struct config *cfg, char *err,
			  size_t errlen);
void engine_free(struct engine *e);
/*
 * What screens and printers read: the report shown (cycle 0: none yet;
 * the pointer stays valid until engine_free(), what it points to changes
 * with engine_step(), engine_refresh(), engine_freeze() and
 * engine_mark_wait()), what the engine is set to, and why the last call
 * failed.
 */
const struct report *engine_report(const struct engine *e);
const struct report_params *engine_params(const struct engine *e);
const char *engine_err(const struct engine *e);
/*
 * Failures in a row (below): at ENGINE_FAILS_MAX callers give up.  A
 * fatal failure counts as ENGINE_FAILS_MAX at once.
 */
unsigned engine_fails(const struct engine *e);
/*
 * 1 when the last failure is one that no retry cures: the kernel refused
 * to mark pages idle (EBUSY: DAMON or another tracker marks, and the
 * kernel allows one at a time).  engine_err() says who holds it; callers
 * stop with that message, not "giving up after N failures".
 */
int engine_fatal(const struct engine *e);
/* The processes of report cgroup i and its descendants (procs.h). */
void engine_procs(const struct engine *e, size_t i, struct proc_list *l);
/* The host's name, kernel and memory (procs.h); host_free() it. */
void engine_host(const struct engine *e, struct host_info *h);

/*
 * Errors: a failed engine_step() or engine_refresh() keeps the report,
 * counts the failure in engine_params()->errors (and in the report's
 * p.errors, so that the report shown says so), and engine_wait() holds
 * the next step back: a period, doubled after each failure in a row, at
 * most ENGINE_RETRY_MAX seconds.  A cycle whose report failed is built
 * again at the next step.  Failures in a row are counted per kind (a
 * scan slice that works does not clear the tree's, nor a tree read the
 * scan's; with the mglru source only a published cycle clears the
 * scan's, as its slices are pieces of one file); engine_fails() is the
 * larger count, and at ENGINE_FAILS_MAX
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

/* Seconds until the next slice is due (or the retry after an error). */
double engine_wait(const struct engine *e);
/*
 * One scan slice. 1: a cycle completed and engine_report() is its
 * report (the tree was rescanned for it), 0: nothing new, -1: error
 * (engine_err(); the report stays: see Errors above).
 */
int engine_step(struct engine *e);
/*
 * Between cycles: read the cgroup tree and memory.* files again and
 * rebuild the report with the last completed cycle's pages (cycle 0: no
 * page counts yet), so memory.current, PSI and refault rates are fresh
 * at the display's refresh rate while idle numbers change once a cycle.
 * Does nothing while frozen. 1: the report was rebuilt, 0: frozen, -1:
 * error (engine_err(); the report stays).
 */
int engine_refresh(struct engine *e);
/*
 * A new period: the cycle in progress is dropped and a priming pass at
 * the new period starts (idle ages restart), so the next report, two
 * periods on, is measured at that period throughout; the report stays
 * until then. 0, or -1 with engine_err() for a period out of range.
 */
int engine_set_period(struct engine *e, double seconds);
/*
 * Freeze (on) or thaw the report: measuring goes on, engine_step() keeps
 * scanning, but completed cycles are held back, not shown.  Thawing
 * returns 1 when the report was replaced by a newer cycle, else 0.
 */
int engine_freeze(struct engine *e, int on);
void engine_progress(const struct engine *e, struct engine_progress *p);
/*
 * One shot (--mark-wait): mark everything, wait `seconds` (or until
 * *stop), read everything once and build the report. 0, 1 if stopped,
 * -1 on error (engine_err()).
 */
int engine_mark_wait(struct engine *e, double seconds,
		     volatile sig_atomic_t *stop);

#endif
