// SPDX-License-Identifier: GPL-2.0
/*
 * batch_json.c - one JSON object per completed cycle, one per line
 * (JSON Lines). Schema (all sizes in bytes; see docs/idletop-engine.md):
 *
 * {"idletop":VERSION, "cycle":N, "start":UNIX_S, "end":UNIX_S,
 *  "period_seconds":S, "cycle_seconds":S, "cpu_seconds":S,
 *  "cpu_bound":BOOL, "first_window":BOOL, "steady_period_seconds":S,
 *  "ws_complete":BOOL (the idle ages cover the working set's window),
 *  "ws_window_seconds":S (--ws-cycles times the cycle's length),
 *  "errors":{"scan":N, "tree":N} (failed refreshes retried, since start),
 *  "source":"kpageidle"|"bitmap",
 *  "method":"scan-folios"|"read-write", "page_size":B,
 *  "pfns":N, "skipped_bytes":B|null (counted busy only because the
 *  kernel could not walk their page tables this cycle: KPAGEIDLE_SCAN's
 *  nr_skipped; null unless the method is scan-folios and it marked),
 *  "ws_cycles":K, "headroom_pct":P,
 *  "cgroups_folded":N (left out by --max-depth etc., select.h),
 *  "age_buckets":[1,2,4,8,16],
 *  "idle_seconds":[60,120,...] (--idle-buckets),
 *  "warnings":[{"id":"mglru_unfixed", "message":STR}] (empty: none),
 *  "cgroups":[{"path":STR, "ino":N, "parent":INDEX|null, "depth":N,
 *    "pseudo":BOOL, "folded":N (cgroups left out whose own pages are
 *    in this one's self),
 *    "memory":{"current":B|null, "low":B|"max"|null, "high":..., "max":...,
 *              "anon":B|null, "file":B|null, "shmem":B|null,
 *              "swap":B|null, "refault_anon":N|null, "refault_file":N|null},
 *    "pressure":{"some_avg10":PCT, "some_avg60":PCT, "some_avg300":PCT,
 *                "full_avg10":PCT, "full_avg60":PCT, "full_avg300":PCT}|null,
 *    "self":PAGES, "total":PAGES,
 *    "resident":B, "idle":B, "idle_pct":PCT, "working_set":B,
 *    "suggested_low":B, "suggested_high":B,
 *    "idle_for":[B per idle_seconds: idle for at least that long],
 *    "working_set_by_kind":{"anon":B, "file":B, "shmem":B},
 *    "no_swap":BOOL (anon and shmem cannot be swapped out),
 *    "identity":{"unit":STR|null, "slice":..., "pod_uid":...,
 *                "qos_class":..., "container_id":...,
 *                "container_runtime":...} (ident.h; not on the pseudo)}]}
 *    then fields.c's fields with a JSON key, null when unknown:
 *    "resident":B, "idle":B, "idle_pct":PCT|null (nothing resident),
 *    "working_set":B, "suggested_low":B, "suggested_high":B,
 *    "limit_pct":PCT|null, "psi_some_avg10":PCT|null,
 *    "refaults_per_second":N|null, "reaccess":B, "kernel":B|null,
 *    "suggested_high_floor":B|null (null: swap can take anon),
 *    "suggested_high_cycles":K (0: resident was the base)}]}
 * PAGES = {"anon":B, "file":B, "shmem":B, "unevictable":B,
 *          "idle_anon":B, "idle_file":B, "idle_shmem":B,
 *          "idle_age":[B x 5, per age bucket],
 *          "reaccess":[B x 5, accessed after an age in that bucket],
 *          "ws_idle":B}
 * Strings: invalid UTF-8 bytes become U+FFFD, controls \u00XX.
 * memory, pressure, PAGES and idle_for come from series.c, the columns'
 * keys from fields.c.
 */
#include <stdio.h>
#include "batch.h"
#include "fmt.h"
#include "ident.h"
#include "series.h"
#include "version.h"

static void jstr(struct sbuf *b, const char *key, const char *v)
{
	sb_printf(b, "\"%s\":\"", key);
	fmt_esc_json(b, v);
	sb_puts(b, "\",");
}

static void ju64(struct sbuf *b, const char *key, int has, uint64_t v)
{
	if (!has)
		sb_printf(b, "\"%s\":null,", key);
	else if (v == CG_NOLIMIT)
		sb_printf(b, "\"%s\":\"max\",", key);
	else
		sb_printf(b, "\"%s\":%llu,", key, (unsigned long long)v);
}

