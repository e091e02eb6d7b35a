/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pace.h - pacing arithmetic (pure functions, unit tested).
 *
 * A cycle visits nr_pfns PFNs in slices. After a slice, the next one may
 * start at the later of
 *   period deadline: cycle_start + period * done_pfns / nr_pfns
 *   CPU budget:      slice_start + slice_cpu / cpu_frac
 * so a cycle takes `period` unless the CPU budget cannot fit it; then the
 * cycle stretches and the report says so (cpu_bound).
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
	double slice_wall;	/* this slice's wall time (s) */
	double slice_cpu;	/* this slice's CPU time (s) */
};

/* Seconds to wait before the next slice; *cpu_bound set when the budget decides. */
double pace_delay(const struct pace_in *in, int *cpu_bound);

/*
 * Next slice size: halve when a slice took longer than max_ms, double when
 * it took under half, within [min_pfns, max_pfns], multiple of 64.
 */
size_t pace_adapt(size_t cur, double wall_ms, double max_ms,
		  size_t min_pfns, size_t max_pfns);

/* Lower bound of a cycle's length when one cycle costs cycle_cpu seconds. */
double pace_min_cycle(double cycle_cpu, double cpu_frac);

#endif
