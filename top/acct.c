// SPDX-License-Identifier: GPL-2.0
/* acct.c - per-memcg page counters keyed by cgroup inode number */
#include <stdlib.h>
#include <string.h>
#include "acct.h"

void idle_tmap(uint8_t tmap[256], const double first[256], uint64_t n,
	       uint64_t reach, const struct idle_tbuckets *tb)
{
	uint64_t a;
	double secs;
	unsigned i;

	memset(tmap, 0, 256);
	for (a = 1; a <= reach && a < 256; a++) {
		secs = first[n & 255] - first[(n - a) & 255];
		for (i = tb->n; i > 0 && secs < tb->secs[i - 1]; i--)
			;
		tmap[a] = (uint8_t)i;
	}
}

void idle_tmin(const uint8_t tmap[256], unsigned min_age[IDLE_TBUCKETS_MAX])
{
	unsigned i, a;

	for (i = 0; i < IDLE_TBUCKETS_MAX; i++)
		for (min_age[i] = 0, a = 1; a < 256; a++)
			if (tmap[a] > i) {
				min_age[i] = a;
				break;
			}
}

int age_bucket(unsigned age)
{
	int i;

	if (age == 0)
		return -1;
	for (i = AGE_BUCKETS - 1; i > 0; i--)
		if (age >= age_bucket_min[i])
			return i;
	return 0;
}

static size_t hash_ino(uint64_t ino, size_t cap)
{
	ino ^= ino >> 33;
	ino *= 0xff51afd7ed558ccdULL;
	ino ^= ino >> 33;
	return (size_t)ino & (cap - 1);
}

int acct_init(struct acct *a)
{
	memset(a, 0, sizeof(*a));
	a->cap = 64;
	a->slot = calloc(a->cap, sizeof(*a->slot));
	return a->slot ? 0 : -1;
}

void acct_free(struct acct *a)
{
	free(a->slot);
	memset(a, 0, sizeof(*a));
}

void acct_clear(struct acct *a)
{
	memset(a->slot, 0, a->cap * sizeof(*a->slot));
	a->used = 0;
	a->has_zero = 0;
	memset(&a->zero_ent, 0, sizeof(a->zero_ent));
}

static struct acct_ent *probe(struct acct_ent *slot, size_t cap, uint64_t ino)
{
	size_t i = hash_ino(ino, cap);

	while (slot[i].ino && slot[i].ino != ino)
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static int grow(struct acct *a)
{
	size_t ncap = a->cap * 2, i;
	struct acct_ent *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -1;
	for (i = 0; i < a->cap; i++)
		if (a->slot[i].ino)
			*probe(n, ncap, a->slot[i].ino) = a->slot[i];
	free(a->slot);
	a->slot = n;
	a->cap = ncap;
	return 0;
}

struct cg_pages *acct_get(struct acct *a, uint64_t ino)
{
	struct acct_ent *e;

	if (ino == 0) {
		a->has_zero = 1;
		return &a->zero_ent.pages;
	}
	if ((a->used + 1) * 4 > a->cap * 3 && grow(a))
		return NULL;
	e = probe(a->slot, a->cap, ino);
	if (!e->ino) {
		e->ino = ino;
		a->used++;
	}
	return &e->pages;
}

const struct cg_pages *acct_find(const struct acct *a, uint64_t ino)
{
	const struct acct_ent *e;

	if (ino == 0)
		return a->has_zero ? &a->zero_ent.pages : NULL;
	e = probe(a->slot, a->cap, ino);
	return e->ino ? &e->pages : NULL;
}

const struct acct_ent *acct_next(const struct acct *a, size_t *pos)
{
	while (*pos < a->cap) {
		const struct acct_ent *e = &a->slot[(*pos)++];

		if (e->ino)
			return e;
	}
	if (*pos == a->cap && a->has_zero) {
		(*pos)++;
		return &a->zero_ent;
	}
	return NULL;
}
