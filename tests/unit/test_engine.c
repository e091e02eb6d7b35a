// SPDX-License-Identifier: GPL-2.0
/* test_engine.c - the engine handle over a fixture: loop and one shot */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "engine.h"
#include "fixture.h"
#include "kpf.h"
#include "util.h"

static void make(struct fixture *fx, struct config *c)
{
	uint64_t a;

	assert_int_equal(fx_create(fx, 1024), 0);
	a = fx_mkcg(fx, "/a");
	fx_set(fx, 0, 512, F(KPF_LRU) | F(KPF_ANON), a, 0);
	fx_set(fx, 512, 512, F(KPF_LRU), a, 0);
	assert_int_equal(fx_write_pages(fx, 1, 0), 0);
	options_default(c);
	c->root = fx->root;
	c->period = 0.01;
	c->cpu_pct = 100;
}

static void test_loop(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	int rc, n = 0, guard = 0;

	(void)state;
	make(&fx, &c);
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	while (n < 2) {
		assert_true(engine_wait(&e) < 1);
		rc = engine_step(&e);
		assert_true(rc >= 0);
		n += rc;
		assert_true(++guard < 1000);
	}
	assert_int_equal(e.report.cycle, 2);
	assert_int_equal(e.report.n, 2);
	assert_string_equal(e.report.cg[1].path, "/a");
	/* the engine's own marks made every LRU page idle */
	assert_int_equal(e.report.cg[1].idle, 1024 * 4096ULL);
	assert_int_equal(e.report.cg[1].total.age[1], 1024);
	assert_string_equal(e.params.source, "kpageidle");
	engine_close(&e);
	fx_destroy(&fx);
}

static void test_mark_wait(void **state)
{
	volatile sig_atomic_t stop = 0;
	struct fixture fx;
	struct config c;
	struct engine e;

	(void)state;
	make(&fx, &c);
	c.mark_wait = 0.01;
	c.source = IDLESRC_KPAGEIDLE;
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	assert_int_equal(engine_mark_wait(&e, 0.01, &stop), 0);
	assert_int_equal(e.report.cycle, 1);
	assert_int_equal(e.report.cg[1].total.resident[PK_ANON], 512);
	assert_int_equal(e.report.cg[1].total.idle[PK_FILE], 512);
	assert_true(e.report.p.period == 0.01);
	engine_close(&e);
	fx_destroy(&fx);
}

static void test_errors(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	char *p;

	(void)state;
	options_default(&c);
	c.root = "/nonexistent-root";
	assert_int_equal(engine_open(&e, &c), -1);
	assert_non_null(strstr(e.err, "mountinfo"));
	make(&fx, &c);
	p = path_join(fx.root, "proc/kpageflags");
	assert_int_equal(unlink(p), 0);
	free(p);
	assert_int_equal(engine_open(&e, &c), -1);
	assert_non_null(strstr(e.err, "kpageflags"));
	fx_destroy(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_mark_wait),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
