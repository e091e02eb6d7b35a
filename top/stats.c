// SPDX-License-Identifier: GPL-2.0
/* stats.c - join cycle counts with the cgroup tree; derived numbers */
#include <stdlib.h>
#include <string.h>
#include "acct.h"
#include "cgroup.h"
#include "ident.h"
#include "scan.h"
#include "stats.h"

void cg_pages_add(struct cg_pages *dst, const struct cg_pages *src)
{
	int i;

	for (i = 0; i < PK_NR; i++) {
		dst->resident[i] += src->resident[i];
		dst->idle[i] += src->idle[i];
		dst->ws_idle[i] += src->ws_idle[i];
	}
	for (i = 0; i < AGE_BUCKETS; i++) {
		dst->age[i] += src->age[i];
		dst->reaccess[i] += src->reaccess[i];
	}
	for (i = 0; i < IDLE_TBUCKETS_MAX; i++)
		dst->idle_t[i] += src->idle_t[i];
	dst->unevictable += src->unevictable;
}

uint64_t cg_pages_resident(const struct cg_pages *p)
{
	return p->resident[PK_ANON] + p->resident[PK_FILE] +
	       p->resident[PK_SHMEM];
}

uint64_t cg_pages_idle(const struct cg_pages *p)
{
	return p->idle[PK_ANON] + p->idle[PK_FILE] + p->idle[PK_SHMEM];
}

uint64_t cg_pages_ws_idle(const struct cg_pages *p)
{
	return p->ws_idle[PK_ANON] + p->ws_idle[PK_FILE] +
	       p->ws_idle[PK_SHMEM];
}

uint64_t round_up(uint64_t v, uint64_t to)
{
	if (!to || v > UINT64_MAX - to)
		return v;
	return (v + to - 1) / to * to;
}

uint64_t stats_reaccess_ge(const struct cg_pages *p, int bucket)
{
	uint64_t n = 0;
	int i;

	for (i = bucket; i < AGE_BUCKETS; i++)
		n += p->reaccess[i];
	return n;
}

uint64_t stats_idle_ge(const struct cg_pages *p, int bucket)
{
	uint64_t n = 0;
	int i;

	for (i = bucket; i < AGE_BUCKETS; i++)
		n += p->age[i];
	return n;
}

void stats_reaccess(const struct report *r, const struct cg_stat *s,
		    int bucket, uint64_t *bytes, double *pct_min)
{
	double cyc = r->p.cycle_seconds > 0 ? r->p.cycle_seconds :
		     r->p.period, ws;
	uint64_t ps = r->p.page_size;
	uint64_t idle = stats_idle_ge(&s->total, bucket) * ps;

	*bytes = stats_reaccess_ge(&s->total, bucket) * ps;
	ws = (double)(s->resident > idle ? s->resident - idle : 0);
	*pct_min = ws > 0 && cyc > 0 ?
		   100.0 * (double)*bytes * 60 / cyc / ws : 0;
}

/* Pages idle for >= k cycles, k = ws_cycles or a bucket's lower bound. */
static uint64_t idle_ge(const struct cg_pages *p, unsigned k, unsigned ws)
{
	int i = 0;

	if (k == ws)
		return cg_pages_ws_idle(p);
	while (i < AGE_BUCKETS && age_bucket_min[i] < k)
		i++;
	return stats_idle_ge(p, i);
}

/*
 * K for the suggested memory.high (stats.h): the smallest cut whose
 * reaccess stays under STATS_PROMO_PERMILLE per mille of its working set
 * a minute.  Reaccess after >= K cycles counts every bucket that holds
 * ages >= K (a K inside a bucket counts all of it: the safe side).
 */
