// SPDX-License-Identifier: GPL-2.0
/*
 * folios_once - every folio a process holds still is reported exactly once
 * by each whole-memory KPAGEIDLE_SCAN scan (struct kpageidle_folio
 * records), however the memory around it churns.
 *
 *   folios_once [-t SECONDS] [-n RECORDS] [-p SMALL] [-H THPS]
 *
 * Pins SMALL (256) small anon pages (MADV_NOHUGEPAGE) and THPS (4) 2 MiB
 * aligned anon ranges (MADV_HUGEPAGE), all mlock()ed: they stay on the
 * unevictable LRU, and compaction leaves them where they are as long as
 * /proc/sys/vm/compact_unevictable_allowed is 0 (the caller's job).  Counts
 * the ranges that became THPs (pagemap and kpageflags): at least one must
 * have when THP is enabled.  Then, until the deadline, scans all of memory
 * through /proc/kpageidle (O_RDONLY: test-only scans, no marking) with
 * KPAGEIDLE_SCAN, RECORDS (64) records per call, each call resuming
 * at the previous one's walk_end until ENXIO (the max PFN), and checks
 * every scan:
 *   - records are strictly increasing and do not overlap, across calls
 *     too; each has nr_pages > 0 and reserved 0, and lies between its
 *     call's start and walk_end;
 *   - every pinned PFN is covered by exactly one record;
 *   - the 512 PFNs of each pinned THP are inside one record.
 * A violation is counted once per record out of order and once per
 * pinned folio (a small page or a THP) per scan.
 * A scan counts only if the pinned pages were at the same PFNs (pagemap),
 * with their THPs still THPs and every one on an LRU list (kpageflags),
 * before and after it; the others are printed as moved.  More than half
 * of the scans moved: the pinning did not hold, a failure of the test.
 * Prints a line per scan for the first ones and then every 5 s, and last
 * "folios_once: N scans counted, N moved, N records in N calls, N
 * violations".
 * Exit 0 ok, 1 a violation (each named: scan, PFN, records around it),
 * 2 a setup or syscall error (a kernel whose /proc/kpageidle lacks the
 * ioctl fails here with ENOTTY; one with another version of its ABI may
 * fail with EINVAL).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "common.h"

/* The scan ioctl's definitions. */
#include "kpageidle_abi.h"

#define KPF_LRU			5
#define KPF_COMPOUND_HEAD	15
#define KPF_THP			22
#define BIT(f, b)	(((f) >> (b)) & 1)

#define PG	4096UL
#define HPAGE	(2UL << 20)
#define HPFNS	512
#define MAX_REPORTS	20

