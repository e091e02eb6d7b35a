// SPDX-License-Identifier: GPL-2.0
/* test_options.c - command line parsing: good and bad values */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "options.h"

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
	assert_int_equal(parse("-b", (char *)NULL), OPT_OK);
	assert_int_equal(parse("-b", "-n", "3", "-d", "0.5", "--format",
			       "json", "--cpu", "5", "--ws-cycles", "4",
			       "--headroom", "0", "--source", "bitmap", (char *)NULL),
			 OPT_OK);
	assert_int_equal(parse("--mark-wait", "0", (char *)NULL), OPT_OK);
	/* the ioctl's bitmap output, and its source, are gone */
	assert_int_equal(parse("--source", "kpageidle-scan", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("--source=kpageidle-rw", (char *)NULL), OPT_OK);
	assert_int_equal(parse("--source", "kpageidle-folios", (char *)NULL), OPT_OK);
	assert_int_equal(parse("--source", "kpageidle", (char *)NULL), OPT_OK);
	assert_int_equal(parse("--source", "auto", (char *)NULL), OPT_OK);
	assert_int_equal(parse("--source", "scan", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("--source", "mglru", "--mglru-aging",
			       (char *)NULL), OPT_OK);
	assert_int_equal(parse("--mglru-aging", (char *)NULL), OPT_OK);
	/* forced aging is for the mglru source only */
	assert_int_equal(parse("--source", "bitmap", "--mglru-aging",
			       (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("--help", (char *)NULL), OPT_EXIT);
	assert_int_equal(parse("-V", (char *)NULL), OPT_EXIT);
	assert_int_equal(parse(NULL), OPT_OK);	/* the TUI */
	/* report options without a mode that writes reports */
	assert_int_equal(parse("-o", "x", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-f", "json", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("--format=text", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-n", "1", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("--iterations", "1", "-d", "2", (char *)NULL),
			 OPT_USAGE);
	assert_int_equal(parse("-o", "x", "-b", (char *)NULL), OPT_OK);
	assert_int_equal(parse("-f", "json", "--mark-wait", "1", (char *)NULL),
			 OPT_OK);
	assert_int_equal(parse("--listen", "127.0.0.1:9", "-n", "3", "-o", "x",
			       (char *)NULL), OPT_OK);
	assert_int_equal(parse("-d", "2", "--fields", "resident", (char *)NULL),
			 OPT_OK);
	assert_int_equal(parse("-b", "-n", "0", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "-1", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "1.5", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "abc", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-n", "99999999999999999999", (char *)NULL),
			 OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "0", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "nan", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "inf", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "-d", "0x10", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--cpu", "0", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--cpu", "101", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--ws-cycles", "256", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--node-label", "n1", (char *)NULL), OPT_OK);
	assert_int_equal(parse("-b", "--node-label=", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--format", "xml", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--source", "magic", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--bogus", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "extra", (char *)NULL), OPT_USAGE);
	assert_int_equal(parse("-b", "--mark-wait", "-1", (char *)NULL), OPT_USAGE);
}

static void test_values(void **state)
{
	struct config c;
	char *argv[] = { "idletop", "-b", "-n", "3", "-d", "0.5", "--cpu", "5",
			 "--ws-cycles", "4", "--headroom", "10", "--format",
			 "openmetrics", "--source", "bitmap", "--root", "/r",
			 "--slice-pfns", "4096", NULL };
	FILE *null = fopen("/dev/null", "w");

	(void)state;
	options_default(&c);
	assert_int_equal(options_parse(&c, 20, argv, null, null), OPT_OK);
	fclose(null);
	assert_int_equal(c.iterations, 3);
	assert_true(c.period == 0.5 && c.cpu_pct == 5);
	assert_int_equal(c.ws_cycles, 4);
	assert_int_equal(c.headroom_pct, 10);
	assert_int_equal(c.format, FMT_OPENMETRICS);
	assert_int_equal(c.source, IDLESRC_BITMAP);
	assert_string_equal(c.root, "/r");
	assert_int_equal(c.slice_pfns, 4096);
}

/* --source SRC's message on stderr, SRC rejected. */
static char *source_error(const char *src)
{
	char *argv[] = { "idletop", "-b", "--source", (char *)src, NULL };
	char *buf = NULL;
	size_t len = 0;
	FILE *null = fopen("/dev/null", "w"), *err = open_memstream(&buf, &len);
	struct config c;

	assert_non_null(null);
	assert_non_null(err);
	options_default(&c);
	assert_int_equal(options_parse(&c, 4, argv, null, err), OPT_USAGE);
	fclose(null);
	assert_int_equal(fclose(err), 0);
	return buf;
}

/* A rejected source names the valid ones; the old one says what to use. */
static void test_source_error(void **state)
{
	char *m = source_error("kpageidle-scan");

	(void)state;
	assert_non_null(strstr(m, "invalid --source 'kpageidle-scan': "
				  "expected auto, kpageidle, kpageidle-folios, "
				  "kpageidle-rw, bitmap or mglru\n"));
	assert_non_null(strstr(m, "no bitmap output"));
	assert_non_null(strstr(m, "use --source kpageidle-folios"));
	free(m);
	m = source_error("magic");
	assert_non_null(strstr(m, "invalid --source 'magic': expected auto,"));
	assert_null(strstr(m, "bitmap output"));
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_source_error),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
