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

int select_keep(const struct cg_select *sel, const struct cg_stat *s)
{
	if (s->parent < 0)
		return 1;
	if (sel->max_depth >= 0 && s->depth > sel->max_depth)
		return 0;
	if (s->resident < sel->min_bytes)
		return 0;
	if (sel->n_include && !any(sel->include, sel->n_include, s->path))
		return 0;
	return !any(sel->exclude, sel->n_exclude, s->path);
}

int report_select(const struct report *r, const struct cg_select *sel,
		  struct report *out)
{
	int *map;
	size_t i;
	int p;

	*out = *r;
	memset(&out->tree, 0, sizeof(out->tree));
	out->n = 0;
	out->cg = calloc(r->n + 1, sizeof(*out->cg));
	map = calloc(r->n + 1, sizeof(*map));
	if (!out->cg || !map) {
		free(map);
		free(out->cg);
		out->cg = NULL;
		return -1;
	}
	for (i = 0; i < r->n; i++) {
		map[i] = -1;
		if (!select_keep(sel, &r->cg[i]))
			continue;
		/* pre-order: every ancestor is mapped already */
		for (p = r->cg[i].parent; p >= 0 && map[p] < 0;)
			p = r->cg[p].parent;
		map[i] = (int)out->n;
		out->cg[out->n] = r->cg[i];
		out->cg[out->n++].parent = p >= 0 ? map[p] : -1;
	}
	free(map);
	return 0;
}
