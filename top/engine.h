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

struct engine {
	struct scanner sc;
	char *cgdir;			/* cgroup2 root directory */
	struct report_params params;
	struct report report;		/* latest; report.cycle 0 = none yet */
	char err[512];			/* why the last call failed */
};

/* Find the cgroup root, open the sources. 0, or -1 with e->err. */
int engine_open(struct engine *e, const struct config *cfg);
void engine_close(struct engine *e);
/* Seconds until the next slice is due. */
double engine_wait(const struct engine *e);
/*
 * One scan slice. 1: a cycle completed and e->report holds its report
 * (the tree was rescanned for it), 0: nothing new, -1: error (e->err).
 */
int engine_step(struct engine *e);
/*
 * One shot (--mark-wait): mark everything, wait `seconds` (or until
 * *stop), read everything once and build e->report. 0, 1 if stopped,
 * -1 on error.
 */
int engine_mark_wait(struct engine *e, double seconds,
		     volatile sig_atomic_t *stop);

#endif
