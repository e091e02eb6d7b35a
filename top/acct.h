/* SPDX-License-Identifier: GPL-2.0 */
/* acct.h - per-memcg page counters, keyed by cgroup inode number */
#ifndef IDLETOP_ACCT_H
#define IDLETOP_ACCT_H

#include <stddef.h>
#include <stdint.h>
#include "cgdata.h"
#include "kpf.h"

int age_bucket(unsigned age);	/* age_bucket_min[] (cgdata.h), -1 for age 0 */

/*
 * tmap[a], for the ages a = 1..reach (<= 255) counted in cycle n: 1 + the
 * largest bucket whose seconds first[n] - first[n - a] reaches, 0 none
 * (first[k % 256]: when cycle k's first slice ran).  min_age[i]: the
 * least age counted in bucket i or above, 0 none.
 */
void idle_tmap(uint8_t tmap[256], const double first[256], uint64_t n,
	       uint64_t reach, const struct idle_tbuckets *tb);
void idle_tmin(const uint8_t tmap[256], unsigned min_age[IDLE_TBUCKETS_MAX]);

struct acct_ent {
	uint64_t ino;		/* 0 = free slot (ino 0 is stored in zero_ent) */
	struct cg_pages pages;
};

/* Open-addressing hash table inode -> counters. */
struct acct {
	struct acct_ent *slot;
	size_t cap;		/* power of two */
	size_t used;
	int has_zero;
	struct acct_ent zero_ent;	/* pages with cgroup inode 0 */
};

int acct_init(struct acct *a);
void acct_free(struct acct *a);
void acct_clear(struct acct *a);
/* Counters for ino, created on first use; NULL only on ENOMEM. */
struct cg_pages *acct_get(struct acct *a, uint64_t ino);
/* Lookup only; NULL when absent. */
const struct cg_pages *acct_find(const struct acct *a, uint64_t ino);
/* Iterate: *pos starts at 0; returns NULL at the end. */
const struct acct_ent *acct_next(const struct acct *a, size_t *pos);

#endif
