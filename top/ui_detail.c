// SPDX-License-Identifier: GPL-2.0
/*
 * ui_detail.c - one cgroup in detail: idle-time histogram ("idle for >= T"
 * over the --idle-buckets, from the cycles' clocks), reaccess by idle
 * age, memory.stat breakdown, limits and suggestions, the processes of
 * its subtree with their RSS and cgroup.  One page of lines (struct
 * pager, as the help).
 */
#include <curses.h>
#include <string.h>
#include "ui.h"

#define BAR 20

static void put_size(struct pager *pg, const char *label, uint64_t v)
{
	sb_puts(&pg->b, label);
	ui_fmt_size(pg->u, &pg->b, v);
}

static void put_limit(struct pager *pg, const char *label, int has,
		      uint64_t v)
{
	sb_puts(&pg->b, label);
	field_fmt_limit(&pg->b, has, v, pg->u->vs.unit,
			pg->u->rep->p.page_size);
}

/* label, then the field's cell as the table shows it */
static void put_field(struct pager *pg, const char *label,
		      const struct cg_stat *s, enum field_id f)
{
	sb_puts(&pg->b, label);
	field_format(&pg->b, pg->u->rep, s, f, pg->u->vs.unit,
		     pg->u->t.utf8);
}

static void summary(struct pager *pg, const struct cg_stat *s)
{
	sb_puts(&pg->b, "cgroup ");
	ui_esc(pg->u, &pg->b, s->path);
	pager_emit(pg, ui_attr(pg->u, CP_TITLE));
	put_field(pg, "  resident ", s, F_RES);
	put_field(pg, "  (anon ", s, F_ANON);
	put_field(pg, ", file ", s, F_FILE);
	put_field(pg, ", shmem ", s, F_SHMEM);
	sb_putc(&pg->b, ')');
	if (ui_measured(pg->u)) {
		put_field(pg, "  idle ", s, F_IDLE);
		put_field(pg, " (", s, F_IDLEPCT);
		put_field(pg, "%)  working set ", s, F_WS);
	}
	pager_emit(pg, A_NORMAL);
	put_field(pg, "  memory.current ", s, F_CURRENT);
	put_field(pg, " (", s, F_LIMITPCT);
	put_field(pg, "% of the limit)  PSI some avg10 ", s, F_PSI);
	put_field(pg, "%  refaults/s ", s, F_REFAULTS);
	put_field(pg, "  swap ", s, F_SWAP);
	pager_emit(pg, A_NORMAL);
}

/*
 * Idle time, cumulative over the time buckets (--idle-buckets, the
 * exporter's idle_for buckets): the time comes from the cycles' clocks,
 * so a cycle stretched by --cpu counts for what it took; the least age
 * in cycles that reached each bucket is beside it.
 */
static void histogram(struct pager *pg, const struct cg_stat *s)
{
	const struct report *r = pg->u->rep;
	uint64_t res = s->resident;
	struct sbuf d;
	unsigned i;
	int k, fill;

	sb_puts(&pg->b, "Idle time (cycle ");
	fmt_duration(&pg->b, r->p.cycle_seconds > 0 ? r->p.cycle_seconds :
		     r->p.period);
	sb_puts(&pg->b, ")");
	pager_emit(pg, ui_attr(pg->u, CP_TITLE));
	if (!ui_measured(pg->u)) {
		sb_puts(&pg->b, "  measuring: no complete cycle yet");
		pager_emit(pg, A_NORMAL);
		return;
	}
	if (!r->p.tb.n) {
		sb_puts(&pg->b, "  no idle time buckets");
		pager_emit(pg, A_NORMAL);
		return;
	}
	sb_init(&d);
	for (i = 0; i < r->p.tb.n; i++) {
		sb_reset(&d);
		fmt_duration(&d, r->p.tb.secs[i]);
		sb_puts(&pg->b, "  idle for >= ");
		ui_pad(&pg->b, sb_str(&d), 6);
		sb_putc(&pg->b, ' ');
		if (!r->tb_min_age[i]) {
			sb_puts(&pg->b, "not reached yet");
			pager_emit(pg, ui_attr(pg->u, CP_DIM));
			continue;
		}
		fill = res ? (int)((double)s->idle_for[i] / (double)res * BAR +
				   0.5) : 0;
		sb_putc(&pg->b, '[');
		for (k = 0; k < BAR; k++)
			sb_putc(&pg->b, k < fill ? '#' : '.');
		put_size(pg, "]  ", s->idle_for[i]);
		sb_printf(&pg->b, "  (>= %u cycle%s)", r->tb_min_age[i],
			  r->tb_min_age[i] > 1 ? "s" : "");
		pager_emit(pg, A_NORMAL);
	}
	sb_free(&d);
}

/*
 * Reaccess ("promotion"): what a cut at the working set of K cycles
 * would have cost this cycle, bytes found accessed after >= K idle
 * cycles, and the same per minute as a share of that working set.
 */
static void reaccess(struct pager *pg, const struct cg_stat *s)
{
	const struct report *r = pg->u->rep;
	uint64_t re;
	double pct;
	int i;

	sb_puts(&pg->b, "Reaccess this cycle (accessed again after >= K idle "
		"cycles; per minute, % of the working set at K)");
	pager_emit(pg, ui_attr(pg->u, CP_TITLE));
	if (!ui_measured(pg->u))
		return;
	for (i = 0; i < AGE_BUCKETS; i++) {
		stats_reaccess(r, s, i, &re, &pct);
		sb_printf(&pg->b, "  K >= %2u: ", age_bucket_min[i]);
		ui_fmt_size(pg->u, &pg->b, re);
		sb_printf(&pg->b, "  %.3f%%/min", pct);
		pager_emit(pg, A_NORMAL);
	}
}

