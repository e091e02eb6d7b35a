// SPDX-License-Identifier: GPL-2.0
/*
 * batch_openmetrics.c - the metrics of a report (metrics.h) for the
 * exporter (http.c) and for -f openmetrics (node_exporter's textfile
 * collector).  Label values are escaped by fmt_esc_om(); each cgroup's
 * labels (cgroup, and node with --node-label) are built once per report.
 * Identity (ident.h) is in one info series per cgroup,
 * idletop_cgroup_info, to join with group_left as kube_pod_info is.
 * The per-cgroup families come from the registries: the columns'
 * gauges from fields.c, the counters and the per-kind and idle-age
 * families from series.c.
 */
#include <stdlib.h>
#include <string.h>
#include "batch.h"
#include "fields.h"
#include "ident.h"
#include "metrics.h"
#include "series.h"
#include "version.h"

struct out {
	struct sbuf *b;
	enum metrics_fmt f;
	const struct report_params *p;
	const struct report *r;
	struct sbuf lab;	/* every cgroup's labels, back to back */
	size_t *off;		/* cgroup i: lab.p[off[i]] .. lab.p[off[i+1]] */
};

/*
 * Metadata of a family.  A counter's samples end in "_total", an info's
 * in "_info" (a gauge in Prometheus' format), which OpenMetrics leaves
 * out of the family name and Prometheus' format keeps.
 */
static void family(struct out *o, const char *name, const char *type,
		   const char *unit, const char *help)
{
	int counter = type[0] == 'c', info = type[0] == 'i';
	int om = o->f == MF_OPENMETRICS;
	const char *sfx = counter && !om ? "_total" : info && !om ? "_info" : "";

	if (info && !om)
		type = "gauge";
	sb_printf(o->b, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, sfx, help,
		  name, sfx, type);
	if (unit && om)
		sb_printf(o->b, "# UNIT %s %s\n", name, unit);
}

/* ,name="value" */
static void label(struct sbuf *b, const char *name, const char *value)
{
	sb_printf(b, ",%s=\"", name);
	fmt_esc_om(b, value);
	sb_putc(b, '"');
}

/* name{extra,node="..."} of a series without a cgroup; extra: NULL, or
 * labels without the braces. */
static void global(struct out *o, const char *name, const char *extra)
{
	const char *node = o->p->node;

	sb_puts(o->b, name);
	if (!extra && !node)
		return;
	sb_putc(o->b, '{');
	if (extra)
		sb_puts(o->b, extra);
	if (node) {
		sb_printf(o->b, "%snode=\"", extra ? "," : "");
		fmt_esc_om(o->b, node);
		sb_putc(o->b, '"');
	}
	sb_putc(o->b, '}');
}

static int labels_build(struct out *o)
{
	const struct report *r = o->r;
	size_t i;

	o->off = calloc(r->n + 1, sizeof(*o->off));
	if (!o->off)
		return -1;
	for (i = 0; i < r->n; i++) {
		o->off[i] = o->lab.len;
		sb_puts(&o->lab, "cgroup=\"");
		fmt_esc_om(&o->lab, r->cg[i].path);
		sb_putc(&o->lab, '"');
		if (o->p->node)
			label(&o->lab, "node", o->p->node);
	}
	o->off[r->n] = o->lab.len;
	return o->lab.oom ? -1 : 0;
}

/* name{cgroup labels[,extra]} value */
static void sample(struct out *o, const char *name, size_t i,
		   const char *extra, const char *value)
{
	sb_printf(o->b, "%s{%.*s%s%s} %s\n", name,
		  (int)(o->off[i + 1] - o->off[i]), o->lab.p + o->off[i],
		  extra ? "," : "", extra ? extra : "", value);
}

static void sample_u64(struct out *o, const char *name, size_t i,
		       const char *extra, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	sample(o, name, i, extra, num);
}

