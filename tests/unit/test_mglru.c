// SPDX-License-Identifier: GPL-2.0
/*
 * test_mglru.c - idle overstated on a stock kernel with the multi-gen LRU
 * on: detected from the files under --root, and said in every output.
 * Also the other warning: a DAMON paddr monitor running.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "batch.h"
#include "engine_impl.h"
#include "options.h"
#include "fixture.h"
#include "idlesrc.h"
#include "kpf.h"
#include "util.h"

/* A kernel: with the series (kpageidle) or not, lru_gen/enabled text. */
static void kernel(struct fixture *fx, int series, const char *lru_gen)
{
	char *d;
	uint64_t a;

	assert_int_equal(fx_create(fx, 1024), 0);
	a = fx_mkcg(fx, "/a");
	fx_set(fx, 0, 1024, F(KPF_LRU), a, 0);
	assert_int_equal(fx_write_pages(fx, series, 1), 0);
	if (!lru_gen)
		return;
	d = path_join(fx->root, "sys/kernel/mm/lru_gen");
	assert_non_null(d);
	assert_int_equal(mkdir(d, 0755), 0);
	assert_int_equal(fx_write(d, "enabled", lru_gen), 0);
	free(d);
}

static void test_detect(void **state)
{
	static const struct { int series; const char *lru_gen; int warn; } k[] = {
		{ 0, "0x0007\n", 1 },	/* stock kernel, MGLRU on */
		{ 0, "0x0001\n", 1 },
		{ 0, "0x0000\n", 0 },	/* MGLRU off */
		{ 0, "0x0006\n", 0 },	/* main switch off: not in use */
		{ 0, "bogus\n", 1 },	/* unknown: say so */
		{ 0, NULL, 0 },		/* no CONFIG_LRU_GEN */
		{ 1, "0x0007\n", 0 },	/* the series: patch 0001 */
	};
	struct fixture fx;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(k) / sizeof(*k); i++) {
		kernel(&fx, k[i].series, k[i].lru_gen);
		assert_int_equal(idlesrc_mglru_unfixed(fx.root), k[i].warn);
		fx_destroy(&fx);
	}
}

/* Step the engine over the fixture to its next report. */
static void next_report(struct engine *e)
{
	int rc, guard = 0;

	do {
		rc = engine_step(e);
		assert_true(rc >= 0);
		assert_true(++guard < 10000);
	} while (rc != 1);
}

