// SPDX-License-Identifier: GPL-2.0
/*
 * test_mglru_src.c - the mglru source: the lru_gen parser (pieces of any
 * size, paths with newlines, malformed files named by file and line),
 * auto's choice, per-cgroup counts from the generations' ages, the
 * approximate warning in every format, a malformed file dropping the
 * cycle whole, and --mglru-aging's commands.
 */
#include <errno.h>
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
#include "fixture.h"
#include "mglru.h"
#include "options.h"
#include "scan_mglru.h"
#include "util.h"

/* Two memcgs; /a on two nodes, its name with no newline; / with one. */
static const char sample[] =
	"memcg     1 /\n"
	" node     0\n"
	"          3      30000        100        200 \n"
	"          4      20000         10         20 \n"
	"          5      10000       1000       2000 \n"
	"          6          0        500        600 \n"
	"memcg     9 /a\n"
	" node     0\n"
	"          7       5000        256          0 \n"
	"          8          0        256          0 \n"
	" node     1\n"
	"          2       1000          1          2 \n"
	"          3          0          3          4 \n"
	"memcg    12 /x\n"
	"y\n"
	" node     0\n"
	"          1          0          5          6 \n";

struct seen {
	unsigned n;
	struct mglru_lruvec v[8];
	char path[8][64];
};

static int record(void *ctx, const struct mglru_lruvec *v, char *err,
		  size_t errlen)
{
	struct seen *s = ctx;

	(void)err;
	(void)errlen;
	assert_true(s->n < 8);
	s->v[s->n] = *v;
	snprintf(s->path[s->n], sizeof(s->path[0]), "%s", v->path);
	s->n++;
	return 0;
}

static void parse_in_pieces(struct seen *s, size_t piece)
{
	struct mglru_parser *p = malloc(sizeof(*p));
	char err[256];
	size_t i, n = strlen(sample);

	assert_non_null(p);
	memset(s, 0, sizeof(*s));
	mglru_parse_init(p, "lru_gen", record, s);
	for (i = 0; i < n; i += piece)
		assert_int_equal(mglru_parse(p, sample + i, i + piece > n ?
					     n - i : piece, err,
					     sizeof(err)), 0);
	assert_int_equal(mglru_parse_end(p, err, sizeof(err)), 0);
	free(p);
}

static void test_parse(void **state)
{
	static const size_t pieces[] = { 1, 2, 7, 64, 4096 };
	struct seen s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pieces) / sizeof(*pieces); i++) {
		parse_in_pieces(&s, pieces[i]);
		assert_int_equal(s.n, 4);
		assert_string_equal(s.path[0], "/");
		assert_int_equal(s.v[0].id, 1);
		assert_int_equal(s.v[0].n, 4);
		assert_int_equal(s.v[0].gen[0].seq, 3);
		assert_int_equal(s.v[0].gen[0].age_ms, 30000);
		assert_int_equal(s.v[0].gen[2].anon, 1000);
		assert_int_equal(s.v[0].gen[3].file, 600);
		assert_string_equal(s.path[1], "/a");
		assert_int_equal(s.v[1].id, 9);
		assert_int_equal(s.v[1].node, 0);
		/* the second node of /a: no memcg line of its own */
		assert_string_equal(s.path[2], "/a");
		assert_int_equal(s.v[2].id, 9);
		assert_int_equal(s.v[2].node, 1);
		assert_int_equal(s.v[2].gen[1].file, 4);
		/* a cgroup named "x\ny" */
		assert_string_equal(s.path[3], "/x\ny");
		assert_int_equal(s.v[3].id, 12);
		assert_int_equal(s.v[3].gen[0].anon, 5);
	}
}