/* A page count per kind (series.h), of the subtree or the cgroup itself. */
static void per_kind(struct out *o, const struct page_series *ps, int self)
{
	const char *name = self ? ps->self_metric : ps->metric;
	const struct report *r = o->r;
	char extra[16];
	size_t i;
	int k;

	family(o, name, "gauge", "bytes", self ? ps->self_help : ps->help);
	for (i = 0; i < r->n; i++)
		for (k = 0; k < PK_NR; k++) {
			snprintf(extra, sizeof(extra), "kind=\"%s\"",
				 page_kind_name[k]);
			sample_u64(o, name, i, extra, page_series_get(ps,
				   self ? &r->cg[i].self : &r->cg[i].total, k) *
				   r->p.page_size);
		}
}

/* idletop_cgroup_info{cgroup,unit,slice,pod_uid,...} 1: who each is. */
static void cgroup_info(struct out *o)
{
	const struct report *r = o->r;
	struct ident id;
	size_t i;
	int f;

	family(o, "idletop_cgroup", "info", NULL, "Always 1: the identity of "
	       "each cgroup, from its path (systemd unit and slice; pod_uid, "
	       "qos_class, container_id, container_runtime under kubepods), "
	       "labels only where known; join on cgroup with group_left.");
	for (i = 0; i < r->n; i++) {
		if (r->cg[i].pseudo)
			continue;
		sb_printf(o->b, "idletop_cgroup_info{%.*s",
			  (int)(o->off[i + 1] - o->off[i]),
			  o->lab.p + o->off[i]);
		ident_parse(r->cg[i].path, &id);
		for (f = 0; f < IDENT_FIELDS; f++)
			if (id.f[f][0])
				label(o->b, ident_name[f], id.f[f]);
		sb_puts(o->b, "} 1\n");
	}
}

static void ws_by_kind(struct out *o)
{
	const char *name = "idletop_working_set_by_kind_bytes";
	const struct report *r = o->r;
	char extra[16];
	size_t i;
	int k;

	family(o, name, "gauge", "bytes", "Working set of the subtree by "
	       "kind (sums to idletop_working_set_bytes).");
	for (i = 0; i < r->n; i++)
		for (k = 0; k < PK_NR; k++) {
			snprintf(extra, sizeof(extra), "kind=\"%s\"",
				 page_kind_name[k]);
			sample_u64(o, name, i, extra, r->cg[i].ws_kind[k]);
		}
}

static void idle_age(struct out *o)
{
	const struct idle_for_series *fs = &idle_for_series;
	const struct report *r = o->r;
	char extra[48];
	size_t i;
	unsigned t;

	family(o, fs->metric, "gauge", "bytes", fs->help);
	for (i = 0; i < r->n; i++)
		for (t = 0; t < r->p.tb.n; t++) {
			snprintf(extra, sizeof(extra), "%s=\"%g\"", fs->label,
				 r->p.tb.secs[t]);
			sample_u64(o, fs->metric, i, extra,
				   r->cg[i].idle_for[t]);
		}
}

/*
 * The columns that are gauges (fields.h: metric): one value per cgroup,
 * absent where the column has none ("-") or reads "max"; the help is
 * the column's.
 */
static void field_family(struct out *o, enum field_id f)
{
	const struct field *fd = &fields[f];
	struct field_val v;
	struct sbuf h;
	size_t i;

	sb_init(&h);
	sb_printf(&h, "%s%s.", fd->help, fd->kind == FK_LIMIT ?
		  ", where set (absent: max or no file)" : "");
	family(o, fd->metric, "gauge", "bytes", h.oom ? "?" : sb_str(&h));
	sb_free(&h);
	for (i = 0; i < o->r->n; i++) {
		if (o->r->cg[i].pseudo)
			continue;
		field_get(o->r, &o->r->cg[i], f, &v);
		if (v.has && v.u != CG_NOLIMIT)
			sample_u64(o, fd->metric, i, NULL, v.u);
	}
}