static void unclose(struct sbuf *b)
{
	if (b->len && b->p[b->len - 1] == ',')
		b->len--;
}

/* One member of "self" or "total" (series.h): a value, per kind, their
 * sum, or an array over the age buckets, in bytes. */
static void page_member(struct sbuf *b, const struct page_series *ps,
			const struct cg_pages *p, uint64_t page)
{
	char key[32];
	int i;

	if (ps->shape == PS_KIND) {
		for (i = 0; i < PK_NR; i++) {
			snprintf(key, sizeof(key), "%s%s", ps->json,
				 page_kind_name[i]);
			ju64(b, key, 1, page_series_get(ps, p, i) * page);
		}
		return;
	}
	if (ps->shape != PS_AGE) {
		ju64(b, ps->json, 1, page_series_value(ps, p) * page);
		return;
	}
	sb_printf(b, "\"%s\":[", ps->json);
	for (i = 0; i < AGE_BUCKETS; i++)
		sb_printf(b, "%s%llu", i ? "," : "", (unsigned long long)
			  (page_series_get(ps, p, i) * page));
	sb_puts(b, "],");
}

static void pages(struct sbuf *b, const char *key, const struct cg_pages *p,
		  uint64_t page)
{
	size_t i;

	sb_printf(b, "\"%s\":{", key);
	for (i = 0; i < page_series_nr; i++)
		page_member(b, &page_series[i], p, page);
	unclose(b);
	sb_puts(b, "},");
}

/* The members of one JSON object of the memory.* values (series.h). */
static void mem_members(struct sbuf *b, const struct cg_mem *m,
			enum mem_group g)
{
	uint64_t u = 0;
	double d = 0;
	size_t i;
	int has;

	for (i = 0; i < mem_series_nr; i++) {
		if (mem_series[i].group != g)
			continue;
		has = mem_series_get(&mem_series[i], m, &u, &d);
		if (mem_series[i].fmt == SF_PCT)
			sb_printf(b, "\"%s\":%.2f,", mem_series[i].json, d);
		else
			ju64(b, mem_series[i].json, has, u);
	}
	unclose(b);
}

static void memory(struct sbuf *b, const struct cg_mem *m)
{
	sb_puts(b, "\"memory\":{");
	mem_members(b, m, MG_MEMORY);
	sb_puts(b, "},\"pressure\":");
	if (!m->has_pressure) {
		sb_puts(b, "null,");
		return;
	}
	sb_putc(b, '{');
	mem_members(b, m, MG_PRESSURE);
	sb_puts(b, "},");
}

/* "idle_for":[B, ...]: bytes idle for at least each tb->secs (stats.h) */
static void idle_for(struct sbuf *b, const struct cg_stat *s,
		     const struct idle_tbuckets *tb)
{
	unsigned i;

	sb_printf(b, "\"%s\":[", idle_for_series.json);
	for (i = 0; i < tb->n; i++)
		sb_printf(b, "%s%llu", i ? "," : "",
			  (unsigned long long)s->idle_for[i]);
	sb_puts(b, "],");
}

/* The registry's fields with a JSON key (fields.c): one place per column. */
static void registry(struct sbuf *b, const struct report *r,
		     const struct cg_stat *s)
{
	struct field_val v;
	int i;

	for (i = 0; i < FIELDS_NR; i++) {
		if (!fields[i].json)
			continue;
		field_get(r, s, (enum field_id)i, &v);
		if (!v.has)
			sb_printf(b, "\"%s\":null,", fields[i].json);
		else if (fields[i].kind == FK_PCT)
			sb_printf(b, "\"%s\":%.2f,", fields[i].json, v.d);
		else if (fields[i].kind == FK_RATE)
			sb_printf(b, "\"%s\":%.3f,", fields[i].json, v.d);
		else
			ju64(b, fields[i].json, 1, v.u);
	}
	sb_printf(b, "\"suggested_high_cycles\":%u,", s->sugg_cycles);
}

static void ws_kind(struct sbuf *b, const struct cg_stat *s)
{
	static const char *const kind_key[PK_NR] = { "anon", "file", "shmem" };
	int k;

	sb_puts(b, "\"working_set_by_kind\":{");
	for (k = 0; k < PK_NR; k++)
		sb_printf(b, "%s\"%s\":%llu", k ? "," : "", kind_key[k],
			  (unsigned long long)s->ws_kind[k]);
	sb_printf(b, "},\"no_swap\":%s,", s->no_swap ? "true" : "false");
}