/* Each malformed file: its error names the file, the line and what. */
static void test_malformed(void **state)
{
	static const struct { const char *text, *err; } k[] = {
		{ " node 0\n", "lru_gen:1: \" node\" before any memcg line" },
		{ "memcg x /\n node 0\n", "lru_gen:1: expected \"memcg ID" },
		{ "memcg 99999 /\n node 0\n", "lru_gen:1: expected \"memcg" },
		{ "memcg 1 /\n node a\n", "lru_gen:2: expected \" node NID\"" },
		{ "memcg 1 /\n node 0\n 1 2 3\n", "lru_gen:3: expected \" SEQ" },
		{ "memcg 1 /\n node 0\n 1 2 3 4 5\n", "lru_gen:3: expected" },
		{ "memcg 1 /\n node 0\n 1 -2 3 4\n", "lru_gen:3: expected" },
		{ "memcg 1 /\n node 0\n 1 99999999999999999999 3 4\n",
		  "lru_gen:3: expected" },
		{ "memcg 1 /\n node 0\n 2 0 1 1\n 1 0 1 1\n",
		  "lru_gen:4: generations not in ascending order" },
		{ "memcg 1 /\n node 0\n 1 0 1 1\n 2 0 1 1\n 3 0 1 1\n"
		  " 4 0 1 1\n 5 0 1 1\n", "lru_gen:7: more generations" },
		{ "memcg 1 /\n node 0\n 1 0 1 1", "lru_gen:3: truncated" },
		{ "memcg 1 /\n", "lru_gen:2: a memcg line without \" node\"" },
	};
	struct mglru_parser *p = malloc(sizeof(*p));
	struct seen s;
	char err[256];
	size_t i;
	int rc;

	(void)state;
	assert_non_null(p);
	for (i = 0; i < sizeof(k) / sizeof(*k); i++) {
		memset(&s, 0, sizeof(s));
		err[0] = 0;
		mglru_parse_init(p, "lru_gen", record, &s);
		rc = mglru_parse(p, k[i].text, strlen(k[i].text), err,
				 sizeof(err));
		if (!rc)
			rc = mglru_parse_end(p, err, sizeof(err));
		assert_int_equal(rc, -1);
		if (strncmp(err, k[i].err, strlen(k[i].err)))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err,
				 k[i].err);
	}
	/* a line longer than MGLRU_LINE_MAX, and a NUL byte */
	{
		char *big = malloc(MGLRU_LINE_MAX + 16);

		assert_non_null(big);
		memset(big, 'a', MGLRU_LINE_MAX + 15);
		memcpy(big, "memcg 1 /", 9);
		mglru_parse_init(p, "lru_gen", record, &s);
		assert_int_equal(mglru_parse(p, big, MGLRU_LINE_MAX + 15, err,
					     sizeof(err)), -1);
		assert_string_equal(err, "lru_gen:1: line too long");
		free(big);
		mglru_parse_init(p, "lru_gen", record, &s);
		assert_int_equal(mglru_parse(p, "memcg 1 /\0\n", 11, err,
					     sizeof(err)), -1);
		assert_string_equal(err, "lru_gen:1: a NUL byte");
	}
	free(p);
}

/* A stock kernel: no idle page tracking, MGLRU on, lru_gen in debugfs. */
static void stock(struct fixture *fx, const char *lru_gen, int bitmap)
{
	char *d;

	assert_int_equal(fx_create(fx, 64), 0);
	fx_mkcg(fx, "/a");
	fx_mkcg(fx, "/a/b");
	fx_mkcg(fx, "/c");
	assert_int_equal(fx_write_pages(fx, 0, bitmap), 0);
	d = path_join(fx->root, "sys/kernel/mm/lru_gen");
	assert_non_null(d);
	assert_int_equal(mkdir(d, 0755), 0);
	assert_int_equal(fx_write(d, "enabled", "0x0007\n"), 0);
	free(d);
	d = path_join(fx->root, "sys/kernel/debug");
	assert_non_null(d);
	assert_int_equal(mkdir(d, 0755), 0);
	if (lru_gen)
		assert_int_equal(fx_write(d, "lru_gen", lru_gen), 0);
	free(d);
}

