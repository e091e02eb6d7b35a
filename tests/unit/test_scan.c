// SPDX-License-Identifier: GPL-2.0
/*
 * test_scan.c - scanner over fixture trees: kinds, THP tails, ages, marks;
 * the read + write path (the fixture's regular files have no ioctl), of
 * /proc/kpageidle and of page_idle/bitmap, and the scan-folios path
 * (fx_scan_ioctl) must give the same numbers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cgroup.h"
#include "fixture.h"
#include "kpf.h"
#include "scan.h"
#include "stats.h"
#include "batch.h"

#define NPFN 4196	/* not a multiple of 64 */
#define LRU F(KPF_LRU)
#define ANON (F(KPF_ANON) | F(KPF_SWAPBACKED) | F(KPF_MMAP))
#define SHMEM F(KPF_SWAPBACKED)
#define BOGUS_INO 999999999ULL

struct t {
	struct fixture fx;
	struct scanner sc;
	uint64_t R, A, B, C;
};

static void layout(struct t *t)
{
	struct fixture *fx = &t->fx;

	fx_set(fx, 0, 64, F(KPF_NOPAGE), 0, 1);
	fx_set(fx, 64, 100, LRU | ANON, t->A, 1);
	fx_set(fx, 164, 100, LRU | ANON, t->A, 0);
	fx_set(fx, 264, 50, LRU, t->B, 1);
	fx_set(fx, 314, 50, LRU, t->B, 0);
	fx_set(fx, 364, 50, LRU | SHMEM, t->C, 1);
	fx_set(fx, 414, 10, LRU | ANON | F(KPF_UNEVICTABLE), t->C, 1);
	fx_thp(fx, 512, ANON, t->B, 1, 0, 0);		/* idle on head only */
	fx_thp(fx, 1024, ANON, t->C, 1, t->C, 1);	/* idle everywhere */
	fx_thp(fx, 1536, ANON, t->A, 0, t->A, 1);	/* head says busy */
	fx_set(fx, 2048, 10, LRU, 0, 0);
	fx_set(fx, 2058, 10, LRU, BOGUS_INO, 1);
	fx_set(fx, 3000, 1, F(KPF_HUGE) | F(KPF_COMPOUND_HEAD), t->A, 1);
	fx_set(fx, 3001, 9, F(KPF_HUGE) | F(KPF_COMPOUND_TAIL), t->A, 1);
	fx_set(fx, 3100, 100, 0, t->A, 1);		/* kernel pages */
	fx_set(fx, 4160, 36, LRU, t->C, 1);		/* up to the ragged end */
}

static int setup_src(void **state, enum idlesrc_kind src, size_t slice)
{
	struct t *t = calloc(1, sizeof(*t));
	int folios = src == IDLESRC_KPAGEIDLE_FOLIOS;
	struct scan_config cfg = {
		.slice_pfns = slice, .slice_ms = 1e6, .period = 0,
		.cpu_frac = 1, .ws_cycles = 2, .source = src,
		.scan_ioctl = folios ? fx_scan_ioctl : NULL,
	};
	char err[256];

	assert_non_null(t);
	assert_int_equal(fx_create(&t->fx, NPFN), 0);
	t->R = fx_ino(&t->fx, "/");
	t->A = fx_mkcg(&t->fx, "/a");
	t->B = fx_mkcg(&t->fx, "/a/b");
	t->C = fx_mkcg(&t->fx, "/c");
	assert_true(t->A && t->B && t->C);
	layout(t);
	assert_int_equal(fx_write_pages(&t->fx, src != IDLESRC_BITMAP,
					src == IDLESRC_BITMAP), 0);
	fx_scan_fx = &t->fx;
	fx_scan_calls = fx_scan_errno = fx_scan_nomerge = 0;
	if (scan_open(&t->sc, t->fx.root, &cfg, err, sizeof(err)))
		fail_msg("scan_open: %s", err);
	assert_int_equal(t->sc.nr_pfns, NPFN);
	/* regular files: ENOTTY, read + write; the fake: the ioctl */
	assert_int_equal(t->sc.src.folios, folios);
	assert_int_equal(fx_scan_calls, folios);	/* the probe */
	fx_scan_calls = 0;
	*state = t;
	return 0;
}

