// SPDX-License-Identifier: GPL-2.0
/*
 * ui_view.c - the rows the tree screen shows, from one struct report:
 * zoom root, name filter, collapsed subtrees, siblings sorted by a column.
 * State that must survive a new report (selection, zoom, collapsed) is
 * kept by cgroup path, since indices change when cgroups come and go.
 */
#include <stdlib.h>
#include <string.h>
#include "ui.h"

struct kids {			/* children of every node, CSR layout */
	size_t *off;		/* n + 1 offsets into idx */
	size_t *idx;
};

const char *view_col_name(enum col c)
{
	static const char *const n[C_NR] = { "name", "resident", "anon",
		"file", "idle", "idle%", "working set", "high/max", "trend" };

	return c < C_NR ? n[c] : "?";
}

static uint64_t limit_of(const struct cg_mem *m)
{
	uint64_t h = m->has_high ? m->high : CG_NOLIMIT;
	uint64_t x = m->has_max ? m->max : CG_NOLIMIT;

	return h < x ? h : x;
}

/*
 * The colour of a row's IDLE% cell.  At least half idle is cold (blue):
 * memory a lower memory.high could take back.  Under a tenth idle is hot
 * (red): nearly all of it is working set, and a limit near its resident
 * size would make it reclaim what it uses.  Nothing resident, or nothing
 * measured yet: no colour.
 */
enum color view_idle_color(const struct ui *u, const struct cg_stat *s)
{
	if (!ui_measured(u) || !s->resident)
		return CP_NORMAL;
	if (s->idle_pct >= 50)
		return CP_COLD;
	return s->idle_pct < 10 ? CP_HOT : CP_NORMAL;
}

/* Before the first counted cycle, sizes come from memory.stat. */
uint64_t view_value(const struct ui *u, const struct cg_stat *s, enum col c)
{
	uint64_t ps = u->rep->p.page_size;
	int m = ui_measured(u);
	const struct cg_mem *mem = &s->mem;

	switch (c) {
	case C_RES:
		if (m)
			return s->resident;
		return mem->has_stat ? mem->anon + mem->file :
		       mem->has_current ? mem->current : 0;
	case C_ANON:
		return m ? s->total.resident[PK_ANON] * ps : mem->anon;
	case C_FILE:
		return m ? (s->total.resident[PK_FILE] +
			    s->total.resident[PK_SHMEM]) * ps : mem->file;
	case C_IDLE: return s->idle;
	case C_IDLEPCT: return (uint64_t)(s->idle_pct * 1000);
	case C_WS: return s->working_set;
	case C_LIMIT: return limit_of(mem);
	default: return 0;
	}
}

static int cmp_kids(const void *a, const void *b, void *arg)
{
	const struct ui *u = arg;
	const struct cg_stat *x = &u->rep->cg[*(const size_t *)a];
	const struct cg_stat *y = &u->rep->cg[*(const size_t *)b];
	uint64_t vx, vy;
	int r;

	if (u->sort == C_NAME) {
		r = strcmp(x->name, y->name);
	} else {
		vx = view_value(u, x, u->sort);
		vy = view_value(u, y, u->sort);
		r = vx < vy ? 1 : vx > vy ? -1 : strcmp(x->name, y->name);
	}
	return u->sort_rev ? -r : r;
}

static int kids_build(struct kids *k, struct ui *u)
{
	const struct report *r = u->rep;
	size_t i, *fill;

	k->off = calloc(r->n + 2, sizeof(size_t));
	k->idx = calloc(r->n + 1, sizeof(size_t));
	fill = calloc(r->n + 1, sizeof(size_t));
	if (!k->off || !k->idx || !fill) {
		free(fill);
		return -1;
	}
	for (i = 1; i < r->n; i++)
		if (r->cg[i].parent >= 0)
			k->off[r->cg[i].parent + 1]++;
	for (i = 0; i < r->n; i++)
		k->off[i + 1] += k->off[i];
	for (i = 1; i < r->n; i++) {
		size_t p = (size_t)r->cg[i].parent;

		if (r->cg[i].parent >= 0)
			k->idx[k->off[p] + fill[p]++] = i;
	}
	free(fill);
	for (i = 0; i < r->n; i++)
		qsort_r(k->idx + k->off[i], k->off[i + 1] - k->off[i],
			sizeof(size_t), cmp_kids, u);
	return 0;
}

/*
 * shown[i]: the name matches the filter (case-insensitive), or an
 * ancestor's or a descendant's does. Pre-order: parents come first.
 */
