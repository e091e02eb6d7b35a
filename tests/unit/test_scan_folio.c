// SPDX-License-Identifier: GPL-2.0
/*
 * test_scan_folio.c - the folio records path (KPAGEIDLE_SCAN,
 * scan_folio.c) against the read + write path (kpageflags, kpagecgroup
 * and /proc/kpageidle per PFN, scan_pfn.c), over the same synthetic
 * memory: 4 KiB pages, order-2, order-4 and order-9 folios in several
 * cgroups, idle or not in a pattern that changes every cycle.
 * Every cycle both must give the same counters for every cgroup and the
 * same age for every PFN: with full and 64-PFN slices (folios end past
 * the slice: the next one starts at walk_end), with a record vector of
 * one or three entries (the kernel stops when it is full, the scanner
 * resumes), with and without merged runs; and the records path reads
 * neither /proc/kpageflags nor /proc/kpagecgroup.  The kernel's
 * nr_skipped is summed over a cycle's calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture.h"
#include "kpf.h"
#include "scan.h"

#define NPFN 8292	/* not a multiple of 64 */
#define LRU F(KPF_LRU)
#define ANON (F(KPF_ANON) | F(KPF_SWAPBACKED) | F(KPF_MMAP))
#define SHMEM F(KPF_SWAPBACKED)
#define UNEV F(KPF_UNEVICTABLE)
#define CYCLES 6

struct t {
	struct fixture fx;
	struct scanner rw, fo;	/* read + write, folio records */
	uint64_t ino[5];	/* /, /a, /a/b, /c, /a/b/d */
	uint64_t heads;		/* LRU folios in the layout */
};

/* Called before cycle 3 of run_both() when set. */
static void (*change)(struct t *t);

/* Folio heads get an idle state that changes per cycle; tails noise. */
static void set_idle(struct t *t, int cycle)
{
	uint64_t i, h;

	for (i = 0; i < NPFN; i++) {
		h = (i * 2654435761u + (uint64_t)cycle * 40503u) >> 5;
		/* a third of the 64-PFN blocks stays idle: ages grow */
		t->fx.idle[i] = (i / 64) % 3 == 0 || (h & 1);
	}
}

static uint64_t cg(struct t *t, uint64_t i)
{
	return t->ino[i % 5];
}

static void layout(struct t *t)
{
	struct fixture *fx = &t->fx;
	uint64_t p, k = 0;

	fx_set(fx, 0, 64, F(KPF_NOPAGE), 0, 1);
	for (p = 64; p < 256; p += 16, k++)	/* 4K runs, all kinds */
		fx_set(fx, p, 16, LRU | (k % 3 == 0 ? ANON : k % 3 == 1 ?
					 SHMEM : 0), cg(t, k), 0);
	fx_set(fx, 200, 8, LRU | ANON | UNEV, t->ino[3], 1);
	for (p = 256; p < 512; p += 4, k++)	/* order 2, file and shmem */
		fx_folio(fx, p, 4, k % 2 ? SHMEM : 0, cg(t, k / 3), 0);
	fx_folio(fx, 1024, 512, ANON, t->ino[1], 0);	/* PMD THPs */
	fx_folio(fx, 1536, 512, ANON, t->ino[2], 0);
	fx_folio(fx, 2048, 512, 0, t->ino[4], 0);	/* a file folio */
	for (p = 2560; p < 3072; p += 16, k++)	/* order 4 */
		fx_folio(fx, p, 16, k % 4 ? 0 : SHMEM | UNEV, cg(t, k), 0);
	fx_set(fx, 3072, 1, F(KPF_HUGE) | F(KPF_COMPOUND_HEAD), t->ino[1], 1);
	fx_set(fx, 3073, 511, F(KPF_HUGE) | F(KPF_COMPOUND_TAIL), 0, 1);
	fx_set(fx, 3584, 512, 0, t->ino[1], 1);		/* kernel pages */
	for (p = 4608; p < 6144; p += 4, k++)	/* order 2 and 4K, one cgroup */
		if (k % 2)
			fx_folio(fx, p, 4, 0, t->ino[3], 0);
		else
			fx_set(fx, p, 4, LRU, t->ino[3], 0);
	fx_set(fx, 6144, 64, LRU, 0, 0);		/* not charged */
	fx_folio(fx, 7680, 512, ANON, t->ino[0], 0);
	fx_set(fx, 8192, NPFN - 8192, LRU | ANON, t->ino[2], 0);
	for (p = 0, t->heads = 0; p < NPFN; p++)
		t->heads += KPF_BIT(fx->flags[p], KPF_LRU) &&
			    !KPF_BIT(fx->flags[p], KPF_COMPOUND_TAIL);
}

