/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pace.h - pacing arithmetic (pure functions, unit tested).
 *
 * A cycle visits nr_pfns PFNs in slices. After a slice, the next one may
 * start at the later of
 *   period deadline: cycle_start + period * done_pfns / nr_pfns
 *   CPU budget:      now + cpu_debt
 * so a cycle takes `period` unless the CPU budget cannot fit it; then the
 * cycle stretches and the report says so (cpu_bound).
 *
 * The CPU debt covers all of the main thread's CPU time, not only slices:
 * the cgroup tree walk and report build after a cycle, printing, the TUI.
 * The exporter's HTTP thread (http.h) is not in it: scrapes cannot
 * stretch a cycle, so they cannot change what "idle for a cycle" means.  It
 * is a bucket: each interval adds cpu / cpu_frac and pays back its wall
 * time, never below 0 (idle time is not saved up for bursts), so over any
 * stretch that ends with the debt waited out, CPU <= cpu_frac * wall.
 */
#ifndef IDLETOP_PACE_H
#define IDLETOP_PACE_H

#include <stddef.h>
#include <stdint.h>

struct pace_in {
	double period;		/* target seconds per cycle; 0 = as fast as cpu allows */
	double cpu_frac;	/* CPU budget, fraction of one core (0, 1] */
	uint64_t nr_pfns;
	uint64_t done_pfns;	/* PFNs done in this cycle, this slice included */
	double since_cycle;	/* now - cycle start (s) */
	double cpu_debt;	/* seconds still to wait for the budget */
};

/* Seconds to wait before the next slice; *cpu_bound set when the budget decides. */
double pace_delay(const struct pace_in *in, int *cpu_bound);

/*
 * The debt after an interval of `wall` seconds in which the process used
 * `cpu` seconds: max(0, debt + cpu / cpu_frac - wall); 0 without a budget
 * (cpu_frac <= 0 or >= 1).
 */
double pace_debt(double debt, double cpu, double wall, double cpu_frac);

/*
 * Next slice size: halve when a slice took longer than max_ms, double when
 * it took under half, within [min_pfns, max_pfns], multiple of 64.
 */
size_t pace_adapt(size_t cur, double wall_ms, double max_ms,
		  size_t min_pfns, size_t max_pfns);

/*
 * Seconds left in the cycle `in` describes: until the period's deadline,
 * or, when the budget decides, the debt still to wait plus the CPU the
 * rest of the pass will cost, spent at cpu_frac.  That CPU is
 * extrapolated from cycle_cpu (CPU since the cycle started) once a tenth
 * of the pass is done, else from pass_cpu (the last whole cycle's CPU;
 * 0: none yet).
 */
double pace_left(const struct pace_in *in, double cycle_cpu, double pass_cpu);

/* Lower bound of a cycle's length when one cycle costs cycle_cpu seconds. */
double pace_min_cycle(double cycle_cpu, double cpu_frac);

#endif
