/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine_impl.h - the inside of the engine handle, for engine.c and the
 * white-box unit tests only (make check-layers keeps it there); everyone
 * else holds a struct engine * from engine_new() and uses engine.h.
 */
#ifndef IDLETOP_ENGINE_IMPL_H
#define IDLETOP_ENGINE_IMPL_H

#include "engine.h"
#include "scan.h"

struct engine {
	struct scanner sc;
	char *cgdir;			/* cgroup2 root directory */
	struct report_params params;
	struct report report;		/* shown; report.cycle 0 = none yet */
	struct report held;		/* newer, while frozen */
	int frozen;
	unsigned warn_last;		/* REPORT_WARN_* at the last look */
	int unbuilt;			/* sc.last's report failed: again */
	unsigned fails;			/* failures in a row (engine.h) */
	int fatal;			/* no retry can help (engine.h) */
	unsigned fails_of[REPORT_ERR_NR];	/* ... of each kind */
	double retry_at;		/* monotonic: no step before it */
	char err[512];			/* why the last call failed */
};

/* In place (engine_new() allocates): 0, or -1 with e->err. */
int engine_open(struct engine *e, const struct config *cfg);
void engine_close(struct engine *e);

#endif
