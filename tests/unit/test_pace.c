// SPDX-License-Identifier: GPL-2.0
/* test_pace.c - pacing arithmetic, age buckets, derived numbers */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "acct.h"
#include "pace.h"
#include "stats.h"

#define NEAR(a, b) assert_true((a) > (b) - 1e-9 && (a) < (b) + 1e-9)

static void test_delay_period(void **state)
{
	/* 1M PFNs in 60 s; 64Ki done after 0.1 s: due at 3.75 s */
	struct pace_in in = { .period = 60, .cpu_frac = 0.02,
			      .nr_pfns = 1 << 20, .done_pfns = 1 << 16,
			      .since_cycle = 0.1, .slice_wall = 0.01,
			      .slice_cpu = 0.005 };
	int cb = -1;

	(void)state;
	NEAR(pace_delay(&in, &cb), 3.65);
	assert_int_equal(cb, 0);
}

static void test_delay_cpu(void **state)
{
	/* slice cost 0.1 s CPU at 2%: 5 s from slice start */
	struct pace_in in = { .period = 60, .cpu_frac = 0.02,
			      .nr_pfns = 1 << 20, .done_pfns = 1 << 16,
			      .since_cycle = 0.1, .slice_wall = 0.1,
			      .slice_cpu = 0.1 };
	int cb = 0;

	(void)state;
	NEAR(pace_delay(&in, &cb), 4.9);
	assert_int_equal(cb, 1);
	/* behind schedule and no CPU used: no wait */
	in.since_cycle = 100;
	in.slice_cpu = 0;
	NEAR(pace_delay(&in, &cb), 0);
	assert_int_equal(cb, 0);
	/* 100% budget never waits for CPU */
	in.cpu_frac = 1;
	in.slice_cpu = 1;
	NEAR(pace_delay(&in, &cb), 0);
	NEAR(pace_min_cycle(1.2, 0.02), 60);
}

static void test_adapt(void **state)
{
	(void)state;
	assert_int_equal(pace_adapt(65536, 30, 10, 64, 65536), 32768);
	assert_int_equal(pace_adapt(32768, 1, 10, 64, 65536), 65536);
	assert_int_equal(pace_adapt(65536, 1, 10, 64, 65536), 65536);
	assert_int_equal(pace_adapt(64, 99, 10, 64, 65536), 64);
	assert_int_equal(pace_adapt(4096, 7, 10, 64, 65536), 4096);
}

static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(age_bucket(0), -1);
	assert_int_equal(age_bucket(1), 0);
	assert_int_equal(age_bucket(2), 1);
	assert_int_equal(age_bucket(3), 1);
	assert_int_equal(age_bucket(4), 2);
	assert_int_equal(age_bucket(8), 3);
	assert_int_equal(age_bucket(15), 3);
	assert_int_equal(age_bucket(16), 4);
	assert_int_equal(age_bucket(255), 4);
}

static void test_derive(void **state)
{
	struct report_params p = { .page_size = 4096, .headroom_pct = 25 };
	struct cg_stat s = { 0 };

	(void)state;
	s.total.resident[PK_ANON] = 10000;
	s.total.resident[PK_FILE] = 6000;
	s.total.idle[PK_FILE] = 4000;
	s.total.ws_idle = 3000;
	stats_derive(&s, &p);
	assert_int_equal(s.resident, 16000ULL * 4096);
	assert_int_equal(s.working_set, 13000ULL * 4096);
	assert_int_equal(s.sugg_low, 13000ULL * 4096);
	/* 13000 pages * 1.25 = 63.48 MiB -> 64 MiB */
	assert_int_equal(s.sugg_high, 64ULL << 20);
	NEAR(s.idle_pct, 25.0);
	memset(&s, 0, sizeof(s));
	stats_derive(&s, &p);
	assert_int_equal(s.sugg_high, 4ULL << 20);
	NEAR(s.idle_pct, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delay_period),
		cmocka_unit_test(test_delay_cpu),
		cmocka_unit_test(test_adapt),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_derive),
	};

	return cmocka_run_group_tests_name("pace", tests, NULL, NULL);
}
