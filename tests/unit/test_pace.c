// SPDX-License-Identifier: GPL-2.0
/* test_pace.c - pacing arithmetic, options parsing, derived numbers */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "acct.h"
#include "options.h"
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

static int parse(const char *a0, ...)
{
	char *argv[32];
	int argc = 0, rc;
	struct config c;
	FILE *null = fopen("/dev/null", "w");
	va_list ap;

	argv[argc++] = (char *)"idletop";
	va_start(ap, a0);
	for (; a0 && argc < 31; a0 = va_arg(ap, const char *))
		argv[argc++] = (char *)a0;
	va_end(ap);
	argv[argc] = NULL;
	options_default(&c);
	rc = options_parse(&c, argc, argv, null, null);
	fclose(null);
	return rc;
}

static void test_options(void **state)
{
	(void)state;
	assert_int_equal(parse("-b", NULL), OPT_OK);
	assert_int_equal(parse("-b", "-n", "3", "-d", "0.5", "--format",
			       "json", "--cpu", "5", "--ws-cycles", "4",
			       "--headroom", "0", "--source", "bitmap", NULL),
			 OPT_OK);
	assert_int_equal(parse("--mark-wait", "0", NULL), OPT_OK);
	assert_int_equal(parse("--help", NULL), OPT_EXIT);
	assert_int_equal(parse("-V", NULL), OPT_EXIT);
	assert_int_equal(parse(NULL), OPT_USAGE);	/* no TUI yet */
	assert_int_equal(parse("-b", "-n", "0", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "-1", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "1.5", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "abc", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "99999999999999999999", NULL),
			 OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "0", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "nan", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "inf", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "0x10", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--cpu", "0", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--cpu", "101", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--ws-cycles", "256", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--format", "xml", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--source", "magic", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--bogus", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "extra", NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--mark-wait", "-1", NULL), OPT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delay_period),
		cmocka_unit_test(test_delay_cpu),
		cmocka_unit_test(test_adapt),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_options),
	};

	return cmocka_run_group_tests_name("pace", tests, NULL, NULL);
}
