// SPDX-License-Identifier: GPL-2.0
/*
 * scan_folio.c - a slice from KPAGEIDLE_SCAN's folio records: one pass
 * that tests, re-marks and tells each folio's size, memcg and kind.
 * Every PFN of a record is counted like a PFN of the kpageflags path
 * (count_page(): the same kinds, ages and buckets); PFNs no record
 * covers are no user memory and their ages go to 0.
 */
#include <stdio.h>
#include <string.h>
#include "kpf.h"
#include "scan_count.h"
#include "scan_folio.h"

/* The kpageflags bits count_page() reads, from a record's flags. */
static uint64_t kpf_of(uint32_t flags)
{
	uint64_t f = 1ULL << KPF_LRU;

	if (flags & KPAGEIDLE_FOLIO_ANON)
		f |= 1ULL << KPF_ANON;
	if (flags & KPAGEIDLE_FOLIO_SWAPBACKED)
		f |= 1ULL << KPF_SWAPBACKED;
	if (flags & KPAGEIDLE_FOLIO_UNEVICTABLE)
		f |= 1ULL << KPF_UNEVICTABLE;
	return f;
}

/* PFNs [from, to) are no user memory: not idle for any cycle. */
static void clear_ages(struct scanner *sc, uint64_t from, uint64_t to)
{
	if (to > sc->nr_pfns)
		to = sc->nr_pfns;
	if (from < to)
		memset(sc->age + from, 0, to - from);
}

/* Count the records of one call over [pfn, walk_end). */
static int count_records(struct scanner *sc, uint64_t pfn, uint64_t walk_end,
			 size_t nr)
{
	const struct kpageidle_folio *r = sc->src.rec;
	uint64_t at = pfn, p, e, f;
	size_t i;
	int idle;

	for (i = 0; i < nr; i++, r++) {
		clear_ages(sc, at, r->pfn);
		f = kpf_of(r->flags);
		idle = (r->flags & KPAGEIDLE_FOLIO_IDLE) != 0;
		at = r->pfn + r->nr_pages;
		e = at < sc->nr_pfns ? at : sc->nr_pfns;
		for (p = r->pfn; p < e; p++)
			if (count_page(sc, p, f, r->cgroup_id, idle))
				return -1;
	}
	clear_ages(sc, at, walk_end);
	return 0;
}

ssize_t scan_folio_range(struct scanner *sc, uint64_t pfn, size_t n,
			 char *err, size_t errlen)
{
	uint64_t at = pfn, end = pfn + n, next, skipped;
	ssize_t nr;

	while (at < end) {
		nr = idlesrc_folios(&sc->src, at, end, !sc->no_mark, &next,
				    &skipped);
		if (nr < 0) {
			idlesrc_error(&sc->src, "scan", err, errlen);
			return -1;
		}
		sc->skipped += skipped;	/* the pass's: scan_cycle.skipped */
		/* the priming pass only marks */
		if (!sc->priming && count_records(sc, at, next, (size_t)nr)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		at = next;
	}
	if (at > sc->nr_pfns && end <= sc->nr_pfns)
		at = sc->nr_pfns;
	return (ssize_t)(at - pfn);
}