static char *filter_marks(const struct ui *u)
{
	const struct report *r = u->rep;
	char *shown = calloc(r->n + 1, 1);
	size_t i;
	int p;

	if (!shown)
		return NULL;
	for (i = 0; i < r->n; i++) {
		p = r->cg[i].parent;
		shown[i] = !u->filter || strcasestr(r->cg[i].name, u->filter) ||
			   (p >= 0 && (shown[p] & 2)) ? 2 : 0;
	}
	for (i = r->n; i-- > 0;)
		if (shown[i] && r->cg[i].parent >= 0 && !shown[r->cg[i].parent])
			shown[r->cg[i].parent] = 1;
	return shown;
}

static int push_row(struct view *v, const struct view_row *row)
{
	struct view_row *p;

	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;

		p = realloc(v->row, cap * sizeof(*p));
		if (!p)
			return -1;
		v->row = p;
		v->cap = cap;
	}
	v->row[v->n++] = *row;
	return 0;
}

static int walk(struct ui *u, const struct kids *k, const char *shown,
		size_t i, int depth, uint64_t more, int last)
{
	struct view_row row = { .cg = i, .depth = depth, .last = last,
				.more = more };
	size_t j, b = k->off[i], e = k->off[i + 1], lastk = b;

	for (j = b; j < e; j++)
		if (shown[k->idx[j]]) {
			row.has_kids = 1;
			lastk = j;
		}
	row.collapsed = row.has_kids &&
			view_is_collapsed(u, u->rep->cg[i].path);
	if (push_row(&u->view, &row))
		return -1;
	if (row.collapsed)
		return 0;
	if (depth > 0 && !last && depth < 64)
		more |= 1ULL << depth;
	for (j = b; j < e; j++)
		if (shown[k->idx[j]] &&
		    walk(u, k, shown, k->idx[j], depth + 1, more, j == lastk))
			return -1;
	return 0;
}

static size_t find_path(const struct report *r, const char *path)
{
	size_t i;

	for (i = 0; path && i < r->n; i++)
		if (!strcmp(r->cg[i].path, path))
			return i;
	return (size_t)-1;
}

/* The zoom root: the zoomed cgroup, or its closest surviving ancestor. */
static size_t zoom_root(struct ui *u)
{
	size_t i;
	char *slash;

	while (u->zoom_path) {
		i = find_path(u->rep, u->zoom_path);
		if (i != (size_t)-1)
			return i;
		slash = strrchr(u->zoom_path, '/');
		if (!slash || slash == u->zoom_path) {
			free(u->zoom_path);
			u->zoom_path = NULL;
		} else {
			*slash = '\0';
		}
	}
	return 0;
}

void view_select(struct ui *u, size_t row)
{
	char *p;

	if (!u->view.n)
		return;
	if (row >= u->view.n)
		row = u->view.n - 1;
	u->sel = row;
	p = strdup(u->rep->cg[u->view.row[row].cg].path);
	if (p) {
		free(u->sel_path);
		u->sel_path = p;
	}
}

void view_build(struct ui *u)
{
	struct kids k = { 0 };
	char *shown = NULL;
	size_t i, want;

	u->view.n = 0;
	if (!u->have_rep || !u->rep->n)
		return;
	u->view.root = zoom_root(u);
	if (kids_build(&k, u) || !(shown = filter_marks(u)) ||
	    (shown[u->view.root] = 1,
	     walk(u, &k, shown, u->view.root, 0, 0, 1)))
		ui_msg(u, "out of memory: view incomplete");
	free(shown);
	free(k.off);
	free(k.idx);
	want = u->sel;
	for (i = 0; u->sel_path && i < u->view.n; i++)
		if (!strcmp(u->rep->cg[u->view.row[i].cg].path, u->sel_path))
			want = i;
	view_select(u, want);
}

void view_free(struct view *v)
{
	free(v->row);
	memset(v, 0, sizeof(*v));
}

const struct cg_stat *view_selected(const struct ui *u)
{
	if (!u->view.n || u->sel >= u->view.n)
		return NULL;
	return &u->rep->cg[u->view.row[u->sel].cg];
}

int view_is_collapsed(const struct ui *u, const char *path)
{
	size_t i;

	for (i = 0; i < u->ncollapsed; i++)
		if (!strcmp(u->collapsed[i], path))
			return 1;
	return 0;
}

/* 0, or -1 when out of memory. */
int view_set_collapsed(struct ui *u, const char *path, int on)
{
	size_t i;
	char **v;

	for (i = 0; i < u->ncollapsed; i++)
		if (!strcmp(u->collapsed[i], path))
			break;
	if (!on && i < u->ncollapsed) {
		free(u->collapsed[i]);
		u->collapsed[i] = u->collapsed[--u->ncollapsed];
	} else if (on && i == u->ncollapsed) {
		v = realloc(u->collapsed, (i + 1) * sizeof(*v));
		if (!v)
			return -1;
		u->collapsed = v;
		v[i] = strdup(path);
		if (!v[i])
			return -1;
		u->ncollapsed++;
	}
	return 0;
}
