// SPDX-License-Identifier: GPL-2.0
/* batch_text.c - top -b style text report */
#include <errno.h>
#include "batch.h"
#include "fmt.h"
#include "ident.h"

static void col_bytes(struct sbuf *b, uint64_t v)
{
	struct sbuf t;

	sb_init(&t);
	fmt_bytes(&t, v);
	sb_printf(b, " %7s", sb_str(&t));
	sb_free(&t);
}

static void col_limit(struct sbuf *b, int has, uint64_t v)
{
	if (!has)
		sb_printf(b, " %7s", "-");
	else if (v == CG_NOLIMIT)
		sb_printf(b, " %7s", "max");
	else
		col_bytes(b, v);
}

static void warnings(struct sbuf *b, const struct report *r)
{
	unsigned bit;

	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1)
		if (r->p.warnings & bit)
			sb_printf(b, "WARNING: %s\n", report_warning_text(bit));
}

static void header(struct sbuf *b, const struct report *r)
{
	struct sbuf d;

	sb_init(&d);
	fmt_duration(&d, r->end - r->start);
	sb_printf(b, "idletop - cycle %llu, %s (period %gs%s), source %s "
		  "(%s), %llu pfns x %llu B, cpu %.2fs\n",
		  (unsigned long long)r->cycle, sb_str(&d), r->p.period,
		  r->cpu_bound ? ", stretched by --cpu" : "", r->p.source,
		  r->p.method ? r->p.method : "?",
		  (unsigned long long)r->pfns,
		  (unsigned long long)r->p.page_size, r->cpu);
	warnings(b, r);
	sb_printf(b, "WS: resident less pages idle >= %u cycle(s); "
		  "LOW* = WS, HIGH* = WS + %u%% (4 MiB units)\n",
		  r->p.ws_cycles, r->p.headroom_pct);
	sb_printf(b, "%7s %7s %7s %7s %7s %5s %7s %7s %7s %7s %7s  %s\n",
		  "RES", "ANON", "FILE", "SHMEM", "IDLE", "IDLE%", "WS",
		  "LOW*", "HIGH*", "CURRENT", "HIGH", "CGROUP");
	sb_free(&d);
}

static void row(struct sbuf *b, const struct cg_stat *s, uint64_t ps)
{
	col_bytes(b, s->resident);
	col_bytes(b, s->total.resident[PK_ANON] * ps);
	col_bytes(b, s->total.resident[PK_FILE] * ps);
	col_bytes(b, s->total.resident[PK_SHMEM] * ps);
	col_bytes(b, s->idle);
	sb_printf(b, " %5.1f", s->idle_pct);
	col_bytes(b, s->working_set);
	col_bytes(b, s->sugg_low);
	col_bytes(b, s->sugg_high);
	col_limit(b, s->mem.has_current, s->mem.current);
	col_limit(b, s->mem.has_high, s->mem.high);
	sb_puts(b, "  ");
	fmt_esc_text(b, s->path);
	if (!s->pseudo)
		ident_text(b, s->path);
	sb_putc(b, '\n');
}

int batch_text(FILE *f, const struct report *r)
{
	struct sbuf b;
	size_t i;
	int rc = 0;

	sb_init(&b);
	header(&b, r);
	for (i = 0; i < r->n; i++)
		row(&b, &r->cg[i], r->p.page_size);
	sb_putc(&b, '\n');
	if (b.oom) {
		errno = ENOMEM;
		rc = -1;
	} else if (fwrite(b.p, 1, b.len, f) != b.len || fflush(f)) {
		rc = -1;
	}
	sb_free(&b);
	return rc;
}

int batch_print(FILE *f, const struct report *r, enum out_format fmt)
{
	switch (fmt) {
	case FMT_JSON:
		return batch_json(f, r);
	case FMT_OPENMETRICS:
		return batch_openmetrics(f, r);
	case FMT_PROMETHEUS:
		return batch_prometheus(f, r);
	default:
		return batch_text(f, r);
	}
}