static void set_lru_gen(struct fixture *fx, const char *text)
{
	char *d = path_join(fx->root, "sys/kernel/debug");

	assert_non_null(d);
	assert_int_equal(fx_write(d, "lru_gen", text), 0);
	free(d);
}

static void test_auto(void **state)
{
	struct fixture fx;

	(void)state;
	stock(&fx, "", 0);
	assert_int_equal(scan_mglru_wanted(fx.root, IDLESRC_AUTO), 1);
	assert_int_equal(scan_mglru_wanted(fx.root, IDLESRC_KPAGEIDLE), 0);
	assert_int_equal(scan_mglru_wanted(fx.root, IDLESRC_MGLRU), 1);
	fx_destroy(&fx);
	/* the page_idle bitmap is there: auto keeps idle tracking */
	stock(&fx, "", 1);
	assert_int_equal(scan_mglru_wanted(fx.root, IDLESRC_AUTO), 0);
	fx_destroy(&fx);
	/* MGLRU off, or no debugfs file: auto does not take it */
	stock(&fx, NULL, 0);
	assert_int_equal(scan_mglru_wanted(fx.root, IDLESRC_AUTO), 0);
	fx_destroy(&fx);
	stock(&fx, "", 0);
	{
		char *d = path_join(fx.root, "sys/kernel/mm/lru_gen");

		assert_int_equal(fx_write(d, "enabled", "0x0006\n"), 0);
		free(d);
	}
	assert_int_equal(scan_mglru_wanted(fx.root, IDLESRC_AUTO), 0);
	fx_destroy(&fx);
}

/* Step the engine to its next report. */
static void next_report(struct engine *e)
{
	int rc, guard = 0;

	do {
		rc = engine_step(e);
		if (rc < 0)
			fail_msg("%s", e->err);
		assert_true(++guard < 1000);
	} while (rc != 1);
}

static void open_engine(struct engine *e, struct config *c,
			struct fixture *fx, double period)
{
	options_default(c);
	c->root = fx->root;
	c->period = period;
	c->cpu_pct = 100;
	if (engine_open(e, c))
		fail_msg("%s", e->err);
}

static const struct cg_stat *find(const struct report *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->cg[i].path, path))
			return &r->cg[i];
	fail_msg("no cgroup %s in the report", path);
	return NULL;
}

/*
 * Period 10 s.  A generation's pages are idle since the aging step that
 * made the next one: in /, generation 3 since 20 s (2 cycles), 4 since
 * 10 s (1), 5 and 6 (the youngest) not at all.  4 s rounds to 0 (busy),
 * 6 s to 1.  /a/b's pages are /a/b's own; a path that no longer exists
 * goes to "(unknown)".
 */
static const char counts[] =
	"memcg     1 /\n"
	" node     0\n"
	"          3      30100        100        200 \n"
	"          4      20100         10         20 \n"
	"          5      10100       1000       2000 \n"
	"          6        100        500        600 \n"
	"memcg     2 /a\n"
	" node     0\n"
	"          6       9000          8          0 \n"
	"          7       4000          0          0 \n"
	"          8          0         16          0 \n"
	"memcg     3 /a/b\n"
	" node     0\n"
	"          6      12000         32         64 \n"
	"          7       6000          0          0 \n"
	"          8          0          1          0 \n"
	"memcg     4 /gone\n"
	" node     0\n"
	"          1     180000          7          0 \n"
	"          2      90000          0          0 \n"
	"          3          0          0          0 \n";

