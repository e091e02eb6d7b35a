// SPDX-License-Identifier: GPL-2.0
/* select.c - cardinality controls: which cgroups are shown (select.h) */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "select.h"

void select_default(struct cg_select *s)
{
	memset(s, 0, sizeof(*s));
	s->max_depth = -1;
}

int select_active(const struct cg_select *s)
{
	return s->max_depth >= 0 || s->min_bytes || s->n_include ||
	       s->n_exclude;
}

static int any(const char *const *pat, unsigned n, const char *path)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (!fnmatch(pat[i], path, 0))
			return 1;
	return 0;
}

int select_keep(const struct cg_select *sel, const struct cg_stat *s,
		int was)
{
	uint64_t min = was ? sel->min_bytes / 2 : sel->min_bytes;

	if (s->parent < 0)
		return 1;
	if (sel->max_depth >= 0 && s->depth > sel->max_depth)
		return 0;
	if (s->resident < min)
		return 0;
	if (sel->n_include && !any(sel->include, sel->n_include, s->path))
		return 0;
	return !any(sel->exclude, sel->n_exclude, s->path);
}

static int cmp_ino(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int was_shown(const struct select_state *st, const struct cg_stat *s)
{
	return st && st->n && !s->pseudo &&
	       bsearch(&s->ino, st->ino, st->n, sizeof(*st->ino), cmp_ino);
}

/* st := the inodes of v's cgroups (the pseudo entry has none). */
static int remember(struct select_state *st, const struct report *v)
{
	uint64_t *ino = malloc((v->n + 1) * sizeof(*ino));
	size_t i, n = 0;

	if (!ino)
		return -1;
	for (i = 0; i < v->n; i++)
		if (!v->cg[i].pseudo)
			ino[n++] = v->cg[i].ino;
	qsort(ino, n, sizeof(*ino), cmp_ino);
	free(st->ino);
	st->ino = ino;
	st->n = n;
	return 0;
}

void select_state_free(struct select_state *st)
{
	free(st->ino);
	st->ino = NULL;
	st->n = 0;
}

/* s is left out: its own pages go to its nearest shown ancestor, to. */
static void fold(struct report *out, const struct cg_stat *s, int to)
{
	if (to < 0)
		return;
	cg_pages_add(&out->cg[to].self, &s->self);
	if (!s->pseudo) {
		out->cg[to].folded++;
		out->folded++;
	}
}

int report_select(const struct report *r, const struct cg_select *sel,
		  struct select_state *st, struct report *out)
{
	int *map;	/* index in out of the nearest shown ancestor-or-self */
	size_t i;
	int p;

	*out = *r;
	out->tree = NULL;
	out->n = 0;
	out->folded = 0;
	out->cg = calloc(r->n + 1, sizeof(*out->cg));
	map = calloc(r->n + 1, sizeof(*map));
	if (!out->cg || !map)
		goto nomem;
	for (i = 0; i < r->n; i++) {
		/* pre-order: every ancestor is mapped already */
		p = r->cg[i].parent;
		p = p >= 0 && (size_t)p < i ? map[p] : -1;
		if (!select_keep(sel, &r->cg[i], was_shown(st, &r->cg[i]))) {
			map[i] = p;
			fold(out, &r->cg[i], p);
			continue;
		}
		map[i] = (int)out->n;
		out->cg[out->n] = r->cg[i];
		out->cg[out->n].folded = 0;
		out->cg[out->n++].parent = p;
	}
	free(map);
	map = NULL;
	if (st && remember(st, out))
		goto nomem;
	return 0;
nomem:
	free(map);
	free(out->cg);
	out->cg = NULL;
	out->n = 0;
	return -1;
}
