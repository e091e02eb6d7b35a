// SPDX-License-Identifier: GPL-2.0
/* pace.c - pacing arithmetic: see pace.h */
#include "pace.h"

double pace_delay(const struct pace_in *in, int *cpu_bound)
{
	double by_period = 0, by_cpu = 0;

	if (in->nr_pfns && in->period > 0)
		by_period = in->period * (double)in->done_pfns /
			    (double)in->nr_pfns - in->since_cycle;
	if (in->cpu_frac > 0 && in->cpu_frac < 1)
		by_cpu = in->cpu_debt;
	if (cpu_bound)
		*cpu_bound = by_cpu > 0 && by_cpu > by_period;
	if (by_cpu > by_period)
		by_period = by_cpu;
	return by_period > 0 ? by_period : 0;
}

double pace_debt(double debt, double cpu, double wall, double cpu_frac)
{
	if (cpu_frac <= 0 || cpu_frac >= 1)
		return 0;
	debt += cpu / cpu_frac - wall;
	return debt > 0 ? debt : 0;
}

size_t pace_adapt(size_t cur, double wall_ms, double max_ms,
		  size_t min_pfns, size_t max_pfns)
{
	if (wall_ms > max_ms && cur / 2 >= min_pfns)
		cur /= 2;
	else if (wall_ms < max_ms / 2 && cur * 2 <= max_pfns)
		cur *= 2;
	if (cur > max_pfns)
		cur = max_pfns;
	if (cur < min_pfns)
		cur = min_pfns;
	cur &= ~(size_t)63;
	return cur ? cur : 64;
}

double pace_left(const struct pace_in *in, double cycle_cpu, double pass_cpu)
{
	double f = in->nr_pfns ? (double)in->done_pfns / (double)in->nr_pfns : 1;
	double left = in->period - in->since_cycle, by_cpu, pass;

	if (in->cpu_frac > 0 && in->cpu_frac < 1 && f < 1) {
		pass = f >= 0.1 || pass_cpu <= 0 ? (f > 0 ? cycle_cpu / f : 0) :
		       pass_cpu;
		by_cpu = in->cpu_debt + pass * (1 - f) / in->cpu_frac;
		if (by_cpu > left)
			left = by_cpu;
	}
	return left > 0 ? left : 0;
}

double pace_min_cycle(double cycle_cpu, double cpu_frac)
{
	return cpu_frac > 0 ? cycle_cpu / cpu_frac : 0;
}