static void open_one(struct t *t, struct scanner *sc, enum idlesrc_kind src,
		     size_t slice)
{
	struct scan_config cfg = {
		.slice_pfns = slice, .slice_ms = 1e6, .period = 0,
		.cpu_frac = 1, .ws_cycles = 2, .source = src,
		.scan_ioctl = fx_scan_ioctl,
	};
	char err[256];

	if (scan_open(sc, t->fx.root, &cfg, err, sizeof(err)))
		fail_msg("scan_open: %s", err);
	assert_int_equal(sc->nr_pfns, NPFN);
}

static struct t *setup(size_t slice)
{
	struct t *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	assert_int_equal(fx_create(&t->fx, NPFN), 0);
	t->ino[0] = fx_ino(&t->fx, "/");
	t->ino[1] = fx_mkcg(&t->fx, "/a");
	t->ino[2] = fx_mkcg(&t->fx, "/a/b");
	t->ino[3] = fx_mkcg(&t->fx, "/c");
	t->ino[4] = fx_mkcg(&t->fx, "/a/b/d");
	layout(t);
	set_idle(t, 0);
	assert_int_equal(fx_write_pages(&t->fx, 1, 0), 0);
	change = NULL;
	fx_scan_fx = &t->fx;
	fx_scan_errno = fx_scan_nomerge = 0;
	open_one(t, &t->rw, IDLESRC_KPAGEIDLE_RW, 65536);
	open_one(t, &t->fo, IDLESRC_AUTO, slice);
	assert_string_equal(idlesrc_method(&t->rw.src), "read-write");
	assert_string_equal(idlesrc_method(&t->fo.src), "scan-folios");
	fx_scan_calls = 0;
	fx_scan_records = fx_scan_past_end = 0;
	return t;
}

static int teardown(void **state)
{
	struct t *t = *state;

	scan_close(&t->rw);
	scan_close(&t->fo);
	fx_destroy(&t->fx);
	free(t);
	return 0;
}

static void run_cycle(struct scanner *sc)
{
	char err[256];
	int rc, guard = 0;

	while ((rc = scan_slice(sc, err, sizeof(err))) == 0)
		assert_true(++guard < 100000);
	if (rc < 0)
		fail_msg("scan_slice: %s", err);
}

static void prime(struct scanner *sc)
{
	char err[256];

	while (sc->cycle == 0)
		if (scan_slice(sc, err, sizeof(err)))
			fail_msg("priming: %s", err);
}

/* Every cgroup's counters and every PFN's age are the same. */
static void check_same(struct t *t)
{
	const struct acct *a = &t->rw.last.acct, *b = &t->fo.last.acct;
	const struct acct_ent *e;
	const struct cg_pages *p;
	size_t pos = 0, n = 0;

	while ((e = acct_next(a, &pos))) {
		p = acct_find(b, e->ino);
		if (!p)
			fail_msg("cgroup %llu missing", (unsigned long long)e->ino);
		assert_memory_equal(&e->pages, p, sizeof(*p));
		n++;
	}
	assert_int_equal(n, 6);	/* and inode 0 */
	pos = 0;
	while (acct_next(b, &pos))
		n--;
	assert_int_equal(n, 0);
	assert_memory_equal(t->rw.age, t->fo.age, NPFN);
	assert_int_equal(t->rw.last.pfns, NPFN);
	assert_int_equal(t->fo.last.pfns, NPFN);
	assert_int_equal(t->rw.last.number, t->fo.last.number);
}

