// SPDX-License-Identifier: GPL-2.0
/*
 * batch_openmetrics.c - OpenMetrics text for node_exporter's textfile
 * collector. All families are gauges; sizes in bytes, scope="total"
 * includes descendants, scope="self" is the cgroup's own pages.
 * Ends with "# EOF".
 */
#include <errno.h>
#include <stddef.h>
#include "batch.h"
#include "fmt.h"
#include "version.h"

static const char *const kind_name[PK_NR] = { "anon", "file", "shmem" };

static void family(struct sbuf *b, const char *name, const char *unit,
		   const char *help)
{
	sb_printf(b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	if (unit)
		sb_printf(b, "# UNIT %s %s\n", name, unit);
}

static void sample_start(struct sbuf *b, const char *name,
			 const struct cg_stat *s)
{
	sb_printf(b, "%s{cgroup=\"", name);
	fmt_esc_om(b, s->path);
	sb_putc(b, '"');
}

static void sample_end(struct sbuf *b, uint64_t v)
{
	sb_printf(b, "} %llu\n", (unsigned long long)v);
}

static void per_kind(struct sbuf *b, const struct report *r, int idle)
{
	const char *name = idle ? "idletop_idle_bytes" : "idletop_resident_bytes";
	uint64_t ps = r->p.page_size;
	size_t i;
	int k, sc;

	family(b, name, "bytes", idle ?
	       "Pages idle for at least one cycle (evictable only)." :
	       "Resident LRU pages found by the scan, THP tails included.");
	for (i = 0; i < r->n; i++)
		for (sc = 0; sc < 2; sc++)
			for (k = 0; k < PK_NR; k++) {
				const struct cg_pages *p = sc ?
					&r->cg[i].self : &r->cg[i].total;

				sample_start(b, name, &r->cg[i]);
				sb_printf(b, ",kind=\"%s\",scope=\"%s\"",
					  kind_name[k], sc ? "self" : "total");
				sample_end(b, (idle ? p->idle[k] :
					       p->resident[k]) * ps);
			}
}

static void ages(struct sbuf *b, const struct report *r)
{
	const char *name = "idletop_idle_age_bytes";
	size_t i;
	int a;

	family(b, name, "bytes", "Idle pages by consecutive idle cycles "
	       "(bucket lower bound min_cycles), hierarchical.");
	for (i = 0; i < r->n; i++)
		for (a = 0; a < AGE_BUCKETS; a++) {
			sample_start(b, name, &r->cg[i]);
			sb_printf(b, ",min_cycles=\"%u\"", age_bucket_min[a]);
			sample_end(b, r->cg[i].total.age[a] * r->p.page_size);
		}
}

static void derived(struct sbuf *b, const struct report *r, const char *name,
		    const char *help, size_t off)
{
	size_t i;

	family(b, name, "bytes", help);
	for (i = 0; i < r->n; i++) {
		sample_start(b, name, &r->cg[i]);
		sample_end(b, *(const uint64_t *)((const char *)&r->cg[i] +
						  off));
	}
}

static void current(struct sbuf *b, const struct report *r)
{
	const char *name = "idletop_memory_current_bytes";
	size_t i;

	family(b, name, "bytes", "memory.current of the cgroup.");
	for (i = 0; i < r->n; i++) {
		if (!r->cg[i].mem.has_current)
			continue;
		sample_start(b, name, &r->cg[i]);
		sample_end(b, r->cg[i].mem.current);
	}
}

/* Every known warning, 0 or 1, so that alerts need no absent(). */
static void warnings(struct sbuf *b, const struct report *r)
{
	struct sbuf h;
	unsigned bit;

	sb_init(&h);
	sb_puts(&h, "1 when a known problem makes the numbers wrong.");
	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1)
		sb_printf(&h, " %s: %s", report_warning_id(bit),
			  report_warning_text(bit));
	family(b, "idletop_warning", NULL, h.oom ? "?" : sb_str(&h));
	sb_free(&h);
	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1)
		sb_printf(b, "idletop_warning{warning=\"%s\"} %d\n",
			  report_warning_id(bit), !!(r->p.warnings & bit));
}

static void globals(struct sbuf *b, const struct report *r)
{
	family(b, "idletop_build_info", NULL,
	       "idletop version, idle source and scan method.");
	sb_printf(b, "idletop_build_info{version=\"%s\",source=\"",
		  IDLETOP_VERSION);
	fmt_esc_om(b, r->p.source);
	sb_puts(b, "\",method=\"");
	fmt_esc_om(b, r->p.method ? r->p.method : "");
	sb_puts(b, "\"} 1\n");
	family(b, "idletop_cycle", NULL, "Number of the reported cycle.");
	sb_printf(b, "idletop_cycle %llu\n", (unsigned long long)r->cycle);
	family(b, "idletop_cycle_seconds", "seconds", "Length of the cycle.");
	sb_printf(b, "idletop_cycle_seconds %.3f\n", r->end - r->start);
	family(b, "idletop_period_seconds", "seconds", "Target cycle length.");
	sb_printf(b, "idletop_period_seconds %g\n", r->p.period);
	family(b, "idletop_cycle_cpu_seconds", "seconds",
	       "CPU time the cycle cost.");
	sb_printf(b, "idletop_cycle_cpu_seconds %.3f\n", r->cpu);
	warnings(b, r);
}

int batch_openmetrics(FILE *f, const struct report *r)
{
	struct sbuf b;
	int rc = 0;

	sb_init(&b);
	globals(&b, r);
	per_kind(&b, r, 0);
	per_kind(&b, r, 1);
	ages(&b, r);
	derived(&b, r, "idletop_working_set_bytes", "Resident minus pages "
		"idle for at least ws_cycles cycles.",
		offsetof(struct cg_stat, working_set));
	derived(&b, r, "idletop_suggested_low_bytes", "Suggested memory.low "
		"(the working set).", offsetof(struct cg_stat, sugg_low));
	derived(&b, r, "idletop_suggested_high_bytes", "Suggested memory.high "
		"(working set plus headroom, 4 MiB units).",
		offsetof(struct cg_stat, sugg_high));
	current(&b, r);
	sb_puts(&b, "# EOF\n");
	if (b.oom) {
		errno = ENOMEM;
		rc = -1;
	} else if (fwrite(b.p, 1, b.len, f) != b.len || fflush(f)) {
		rc = -1;
	}
	sb_free(&b);
	return rc;
}
