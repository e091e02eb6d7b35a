// SPDX-License-Identifier: GPL-2.0
/*
 * ui_header.c - the header lines above every screen: host and source,
 * the cycle in progress and own CPU, the memory summary (and what the
 * kernel counted busy as it could not walk it), the breadcrumb
 * of the zoom root with sort, filter and units; then one line per known
 * reason the numbers are wrong (report_warning_short()), in red.
 */
#include <curses.h>
#include "ui.h"
#include "version.h"

static void put_line(int y, int attr, struct sbuf *b)
{
	int cols = COLS;

	attrset(attr);
	ui_fill(y, 0, cols);
	ui_put(y, 0, cols, sb_str(b));
	attrset(A_NORMAL);
	sb_reset(b);
}

static const char *ell(const struct ui *u)
{
	return u->t.utf8 ? "\u2026" : "...";
}

/* What the report shown measured, when it is not what is measured now. */
static void shown_label(struct ui *u, struct sbuf *b,
			const struct engine_progress *p)
{
	const struct report *r = u->rep;

	if (!ui_measured(u)) {
		if (u->paused)
			sb_puts(b, "   [FROZEN]");
		return;
	}
	if (r->first && !u->paused) {
		sb_puts(b, "   [first window: idle over ");
		fmt_duration(b, r->p.period);
		sb_putc(b, ']');
		return;
	}
	if (!u->paused && r->p.period == p->period)
		return;
	sb_printf(b, "   [%s: cycle %llu of period ", u->paused ?
		  "FROZEN" : "showing", (unsigned long long)r->cycle);
	fmt_duration(b, r->p.period);
	if (p->newer)
		sb_printf(b, ", %llu newer", (unsigned long long)p->newer);
	sb_putc(b, ']');
}

/*
 * What is measured (the first window, a new period, a cycle), and what
 * is shown: a frozen report, the first window's, or one of another
 * period than the measurement in progress (after w).
 */
static void cycle_line(struct ui *u, struct sbuf *b)
{
	struct engine_progress p;

	engine_progress(u->e, &p);
	if (!ui_measured(u))
		sb_printf(b, "measuring%s %3.0f%%, ", ell(u), 100 * p.done);
	else if (u->rep->first && p.fresh)
		sb_printf(b, "period starting: %3.0f%%, ", 100 * p.done);
	else if (p.fresh)
		sb_printf(b, "new period: %3.0f%%, ", 100 * p.done);
	else
		sb_printf(b, "cycle %llu: %3.0f%%, ",
			  (unsigned long long)p.cycle, 100 * p.done);
	fmt_duration(b, p.left);
	sb_puts(b, " left   ");
	if (p.first) {
		sb_puts(b, "first window ");
		fmt_duration(b, p.period);
		sb_puts(b, ", then ");
	}
	sb_puts(b, "period ");
	fmt_duration(b, p.steady);
	if (ui_measured(u) && u->rep->cpu_bound)
		sb_puts(b, " (stretched by --cpu)");
	shown_label(u, b, &p);	/* before the rest: narrow terminals */
	sb_puts(b, "   refresh ");
	fmt_duration(b, u->refresh_gap > u->delay ? u->refresh_gap : u->delay);
	sb_printf(b, "   cpu %.1f%%", u->cpu_pct);
}

static void mem_line(struct ui *u, struct sbuf *b)
{
	const struct cg_stat *r = ui_have_rep(u) ? &u->rep->cg[0] : NULL;
	struct engine_progress p;

	sb_puts(b, "Mem total ");
	if (u->host.mem_total)
		ui_fmt_size(u, b, u->host.mem_total);
	else
		sb_putc(b, '?');
	if (!r)
		return;
	sb_puts(b, "  resident ");
	field_format(b, u->rep, r, F_RES, u->vs.unit, u->t.utf8);
	if (!ui_measured(u)) {
		engine_progress(u->e, &p);
		sb_printf(b, "  idle measuring%s %.0f%%", ell(u), 100 * p.done);
		return;
	}
	sb_puts(b, "  idle ");
	ui_fmt_size(u, b, r->idle);
	sb_printf(b, " (%.1f%%)  working set ", r->idle_pct);
	ui_fmt_size(u, b, r->working_set);
	if (u->rep->has_skipped) {	/* last: a narrow screen cuts it */
		sb_puts(b, "  skipped ");
		ui_fmt_size(u, b, u->rep->skipped);
	}
}

static void crumb_line(struct ui *u, struct sbuf *b)
{
	const char *path = ui_have_rep(u) ? u->rep->cg[u->view.root].path :
			   "/";
	const char *p;

	sb_puts(b, "/");	/* then " > component", each escaped */
	for (p = path + 1; *p;) {
		const char *e = p;
		struct sbuf c;

		while (*e && *e != '/')
			e++;
		sb_puts(b, u->t.utf8 ? " \u203a " : " > ");
		sb_init(&c);
		sb_put(&c, p, (size_t)(e - p));
		ui_esc(u, b, sb_str(&c));
		sb_free(&c);
		p = *e ? e + 1 : e;
	}
	sb_printf(b, "   [%ssort: %s%s, units: %s", u->vs.flat ? "flat, " : "",
		  view_col_name(u->vs.sort), u->vs.sort_rev ? " rev" : "",
		  ui_unit_name(u->vs.unit));
	if (u->vs.filter) {
		sb_puts(b, ", filter: ");
		ui_esc(u, b, u->vs.filter);
	}
	sb_putc(b, ']');
}

/* Warnings of the measurement in progress (the engine's latest look). */
static unsigned warning_bits(const struct ui *u)
{
	return u->e ? engine_params(u->e)->warnings : 0;	/* none in test_view */
}

int header_rows(const struct ui *u)
{
	unsigned bit, n = 4;

	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1)
		n += !!(warning_bits(u) & bit);
	return (int)n;
}

static void warning_lines(struct ui *u, struct sbuf *b)
{
	unsigned bit;
	int y = 4;

	for (bit = 1; bit & REPORT_WARN_ALL; bit <<= 1) {
		if (!(warning_bits(u) & bit))
			continue;
		sb_puts(b, report_warning_short(bit));
		put_line(y++, ui_attr(u, CP_HOT) | A_BOLD, b);
	}
}

void header_draw(struct ui *u)
{
	struct engine_progress p;
	struct sbuf b;

	engine_progress(u->e, &p);
	sb_init(&b);
	sb_printf(&b, "idletop %s   host ", IDLETOP_VERSION);
	ui_esc(u, &b, u->host.name ? u->host.name : "?");
	sb_puts(&b, "   kernel ");
	ui_esc(u, &b, u->host.kernel ? u->host.kernel : "?");
	sb_printf(&b, "   source %s (%s)", p.source, p.method);
	put_line(0, ui_attr(u, CP_TITLE), &b);
	cycle_line(u, &b);
	put_line(1, A_NORMAL, &b);
	mem_line(u, &b);
	put_line(2, A_NORMAL, &b);
	crumb_line(u, &b);
	put_line(3, ui_attr(u, CP_TITLE), &b);
	warning_lines(u, &b);
	sb_free(&b);
}