static void test_counts(void **state)
{
	const uint64_t ps = 4096;
	const struct cg_stat *s;
	struct fixture fx;
	struct config c;
	struct engine e;

	(void)state;
	stock(&fx, counts, 0);
	open_engine(&e, &c, &fx, 10);
	assert_string_equal(e.params.source, "mglru");
	assert_string_equal(e.params.method, "generations");
	next_report(&e);	/* at once: no priming pass */
	assert_int_equal(e.report.cycle, 1);
	/* the first cycle spans a period; the next one is a period on */
	assert_true(e.report.p.cycle_seconds == 10);
	assert_true(engine_wait(&e) > 9 && engine_wait(&e) <= 10);
	s = find(&e.report, "/a/b");
	assert_int_equal(s->self.resident[PK_ANON], 33);
	assert_int_equal(s->self.resident[PK_FILE], 64);
	assert_int_equal(s->self.idle[PK_ANON], 32);	/* 6 s: 1 cycle */
	assert_int_equal(s->self.idle[PK_FILE], 64);
	assert_int_equal(s->working_set, 1 * ps);
	s = find(&e.report, "/a");
	assert_int_equal(s->self.resident[PK_ANON], 24);
	assert_int_equal(s->self.idle[PK_ANON], 0);	/* 4 s: busy */
	assert_int_equal(s->resident, (24 + 33 + 64) * ps);
	s = find(&e.report, "/");
	assert_int_equal(s->self.resident[PK_ANON], 1610);
	assert_int_equal(s->self.resident[PK_FILE], 2820);
	assert_int_equal(s->self.idle[PK_ANON], 110);
	assert_int_equal(s->self.idle[PK_FILE], 220);
	/* by age: 1 cycle 30, 2 cycles 300 (bucket 2-3) */
	assert_int_equal(s->self.age[0], 30);
	assert_int_equal(s->self.age[1], 300);
	/* the tree's: its own 4430 - 330, /a's 24, /a/b's 1, unknown's 0 */
	assert_int_equal(s->working_set, (4100 + 24 + 1) * ps);
	s = find(&e.report, UNKNOWN_CGROUP);
	assert_int_equal(s->self.resident[PK_ANON], 7);
	assert_int_equal(s->self.idle[PK_ANON], 7);
	/* 90 s idle: the 60 s bucket */
	assert_int_equal(s->self.idle_t[0], 7);
	engine_close(&e);
	fx_destroy(&fx);
}

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

/*
 * The first report does not wait for the CPU budget, however much the
 * start-up cost; the debt holds the second cycle back instead.
 */
static void test_first_at_once(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	double t0;
	int rc, guard = 0;

	(void)state;
	stock(&fx, counts, 0);
	open_engine(&e, &c, &fx, 0.01);
	e.sc.cfg.cpu_frac = 0.0001;	/* --cpu 0.01 */
	t0 = now_cpu();
	while (now_cpu() - t0 < 0.02)	/* a costly start-up */
		;
	do {
		rc = engine_step(&e);
		assert_true(rc >= 0);
		if (!rc)
			assert_true(engine_wait(&e) < 0.001);
		assert_true(++guard < 1000);
	} while (rc != 1);
	/* 0.02 s of CPU at 0.01%: minutes before the next cycle */
	assert_true(engine_wait(&e) > 60);
	engine_close(&e);
	fx_destroy(&fx);
}

/* Approximate, by name and method, in every format. */
static void test_outputs(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	char *t, *j, *om;

	(void)state;
	stock(&fx, counts, 0);
	open_engine(&e, &c, &fx, 10);
	next_report(&e);
	t = print(&e, FMT_TEXT);
	j = print(&e, FMT_JSON);
	om = print(&e, FMT_OPENMETRICS);
	assert_non_null(strstr(t, "source mglru (generations)"));
	assert_non_null(strstr(t, "WARNING: the numbers are approximate"));
	assert_non_null(strstr(j, "\"source\":\"mglru\",\"method\":"
			       "\"generations\""));
	assert_non_null(strstr(j, "\"warnings\":[{\"id\":"
			       "\"mglru_approximate\""));
	assert_non_null(strstr(om, "\nidletop_warning{warning="
			       "\"mglru_approximate\"} 1\n"));
	assert_non_null(strstr(om, "\nidletop_warning{warning="
			       "\"mglru_unfixed\"} 0\n"));
	/* no page tables walked by a scan: no skipped pages to tell */
	assert_false(e.report.has_skipped);
	assert_null(strstr(t, "skipped"));
	assert_non_null(strstr(j, "\"skipped_bytes\":null,"));
	assert_null(strstr(om, "\nidletop_scan_skipped_bytes"));
	free(t);
	free(j);
	free(om);
	engine_close(&e);
	fx_destroy(&fx);
}