static unsigned sugg_cut(const struct cg_stat *s, const struct report_params *p,
			 uint64_t res, uint64_t *ws)
{
	double per_min = p->cycle_seconds > 0 ? 60 / p->cycle_seconds : 1;
	unsigned wsc = p->ws_cycles ? p->ws_cycles : 1, k = wsc;
	int b;

	for (;;) {
		uint64_t idle = idle_ge(&s->total, k, wsc), re;

		b = age_bucket(k);
		while (b + 1 < AGE_BUCKETS && age_bucket_min[b + 1] <= k)
			b++;
		re = stats_reaccess_ge(&s->total, b);
		*ws = res - (idle <= res ? idle : res);
		if ((double)re * per_min * 1000 <=
		    (double)*ws * STATS_PROMO_PERMILLE)
			return k;
		if (b + 1 >= AGE_BUCKETS)
			break;
		k = age_bucket_min[b + 1];
	}
	*ws = res;
	return 0;
}

static void derive_limit(struct cg_stat *s)
{
	const struct cg_mem *m = &s->mem;
	uint64_t h = m->has_high ? m->high : CG_NOLIMIT;
	uint64_t x = m->has_max ? m->max : CG_NOLIMIT;
	uint64_t lim = h < x ? h : x;

	s->has_limit_pct = m->has_current && lim != CG_NOLIMIT && lim > 0;
	s->limit_pct = s->has_limit_pct ?
		       100.0 * (double)m->current / (double)lim : 0;
}

/* a - b, at least 0 */
static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * Suggested memory.high (stats.h): the base with headroom, plus what
 * memory.current counts and the scan does not see.
 */
static void derive_high(struct cg_stat *s, const struct report_params *p,
			uint64_t cut)
{
	uint64_t ps = p->page_size, base = cut * ps;
	const struct cg_pages *t = &s->total;
	double high;

	s->kernel = s->mem.has_current ? sub0(s->mem.current, s->resident) : 0;
	s->sugg_floor = s->no_swap ?
			(t->resident[PK_ANON] + t->resident[PK_SHMEM]) * ps : 0;
	if (base < s->sugg_floor)
		base = s->sugg_floor;
	high = (double)base * (100.0 + p->headroom_pct) / 100.0 +
	       (double)s->kernel;
	s->sugg_high = round_up(high > 1.8e19 ? UINT64_MAX / 2 :
				(uint64_t)high, STATS_HIGH_ROUND);
	if (s->sugg_high < STATS_HIGH_ROUND)
		s->sugg_high = STATS_HIGH_ROUND;
}

void stats_derive(struct cg_stat *s, const struct report_params *p)
{
	uint64_t ps = p->page_size, res = cg_pages_resident(&s->total);
	uint64_t ws = sub0(res, cg_pages_ws_idle(&s->total));
	uint64_t cut;
	unsigned i;
	int k;

	s->resident = res * ps;
	s->idle = cg_pages_idle(&s->total) * ps;
	s->working_set = ws * ps;
	for (k = 0; k < PK_NR; k++)
		s->ws_kind[k] = sub0(s->total.resident[k],
				     s->total.ws_idle[k]) * ps;
	s->idle_pct = res ? 100.0 * (double)cg_pages_idle(&s->total) /
			    (double)res : 0;
	s->reaccess = stats_reaccess_ge(&s->total, 0) * ps;
	s->sugg_low = s->working_set;
	s->sugg_cycles = sugg_cut(s, p, res, &cut);
	derive_high(s, p, cut);
	for (i = p->tb.n; i-- > 0;)
		s->idle_for[i] = s->total.idle_t[i] * ps +
				 (i + 1 < p->tb.n ? s->idle_for[i + 1] : 0);
	derive_limit(s);
}

/* No swap for the node, or memory.swap.max 0 here or above. */
static int no_swap(const struct report *r, const struct cg_stat *s)
{
	const struct cg_mem *m = &s->mem;

	if (r->p.no_swap || (m->has_swap_max && m->swap_max == 0))
		return 1;
	return s->parent >= 0 && r->cg[s->parent].no_swap;
}