/* A counter of the memory.* files (series.h), for PromQL's rate(). */
static void mem_counter(struct out *o, const struct mem_series *ms)
{
	char name[96], num[48];
	uint64_t x = 0;
	double d;
	size_t i;

	snprintf(name, sizeof(name), "%s_total", ms->metric);
	family(o, ms->metric, "counter", ms->unit, ms->help);
	for (i = 0; i < o->r->n; i++) {
		if (o->r->cg[i].pseudo ||
		    !mem_series_get(ms, &o->r->cg[i].mem, &x, &d))
			continue;
		if (ms->fmt == SF_USEC)
			snprintf(num, sizeof(num), "%llu.%06llu",
				 (unsigned long long)(x / 1000000),
				 (unsigned long long)(x % 1000000));
		else
			snprintf(num, sizeof(num), "%llu",
				 (unsigned long long)x);
		sample(o, name, i, NULL, num);
	}
}

/* Every known warning, 0 or 1, so that alerts need no absent(). */
static void warnings(struct out *o, unsigned set)
{
	struct sbuf h;
	unsigned bit;

	sb_init(&h);
	sb_puts(&h, "1 when a known problem makes the numbers wrong.");
	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1)
		sb_printf(&h, " %s: %s", report_warning_id(bit),
			  report_warning_text(bit));
	family(o, "idletop_warning", "gauge", NULL,
	       h.oom ? "?" : sb_str(&h));
	sb_free(&h);
	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1) {
		char extra[64];

		snprintf(extra, sizeof(extra), "warning=\"%s\"",
			 report_warning_id(bit));
		global(o, "idletop_warning", extra);
		sb_printf(o->b, " %d\n", !!(set & bit));
	}
}

static void gauge(struct out *o, const char *name, const char *unit,
		  const char *help, const char *fmt, double v)
{
	family(o, name, "gauge", unit, help);
	global(o, name, NULL);
	sb_putc(o->b, ' ');
	sb_printf(o->b, fmt, v);
	sb_putc(o->b, '\n');
}

/* Cgroups with series, and those left out whose pages fold into them. */
static void cgroup_counts(struct out *o)
{
	const struct report *r = o->r;
	size_t i, shown = 0;

	for (i = 0; i < r->n; i++)
		shown += !r->cg[i].pseudo;
	family(o, "idletop_cgroups", "gauge", NULL, "Cgroups by state: shown "
	       "(with series), folded (left out by --max-depth, --min-bytes, "
	       "--include or --exclude; their own pages count in the self "
	       "series of the nearest shown ancestor).");
	global(o, "idletop_cgroups", "state=\"shown\"");
	sb_printf(o->b, " %zu\n", shown);
	global(o, "idletop_cgroups", "state=\"folded\"");
	sb_printf(o->b, " %zu\n", r->folded);
}

/* What the working set and the suggestions were measured with. */
static void window(struct out *o, const struct report *r)
{
	unsigned ws = r->p.ws_cycles ? r->p.ws_cycles : 1;

	gauge(o, "idletop_ws_window_cycles", NULL, "--ws-cycles: a page idle "
	      "for this many cycles is out of the working set.", "%.0f", ws);
	gauge(o, "idletop_ws_window_seconds", "seconds", "The working set's "
	      "window: --ws-cycles times the reported cycle's length.",
	      "%.3f", ws * r->p.cycle_seconds);
	gauge(o, "idletop_headroom_ratio", NULL, "--headroom as a ratio: "
	      "the suggested memory.high is the working set times 1 + this, "
	      "plus kernel memory.", "%g", r->p.headroom_pct / 100.0);
	gauge(o, "idletop_working_set_complete", NULL, "1 when the idle ages "
	      "cover the working set's window; 0 for the first cycles after "
	      "a start, when the working set reads high: leave them out of "
	      "max_over_time() sizing.", "%.0f", r->ws_complete);
}

/*
 * What the kernel counted busy only because it could not walk the page
 * tables: the family always, its sample where known (scan-folios).
 */