/*
 * A malformed file fails the step with the file and line, and nothing of
 * it is published: the report stays the last good one; a good file
 * afterwards gives the next report.
 */
static void test_malformed_cycle(void **state)
{
	const struct cg_stat *s;
	struct fixture fx;
	struct config c;
	struct engine e;
	char *want;
	int rc, guard = 0;

	(void)state;
	stock(&fx, counts, 0);
	open_engine(&e, &c, &fx, 0.01);
	next_report(&e);
	/* /a/b's lruvec is read, then the file breaks */
	set_lru_gen(&fx, "memcg 3 /a/b\n node 0\n 1 0 999 999\n"
			 "memcg 1 /\n node 0\n 1 0 1\n");
	do {
		rc = engine_step(&e);
		assert_true(++guard < 1000);
	} while (rc == 0);
	assert_int_equal(rc, -1);
	assert_int_equal(asprintf(&want, "%s/sys/kernel/debug/lru_gen:6: "
				  "expected \" SEQ AGE_MS NR_ANON NR_FILE\"",
				  fx.root) > 0, 1);
	assert_string_equal(e.err, want);
	free(want);
	assert_int_equal(e.report.cycle, 1);
	s = find(&e.report, "/a/b");
	assert_int_equal(s->self.resident[PK_ANON], 33);
	assert_int_equal(e.params.errors[REPORT_ERR_SCAN], 1);
	/* still broken: the failures are in a row (a read that starts well
	 * is no success), so that batch mode gives up after five */
	e.retry_at = 0;
	guard = 0;
	do {
		rc = engine_step(&e);
		assert_true(++guard < 1000);
	} while (rc == 0);
	assert_int_equal(rc, -1);
	assert_int_equal(engine_fails(&e), 2);
	/* good again: the next report, without the broken cycle's pages */
	set_lru_gen(&fx, "memcg 3 /a/b\n node 0\n 1 0 5 0\n");
	e.retry_at = 0;
	next_report(&e);
	s = find(&e.report, "/a/b");
	assert_int_equal(s->self.resident[PK_ANON], 5);
	s = find(&e.report, "/");
	assert_int_equal(s->self.resident[PK_ANON], 0);
	engine_close(&e);
	fx_destroy(&fx);
}

/* --mglru-aging: the commands, with the youngest seq read just before. */
static struct fixture *age_fx;
static char age_log[512];

static int fake_age(int fd, unsigned id, int node, uint64_t seq)
{
	size_t n = strlen(age_log);

	(void)fd;
	snprintf(age_log + n, sizeof(age_log) - n, "+ %u %d %llu;", id, node,
		 (unsigned long long)seq);
	/* the kernel's answer: a new youngest generation */
	set_lru_gen(age_fx, "memcg 3 /a/b\n node 0\n 7 15000 10 0\n"
			    " 8 5000 5 0\n 9 0 20 0\n");
	if (id != 2)
		return 0;
	errno = EINVAL;		/* a memcg gone */
	return -1;
}