/* Both paths, CYCLES counted cycles, each over a new idle pattern. */
static void run_both(struct t *t)
{
	const struct cg_pages *p;
	int c;

	prime(&t->rw);
	prime(&t->fo);
	for (c = 1; c <= CYCLES; c++) {
		if (c == 3 && change)
			change(t);
		set_idle(t, c);
		assert_int_equal(fx_write_pages(&t->fx, 1, 0), 0);
		run_cycle(&t->rw);
		assert_int_equal(fx_write_pages(&t->fx, 1, 0), 0);
		run_cycle(&t->fo);
		check_same(t);
	}
	/* what was compared is not empty: THPs, ages beyond 2 */
	p = acct_find(&t->fo.last.acct, t->ino[2]);
	assert_non_null(p);
	assert_true(p->resident[PK_ANON] >= 512 + 100);
	p = acct_find(&t->fo.last.acct, t->ino[3]);
	assert_non_null(p);
	assert_true(p->unevictable >= 8);
	assert_true(p->age[2] > 0);	/* idle 4-7 cycles */
}

static void test_same_report(void **state)
{
	struct t *t = *state = setup(65536);

	run_both(t);
	assert_int_equal(fx_scan_past_end, 0);
}

/* 64-PFN slices: a THP's records end past the slice, resumed there. */
static void test_walk_end_past_slice(void **state)
{
	struct t *t = *state = setup(64);

	run_both(t);
	assert_true(fx_scan_past_end >= 4 * (CYCLES + 1));	/* 4 THPs */
}

/* A vector of one record: every call stops when it is full. */
static void test_vector_full(void **state)
{
	struct t *t = *state = setup(65536);

	t->fo.src.rec_max = 1;
	run_both(t);
	assert_true(fx_scan_calls > 100 * (CYCLES + 1));
}

static void test_vector_full_small_slices(void **state)
{
	struct t *t = *state = setup(128);

	t->fo.src.rec_max = 3;
	run_both(t);
}

/* Merged runs give the numbers of one record per folio, in fewer. */
static void test_merged(void **state)
{
	struct t *t = *state = setup(65536);
	uint64_t merged, single;

	run_both(t);
	merged = fx_scan_records;
	assert_true(merged < t->heads * (CYCLES + 1));
	scan_close(&t->fo);
	fx_scan_nomerge = 1;
	open_one(t, &t->fo, IDLESRC_KPAGEIDLE_FOLIOS, 65536);
	scan_close(&t->rw);
	open_one(t, &t->rw, IDLESRC_KPAGEIDLE_RW, 65536);
	fx_scan_records = 0;
	run_both(t);
	single = fx_scan_records;
	assert_int_equal(single, t->heads * (CYCLES + 1));
	assert_true(merged * 2 < single);
}

/*
 * A kernel whose ioctl refuses the records call (EINVAL: another version
 * of its ABI) or that has none (ENOTTY): auto reads and writes the file.
 */
static void test_fallback(void **state)
{
	struct t *t = *state = setup(65536);

	scan_close(&t->fo);
	fx_scan_errno = EINVAL;
	open_one(t, &t->fo, IDLESRC_AUTO, 64);
	assert_string_equal(idlesrc_method(&t->fo.src), "read-write");
	scan_close(&t->fo);
	fx_scan_errno = ENOTTY;
	open_one(t, &t->fo, IDLESRC_AUTO, 64);
	assert_string_equal(idlesrc_method(&t->fo.src), "read-write");
	fx_scan_calls = 0;
	run_both(t);
	assert_int_equal(fx_scan_calls, 0);
	assert_int_equal(fx_scan_records, 0);
}

/*
 * Memory changes between two cycles: a THP freed (its PFNs' ages go to
 * 0), one split into 4 KiB pages (each PFN keeps its age), order-2
 * folios and pages made one THP, 4 KiB pages freed.
 */
static void churn(struct t *t)
{
	fx_set(&t->fx, 1024, 512, 0, 0, 0);
	fx_set(&t->fx, 1536, 512, LRU | ANON, t->ino[2], 0);
	fx_folio(&t->fx, 4608, 512, 0, t->ino[3], 0);
	fx_set(&t->fx, 64, 128, 0, 0, 0);
}

