// SPDX-License-Identifier: GPL-2.0
/* batch_text.c - top -b style text report */
#include "batch.h"
#include "fmt.h"
#include "ident.h"

static void warnings(struct sbuf *b, const struct report *r)
{
	unsigned bit;

	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1)
		if (r->p.warnings & bit)
			sb_printf(b, "WARNING: %s\n", report_warning_text(bit));
}

/* Refreshes that failed and were retried, when there were any. */
static void errors(struct sbuf *b, const struct report *r)
{
	int i;

	for (i = 0; i < REPORT_ERR_NR && !r->p.errors[i]; i++)
		;
	if (i == REPORT_ERR_NR)
		return;
	sb_puts(b, "ERRORS (retried, since start):");
	for (i = 0; i < REPORT_ERR_NR; i++)
		sb_printf(b, " %s %llu", report_error_id(i),
			  (unsigned long long)r->p.errors[i]);
	sb_putc(b, '\n');
}

/* What the report measured: a first window says so. */
static void window(struct sbuf *b, const struct report *r)
{
	sb_printf(b, "period %gs", r->p.period);
	if (r->first)
		sb_printf(b, ", first window, then %gs", r->steady);
}

/* What the kernel counted busy as it could not walk it, when known. */
static void skipped(struct sbuf *b, const struct report *r)
{
	if (!r->has_skipped)
		return;
	sb_puts(b, ", skipped ");
	field_fmt_size(b, r->skipped, U_AUTO, r->p.page_size);
}

static void header(struct sbuf *b, const struct report *r,
		   const struct field_set *set)
{
	struct sbuf d;
	size_t i;

	sb_init(&d);
	fmt_duration(&d, r->p.cycle_seconds);
	sb_printf(b, "idletop - cycle %llu, %s (", (unsigned long long)r->cycle,
		  sb_str(&d));
	window(b, r);
	sb_printf(b, "%s), source %s (%s), %llu pfns x %llu B, cpu %.2fs",
		  r->cpu_bound ? ", stretched by --cpu" : "", r->p.source,
		  r->p.method ? r->p.method : "?",
		  (unsigned long long)r->pfns,
		  (unsigned long long)r->p.page_size, r->cpu);
	skipped(b, r);
	sb_putc(b, '\n');
	warnings(b, r);
	errors(b, r);
	sb_printf(b, "WORKSET: resident less pages idle >= %u cycle(s); "
		  "LOW* = WORKSET, HIGH* = WORKSET (no swap: >= anon+shmem) "
		  "+ %u%% + kernel (4 MiB units), none for slices",
		  r->p.ws_cycles, r->p.headroom_pct);
	if (!r->ws_complete)
		sb_printf(b, "; INCOMPLETE: ages reach back %llu of %u "
			  "cycle(s), WORKSET reads high",
			  (unsigned long long)(r->first ? 0 : r->reach),
			  r->p.ws_cycles);
	sb_putc(b, '\n');
	for (i = 0; i < set->n; i++)
		if (!(fields[set->id[i]].flags & FF_NOTEXT))
			sb_printf(b, "%*s", fields[set->id[i]].width,
				  fields[set->id[i]].title);
	sb_puts(b, "  CGROUP\n");
	sb_free(&d);
}

static void row(struct sbuf *b, const struct report *r,
		const struct cg_stat *s, const struct field_set *set)
{
	struct sbuf c;
	size_t i;

	sb_init(&c);
	for (i = 0; i < set->n; i++) {
		const struct field *f = &fields[set->id[i]];

		if (f->flags & FF_NOTEXT)
			continue;
		sb_reset(&c);
		field_format(&c, r, s, set->id[i], U_AUTO, 0);
		sb_printf(b, "%*s", f->width, sb_str(&c));
	}
	if (c.oom)
		b->oom = 1;
	sb_free(&c);
	sb_puts(b, "  ");
	fmt_esc_text(b, s->path);
	if (!s->pseudo)
		ident_text(b, s->path);
	sb_putc(b, '\n');
}

int batch_text_fields(FILE *f, const struct report *r,
		      const struct field_set *set)
{
	struct field_set def;
	struct sbuf b;
	size_t i;

	if (!set) {
		fields_default(&def, FF_TEXT);
		set = &def;
	}
	sb_init(&b);
	header(&b, r, set);
	for (i = 0; i < r->n; i++)
		row(&b, r, &r->cg[i], set);
	sb_putc(&b, '\n');
	return sb_write(f, &b);
}

int batch_text(FILE *f, const struct report *r)
{
	return batch_text_fields(f, r, NULL);
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
