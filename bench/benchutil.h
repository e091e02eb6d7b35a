/* SPDX-License-Identifier: GPL-2.0 */
/*
 * benchutil.h - helpers that bench programs share.  Each program is one
 * file built on its own (bench/run); it defines die(), which reports
 * errno and exits, before it includes this.
 */
#ifndef BENCH_BENCHUTIL_H
#define BENCH_BENCHUTIL_H

#include <sched.h>
#include <time.h>

/* @clk now, in seconds. */
static inline double now(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		die("clock_gettime");
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run the caller on @cpu only. */
static inline void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity (two online CPUs needed)");
}

#endif
