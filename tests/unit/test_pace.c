// SPDX-License-Identifier: GPL-2.0
/* test_pace.c - pacing arithmetic, age buckets, derived numbers */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <cmocka.h>
#include "acct.h"
#include "pace.h"
#include "stats.h"
#include "util.h"

#define NEAR(a, b) assert_true((a) > (b) - 1e-9 && (a) < (b) + 1e-9)

static void test_delay_period(void **state)
{
	/* 1M PFNs in 60 s; 64Ki done after 0.1 s: due at 3.75 s */
	struct pace_in in = { .period = 60, .cpu_frac = 0.02,
			      .nr_pfns = 1 << 20, .done_pfns = 1 << 16,
			      .since_cycle = 0.1 };
	int cb = -1;

	(void)state;
	in.cpu_debt = pace_debt(0, 0.005, 0.01, 0.02);
	NEAR(in.cpu_debt, 0.24);
	NEAR(pace_delay(&in, &cb), 3.65);
	assert_int_equal(cb, 0);
}

static void test_delay_cpu(void **state)
{
	/* slice cost 0.1 s CPU at 2%: 5 s from slice start */
	struct pace_in in = { .period = 60, .cpu_frac = 0.02,
			      .nr_pfns = 1 << 20, .done_pfns = 1 << 16,
			      .since_cycle = 0.1 };
	int cb = 0;

	(void)state;
	in.cpu_debt = pace_debt(0, 0.1, 0.1, 0.02);
	NEAR(pace_delay(&in, &cb), 4.9);
	assert_int_equal(cb, 1);
	/* behind schedule and no CPU used: no wait */
	in.since_cycle = 100;
	in.cpu_debt = pace_debt(0, 0, 0.1, 0.02);
	NEAR(pace_delay(&in, &cb), 0);
	assert_int_equal(cb, 0);
	/* 100% budget never waits for CPU */
	in.cpu_frac = 1;
	in.cpu_debt = pace_debt(0, 1, 0, 1);
	NEAR(pace_delay(&in, &cb), 0);
	NEAR(pace_min_cycle(1.2, 0.02), 60);
}

/*
 * The budget holds for all CPU, not only slices: slices of 10 ms CPU and
 * wall, and after every 100th a tree walk + report build of 0.5 s CPU and
 * wall.  Waiting out the debt after each slice keeps CPU / wall at 2 %
 * (the old per-slice rule, slice_cpu / frac - slice_wall, left the
 * walks out: 3 %).
 */
static void test_debt(void **state)
{
	double debt = 0, cpu = 0, wall = 0, c, w;
	int i;

	(void)state;
	for (i = 1; i <= 1000; i++) {
		c = w = 0.01;
		if (i % 100 == 0)
			c = w = 0.51;	/* slice + tree walk + report */
		debt = pace_debt(debt, c, w, 0.02);
		cpu += c;
		wall += w + debt;	/* waited before the next slice */
		debt = pace_debt(debt, 0, debt, 0.02);
	}
	assert_true(debt == 0);
	NEAR(cpu / wall, 0.02);
	/* idle time is not saved up */
	NEAR(pace_debt(0, 0.1, 100, 0.02), 0);
	NEAR(pace_debt(0.5, 0.1, 0.5, 0.02), 5);
	NEAR(pace_debt(3, 5, 0, 1), 0);
}

/*
 * Time left in a cycle: the period's deadline while the budget keeps up;
 * when it does not, the debt plus the rest of the pass at the budget (a
 * TCG guest at 2 %: 40 % done in 30 s with 0.4 s of CPU is 30 s more,
 * not the 0 s the period alone says).
 */
static void test_left(void **state)
{
	struct pace_in in = { .period = 10, .cpu_frac = 0.02,
			      .nr_pfns = 1000 };

	(void)state;
	in.done_pfns = 500;
	in.since_cycle = 4;
	NEAR(pace_left(&in, 0.05, 0), 6);	/* 0.05 / 0.02 = 2.5 s */
	in.done_pfns = 400;
	in.since_cycle = 30;
	NEAR(pace_left(&in, 0.4, 0), 30);
	in.cpu_debt = 1.5;
	NEAR(pace_left(&in, 0.4, 0), 31.5);
	/* too little done to extrapolate: the last pass's CPU */
	in.done_pfns = 50;
	in.cpu_debt = 0;
	NEAR(pace_left(&in, 0.4, 1), 47.5);
	in.done_pfns = 0;
	in.since_cycle = -3;	/* a debt still to wait before it starts */
	NEAR(pace_left(&in, 0, 1), 50);
	NEAR(pace_left(&in, 0, 0), 13);
	/* no budget, or the pass done: the period alone */
	in.cpu_frac = 0;
	NEAR(pace_left(&in, 0, 1), 13);
	in.cpu_frac = 0.02;
	in.done_pfns = 1000;
	in.since_cycle = 12;
	NEAR(pace_left(&in, 9, 9), 0);
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
	s.total.ws_idle[PK_FILE] = 3000;
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

/* Burn *arg seconds of the calling thread's CPU (now_cpu's clock). */
static void *spin(void *arg)
{
	double until = now_cpu() + *(double *)arg;
	volatile unsigned long n = 0;

	while (now_cpu() < until)
		n++;
	return NULL;
}

static double process_cpu(void)
{
	struct timespec ts;

	assert_int_equal(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The budget's clock is the calling thread's: another thread (the
 * exporter's HTTP server) burning 0.2 s of CPU, which the process clock
 * sees, adds nothing to it.
 */
static void test_cpu_clock_thread(void **state)
{
	double busy = 0.2, c0 = now_cpu(), p0 = process_cpu();
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, spin, &busy), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(process_cpu() - p0 >= 0.2);
	assert_true(now_cpu() - c0 < 0.05);
}

/*
 * Reaccess at K: bytes accessed after >= K idle cycles, per minute as a
 * share of the working set at K; the cycle's length, else the period.
 */
static void test_reaccess(void **state)
{
	struct report r = { .p = { .page_size = 4096, .cycle_seconds = 30,
				   .period = 60 } };
	struct cg_stat s = { 0 };
	uint64_t re;
	double pct;

	(void)state;
	s.resident = 10000ULL * 4096;
	s.total.age[0] = 1000;		/* idle 1 cycle */
	s.total.age[2] = 3000;		/* idle 4..7 cycles */
	s.total.reaccess[1] = 20;	/* after 2..3 idle cycles */
	s.total.reaccess[3] = 5;	/* after 8..15 */
	stats_reaccess(&r, &s, 0, &re, &pct);
	assert_int_equal(re, 25 * 4096);
	/* 25 pages a 30 s cycle = 50 a minute, of 10000 - 4000 pages */
	NEAR(pct, 100.0 * 50 / 6000);
	stats_reaccess(&r, &s, 2, &re, &pct);
	assert_int_equal(re, 5 * 4096);
	NEAR(pct, 100.0 * 10 / 7000);
	r.p.cycle_seconds = 0;		/* no length yet: the period */
	stats_reaccess(&r, &s, 2, &re, &pct);
	NEAR(pct, 100.0 * 5 / 7000);
	s.resident = 3000ULL * 4096;	/* all of it idle at K: no share */
	stats_reaccess(&r, &s, 2, &re, &pct);
	NEAR(pct, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delay_period),
		cmocka_unit_test(test_delay_cpu),
		cmocka_unit_test(test_debt),
		cmocka_unit_test(test_left),
		cmocka_unit_test(test_adapt),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_cpu_clock_thread),
		cmocka_unit_test(test_reaccess),
	};

	return cmocka_run_group_tests_name("pace", tests, NULL, NULL);
}