static void test_aging(void **state)
{
	const struct cg_stat *s;
	struct fixture fx;
	struct config c;
	struct engine e;

	(void)state;
	stock(&fx, "memcg 1 /\n node 0\n 4 100 1 1\n 5 0 1 1\n"
		   "memcg 2 /a\n node 0\n node 1\n 6 0 1 1\n"
		   "memcg 3 /a/b\n node 0\n 7 10 30 0\n 8 0 0 0\n", 0);
	options_default(&c);
	c.root = fx.root;
	c.period = 10;
	c.cpu_pct = 100;
	c.mglru_aging = 1;
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	assert_string_equal(e.params.method, "forced-aging");
	e.sc.cfg.mglru_age = fake_age;
	age_fx = &fx;
	age_log[0] = 0;
	next_report(&e);
	/* one per lruvec with generations, its youngest seq */
	assert_string_equal(age_log, "+ 1 0 5;+ 2 1 6;+ 3 0 8;");
	/* counted from the file read after the aging */
	s = find(&e.report, "/a/b");
	assert_int_equal(s->self.resident[PK_ANON], 35);
	assert_int_equal(s->self.idle[PK_ANON], 10);	/* 5 s: 1 cycle */
	engine_close(&e);
	fx_destroy(&fx);
}

/* A slow aging step (a big memcg): one a slice once --slice-ms is up. */
static int slow_age(int fd, unsigned id, int node, uint64_t seq)
{
	double t0 = now_mono();

	(void)fd;
	(void)id;
	(void)node;
	(void)seq;
	while (now_mono() - t0 < 0.002)
		;
	return 0;
}

static void test_aging_slices(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	int rc, steps = 0;

	(void)state;
	stock(&fx, "memcg 1 /\n node 0\n 1 0 1 1\n 2 0 1 1\n"
		   "memcg 2 /a\n node 0\n 1 0 1 1\n 2 0 1 1\n"
		   "memcg 3 /a/b\n node 0\n 1 0 1 1\n 2 0 1 1\n"
		   "memcg 4 /c\n node 0\n 1 0 1 1\n 2 0 1 1\n", 0);
	options_default(&c);
	c.root = fx.root;
	c.period = 10;
	c.cpu_pct = 100;
	c.mglru_aging = 1;
	c.slice_ms = 1;
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	e.sc.cfg.mglru_age = slow_age;
	do {
		rc = engine_step(&e);
		assert_true(rc >= 0);
		assert_true(++steps < 100);
	} while (rc != 1);
	/* open + list, four slices of one aging step each, then the count
	 * (open + read): 1 + 1 + 4 + 1 */
	assert_int_equal(steps, 7);
	engine_close(&e);
	fx_destroy(&fx);
}

/* Explicit --source mglru without MGLRU: says what is missing. */
static void test_open_errors(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;

	(void)state;
	stock(&fx, NULL, 0);
	options_default(&c);
	c.root = fx.root;
	c.source = IDLESRC_MGLRU;
	assert_int_equal(engine_open(&e, &c), -1);
	assert_non_null(strstr(e.err, "sys/kernel/debug/lru_gen: No such "
			       "file or directory; mount debugfs"));
	fx_destroy(&fx);
	/* the file is there, MGLRU is off */
	stock(&fx, counts, 0);
	{
		char *d = path_join(fx.root, "sys/kernel/mm/lru_gen");

		assert_int_equal(fx_write(d, "enabled", "0x0000\n"), 0);
		free(d);
	}
	options_default(&c);
	c.root = fx.root;
	c.source = IDLESRC_MGLRU;
	assert_int_equal(engine_open(&e, &c), -1);
	assert_non_null(strstr(e.err, "--source mglru: the multi-gen LRU is "
			       "off"));
	fx_destroy(&fx);
	stock(&fx, counts, 0);
	options_default(&c);
	c.root = fx.root;
	c.mark_wait = 1;
	assert_int_equal(engine_open(&e, &c), -1);
	assert_non_null(strstr(e.err, "--mark-wait marks pages idle"));
	fx_destroy(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_first_at_once),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_malformed_cycle),
		cmocka_unit_test(test_aging),
		cmocka_unit_test(test_aging_slices),
		cmocka_unit_test(test_open_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
