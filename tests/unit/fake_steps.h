/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake_steps.h - run the engine on fake clocks, for the unit tests that
 * drive it report by report.  Include after <cmocka.h>; set
 * util_clock_hook = fake_clock first.
 */
#ifndef IDLETOP_TEST_FAKE_STEPS_H
#define IDLETOP_TEST_FAKE_STEPS_H

#include "engine_impl.h"
#include "util.h"

/* Fake clocks: time moves only when the test says. */
static double fake[3];

static double fake_clock(int which)
{
	return fake[which];
}

/* Step the engine, moving the clocks by what it waits, to its next report. */
static const struct report *next_report(struct engine *e)
{
	int rc, guard = 0;

	do {
		double w = engine_wait(e) + 0.001;

		fake[UTIL_MONO] += w;
		fake[UTIL_REAL] += w;
		fake[UTIL_CPU] += 0.0001;
		rc = engine_step(e);
		assert_true(++guard < 10000);
	} while (rc == 0);
	assert_int_equal(rc, 1);
	return &e->report;
}

#endif