static int setup_kpi(void **s) { return setup_src(s, IDLESRC_KPAGEIDLE, 65536); }
static int setup_kpi_small(void **s) { return setup_src(s, IDLESRC_KPAGEIDLE, 64); }
static int setup_bitmap(void **s) { return setup_src(s, IDLESRC_BITMAP, 65536); }
static int setup_bitmap_small(void **s) { return setup_src(s, IDLESRC_BITMAP, 192); }
static int setup_folio(void **s) { return setup_src(s, IDLESRC_KPAGEIDLE_FOLIOS, 65536); }
static int setup_folio_small(void **s) { return setup_src(s, IDLESRC_KPAGEIDLE_FOLIOS, 64); }

static int teardown(void **state)
{
	struct t *t = *state;

	scan_close(&t->sc);
	fx_destroy(&t->fx);
	free(t);
	return 0;
}

/* Run slices until a cycle is published; rewrite the idle data first. */
static void run_cycle(struct t *t)
{
	char err[256];
	int rc, guard = 0;

	assert_int_equal(fx_write_pages(&t->fx, t->sc.src.kind != IDLESRC_BITMAP,
					t->sc.src.kind == IDLESRC_BITMAP), 0);
	while ((rc = scan_slice(&t->sc, err, sizeof(err))) == 0)
		assert_true(++guard < 100000);
	if (rc < 0)
		fail_msg("scan_slice: %s", err);
}

static void prime(struct t *t)
{
	char err[256];

	while (t->sc.cycle == 0)
		assert_int_equal(scan_slice(&t->sc, err, sizeof(err)), 0);
}

static const struct cg_pages *get(struct t *t, uint64_t ino)
{
	const struct cg_pages *p = acct_find(&t->sc.last.acct, ino);

	assert_non_null(p);
	return p;
}