static void copy_nodes(struct report *r)
{
	size_t i;

	for (i = 0; i < r->tree->n; i++) {
		const struct cg_node *c = &r->tree->v[i];
		struct cg_stat *s = &r->cg[i];

		s->path = c->path;
		s->name = c->name;
		s->ino = c->ino;
		s->parent = c->parent;
		s->depth = c->depth;
		s->mem = c->mem;
		s->no_sugg = s->parent < 0 || ident_aggregate(s->path);
		s->no_swap = no_swap(r, s);	/* pre-order: parent first */
	}
}

/* Pages of inode 0 (not charged) go to the root; unseen ones to unknown. */
static void attribute(struct report *r, const struct acct *a,
		      struct cg_stat *unknown)
{
	const struct acct_ent *e;
	size_t pos = 0;
	long idx;

	while ((e = acct_next(a, &pos))) {
		idx = e->ino ? cg_tree_find(r->tree, e->ino) : 0;
		if (idx >= 0 && (size_t)idx < r->tree->n)
			cg_pages_add(&r->cg[idx].self, &e->pages);
		else
			cg_pages_add(&unknown->self, &e->pages);
	}
}

int report_build(struct report *r, struct cg_tree *tree,
		 const struct scan_cycle *c, const struct report_params *p)
{
	struct cg_stat unknown = { 0 };
	size_t i;

	memset(r, 0, sizeof(*r));
	r->tree = malloc(sizeof(*r->tree));
	if (!r->tree) {
		cg_tree_free(tree);
		return -1;
	}
	*r->tree = *tree;
	memset(tree, 0, sizeof(*tree));
	r->p = *p;
	r->steady = p->period;
	if (c->number) {
		r->p.period = c->period;
		r->p.cycle_seconds = c->seconds;
	}
	r->first = c->first;
	r->cycle = c->number;
	r->start = c->start;
	r->end = c->end;
	r->cpu = c->cpu;
	r->cpu_total = c->cpu_total;
	memcpy(r->tb_min_age, c->tb_min_age, sizeof(r->tb_min_age));
	r->cpu_bound = c->cpu_bound;
	r->pfns = c->pfns;
	r->has_skipped = c->has_skipped;
	r->skipped = c->skipped * p->page_size;
	r->reach = c->reach;
	r->ws_complete = c->number && !c->first &&
			 c->reach >= (p->ws_cycles ? p->ws_cycles : 1);
	r->cg = calloc(r->tree->n + 1, sizeof(*r->cg));
	if (!r->cg)
		return -1;
	copy_nodes(r);
	r->n = r->tree->n;
	attribute(r, &c->acct, &unknown);
	if (cg_pages_resident(&unknown.self) && r->n) {
		unknown.path = unknown.name = UNKNOWN_CGROUP;
		unknown.parent = 0;
		unknown.depth = 1;
		unknown.pseudo = 1;
		unknown.no_sugg = 1;
		unknown.no_swap = r->cg[0].no_swap;
		r->cg[r->n++] = unknown;
	}
	for (i = 0; i < r->n; i++)
		r->cg[i].total = r->cg[i].self;
	for (i = r->n; i-- > 1;)
		if (r->cg[i].parent >= 0)
			cg_pages_add(&r->cg[r->cg[i].parent].total,
				     &r->cg[i].total);
	for (i = 0; i < r->n; i++)
		stats_derive(&r->cg[i], &r->p);
	return 0;
}

static uint64_t refaults(const struct cg_mem *m)
{
	return m->refault_anon + m->refault_file;
}

void report_rates(struct report *r, const struct report *old)
{
	double dt = r->taken - old->taken;
	size_t i;
	long j;

	if (!(dt > 0.05) || !old->n || !old->tree)
		return;
	for (i = 0; i < r->n; i++) {
		struct cg_stat *s = &r->cg[i];
		const struct cg_stat *o;

		if (s->pseudo || !s->mem.has_stat)
			continue;
		j = cg_tree_find(old->tree, s->ino);
		if (j < 0 || (size_t)j >= old->n)
			continue;
		o = &old->cg[j];
		if (!o->mem.has_stat || refaults(&s->mem) < refaults(&o->mem))
			continue;	/* another cgroup with this inode */
		s->has_rate = 1;
		s->refault_rate = (double)(refaults(&s->mem) -
					   refaults(&o->mem)) / dt;
	}
}

