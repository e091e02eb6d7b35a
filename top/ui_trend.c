// SPDX-License-Identifier: GPL-2.0
/* ui_trend.c - idle % of each cgroup over the last TREND_LEN cycles */
#include <stdlib.h>
#include <string.h>
#include "ui.h"

static int cmp_ino(const void *a, const void *b)
{
	const struct trend_ent *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

const struct trend_ent *trend_find(const struct trend *t, uint64_t ino)
{
	struct trend_ent key = { .ino = ino };

	if (!t->v)
		return NULL;
	return bsearch(&key, t->v, t->n, sizeof(key), cmp_ino);
}

/* Append this cycle's idle % for every cgroup (once per cycle). */
int trend_update(struct trend *t, const struct report *r)
{
	struct trend_ent *v, *e;
	const struct trend_ent *old;
	size_t i;

	if (r->cycle == t->cycle)
		return 0;
	v = calloc(r->n ? r->n : 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < r->n; i++) {
		e = &v[i];
		old = r->cg[i].pseudo ? NULL : trend_find(t, r->cg[i].ino);
		if (old)
			*e = *old;
		e->ino = r->cg[i].pseudo ? 0 : r->cg[i].ino;
		if (e->n == TREND_LEN)
			memmove(e->pct, e->pct + 1,
				(TREND_LEN - 1) * sizeof(e->pct[0]));
		else
			e->n++;
		e->pct[e->n - 1] = (float)r->cg[i].idle_pct;
	}
	qsort(v, r->n, sizeof(*v), cmp_ino);
	free(t->v);
	t->v = v;
	t->n = r->n;
	t->cycle = r->cycle;
	return 0;
}

void trend_free(struct trend *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