static int fd_pm, fd_flags, fd_idle;
static size_t npin;		/* pinned PFNs: small pages, then THP ranges */
static size_t nsmall, nthp_ranges;
static char *small_map, *thp_map;
static uint64_t *pin_pfn, *pin_now;	/* by virtual page */
static int *is_thp;			/* per THP range */
static uint64_t *sorted;		/* pin_pfn sorted */
static int *cover;			/* per pinned page: records covering it */
static size_t *cover_rec;		/* the last one */
static struct kpageidle_folio *recs;
static size_t nrecs, caprecs;
static unsigned long violations, reports;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	printf("folios_once: ERROR: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void die_msg(const char *msg)
{
	printf("folios_once: ERROR: %s\n", msg);
	exit(2);
}

/* The PFNs of n pages from addr, 0 for a page not present. */
static void read_pfns(const char *addr, size_t n, uint64_t *pfn)
{
	off_t off = (off_t)((uintptr_t)addr / PG * 8);
	size_t i;

	if (pread(fd_pm, pfn, n * 8, off) != (ssize_t)(n * 8))
		die("pread /proc/self/pagemap");
	for (i = 0; i < n; i++)
		pfn[i] = BIT(pfn[i], 63) ? pfn[i] & ((1ULL << 55) - 1) : 0;
}

static void read_all_pfns(uint64_t *pfn)
{
	read_pfns(small_map, nsmall, pfn);
	read_pfns(thp_map, nthp_ranges * HPFNS, pfn + nsmall);
}

static uint64_t kflags(uint64_t pfn)
{
	uint64_t f;

	if (pread(fd_flags, &f, 8, (off_t)(pfn * 8)) != 8)
		die("pread /proc/kpageflags");
	return f;
}

/* The 512 PFNs p of a THP range are one THP. */
static int range_is_thp(const uint64_t *p)
{
	uint64_t f;
	size_t i;

	if (!p[0] || p[0] % HPFNS)
		return 0;
	for (i = 1; i < HPFNS; i++)
		if (p[i] != p[0] + i)
			return 0;
	f = kflags(p[0]);
	return BIT(f, KPF_THP) && BIT(f, KPF_COMPOUND_HEAD);
}

/*
 * The pinned pages are where they were (@ref) and as they were: every
 * one present, every THP range still a THP, every folio on an LRU list.
 * Reads the PFNs into pin_now.  The number of pages that differ.
 */
static size_t pins_changed(const uint64_t *ref)
{
	size_t i, moved = 0;

	read_all_pfns(pin_now);
	for (i = 0; i < npin; i++)
		if (!pin_now[i] || pin_now[i] != ref[i])
			moved++;
	if (moved)
		return moved;
	for (i = 0; i < nsmall; i++)
		if (!BIT(kflags(pin_now[i]), KPF_LRU))
			moved++;
	for (i = 0; i < nthp_ranges; i++) {
		const uint64_t *p = pin_now + nsmall + i * HPFNS;
		size_t j;

		if (is_thp[i]) {
			if (!range_is_thp(p) || !BIT(kflags(p[0]), KPF_LRU))
				moved += HPFNS;
			continue;
		}
		for (j = 0; j < HPFNS; j++)
			if (!BIT(kflags(p[j]), KPF_LRU))
				moved++;
	}
	return moved;
}

static int thp_enabled(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !strstr(buf, "[never]") && strchr(buf, '[');
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The index of the first element of the n in a that is >= v. */
static size_t lower_bound(const uint64_t *a, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of the first record that ends after pfn (may be nrecs). */
static size_t rec_at(uint64_t pfn)
{
	size_t lo = 0, hi = nrecs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (recs[mid].pfn + recs[mid].nr_pages <= pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void print_rec(size_t i)
{
	const struct kpageidle_folio *r = &recs[i];

	printf("    record %zu: pfn %#" PRIx64 " +%" PRIu64 " (to %#" PRIx64
	       ") cgroup %" PRIu64 " flags %#x\n", i, (uint64_t)r->pfn,
	       (uint64_t)r->nr_pages, (uint64_t)(r->pfn + r->nr_pages),
	       (uint64_t)r->cgroup_id, r->flags);
}

/* Print the records around pfn: two before the one at it, two after. */
static void print_around(uint64_t pfn)
{
	size_t i = rec_at(pfn), j;

	for (j = i >= 2 ? i - 2 : 0; j < nrecs && j <= i + 2; j++)
		print_rec(j);
	if (!nrecs)
		printf("    (no records)\n");
}

/* Count a violation; describe the first MAX_REPORTS. */
static int violation(unsigned long scan)
{
	violations++;
	if (++reports > MAX_REPORTS) {
		if (reports == MAX_REPORTS + 1)
			printf("(further violations counted, not shown)\n");
		return 0;
	}
	printf("VIOLATION scan %lu: ", scan);
	return 1;
}

static void add_rec(const struct kpageidle_folio *r)
{
	if (nrecs == caprecs) {
		caprecs = caprecs ? caprecs * 2 : 4096;
		recs = realloc(recs, caprecs * sizeof(*recs));
		if (!recs)
			die("realloc");
	}
	recs[nrecs++] = *r;
}

/*
 * One whole-memory scan of vec_len records per call: the records in recs,
 * the calls made in *calls.  Checks what a call returns on its own
 * (order across calls too); pfn coverage is checked by check_cover().
 */
static void scan(unsigned long nscan, size_t vec_len,
		 struct kpageidle_folio *vec, unsigned long *calls)
{
	struct kpageidle_scan_arg a;
	uint64_t start = 0, prev_end = 0;
	size_t i;

	nrecs = 0;
	*calls = 0;
	for (;;) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.flags = 0;	/* test only */
		a.start = start;
		a.end = UINT64_MAX;
		a.vec = (uintptr_t)vec;
		a.vec_len = vec_len;
		if (ioctl(fd_idle, KPAGEIDLE_SCAN, &a)) {
			if (errno == ENXIO && *calls)
				break;		/* start at the max PFN: done */
			if (errno == ENOTTY || errno == EINVAL)
				printf("folios_once: /proc/kpageidle has no KPAGEIDLE_SCAN "
				       "(or one of another ABI version)\n");
			printf("folios_once: scan %lu call %lu start %#" PRIx64 ":\n",
			       nscan, *calls, start);
			die("ioctl KPAGEIDLE_SCAN");
		}
		++*calls;
		if (a.nr_records > vec_len) {
			if (violation(nscan))
				printf("call %lu from %#" PRIx64 ": %" PRIu64
				       " records for %zu slots\n", *calls, start,
				       (uint64_t)a.nr_records, vec_len);
			a.nr_records = vec_len;
		}
		if (a.walk_end <= start) {
			if (violation(nscan))
				printf("call %lu from %#" PRIx64 ": walk_end %#" PRIx64
				       " did not advance\n", *calls, start,
				       (uint64_t)a.walk_end);
			return;
		}
		for (i = 0; i < a.nr_records; i++) {
			const struct kpageidle_folio *r = &vec[i];

			if (!r->nr_pages || r->reserved || r->pfn < start ||
			    r->pfn + r->nr_pages > a.walk_end ||
			    r->pfn < prev_end) {
				if (violation(nscan)) {
					printf("call %lu [%#" PRIx64 ", walk_end %#" PRIx64
					       "): record pfn %#" PRIx64 " +%" PRIu64
					       " reserved %u after records up to %#"
					       PRIx64 "; the records so far around it:\n", *calls,
					       start, (uint64_t)a.walk_end,
					       (uint64_t)r->pfn, (uint64_t)r->nr_pages,
					       r->reserved, prev_end);
					print_around(r->pfn);
				}
			}
			if (r->pfn + r->nr_pages > prev_end)
				prev_end = r->pfn + r->nr_pages;
			add_rec(r);
		}
		start = a.walk_end;
	}
}

/*
 * The pinned folio of the n pages from index i of pfns (one small page,
 * or a THP): each page in exactly one record, all in the same one.  One
 * violation per folio.
 */
static void check_folio(unsigned long nscan, const uint64_t *pfns, size_t i,
			size_t n)
{
	size_t j, k, first = SIZE_MAX, bad = SIZE_MAX, r;

	for (j = i; j < i + n; j++) {
		k = lower_bound(sorted, npin, pfns[j]);
		if (cover[k] != 1) {
			bad = j;
			break;
		}
		if (first == SIZE_MAX)
			first = cover_rec[k];
		else if (cover_rec[k] != first)
			break;
	}
	if (j == i + n || !violation(nscan))
		return;
	if (i < nsmall)
		printf("pinned small page %zu", i);
	else if (n == 1)
		printf("pinned small page %zu of 2 MiB range %zu", (i - nsmall) % HPFNS,
		       (i - nsmall) / HPFNS);
	else
		printf("pinned THP %zu (PFNs %#" PRIx64 "-%#" PRIx64 ")",
		       (i - nsmall) / HPFNS, pfns[i], pfns[i + n - 1]);
	if (bad != SIZE_MAX) {
		k = lower_bound(sorted, npin, pfns[bad]);
		printf(": PFN %#" PRIx64 " is in %d records; around it:\n",
		       pfns[bad], cover[k]);
		print_around(pfns[bad]);
		return;
	}
	printf(" is split over records:\n");
	k = lower_bound(sorted, npin, pfns[j]);
	for (r = first; r <= cover_rec[k] && r < nrecs; r++)
		print_rec(r);
}

/* Every pinned PFN in exactly one record, every THP in one. */
static void check_cover(unsigned long nscan, const uint64_t *pfns)
{
	size_t i, k;

	memcpy(sorted, pfns, npin * 8);
	qsort(sorted, npin, 8, cmp_u64);
	memset(cover, 0, npin * sizeof(*cover));
	/* records may overlap here (a violation of its own): count each */
	for (i = 0; i < nrecs; i++) {
		uint64_t end = recs[i].pfn + recs[i].nr_pages;

		for (k = lower_bound(sorted, npin, recs[i].pfn);
		     k < npin && sorted[k] < end; k++) {
			cover[k]++;
			cover_rec[k] = i;
		}
	}
	for (i = 0; i < nsmall; i++)
		check_folio(nscan, pfns, i, 1);
	for (i = 0; i < nthp_ranges; i++) {
		size_t first = nsmall + i * HPFNS;

		if (is_thp[i]) {
			check_folio(nscan, pfns, first, HPFNS);
			continue;
		}
		for (k = 0; k < HPFNS; k++)
			check_folio(nscan, pfns, first + k, 1);
	}
}

static void *map_or_die(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

/* Map, fault and mlock the pinned pages, on CPU 0 only meanwhile so that
 * mlock()'s drain of the CPU's LRU batches takes them all. */
static void pin(void)
{
	cpu_set_t all;
	size_t i, len;
	char *p;

	if (sched_getaffinity(0, sizeof(all), &all))
		die("sched_getaffinity");
	if (pin_cpu0())
		die("sched_setaffinity");
	small_map = map_or_die(nsmall * PG);
	if (madvise(small_map, nsmall * PG, MADV_NOHUGEPAGE))
		die("madvise MADV_NOHUGEPAGE");
	len = (nthp_ranges + 1) * HPAGE;
	p = map_or_die(len);
	thp_map = (char *)(((uintptr_t)p + HPAGE - 1) & ~(HPAGE - 1));
	if (madvise(thp_map, nthp_ranges * HPAGE, MADV_HUGEPAGE))
		die("madvise MADV_HUGEPAGE");
	for (i = 0; i < nsmall; i++)
		memset(small_map + i * PG, (int)(i % 251) + 1, PG);
	for (i = 0; i < nthp_ranges * HPFNS; i++)
		memset(thp_map + i * PG, (int)(i % 241) + 1, PG);
	if (mlock(small_map, nsmall * PG))
		die("mlock small pages");
	if (mlock(thp_map, nthp_ranges * HPAGE))
		die("mlock THP ranges");
	if (sched_setaffinity(0, sizeof(all), &all))
		die("sched_setaffinity");
}

int main(int argc, char **argv)
{
	double secs = 20, deadline, t0, next_print;
	size_t vec_len = 64, i;
	unsigned long nscan = 0, counted = 0, moved = 0, calls, allcalls = 0;
	unsigned long long allrecs = 0;
	struct kpageidle_folio *vec;
	uint64_t *ref;
	size_t nthp = 0;
	int opt, waited;

	nsmall = 256;
	nthp_ranges = 4;
	while ((opt = getopt(argc, argv, "t:n:p:H:")) != -1) {
		switch (opt) {
		case 't': secs = atof(optarg); break;
		case 'n': vec_len = strtoul(optarg, NULL, 0); break;
		case 'p': nsmall = strtoul(optarg, NULL, 0); break;
		case 'H': nthp_ranges = strtoul(optarg, NULL, 0); break;
		default:
			fprintf(stderr, "usage: folios_once [-t SECONDS] [-n RECORDS] "
				"[-p SMALL] [-H THPS]\n");
			return 2;
		}
	}
	if (!vec_len || !nsmall || !nthp_ranges || nsmall > 65536 || nthp_ranges > 64)
		die_msg("bad -n, -p or -H");
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd_pm = open("/proc/self/pagemap", O_RDONLY);
	if (fd_pm < 0)
		die("open /proc/self/pagemap");
	fd_flags = open("/proc/kpageflags", O_RDONLY);
	if (fd_flags < 0)
		die("open /proc/kpageflags");
	fd_idle = open("/proc/kpageidle", O_RDONLY);
	if (fd_idle < 0)
		die("open /proc/kpageidle");

	npin = nsmall + nthp_ranges * HPFNS;
	pin_pfn = calloc(npin, 8);
	pin_now = calloc(npin, 8);
	sorted = calloc(npin, 8);
	cover = calloc(npin, sizeof(*cover));
	cover_rec = calloc(npin, sizeof(*cover_rec));
	is_thp = calloc(nthp_ranges, sizeof(*is_thp));
	vec = calloc(vec_len, sizeof(*vec));
	if (!pin_pfn || !pin_now || !sorted || !cover || !cover_rec || !is_thp || !vec)
		die("calloc");
	pin();

	read_all_pfns(pin_pfn);
	for (i = 0; i < nthp_ranges; i++) {
		is_thp[i] = range_is_thp(pin_pfn + nsmall + i * HPFNS);
		nthp += is_thp[i];
		/* small pages khugepaged must leave alone: a collapse takes
		 * them off the LRU for a while, even one that fails */
		if (!is_thp[i] &&
		    madvise(thp_map + i * HPAGE, HPAGE, MADV_NOHUGEPAGE))
			die("madvise MADV_NOHUGEPAGE");
	}
	printf("folios_once: %zu small pages, %zu of %zu 2 MiB ranges are THPs"
	       " (THP %s), %zu records per call, %.0f s\n", nsmall, nthp,
	       nthp_ranges, thp_enabled() ? "enabled" : "disabled", vec_len, secs);
	if (!nthp && thp_enabled())
		die_msg("THP is enabled but no pinned range became a THP");
	for (i = 0; i < npin; i++)
		if (!pin_pfn[i])
			die_msg("a pinned page is not present after mlock");
	/* every pinned folio on an LRU list (mlock()'s batch drained) */
	for (waited = 0; pins_changed(pin_pfn); waited++) {
		if (waited == 100)
			die_msg("the pinned pages are not all on an LRU list, or "
				"moved, 10 s after mlock()");
		usleep(100000);
		memcpy(pin_pfn, pin_now, npin * 8);
	}

	ref = pin_pfn;
	t0 = now();
	deadline = t0 + secs;
	next_print = t0 + 5;
	while (now() < deadline) {
		size_t changed;

		nscan++;
		scan(nscan, vec_len, vec, &calls);
		allcalls += calls;
		allrecs += nrecs;
		changed = pins_changed(ref);
		if (changed) {
			moved++;
			printf("scan %lu: %zu pinned pages moved or changed, not counted\n",
			       nscan, changed);
			memcpy(ref, pin_now, npin * 8);
			continue;
		}
		counted++;
		check_cover(nscan, ref);
		if (nscan <= 3 || now() >= next_print) {
			printf("scan %lu: %zu records in %lu calls, to PFN %#" PRIx64
			       ", %lu violations so far\n", nscan, nrecs, calls,
			       nrecs ? (uint64_t)(recs[nrecs - 1].pfn +
						  recs[nrecs - 1].nr_pages) : 0,
			       violations);
			next_print = now() + 5;
		}
	}
	printf("folios_once: %lu scans counted, %lu moved, %llu records in %lu calls,"
	       " %lu violations\n", counted, moved, allrecs, allcalls, violations);
	if (violations)
		return 1;
	if (!counted || moved * 2 > nscan) {
		printf("folios_once: FAIL: the pinning did not hold: %lu of %lu scans"
		       " saw pinned pages move (compact_unevictable_allowed 0?)\n",
		       moved, nscan);
		return 1;
	}
	return 0;
}
