/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - the registry of what JSON and the exporter print per cgroup
 * beside the columns (fields.h): the values of the memory.* files (JSON
 * "memory" and "pressure", the exporter's counters behind the rate
 * columns), the page counts (JSON "self" and "total", the exporter's
 * per-kind families) and the idle time buckets (JSON "idle_for", the
 * exporter's idle-age family).  The printers loop over these tables and
 * name none of these values themselves, so a new one is one entry in
 * series.c (what they still write by hand: docs/idletop-engine.md).
 */
#ifndef IDLETOP_SERIES_H
#define IDLETOP_SERIES_H

#include <stddef.h>
#include <stdint.h>
#include "cgdata.h"

enum series_fmt {
	SF_BYTES,	/* u: bytes (JSON "max" for CG_NOLIMIT) */
	SF_COUNT,	/* u: a count since the cgroup's creation */
	SF_PCT,		/* d: percent */
	SF_USEC,	/* u: microseconds, shown as seconds */
};

/* Which JSON object a value of the memory.* files is in. */
enum mem_group {
	MG_NONE,	/* the exporter's alone */
	MG_MEMORY,	/* "memory":{...} */
	MG_PRESSURE,	/* "pressure":{...}, null without memory.pressure */
};

struct mem_series {
	enum mem_group group;
	const char *json;	/* key in its group's object */
	const char *metric;	/* exporter counter (its samples end in
				 * _total), NULL: not exported */
	const char *unit;	/* the counter's OpenMetrics UNIT, or NULL */
	const char *help;
	enum series_fmt fmt;
	size_t has;	/* offset of its has_* flag in struct cg_mem */
	size_t off;	/* offset of the value: double for SF_PCT, else u64 */
};

/* In the exporter's order; each JSON group's members in its order. */
extern const struct mem_series mem_series[];
extern const size_t mem_series_nr;
/* The value of m (u or d by fmt): 0 when its file was not readable. */
int mem_series_get(const struct mem_series *s, const struct cg_mem *m,
		   uint64_t *u, double *d);

enum page_shape {
	PS_ONE,		/* one value */
	PS_KIND,	/* one per page kind: JSON keys json + kind name,
			 * exporter samples with a kind label */
	PS_SUM,		/* one value: the sum of a per-kind count */
	PS_AGE,		/* one per age bucket: a JSON array */
};

/* A page count of a cgroup, itself ("self") or its subtree ("total"). */
struct page_series {
	const char *json;	/* key in "self" and "total" (PS_KIND: prefix) */
	enum page_shape shape;
	/* exporter gauges of the subtree and of the cgroup itself, in
	 * bytes, NULL: not exported */
	const char *metric, *self_metric;
	const char *help, *self_help;
	size_t off;		/* of the u64 (array) in struct cg_pages */
};

extern const struct page_series page_series[];
extern const size_t page_series_nr;
/* Value i of p (a kind, an age bucket; 0 for PS_ONE), in pages. */
uint64_t page_series_get(const struct page_series *s,
			 const struct cg_pages *p, int i);
/* The one value of a PS_ONE or PS_SUM series, in pages. */
uint64_t page_series_value(const struct page_series *s,
			   const struct cg_pages *p);
extern const char *const page_kind_name[PK_NR];

/*
 * Bytes idle for at least each idle time bucket (struct cg_stat's
 * idle_for[]): JSON's array and the exporter's family, one sample per
 * bucket with its seconds as the label.
 */
struct idle_for_series {
	const char *json, *metric, *label, *help;
};

extern const struct idle_for_series idle_for_series;

#endif