/* The report printed in `fmt`. */
static char *print(struct engine *e, enum out_format fmt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(batch_print(f, &e->report, fmt), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void open_engine(struct engine *e, struct config *c,
			struct fixture *fx)
{
	options_default(c);
	c->root = fx->root;
	c->period = 0.01;
	c->cpu_pct = 100;
	if (engine_open(e, c))
		fail_msg("%s", e->err);
}

/* In the next report each format says it, or nothing, as the kernel is. */
static void check_outputs(struct engine *e, int warn)
{
	char *t, *j, *om;

	next_report(e);
	t = print(e, FMT_TEXT);
	j = print(e, FMT_JSON);
	om = print(e, FMT_OPENMETRICS);

	assert_int_equal(strstr(t, "WARNING: idle is overstated") != NULL,
			 warn);
	assert_int_equal(strstr(t, "echo n > /sys/kernel/mm/lru_gen/enabled")
			 != NULL, warn);
	assert_int_equal(strstr(j, "\"warnings\":[{\"id\":\"mglru_unfixed\","
				"\"message\":\"idle is overstated") != NULL,
			 warn);
	assert_int_equal(strstr(j, "\"warnings\":[],") != NULL, !warn);
	assert_non_null(strstr(om, warn ?
			       "\nidletop_warning{warning=\"mglru_unfixed\"} 1\n" :
			       "\nidletop_warning{warning=\"mglru_unfixed\"} 0\n"));
	assert_non_null(strstr(om, "# TYPE idletop_warning gauge\n"));
	free(t);
	free(j);
	free(om);
}

static void test_outputs(void **state)
{
	static const struct { int series; const char *lru_gen; int warn; } k[] = {
		{ 0, "0x0007\n", 1 }, { 0, "0x0000\n", 0 }, { 1, "0x0007\n", 0 },
	};
	struct fixture fx;
	struct config c;
	struct engine e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(k) / sizeof(*k); i++) {
		kernel(&fx, k[i].series, k[i].lru_gen);
		open_engine(&e, &c, &fx);
		assert_string_equal(e.params.source,
				    k[i].series ? "kpageidle" : "bitmap");
		assert_int_equal(e.params.warnings != 0, k[i].warn);
		check_outputs(&e, k[i].warn);
		engine_close(&e);
		fx_destroy(&fx);
	}
}

/*
 * Switched at run time: a report warns when MGLRU was on at the start or
 * the end of its cycle, and stops once a whole cycle ran without it.
 */
static void test_switched(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	char *d;

	(void)state;
	kernel(&fx, 0, "0x0000\n");
	open_engine(&e, &c, &fx);
	check_outputs(&e, 0);
	d = path_join(fx.root, "sys/kernel/mm/lru_gen");
	assert_non_null(d);
	assert_int_equal(fx_write(d, "enabled", "0x0007\n"), 0);
	check_outputs(&e, 1);
	assert_int_equal(fx_write(d, "enabled", "0x0000\n"), 0);
	check_outputs(&e, 1);	/* on when this cycle started */
	check_outputs(&e, 0);
	free(d);
	engine_close(&e);
	fx_destroy(&fx);
}

/* mkdir -p root/rel */
static void mkdirs(const char *root, const char *rel)
{
	char *p = path_join(root, rel), *s;

	assert_non_null(p);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
	free(p);
}

/* kdamond 0 in state, its context 1 with ops (NULL: no DAMON at all) */
static void damon(struct fixture *fx, const char *state, const char *ops)
{
	char *d;

	kernel(fx, 1, NULL);
	if (!state)
		return;
	mkdirs(fx->root, IDLESRC_DAMON_PATH "/0/contexts/1");
	mkdirs(fx->root, IDLESRC_DAMON_PATH "/0/contexts/0");
	d = path_join(fx->root, IDLESRC_DAMON_PATH "/0");
	assert_non_null(d);
	assert_int_equal(fx_write(d, "state", state), 0);
	free(d);
	d = path_join(fx->root, IDLESRC_DAMON_PATH "/0/contexts/0");
	assert_int_equal(fx_write(d, "operations", "vaddr\n"), 0);
	free(d);
	d = path_join(fx->root, IDLESRC_DAMON_PATH "/0/contexts/1");
	assert_int_equal(fx_write(d, "operations", ops), 0);
	free(d);
}

static void test_damon(void **state)
{
	static const struct { const char *state, *ops; int warn; } k[] = {
		{ "on\n", "paddr\n", 1 },
		{ "off\n", "paddr\n", 0 },	/* configured, not running */
		{ "on\n", "fvaddr\n", 0 },	/* virtual addresses: own flags */
		{ "on\n", "paddrx\n", 0 },
		{ NULL, NULL, 0 },		/* no DAMON sysfs */
	};
	struct fixture fx;
	struct config c;
	struct engine e;
	size_t i;
	char *j;

	(void)state;
	for (i = 0; i < sizeof(k) / sizeof(*k); i++) {
		damon(&fx, k[i].state, k[i].ops);
		assert_int_equal(idlesrc_damon_paddr(fx.root), k[i].warn);
		open_engine(&e, &c, &fx);
		assert_int_equal(e.params.warnings,
				 k[i].warn ? REPORT_WARN_DAMON : 0);
		next_report(&e);
		j = print(&e, FMT_JSON);
		assert_int_equal(strstr(j, "\"id\":\"damon_paddr\"") != NULL,
				 k[i].warn);
		free(j);
		engine_close(&e);
		fx_destroy(&fx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_damon),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_switched),
	};

	return cmocka_run_group_tests_name("mglru", tests, NULL, NULL);
}
