// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - the per-cgroup values JSON and the exporter print beside
 * the columns (series.h), in the order they print them.
 */
#include <stddef.h>
#include <string.h>
#include "series.h"

#define MEM(g, json, metric, unit, fmt, has, v, help) \
	{ g, json, metric, unit, help, fmt, \
	  offsetof(struct cg_mem, has), offsetof(struct cg_mem, v) }

const struct mem_series mem_series[] = {
	MEM(MG_NONE, NULL, "idletop_pressure_memory_waiting_seconds",
	    "seconds", SF_USEC, has_pressure, some_total,
	    "memory.pressure some total: time some tasks stalled."),
	MEM(MG_NONE, NULL, "idletop_pressure_memory_stalled_seconds",
	    "seconds", SF_USEC, has_pressure, full_total,
	    "memory.pressure full total: time all tasks stalled."),
	MEM(MG_NONE, NULL, "idletop_memory_events_high", NULL, SF_COUNT,
	    has_events, ev_high,
	    "memory.events high: times reclaim was forced over memory.high."),
	MEM(MG_NONE, NULL, "idletop_memory_events_max", NULL, SF_COUNT,
	    has_events, ev_max,
	    "memory.events max: times usage hit memory.max."),
	MEM(MG_NONE, NULL, "idletop_memory_events_oom_kill", NULL, SF_COUNT,
	    has_events, ev_oom_kill,
	    "memory.events oom_kill: processes killed by the OOM killer."),
	MEM(MG_MEMORY, "current", NULL, NULL, SF_BYTES, has_current, current,
	    "memory.current"),
	MEM(MG_MEMORY, "low", NULL, NULL, SF_BYTES, has_low, low,
	    "memory.low"),
	MEM(MG_MEMORY, "high", NULL, NULL, SF_BYTES, has_high, high,
	    "memory.high"),
	MEM(MG_MEMORY, "max", NULL, NULL, SF_BYTES, has_max, max,
	    "memory.max"),
	MEM(MG_MEMORY, "anon", NULL, NULL, SF_BYTES, has_stat, anon,
	    "memory.stat anon"),
	MEM(MG_MEMORY, "file", NULL, NULL, SF_BYTES, has_stat, file,
	    "memory.stat file"),
	MEM(MG_MEMORY, "shmem", NULL, NULL, SF_BYTES, has_stat, shmem,
	    "memory.stat shmem"),
	MEM(MG_MEMORY, "swap", NULL, NULL, SF_BYTES, has_swap, swap_current,
	    "memory.swap.current"),
	MEM(MG_MEMORY, "refault_anon", "idletop_workingset_refault_anon", NULL,
	    SF_COUNT, has_stat, refault_anon,
	    "memory.stat workingset_refault_anon: refaulted anon pages."),
	MEM(MG_MEMORY, "refault_file", "idletop_workingset_refault_file", NULL,
	    SF_COUNT, has_stat, refault_file,
	    "memory.stat workingset_refault_file: refaulted file pages."),
	MEM(MG_PRESSURE, "some_avg10", NULL, NULL, SF_PCT, has_pressure,
	    some_avg10, "memory.pressure some avg10"),
	MEM(MG_PRESSURE, "some_avg60", NULL, NULL, SF_PCT, has_pressure,
	    some_avg60, "memory.pressure some avg60"),
	MEM(MG_PRESSURE, "some_avg300", NULL, NULL, SF_PCT, has_pressure,
	    some_avg300, "memory.pressure some avg300"),
	MEM(MG_PRESSURE, "full_avg10", NULL, NULL, SF_PCT, has_pressure,
	    full_avg10, "memory.pressure full avg10"),
	MEM(MG_PRESSURE, "full_avg60", NULL, NULL, SF_PCT, has_pressure,
	    full_avg60, "memory.pressure full avg60"),
	MEM(MG_PRESSURE, "full_avg300", NULL, NULL, SF_PCT, has_pressure,
	    full_avg300, "memory.pressure full avg300"),
};
const size_t mem_series_nr = sizeof(mem_series) / sizeof(*mem_series);

int mem_series_get(const struct mem_series *s, const struct cg_mem *m,
		   uint64_t *u, double *d)
{
	const char *base = (const char *)m;
	int has;

	if (s->fmt == SF_PCT)
		memcpy(d, base + s->off, sizeof(*d));
	else
		memcpy(u, base + s->off, sizeof(*u));
	memcpy(&has, base + s->has, sizeof(has));
	return has;
}

const char *const page_kind_name[PK_NR] = { "anon", "file", "shmem" };

const struct page_series page_series[] = {
	{ "", PS_KIND, "idletop_resident_bytes", "idletop_self_resident_bytes",
	  "Resident LRU bytes of the subtree (descendants included), by "
	  "kind.",
	  "Resident LRU bytes charged to the cgroup itself and to the "
	  "descendants left out of the series (idletop_cgroups), by kind: "
	  "sums to the node.", offsetof(struct cg_pages, resident) },
	{ "unevictable", PS_ONE, NULL, NULL, "Unevictable resident bytes.",
	  NULL, offsetof(struct cg_pages, unevictable) },
	{ "idle_", PS_KIND, "idletop_idle_bytes", "idletop_self_idle_bytes",
	  "Evictable bytes of the subtree idle for at least one cycle, by "
	  "kind.",
	  "Evictable bytes of the cgroup itself and of the descendants left "
	  "out of the series, idle for at least one cycle, by kind.",
	  offsetof(struct cg_pages, idle) },
	{ "idle_age", PS_AGE, NULL, NULL, "Idle bytes per idle-age bucket.",
	  NULL, offsetof(struct cg_pages, age) },
	{ "reaccess", PS_AGE, NULL, NULL, "Bytes accessed again after an "
	  "idle age in each bucket.", NULL,
	  offsetof(struct cg_pages, reaccess) },
	{ "ws_idle", PS_SUM, NULL, NULL, "Evictable bytes idle for at least "
	  "--ws-cycles cycles.", NULL, offsetof(struct cg_pages, ws_idle) },
};
const size_t page_series_nr = sizeof(page_series) / sizeof(*page_series);

uint64_t page_series_get(const struct page_series *s,
			 const struct cg_pages *p, int i)
{
	uint64_t v;

	memcpy(&v, (const char *)p + s->off + (size_t)i * sizeof(v),
	       sizeof(v));
	return v;
}

const struct idle_for_series idle_for_series = {
	"idle_for", "idletop_idle_age_bytes", "min_seconds",
	"Evictable bytes of the subtree idle for at least min_seconds "
	"(cumulative: a page idle for 300 s counts in every bucket up to "
	"300), on the cycles' clocks."
};

uint64_t page_series_value(const struct page_series *s,
			   const struct cg_pages *p)
{
	uint64_t v = 0;
	int k;

	if (s->shape != PS_SUM)
		return page_series_get(s, p, 0);
	for (k = 0; k < PK_NR; k++)
		v += page_series_get(s, p, k);
	return v;
}
