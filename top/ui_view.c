// SPDX-License-Identifier: GPL-2.0
/*
 * ui_view.c - the rows the tree screen shows, from one struct report:
 * zoom root, name filter, collapsed subtrees, siblings sorted by a column;
 * or flat: every cgroup under the zoom root, all sorted together.
 * State that must survive a new report (selection, zoom, collapsed) is
 * kept by cgroup path in u->vs, since indices change when cgroups come
 * and go.
 */
#include <stdlib.h>
#include <string.h>
#include "ui.h"

struct kids {			/* children of every node, CSR layout */
	size_t *off;		/* n + 1 offsets into idx */
	size_t *idx;
};

const char *view_col_name(enum field_id c)
{
	return c < FIELDS_NR ? fields[c].id : "?";
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

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct ui *u = arg;
	const struct cg_stat *x = &u->rep->cg[*(const size_t *)a];
	const struct cg_stat *y = &u->rep->cg[*(const size_t *)b];
	int r = u->vs.flat && u->vs.sort == F_NAME ?
		fields_natcmp(x->path, y->path) :
		field_cmp(u->rep, u->vs.sort, x, y);

	return u->vs.sort_rev ? -r : r;
}

/* NAME, then the shown columns that sort, in display order. */
void view_sort_step(struct ui *u, int step)
{
	enum field_id order[FIELDS_NR + 1];
	size_t n = 0, i, at = 0;

	order[n++] = F_NAME;
	for (i = 0; i < u->vs.cols.n; i++)
		if (fields[u->vs.cols.id[i]].flags & FF_SORT)
			order[n++] = u->vs.cols.id[i];
	for (i = 0; i < n; i++)
		if (order[i] == u->vs.sort)
			at = i;
	u->vs.sort = order[(at + n + (size_t)(step % (int)n + (int)n)) % n];
	view_build(u);
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
			sizeof(size_t), cmp_rows, u);
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
		shown[i] = !u->vs.filter ||
			   strcasestr(r->cg[i].name, u->vs.filter) ||
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

	while (u->vs.zoom_path) {
		i = find_path(u->rep, u->vs.zoom_path);
		if (i != (size_t)-1)
			return i;
		slash = strrchr(u->vs.zoom_path, '/');
		if (!slash || slash == u->vs.zoom_path) {
			free(u->vs.zoom_path);
			u->vs.zoom_path = NULL;
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
	u->vs.sel = row;
	p = strdup(u->rep->cg[u->view.row[row].cg].path);
	if (p) {
		free(u->vs.sel_path);
		u->vs.sel_path = p;
	}
}

/*
 * Flat: the zoom root and every descendant that passes the filter (a
 * match itself, not only its relatives), all sorted by one column.
 */
static int flat_rows(struct ui *u, const char *shown)
{
	const struct report *r = u->rep;
	struct view_row row = { .last = 1 };
	size_t i, end = u->view.root + 1, *idx;

	while (end < r->n && r->cg[end].depth > r->cg[u->view.root].depth)
		end++;
	idx = calloc(end - u->view.root, sizeof(*idx));
	if (!idx)
		return -1;
	for (i = u->view.root; i < end; i++)
		if (shown[i] == 2)
			idx[u->view.n++] = i;
	qsort_r(idx, u->view.n, sizeof(*idx), cmp_rows, u);
	i = u->view.n;
	u->view.n = 0;
	for (size_t j = 0; j < i; j++) {
		row.cg = idx[j];
		if (push_row(&u->view, &row)) {
			free(idx);
			return -1;
		}
	}
	free(idx);
	return 0;
}

void view_build(struct ui *u)
{
	struct kids k = { 0 };
	char *shown = NULL;
	size_t i, want;
	int bad;

	u->view.n = 0;
	if (!ui_have_rep(u))
		return;
	u->view.root = zoom_root(u);
	bad = !(shown = filter_marks(u));
	if (!bad && u->vs.flat)
		bad = flat_rows(u, shown);
	else if (!bad)
		bad = kids_build(&k, u) || (shown[u->view.root] = 1,
		      walk(u, &k, shown, u->view.root, 0, 0, 1));
	if (bad)
		ui_msg(u, "out of memory: view incomplete");
	free(shown);
	free(k.off);
	free(k.idx);
	want = u->vs.sel;
	for (i = 0; u->vs.sel_path && i < u->view.n; i++)
		if (!strcmp(u->rep->cg[u->view.row[i].cg].path, u->vs.sel_path))
			want = i;
	view_select(u, want);
}

long view_find(const struct ui *u, const char *s, size_t from)
{
	size_t i, k;

	for (k = 0; s && *s && k < u->view.n; k++) {
		i = (from + k) % u->view.n;
		if (strcasestr(u->rep->cg[u->view.row[i].cg].name, s) ||
		    (u->vs.flat &&
		     strcasestr(u->rep->cg[u->view.row[i].cg].path, s)))
			return (long)i;
	}
	return -1;
}

void view_free(struct view *v)
{
	free(v->row);
	memset(v, 0, sizeof(*v));
}

const struct cg_stat *view_selected(const struct ui *u)
{
	if (!u->view.n || u->vs.sel >= u->view.n)
		return NULL;
	return &u->rep->cg[u->view.row[u->vs.sel].cg];
}

void view_state_free(struct view_state *vs)
{
	size_t i;

	for (i = 0; i < vs->ncollapsed; i++)
		free(vs->collapsed[i]);
	free(vs->collapsed);
	free(vs->sel_path);
	free(vs->zoom_path);
	free(vs->filter);
	free(vs->search);
	memset(vs, 0, sizeof(*vs));
}

int view_is_collapsed(const struct ui *u, const char *path)
{
	size_t i;

	for (i = 0; i < u->vs.ncollapsed; i++)
		if (!strcmp(u->vs.collapsed[i], path))
			return 1;
	return 0;
}

/* 0, or -1 when out of memory. */
int view_set_collapsed(struct ui *u, const char *path, int on)
{
	size_t i;
	char **v;

	for (i = 0; i < u->vs.ncollapsed; i++)
		if (!strcmp(u->vs.collapsed[i], path))
			break;
	if (!on && i < u->vs.ncollapsed) {
		free(u->vs.collapsed[i]);
		u->vs.collapsed[i] = u->vs.collapsed[--u->vs.ncollapsed];
	} else if (on && i == u->vs.ncollapsed) {
		v = realloc(u->vs.collapsed, (i + 1) * sizeof(*v));
		if (!v)
			return -1;
		u->vs.collapsed = v;
		v[i] = strdup(path);
		if (!v[i])
			return -1;
		u->vs.ncollapsed++;
	}
	return 0;
}