void report_free(struct report *r)
{
	free(r->cg);
	if (r->tree)
		cg_tree_free(r->tree);
	free(r->tree);
	memset(r, 0, sizeof(*r));
}

/*
 * The mglru source's error against the exact source, as measured by
 * tests/guest/mglru/60-source-accuracy.sh (docs/mglru.md, "Accuracy").
 */
#define MGLRU_MEASURED_ERROR "within 0.1% of resident for memory used " \
	"through page tables (anon, shmem, mapped files), and page cache " \
	"used only through read()/write() read idle (all of it: +12.5% of " \
	"resident in that test)"

const char *report_warning_id(unsigned bit)
{
	if (bit == REPORT_WARN_APPROX)
		return "mglru_approximate";
	if (bit == REPORT_WARN_DAMON)
		return "damon_paddr";
	return bit == REPORT_WARN_MGLRU ? "mglru_unfixed" : "unknown";
}

const char *report_warning_short(unsigned bit)
{
	if (bit == REPORT_WARN_APPROX)
		return "APPROXIMATE: MGLRU generations, no idle page tracking; "
		       "page cache used by read() reads idle";
	if (bit == REPORT_WARN_DAMON)
		return "DAMON paddr monitor on: it sets the same idle flags; "
		       "run one idle tracker";
	if (bit != REPORT_WARN_MGLRU)
		return "unknown warning";
	return "IDLE OVERSTATED: MGLRU on, no idlemem series: echo n > "
	       "/sys/kernel/mm/lru_gen/enabled or boot the series";
}

const char *report_warning_text(unsigned bit)
{
	if (bit == REPORT_WARN_APPROX)
		return "the numbers are approximate: this kernel has no idle "
		       "page tracking (no /proc/kpageidle, no page_idle "
		       "bitmap), so they come from the multi-gen LRU's "
		       "generations (/sys/kernel/debug/lru_gen): a page counts "
		       "idle when the kernel's aging steps of the last period "
		       "or more did not find it accessed. Resident leaves out unevictable "
		       "pages and counts shmem as anon; without "
		       "--mglru-aging the kernel ages only under memory "
		       "pressure, so idle is understated. Measured against "
		       "the exact source with --mglru-aging, idle was "
		       MGLRU_MEASURED_ERROR ". For "
		       "exact numbers boot a kernel with the idlemem series. "
		       "See docs/mglru.md, \"The mglru source\".";
	if (bit == REPORT_WARN_DAMON)
		return "a DAMON monitor of physical addresses is on "
		       "(/sys/kernel/mm/damon/admin/kdamonds/*/state, operations "
		       "paddr): DAMON marks the pages it samples idle itself "
		       "(PG_idle, the flag idle tracking uses) and keeps the "
		       "accessed bits it clears only for reclaim, so idle is "
		       "overstated (never understated), and idletop's "
		       "marks make DAMON see accesses as missing. Run one idle "
		       "tracker at a time: echo off > the kdamond's state. See "
		       "docs/admin-guide.md, caveats.";
	if (bit != REPORT_WARN_MGLRU)
		return "unknown warning";
	return "idle is overstated: the multi-gen LRU is on "
	       "(/sys/kernel/mm/lru_gen/enabled) and this kernel lacks the "
	       "idlemem series (no /proc/kpageidle), so pages that MGLRU "
	       "finds accessed keep their idle flag and read as idle. Boot "
	       "a kernel with the series (patch 0001 fixes it), or turn "
	       "MGLRU off: echo n > /sys/kernel/mm/lru_gen/enabled (changes "
	       "page reclaim for the whole machine; numbers are right from "
	       "the second report after). See docs/mglru.md.";
}

const char *report_error_id(enum report_error e)
{
	return e == REPORT_ERR_SCAN ? "scan" : "tree";
}