static void memory_changes(void **state, size_t slice)
{
	struct t *t = *state = setup(slice);

	change = churn;
	run_both(t);
	change = NULL;
	/* 1536..1599 stays idle: the split kept the ages of its PFNs */
	assert_int_equal(t->fo.age[1537], CYCLES);
	assert_int_equal(t->fo.age[1024], 0);
	assert_int_equal(t->fo.age[64], 0);
}

static void test_memory_changes(void **state)
{
	memory_changes(state, 65536);	/* gaps between records */
}

static void test_memory_changes_small(void **state)
{
	memory_changes(state, 64);	/* gaps after the last one */
}

/* A read of kpageflags or kpagecgroup fails (a directory): no reads. */
static void no_reads(struct scanner *sc, const char *dir)
{
	int d = open(dir, O_RDONLY | O_DIRECTORY);

	assert_true(d >= 0);
	assert_true(dup2(d, sc->flags_fd) == sc->flags_fd);
	assert_true(dup2(d, sc->cgroup_fd) == sc->cgroup_fd);
	close(d);
}

static void test_one_pass(void **state)
{
	struct t *t = *state = setup(64);
	char err[256];

	no_reads(&t->fo, t->fx.root);
	run_both(t);
	no_reads(&t->rw, t->fx.root);	/* the trick works */
	assert_int_equal(scan_slice(&t->rw, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "kpageflags"));
}

/* The pages the skipping kernel below reported, since the test reset it. */
static uint64_t skip_sum;
static unsigned skip_calls;

/*
 * A kernel that could not walk the page tables of the first busy record
 * of every other call: nr_skipped says how many pages that was.  It
 * writes it on test-only calls too, which count nothing (the ABI's
 * nr_skipped is for marking calls).
 */
static int skipping_ioctl(int fd, struct kpageidle_scan_arg *a)
{
	const struct kpageidle_folio *v = (const void *)(uintptr_t)a->vec;
	int rc = fx_scan_ioctl(fd, a);
	uint64_t i;

	if (rc || skip_calls++ % 2)
		return rc;
	for (i = 0; i < a->nr_records; i++) {
		if (v[i].flags & KPAGEIDLE_FOLIO_IDLE)
			continue;
		a->nr_skipped = v[i].nr_pages;
		if (a->flags & KPAGEIDLE_SCAN_MARK)
			skip_sum += v[i].nr_pages;
		break;
	}
	return rc;
}

/*
 * The cycle says how many pages its calls reported busy only as their
 * page tables were not walked: the sum over every call of its pass (64-PFN
 * slices of several calls each: 3 records a call), not the priming
 * pass's, not the last call's.  Read + write and a pass that
 * does not mark (--mark-wait's count) cannot know it.
 */
static void test_skipped(void **state)
{
	struct t *t = *state = setup(64);
	int c;

	t->fo.src.ioctl = skipping_ioctl;
	t->fo.src.rec_max = 3;	/* several calls a slice, too */
	skip_calls = 0;
	prime(&t->fo);
	prime(&t->rw);
	assert_false(t->fo.last.has_skipped);	/* nothing published yet */
	for (c = 1; c <= 3; c++) {
		set_idle(t, c);
		assert_int_equal(fx_write_pages(&t->fx, 1, 0), 0);
		skip_sum = 0;
		run_cycle(&t->fo);
		assert_true(skip_sum > 0);
		assert_true(t->fo.last.has_skipped);
		assert_int_equal(t->fo.last.skipped, skip_sum);
		run_cycle(&t->rw);
		assert_false(t->rw.last.has_skipped);
		assert_int_equal(t->rw.last.skipped, 0);
	}
	assert_true(fx_scan_calls > 3 * NPFN / 64);	/* > 1 a slice */
	t->fo.no_mark = 1;
	skip_sum = 0;
	run_cycle(&t->fo);
	assert_false(t->fo.last.has_skipped);
	assert_int_equal(t->fo.last.skipped, 0);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_same_report),
		T(test_walk_end_past_slice),
		T(test_vector_full),
		T(test_vector_full_small_slices),
		T(test_merged),
		T(test_fallback),
		T(test_memory_changes),
		T(test_memory_changes_small),
		T(test_one_pass),
		T(test_skipped),
	};

	return cmocka_run_group_tests_name("scan_folio", tests, NULL, NULL);
}