static void scan_skipped(struct out *o, const struct report *r)
{
	family(o, "idletop_scan_skipped_bytes", "gauge", "bytes", "Bytes the "
	       "kernel reported busy in the reported cycle only because it "
	       "could not walk their page tables (a folio or rmap lock was "
	       "contended; KPAGEIDLE_SCAN's nr_skipped): idle is understated "
	       "by up to this much. Absent unless the method is scan-folios.");
	if (!r->has_skipped)
		return;
	global(o, "idletop_scan_skipped_bytes", NULL);
	sb_printf(o->b, " %llu\n", (unsigned long long)r->skipped);
}

static void globals(struct out *o, const struct report_params *p)
{
	const struct report *r = o->r;

	family(o, "idletop_build_info", "gauge", NULL,
	       "idletop version, idle source and scan method.");
	sb_printf(o->b, "idletop_build_info{version=\"%s\"", IDLETOP_VERSION);
	label(o->b, "source", p->source ? p->source : "");
	label(o->b, "method", p->method ? p->method : "");
	if (p->node)
		label(o->b, "node", p->node);
	sb_puts(o->b, "} 1\n");
	gauge(o, "idletop_report_available", NULL, "1 when a completed cycle "
	      "is reported; 0 until the first (two periods after start).",
	      "%.0f", r ? 1 : 0);
	gauge(o, "idletop_period_seconds", "seconds", "Target cycle length "
	      "(--period).", "%g", p->period);
	warnings(o, r ? r->p.warnings : p->warnings);
	if (!r)
		return;
	gauge(o, "idletop_cycle", NULL, "Number of the reported cycle.",
	      "%.0f", (double)r->cycle);
	gauge(o, "idletop_cycle_end_timestamp_seconds", "seconds",
	      "When the reported cycle ended (UNIX time).", "%.3f", r->end);
	gauge(o, "idletop_cycle_duration_seconds", "seconds", "Length of the "
	      "reported cycle (longer than the period when CPU-bound).",
	      "%.3f", r->p.cycle_seconds);
	gauge(o, "idletop_cycle_cpu_bound", NULL, "1 when --cpu stretched "
	      "the reported cycle past the period.", "%.0f", r->cpu_bound);
	scan_skipped(o, r);
	family(o, "idletop_cpu_seconds", "counter", "seconds", "CPU time of "
	       "idletop's cycles since it started, priming passes included.");
	global(o, "idletop_cpu_seconds_total", NULL);
	sb_printf(o->b, " %.3f\n", r->cpu_total);
	cgroup_counts(o);
	window(o, r);
}

static void cgroups(struct out *o)
{
	size_t i;
	int self;

	cgroup_info(o);
	for (self = 0; self <= 1; self++)
		for (i = 0; i < page_series_nr; i++)
			if (page_series[i].shape == PS_KIND &&
			    page_series[i].metric)
				per_kind(o, &page_series[i], self);
	ws_by_kind(o);
	idle_age(o);
	for (i = 0; i < FIELDS_NR; i++)
		if (fields[i].metric)
			field_family(o, (enum field_id)i);
	for (i = 0; i < mem_series_nr; i++)
		if (mem_series[i].metric)
			mem_counter(o, &mem_series[i]);
}

void metrics_render(struct sbuf *b, const struct report_params *p,
		    const struct report *r, enum metrics_fmt f)
{
	struct out o = { .b = b, .f = f, .r = r };

	if (r)
		p = &r->p;
	if (!p) {
		b->oom = 1;	/* nothing to say */
		return;
	}
	o.p = p;
	sb_init(&o.lab);
	globals(&o, p);
	if (r && !labels_build(&o))
		cgroups(&o);
	else if (r)
		b->oom = 1;
	if (f == MF_OPENMETRICS)
		sb_puts(b, "# EOF\n");
	sb_free(&o.lab);
	free(o.off);
}

static int print(FILE *f, const struct report *r, enum metrics_fmt mf)
{
	struct sbuf b;

	sb_init(&b);
	metrics_render(&b, &r->p, r, mf);
	return sb_write(f, &b);
}

int batch_openmetrics(FILE *f, const struct report *r)
{
	return print(f, r, MF_OPENMETRICS);
}

int batch_prometheus(FILE *f, const struct report *r)
{
	return print(f, r, MF_PROMETHEUS);
}