static void cgroup(struct sbuf *b, const struct report *r,
		   const struct cg_stat *s, uint64_t ps,
		   const struct idle_tbuckets *tb)
{
	sb_putc(b, '{');
	jstr(b, "path", s->path);
	ju64(b, "ino", 1, s->ino);
	if (s->parent < 0)
		sb_puts(b, "\"parent\":null,");
	else
		sb_printf(b, "\"parent\":%d,", s->parent);
	sb_printf(b, "\"depth\":%d,\"pseudo\":%s,\"folded\":%u,", s->depth,
		  s->pseudo ? "true" : "false", s->folded);
	memory(b, &s->mem);
	pages(b, "self", &s->self, ps);
	pages(b, "total", &s->total, ps);
	idle_for(b, s, tb);
	ws_kind(b, s);
	if (!s->pseudo)
		ident_json(b, s->path);
	registry(b, r, s);
	unclose(b);
	sb_puts(b, "},");
}

static void warnings(struct sbuf *b, const struct report *r)
{
	unsigned bit;

	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1) {
		if (!(r->p.warnings & bit))
			continue;
		sb_puts(b, "{");
		jstr(b, "id", report_warning_id(bit));
		jstr(b, "message", report_warning_text(bit));
		unclose(b);
		sb_puts(b, "},");
	}
	unclose(b);
}

/* Bytes counted busy as their page tables were not walked; null: unknown. */
static void skipped(struct sbuf *b, const struct report *r)
{
	if (r->has_skipped)
		sb_printf(b, "\"skipped_bytes\":%llu,",
			  (unsigned long long)r->skipped);
	else
		sb_puts(b, "\"skipped_bytes\":null,");
}

static void head(struct sbuf *b, const struct report *r)
{
	int i;

	sb_puts(b, "{\"idletop\":\"" IDLETOP_VERSION "\",");
	sb_printf(b, "\"cycle\":%llu,\"start\":%.3f,\"end\":%.3f,"
		  "\"period_seconds\":%g,\"cycle_seconds\":%.3f,"
		  "\"cpu_seconds\":%.3f,\"cpu_bound\":%s,",
		  (unsigned long long)r->cycle, r->start, r->end, r->p.period,
		  r->p.cycle_seconds, r->cpu, r->cpu_bound ? "true" : "false");
	sb_printf(b, "\"first_window\":%s,\"steady_period_seconds\":%g,",
		  r->first ? "true" : "false", r->steady);
	sb_printf(b, "\"ws_complete\":%s,\"ws_window_seconds\":%.3f,",
		  r->ws_complete ? "true" : "false",
		  (r->p.ws_cycles ? r->p.ws_cycles : 1) * r->p.cycle_seconds);
	sb_printf(b, "\"errors\":{\"%s\":%llu,\"%s\":%llu},",
		  report_error_id(REPORT_ERR_SCAN),
		  (unsigned long long)r->p.errors[REPORT_ERR_SCAN],
		  report_error_id(REPORT_ERR_TREE),
		  (unsigned long long)r->p.errors[REPORT_ERR_TREE]);
	jstr(b, "source", r->p.source);
	jstr(b, "method", r->p.method ? r->p.method : "");
	sb_printf(b, "\"page_size\":%llu,\"pfns\":%llu,",
		  (unsigned long long)r->p.page_size,
		  (unsigned long long)r->pfns);
	skipped(b, r);
	sb_printf(b, "\"ws_cycles\":%u,\"headroom_pct\":%u,"
		  "\"cgroups_folded\":%zu,\"age_buckets\":[",
		  r->p.ws_cycles, r->p.headroom_pct, r->folded);
	for (i = 0; i < AGE_BUCKETS; i++)
		sb_printf(b, "%s%u", i ? "," : "", age_bucket_min[i]);
	sb_puts(b, "],\"idle_seconds\":[");
	for (i = 0; i < (int)r->p.tb.n; i++)
		sb_printf(b, "%s%g", i ? "," : "", r->p.tb.secs[i]);
	sb_puts(b, "],\"warnings\":[");
	warnings(b, r);
	sb_puts(b, "],");
}

int batch_json(FILE *f, const struct report *r)
{
	struct sbuf b;
	size_t i;

	sb_init(&b);
	head(&b, r);
	sb_puts(&b, "\"cgroups\":[");
	for (i = 0; i < r->n; i++)
		cgroup(&b, r, &r->cg[i], r->p.page_size, &r->p.tb);
	unclose(&b);
	sb_puts(&b, "]}\n");
	return sb_write(f, &b);
}