static void memstat(struct pager *pg, const struct cg_mem *m)
{
	sb_puts(&pg->b, "memory.stat");
	pager_emit(pg, ui_attr(pg->u, CP_TITLE));
	if (!m->has_stat) {
		sb_puts(&pg->b, "  (no memory.stat)");
		pager_emit(pg, A_NORMAL);
		return;
	}
	put_size(pg, "  anon ", m->anon);
	put_size(pg, "  file ", m->file);
	put_size(pg, "  shmem ", m->shmem);
	put_size(pg, "  file_mapped ", m->file_mapped);
	put_size(pg, "  unevictable ", m->unevictable);
	pager_emit(pg, A_NORMAL);
	put_size(pg, "  active_anon ", m->active_anon);
	put_size(pg, "  inactive_anon ", m->inactive_anon);
	put_size(pg, "  active_file ", m->active_file);
	put_size(pg, "  inactive_file ", m->inactive_file);
	pager_emit(pg, A_NORMAL);
	put_size(pg, "  anon_thp ", m->anon_thp);
	put_size(pg, "  file_thp ", m->file_thp);
	put_size(pg, "  shmem_thp ", m->shmem_thp);
	if (m->has_current)
		put_size(pg, "  memory.current ", m->current);
	pager_emit(pg, A_NORMAL);
	if (m->has_pressure) {
		sb_printf(&pg->b, "  pressure some %.2f/%.2f/%.2f  full "
			  "%.2f/%.2f/%.2f (avg10/60/300 %%)", m->some_avg10,
			  m->some_avg60, m->some_avg300, m->full_avg10,
			  m->full_avg60, m->full_avg300);
		pager_emit(pg, A_NORMAL);
	}
}

static void limits(struct pager *pg, const struct cg_stat *s)
{
	const struct cg_mem *m = &s->mem;

	sb_puts(&pg->b, "Limits");
	pager_emit(pg, ui_attr(pg->u, CP_TITLE));
	put_limit(pg, "  memory.low ", m->has_low, m->low);
	put_limit(pg, "  memory.high ", m->has_high, m->high);
	put_limit(pg, "  memory.max ", m->has_max, m->max);
	pager_emit(pg, A_NORMAL);
	if (!ui_measured(pg->u))
		return;
	if (s->no_sugg) {
		sb_puts(&pg->b, "  suggested: none for the root and slices");
		pager_emit(pg, A_NORMAL);
		return;
	}
	put_size(pg, "  suggested: memory.low ", s->sugg_low);
	put_size(pg, "  memory.high ", s->sugg_high);
	if (s->sugg_cycles)
		sb_printf(&pg->b, "  (working set at K=%u", s->sugg_cycles);
	else
		sb_puts(&pg->b, "  (resident: reaccess too high at every K");
	sb_printf(&pg->b, "%s + %u%%", s->no_swap ? ", no swap: at least "
		  "anon+shmem," : "", pg->u->rep->p.headroom_pct);
	put_size(pg, " + kernel ", s->kernel);
	sb_putc(&pg->b, ')');
	pager_emit(pg, A_NORMAL);
}

static void proc_line(struct pager *pg, const struct proc_ent *p)
{
	struct sbuf rss;

	sb_init(&rss);
	if (p->rss == UINT64_MAX)
		sb_puts(&rss, "-");
	else
		ui_fmt_size(pg->u, &rss, p->rss);
	sb_printf(&pg->b, "  %8ld %9s  ", p->pid, sb_str(&rss));
	ui_esc(pg->u, &pg->b, p->name ? p->name : "?");
	if (p->cg && *p->cg) {
		sb_puts(&pg->b, "  [");
		ui_esc(pg->u, &pg->b, p->cg);
		sb_putc(&pg->b, ']');
	}
	sb_free(&rss);
	pager_emit(pg, A_NORMAL);
}

static void procs(struct pager *pg)
{
	const struct proc_list *l = &pg->u->detail.procs;
	size_t i;

	sb_printf(&pg->b, "Processes of the subtree (%zu)", l->n);
	pager_emit(pg, ui_attr(pg->u, CP_TITLE));
	if (l->err) {
		sb_printf(&pg->b, "  cgroup.procs of %zu cgroup(s): %s",
			  l->nerr, strerror(l->err));
		pager_emit(pg, A_NORMAL);
	}
	if (l->n) {
		sb_printf(&pg->b, "  %8s %9s  %s", "PID", "RSS",
			  "COMMAND  [cgroup below this one]");
		pager_emit(pg, ui_attr(pg->u, CP_HEADER));
	}
	for (i = 0; i < l->n; i++)
		proc_line(pg, &l->v[i]);
}

void detail_draw(struct ui *u)
{
	const struct cg_stat *s = view_selected(u);
	struct pager pg;

	if (!s) {
		u->screen = S_TREE;
		return;
	}
	pager_begin(&pg, u, &u->detail.scroll);
	summary(&pg, s);
	pager_emit(&pg, A_NORMAL);
	histogram(&pg, s);
	pager_emit(&pg, A_NORMAL);
	memstat(&pg, &s->mem);
	pager_emit(&pg, A_NORMAL);
	limits(&pg, s);
	pager_emit(&pg, A_NORMAL);
	reaccess(&pg, s);
	pager_emit(&pg, A_NORMAL);
	procs(&pg);
	pager_end(&pg);
}

int detail_key(struct ui *u, enum action a)
{
	if (a == A_BACK) {
		u->screen = S_TREE;
		procs_free(&u->detail.procs);
		return 1;
	}
	return pager_key(u, &u->detail.scroll, a);
}
