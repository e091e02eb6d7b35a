// SPDX-License-Identifier: GPL-2.0
/* stats.c - join cycle counts with the cgroup tree; derived numbers */
#include <stdlib.h>
#include <string.h>
#include "stats.h"

uint64_t round_up(uint64_t v, uint64_t to)
{
	if (!to || v > UINT64_MAX - to)
		return v;
	return (v + to - 1) / to * to;
}

void stats_derive(struct cg_stat *s, const struct report_params *p)
{
	uint64_t ps = p->page_size, res = cg_pages_resident(&s->total);
	uint64_t ws = res - (s->total.ws_idle <= res ? s->total.ws_idle : res);
	double high;
	unsigned i;

	s->resident = res * ps;
	s->idle = cg_pages_idle(&s->total) * ps;
	s->working_set = ws * ps;
	s->idle_pct = res ? 100.0 * (double)cg_pages_idle(&s->total) /
			    (double)res : 0;
	s->sugg_low = s->working_set;
	high = (double)s->working_set * (100.0 + p->headroom_pct) / 100.0;
	s->sugg_high = round_up(high > 1.8e19 ? UINT64_MAX / 2 :
				(uint64_t)high, STATS_HIGH_ROUND);
	if (s->sugg_high < STATS_HIGH_ROUND)
		s->sugg_high = STATS_HIGH_ROUND;
	for (i = p->tb.n; i-- > 0;)
		s->idle_for[i] = s->total.idle_t[i] * ps +
				 (i + 1 < p->tb.n ? s->idle_for[i + 1] : 0);
}

static void copy_nodes(struct report *r)
{
	size_t i;

	for (i = 0; i < r->tree.n; i++) {
		const struct cg_node *c = &r->tree.v[i];
		struct cg_stat *s = &r->cg[i];

		s->path = c->path;
		s->name = c->name;
		s->ino = c->ino;
		s->parent = c->parent;
		s->depth = c->depth;
		s->mem = c->mem;
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
		idx = e->ino ? cg_tree_find(&r->tree, e->ino) : 0;
		if (idx >= 0 && (size_t)idx < r->tree.n)
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
	r->tree = *tree;
	memset(tree, 0, sizeof(*tree));
	r->p = *p;
	r->cycle = c->number;
	r->start = c->start;
	r->end = c->end;
	r->cpu = c->cpu;
	r->cpu_total = c->cpu_total;
	memcpy(r->tb_min_age, c->tb_min_age, sizeof(r->tb_min_age));
	r->cpu_bound = c->cpu_bound;
	r->pfns = c->pfns;
	r->cg = calloc(r->tree.n + 1, sizeof(*r->cg));
	if (!r->cg)
		return -1;
	copy_nodes(r);
	r->n = r->tree.n;
	attribute(r, &c->acct, &unknown);
	if (cg_pages_resident(&unknown.self) && r->n) {
		unknown.path = unknown.name = UNKNOWN_CGROUP;
		unknown.parent = 0;
		unknown.depth = 1;
		unknown.pseudo = 1;
		r->cg[r->n++] = unknown;
	}
	for (i = 0; i < r->n; i++)
		r->cg[i].total = r->cg[i].self;
	for (i = r->n; i-- > 1;)
		if (r->cg[i].parent >= 0)
			cg_pages_add(&r->cg[r->cg[i].parent].total,
				     &r->cg[i].total);
	for (i = 0; i < r->n; i++)
		stats_derive(&r->cg[i], p);
	return 0;
}

void report_free(struct report *r)
{
	free(r->cg);
	cg_tree_free(&r->tree);
	memset(r, 0, sizeof(*r));
}

const char *report_warning_id(unsigned bit)
{
	return bit == REPORT_WARN_MGLRU ? "mglru_unfixed" : "unknown";
}

const char *report_warning_short(unsigned bit)
{
	if (bit != REPORT_WARN_MGLRU)
		return "unknown warning";
	return "IDLE OVERSTATED: MGLRU on, no idlemem series: echo n > "
	       "/sys/kernel/mm/lru_gen/enabled or boot the series";
}

const char *report_warning_text(unsigned bit)
{
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
