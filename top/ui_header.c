// SPDX-License-Identifier: GPL-2.0
/*
 * ui_header.c - the header lines above every screen: host and source,
 * the cycle in progress and own CPU, the memory summary, the breadcrumb
 * of the zoom root with sort, filter and units; then one line per known
 * reason the numbers are wrong (report_warning_short()), in red.
 */
#include <curses.h>
#include "ui.h"
#include "version.h"

static void line(int y, int attr, struct sbuf *b)
{
	int cols = COLS;

	attrset(attr);
	ui_fill(y, 0, cols);
	ui_put(y, 0, cols, sb_str(b));
	attrset(A_NORMAL);
	sb_reset(b);
}

/*
 * What is measured, and what is shown: a frozen report, or one of
 * another period than the measurement in progress (after d).
 */
static void cycle_line(struct ui *u, struct sbuf *b)
{
	const struct engine *e = u->e;
	struct engine_progress p;

	engine_progress(e, &p);
	if (!ui_measured(u))
		sb_printf(b, "measuring%s %3.0f%%, ", u->utf8 ? "\u2026" : "...",
			  100 * p.done);
	else if (p.fresh)
		sb_printf(b, "new period: %3.0f%%, ", 100 * p.done);
	else
		sb_printf(b, "cycle %llu: %3.0f%%, ",
			  (unsigned long long)p.cycle, 100 * p.done);
	fmt_duration(b, p.left);
	sb_puts(b, " left   period ");
	fmt_duration(b, p.period);
	sb_printf(b, "   cpu %.1f%%", u->cpu_pct);
	if (u->have_rep && u->rep->cpu_bound)
		sb_puts(b, " (stretched by --cpu)");
	if (ui_measured(u) && (u->paused || u->rep->p.period != p.period)) {
		sb_printf(b, "   [%s: cycle %llu of period ", u->paused ?
			  "FROZEN" : "showing", (unsigned long long)u->rep->cycle);
		fmt_duration(b, u->rep->p.period);
		if (e->held.cycle > u->rep->cycle)
			sb_printf(b, ", %llu newer", (unsigned long long)
				  (e->held.cycle - u->rep->cycle));
		sb_putc(b, ']');
	} else if (u->paused) {
		sb_puts(b, "   [FROZEN]");
	}
}

static void mem_line(struct ui *u, struct sbuf *b)
{
	const struct cg_stat *r = u->have_rep && u->rep->n ? &u->rep->cg[0] : NULL;

	sb_puts(b, "Mem total ");
	if (u->mem_total)
		ui_fmt_size(u, b, u->mem_total);
	else
		sb_putc(b, '?');
	if (!r)
		return;
	sb_puts(b, "  resident ");
	ui_fmt_size(u, b, view_value(u, r, C_RES));
	if (!ui_measured(u)) {
		double left, f = ui_progress(u, &left);

		sb_printf(b, "  idle measuring%s %.0f%%", u->utf8 ? "\u2026" :
			  "...", 100 * f);
		return;
	}
	sb_puts(b, "  idle ");
	ui_fmt_size(u, b, r->idle);
	sb_printf(b, " (%.1f%%)  working set ", r->idle_pct);
	ui_fmt_size(u, b, r->working_set);
}

static void crumb_line(struct ui *u, struct sbuf *b)
{
	const char *path = u->have_rep && u->rep->n ?
			   u->rep->cg[u->view.root].path : "/";
	const char *p;

	sb_puts(b, "/");	/* then " > component", each escaped */
	for (p = path + 1; *p;) {
		const char *e = p;
		struct sbuf c;

		while (*e && *e != '/')
			e++;
		sb_puts(b, u->utf8 ? " \u203a " : " > ");
		sb_init(&c);
		sb_put(&c, p, (size_t)(e - p));
		ui_esc(u, b, sb_str(&c));
		sb_free(&c);
		p = *e ? e + 1 : e;
	}
	sb_printf(b, "   [sort: %s%s, units: %s", view_col_name(u->sort),
		  u->sort_rev ? " rev" : "", ui_unit_name(u->unit));
	if (u->filter) {
		sb_puts(b, ", filter: ");
		ui_esc(u, b, u->filter);
	}
	sb_putc(b, ']');
}

/* Warnings of the measurement in progress (the engine's latest look). */
static unsigned warnings(const struct ui *u)
{
	return u->e ? u->e->params.warnings : 0;	/* none in test_view */
}

int header_rows(const struct ui *u)
{
	unsigned bit, n = 4;

	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1)
		n += !!(warnings(u) & bit);
	return (int)n;
}

static void warning_lines(struct ui *u, struct sbuf *b)
{
	unsigned bit;
	int y = 4;

	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1) {
		if (!(warnings(u) & bit))
			continue;
		sb_puts(b, report_warning_short(bit));
		line(y++, ui_attr(u, CP_HOT) | A_BOLD, b);
	}
}

void header_draw(struct ui *u)
{
	struct sbuf b;

	sb_init(&b);
	sb_printf(&b, "idletop %s   host ", IDLETOP_VERSION);
	ui_esc(u, &b, u->host ? u->host : "?");
	sb_puts(&b, "   kernel ");
	ui_esc(u, &b, u->kernel ? u->kernel : "?");
	sb_printf(&b, "   source %s (%s)", idlesrc_kind_name(u->sc->src.kind),
		  idlesrc_method(&u->sc->src));
	line(0, ui_attr(u, CP_TITLE), &b);
	cycle_line(u, &b);
	line(1, A_NORMAL, &b);
	mem_line(u, &b);
	line(2, A_NORMAL, &b);
	crumb_line(u, &b);
	line(3, ui_attr(u, CP_TITLE), &b);
	warning_lines(u, &b);
	sb_free(&b);
}