static void test_marks_after_priming(void **state)
{
	struct t *t = *state;
	int bm = t->sc.src.kind == IDLESRC_BITMAP;
	/* what the kernel marks with KPAGEIDLE_SCAN_MARK: unevictable too */
	uint64_t yes[] = { 64, 200, 264, 364, 414, 512, 1024, 2048, 4195 };
	uint64_t no[] = { 0, 513, 1535, 3000, 3001, 3100 };
	size_t i;

	/* nothing idle yet: the scan ioctl, like the kernel, only sets */
	memset(t->fx.idle, 0, NPFN * sizeof(*t->fx.idle));
	assert_int_equal(fx_write_pages(&t->fx, !bm, bm), 0);
	prime(t);
	if (t->sc.src.folios)	/* priming: one call per slice, no reads */
		assert_int_equal(fx_scan_calls, 1);
	for (i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		assert_int_equal(bm ? (uint64_t)fx_read_bitmap(&t->fx, yes[i]) :
				 fx_read_kpageidle(&t->fx, yes[i]), 1);
	for (i = 0; i < sizeof(no) / sizeof(*no); i++)
		assert_int_equal(bm ? (uint64_t)fx_read_bitmap(&t->fx, no[i]) :
				 fx_read_kpageidle(&t->fx, no[i]), 0);
}

static void test_aggregation(void **state)
{
	struct t *t = *state;
	const struct cg_pages *a, *b, *c, *z, *u;

	prime(t);
	run_cycle(t);
	assert_int_equal(t->sc.last.number, 1);
	a = get(t, t->A);
	b = get(t, t->B);
	c = get(t, t->C);
	z = get(t, 0);
	u = get(t, BOGUS_INO);
	assert_int_equal(a->resident[PK_ANON], 100 + 100 + 512);
	assert_int_equal(a->idle[PK_ANON], 100);
	assert_int_equal(a->resident[PK_FILE] + a->resident[PK_SHMEM], 0);
	assert_int_equal(b->resident[PK_FILE], 100);
	assert_int_equal(b->idle[PK_FILE], 50);
	assert_int_equal(b->resident[PK_ANON], 512);	/* tails said ino 0 */
	assert_int_equal(b->idle[PK_ANON], 512);	/* head said idle */
	assert_int_equal(c->resident[PK_SHMEM], 50);
	assert_int_equal(c->idle[PK_SHMEM], 50);
	assert_int_equal(c->resident[PK_ANON], 10 + 512);
	assert_int_equal(c->idle[PK_ANON], 512);
	assert_int_equal(c->unevictable, 10);
	assert_int_equal(c->resident[PK_FILE], 36);
	assert_int_equal(z->resident[PK_FILE], 10);
	assert_int_equal(z->idle[PK_FILE], 0);
	assert_int_equal(u->resident[PK_FILE], 10);
	assert_int_equal(t->sc.last.pfns, NPFN);
}

static void test_ages(void **state)
{
	struct t *t = *state;
	const struct cg_pages *a;
	int i;

	prime(t);
	run_cycle(t);
	a = get(t, t->A);
	assert_int_equal(a->age[0], 100);	/* age 1 */
	assert_int_equal(cg_pages_ws_idle(a), 0);	/* ws_cycles = 2 */
	run_cycle(t);
	a = get(t, t->A);
	assert_int_equal(a->age[0], 0);
	assert_int_equal(a->age[1], 100);	/* age 2 */
	assert_int_equal(cg_pages_ws_idle(a), 100);
	for (i = 0; i < 14; i++)
		run_cycle(t);
	a = get(t, t->A);
	assert_int_equal(a->age[4], 100);	/* age 16: 16+ bucket */
	assert_int_equal(a->age[3], 0);
	fx_set(&t->fx, 64, 50, LRU | ANON, t->A, 0);	/* touched */
	run_cycle(t);
	a = get(t, t->A);
	assert_int_equal(a->idle[PK_ANON], 50);
	assert_int_equal(a->age[4], 50);
	fx_set(&t->fx, 64, 50, LRU | ANON, t->A, 1);
	run_cycle(t);
	a = get(t, t->A);
	assert_int_equal(a->age[0], 50);	/* restarted at 1 */
	assert_int_equal(a->age[4], 50);
}

/* --mark-wait's counting pass: read only, on either path. */
static void test_no_mark(void **state)
{
	struct t *t = *state;
	char err[256];
	int rc;

	prime(t);
	memset(t->fx.idle, 0, NPFN * sizeof(*t->fx.idle));
	fx_set(&t->fx, 64, 100, LRU | ANON, t->A, 1);
	assert_int_equal(fx_write_pages(&t->fx, 1, 0), 0);
	t->sc.no_mark = 1;
	while ((rc = scan_slice(&t->sc, err, sizeof(err))) == 0)
		;
	assert_int_equal(rc, 1);
	assert_int_equal(get(t, t->A)->idle[PK_ANON], 100);
	assert_int_equal(fx_read_kpageidle(&t->fx, 164), 0);	/* not marked */
	assert_int_equal(fx_read_kpageidle(&t->fx, 264), 0);
	assert_int_equal(fx_read_kpageidle(&t->fx, 64), 1);
}

static char *print(const struct report *r, enum out_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	assert_int_equal(batch_print(m, r, f), 0);
	assert_int_equal(fclose(m), 0);
	return buf;
}

static void check_printers(const struct report *r)
{
	char *t = print(r, FMT_TEXT), *j = print(r, FMT_JSON);
	char *o = print(r, FMT_OPENMETRICS);
	FILE *full = fopen("/dev/full", "w");

	assert_non_null(strstr(t, "  /a/b\n"));
	assert_non_null(strstr(t, "  (unknown)\n"));
	assert_non_null(strstr(j, "{\"path\":\"/a/b\",\"ino\":"));
	assert_non_null(strstr(j, "\"pseudo\":true"));
	assert_non_null(strstr(j, "\"cycle\":1,"));
	assert_int_equal(strchr(j, '\n') - j + 1, strlen(j));	/* one line */
	assert_non_null(strstr(o, "idletop_self_resident_bytes{cgroup=\"/a\","
			       "kind=\"anon\"} 2916352\n"));
	assert_string_equal(o + strlen(o) - 6, "# EOF\n");
	assert_non_null(full);
	assert_int_equal(batch_print(full, r, FMT_JSON), -1);
	fclose(full);
	free(t);
	free(j);
	free(o);
}

static void test_report(void **state)
{
	struct t *t = *state;
	struct cg_tree tree = { 0 };
	struct report r;
	struct report_params p = { .ws_cycles = 2, .headroom_pct = 25,
				   .period = 1, .source = "test",
				   .page_size = 4096 };
	char err[256];
	size_t i, ia = 0, iab = 0, iu = 0;

	prime(t);
	run_cycle(t);
	assert_int_equal(cg_tree_scan(&tree, t->fx.cgroot, err, sizeof(err)), 0);
	assert_int_equal(report_build(&r, &tree, &t->sc.last, &p), 0);
	assert_int_equal(r.n, 5);	/* / /a /a/b /c (unknown) */
	for (i = 0; i < r.n; i++) {
		if (!strcmp(r.cg[i].path, "/a"))
			ia = i;
		if (!strcmp(r.cg[i].path, "/a/b"))
			iab = i;
		if (r.cg[i].pseudo)
			iu = i;
	}
	assert_string_equal(r.cg[0].path, "/");
	assert_true(ia && iab && iu);
	assert_int_equal(r.cg[iab].parent, (int)ia);
	assert_int_equal(cg_pages_resident(&r.cg[ia].self), 712);
	assert_int_equal(cg_pages_resident(&r.cg[ia].total), 712 + 612);
	assert_int_equal(cg_pages_resident(&r.cg[0].self), 10);
	assert_int_equal(cg_pages_resident(&r.cg[0].total),
			 712 + 612 + 608 + 10 + 10);
	assert_string_equal(r.cg[iu].path, UNKNOWN_CGROUP);
	assert_int_equal(r.cg[ia].resident, (712 + 612) * 4096ULL);
	assert_int_equal(r.cg[ia].mem.current, 8388608);
	check_printers(&r);
	report_free(&r);
}

/*
 * Memory hot-added while idletop runs: kpageflags starts at 2048 PFNs
 * and grows to NPFN.  The cycle after the one that sees it grow covers
 * the new PFNs (the 36 file pages of /c at 4160).
 */
static int setup_grow(void **state, enum idlesrc_kind src, size_t slice)
{
	struct t *t;
	struct scan_config cfg;
	char err[256];

	setup_src(state, src, slice);
	t = *state;
	cfg = t->sc.cfg;
	scan_close(&t->sc);
	t->fx.npfn = 2048;
	assert_int_equal(fx_write_pages(&t->fx, src != IDLESRC_BITMAP,
					src == IDLESRC_BITMAP), 0);
	if (scan_open(&t->sc, t->fx.root, &cfg, err, sizeof(err)))
		fail_msg("scan_open: %s", err);
	assert_int_equal(t->sc.nr_pfns, 2048);
	fx_scan_calls = 0;
	return 0;
}

static int setup_grow_kpi(void **s) { return setup_grow(s, IDLESRC_KPAGEIDLE, 64); }
static int setup_grow_kpi_big(void **s) { return setup_grow(s, IDLESRC_KPAGEIDLE, 65536); }
static int setup_grow_folio(void **s) { return setup_grow(s, IDLESRC_KPAGEIDLE_FOLIOS, 64); }
static int setup_grow_folio_big(void **s) { return setup_grow(s, IDLESRC_KPAGEIDLE_FOLIOS, 65536); }

static void test_hot_added_memory(void **state)
{
	struct t *t = *state;

	prime(t);
	run_cycle(t);
	assert_int_equal(t->sc.last.pfns, 2048);
	assert_int_equal(get(t, t->C)->resident[PK_FILE], 0);
	t->fx.npfn = NPFN;	/* the DIMM is online: max_pfn moved up */
	run_cycle(t);		/* the cycle that was under way */
	assert_int_equal(t->sc.last.pfns, 2048);
	assert_int_equal(t->sc.nr_pfns, NPFN);
	run_cycle(t);
	assert_int_equal(t->sc.last.pfns, NPFN);
	assert_int_equal(get(t, t->C)->resident[PK_FILE], 36);
	assert_int_equal(get(t, t->A)->resident[PK_ANON], 100 + 100 + 512);
}

#define T(f, s) cmocka_unit_test_setup_teardown(f, s, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_marks_after_priming, setup_kpi),
		T(test_marks_after_priming, setup_bitmap),
		T(test_marks_after_priming, setup_folio),
		T(test_aggregation, setup_kpi),
		T(test_aggregation, setup_kpi_small),
		T(test_aggregation, setup_bitmap),
		T(test_aggregation, setup_bitmap_small),
		T(test_aggregation, setup_folio),
		T(test_aggregation, setup_folio_small),
		T(test_ages, setup_kpi),
		T(test_ages, setup_kpi_small),
		T(test_ages, setup_bitmap_small),
		T(test_ages, setup_folio),
		T(test_ages, setup_folio_small),
		T(test_no_mark, setup_kpi),
		T(test_no_mark, setup_kpi_small),
		T(test_no_mark, setup_folio),
		T(test_no_mark, setup_folio_small),
		T(test_report, setup_kpi),
		T(test_report, setup_folio),
		T(test_hot_added_memory, setup_grow_kpi),
		T(test_hot_added_memory, setup_grow_kpi_big),
		T(test_hot_added_memory, setup_grow_folio),
		T(test_hot_added_memory, setup_grow_folio_big),
	};

	return cmocka_run_group_tests_name("scan", tests, NULL, NULL);
}
