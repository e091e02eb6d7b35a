// SPDX-License-Identifier: GPL-2.0
/* test_engine.c - the engine handle over a fixture: loop and one shot */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "batch.h"
#include "cgroup.h"
#include "engine_impl.h"
#include "options.h"
#include "fixture.h"
#include "kpf.h"
#include "util.h"

/* /a with npfn pages, the first half anon, the rest file. */
static void make_pfns(struct fixture *fx, struct config *c, uint64_t npfn)
{
	uint64_t a;

	assert_int_equal(fx_create(fx, npfn), 0);
	a = fx_mkcg(fx, "/a");
	fx_set(fx, 0, npfn / 2, F(KPF_LRU) | F(KPF_ANON), a, 0);
	fx_set(fx, npfn / 2, npfn / 2, F(KPF_LRU), a, 0);
	assert_int_equal(fx_write_pages(fx, 1, 0), 0);
	options_default(c);
	c->root = fx->root;
	c->period = 0.01;
	c->cpu_pct = 100;
}

static void make(struct fixture *fx, struct config *c)
{
	make_pfns(fx, c, 1024);
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
	assert_false(e.report.has_skipped);	/* read + write: no ioctl */
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

/* Fake clocks: time moves only when the test says, CPU when work is done. */
static double fake[3];
static double node_cpu;		/* CPU seconds per cgroup walked */

static double fake_clock(int which)
{
	return fake[which];
}

static int walk_costs(const char *site)
{
	if (!strcmp(site, "cg.node"))
		fake[UTIL_CPU] += node_cpu;
	return 0;
}

static void fake_start(void)
{
	fake[UTIL_MONO] = 1000;
	fake[UTIL_CPU] = 0;
	fake[UTIL_REAL] = 1.7e9;
	util_clock_hook = fake_clock;
	util_fault_hook = walk_costs;
}

static void fake_stop(void)
{
	util_clock_hook = NULL;
	util_fault_hook = NULL;
}

/* Sleep until the next slice is due, on the fake clocks. */
static int fake_step(struct engine *e)
{
	double w = engine_wait(e) + 0.001;	/* a slice takes time */

	fake[UTIL_MONO] += w;
	fake[UTIL_REAL] += w;
	return engine_step(e);
}

/*
 * --cpu 2 with 201 cgroups whose walk costs 0.5 ms of CPU each (0.1 s a
 * tree): the walk and report build after every cycle, and a rescan the
 * TUI makes before the first, count against the budget.  Over a minute
 * at --period 1, CPU stays within 2 % of wall time (plus the last walk,
 * not waited out yet); without counting them it was about 10 %.
 */
static void test_cpu_budget(void **state)
{
	struct fixture fx;
	struct cg_tree tree = { 0 };
	struct config c;
	struct engine e;
	double t0, cpu_share;
	char name[32], err[256];
	int i, reports = 0, stretched = 0;

	(void)state;
	make(&fx, &c);
	for (i = 0; i < 199; i++) {
		snprintf(name, sizeof(name), "/b/%03d", i);
		assert_true(fx_mkcg(&fx, name) != 0);
	}
	c.period = 1;
	c.cpu_pct = 2;
	node_cpu = 0.0005;
	fake_start();
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	t0 = fake[UTIL_MONO];
	assert_int_equal(fake_step(&e), 0);
	/* the TUI's rescan before cycle 1: paid after the next slice */
	assert_int_equal(cg_tree_scan(&tree, e.cgdir, err, sizeof(err)), 0);
	cg_tree_free(&tree);
	assert_int_equal(fake_step(&e), 0);
	assert_true(engine_wait(&e) > 0.1 / 0.02 - 0.01);
	while (fake[UTIL_MONO] - t0 < 60) {
		i = fake_step(&e);
		assert_true(i >= 0);
		reports += i;
		stretched += i && e.report.cpu_bound;
	}
	cpu_share = fake[UTIL_CPU] / (fake[UTIL_MONO] - t0);
	print_message("%d reports, cpu %.2fs in %.0fs: %.2f%%\n", reports,
		      fake[UTIL_CPU], fake[UTIL_MONO] - t0, 100 * cpu_share);
	assert_true(cpu_share <= 0.02 + 0.1 / 60 + 1e-9);
	assert_true(reports >= 5);
	assert_int_equal(stretched, reports);
	engine_close(&e);
	fake_stop();
	fx_destroy(&fx);
}

/*
 * Idle windows: with 64-PFN slices each mark write is one slice, made
 * right after the slice's idle state was read.  A slice's window is the
 * time since its mark in the cycle before; per cycle, the shortest and
 * longest window are kept.
 */
#define SLICES 16
static const struct engine *win_e;
static double marked[SLICES];
static double win_min[64], win_max[64];

static int record_window(const char *site)
{
	const struct scanner *sc = &win_e->sc;
	size_t i = sc->cursor / 64, c = sc->cycle % 64;
	double w = fake[UTIL_MONO] - marked[i];

	if (strcmp(site, "pwrite"))
		return 0;
	if (!sc->priming) {
		if (!sc->cursor || w < win_min[c])
			win_min[c] = w;
		if (!sc->cursor || w > win_max[c])
			win_max[c] = w;
	}
	marked[i] = fake[UTIL_MONO];
	return 0;
}

/* Every slice of the report's cycle was read one report period after
 * its mark (give or take a slice's share of it). */
static void check_windows(const struct report *r)
{
	double p = r->p.period, tol = p / SLICES + 1e-6;

	assert_true(win_min[r->cycle % 64] > p - tol);
	assert_true(win_max[r->cycle % 64] < p + tol);
}

static void open_windows(struct fixture *fx, struct config *c,
			 struct engine *e)
{
	make(fx, c);
	c->slice_pfns = 64;
	c->period = 16;
	c->first_window = 0;
	fake_start();
	util_fault_hook = record_window;
	win_e = e;
	if (engine_open(e, c))
		fail_msg("%s", e->err);
}

/* Step until the next report (1) or until the fake clock reaches t. */
static int run_until(struct engine *e, double t)
{
	int rc = 0;

	while (!rc && fake[UTIL_MONO] + engine_wait(e) <= t) {
		rc = fake_step(e);
		assert_true(rc >= 0);
	}
	return rc;
}

/*
 * d in the middle of a cycle: the report after it claims the new period,
 * and each of its pages was read one new period after its mark; the
 * report until then is the one of the old period.
 */
static void test_set_period(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;

	(void)state;
	open_windows(&fx, &c, &e);
	assert_int_equal(run_until(&e, 1e9), 1);
	check_windows(&e.report);
	assert_true(e.report.p.period == 16);
	run_until(&e, fake[UTIL_MONO] + 8);	/* half the next cycle */
	assert_true(e.sc.cursor > 0 && e.sc.cursor < 1024);
	assert_int_equal(engine_set_period(&e, 32), 0);
	assert_int_equal(engine_set_period(&e, 0), -1);
	assert_true(e.report.p.period == 16);
	assert_int_equal(run_until(&e, 1e9), 1);
	assert_true(e.report.p.period == 32);
	check_windows(&e.report);
	assert_int_equal(run_until(&e, 1e9), 1);
	check_windows(&e.report);
	engine_close(&e);
	fake_stop();
	fx_destroy(&fx);
}

/*
 * The first window: the first report after two windows of 5 s, labelled
 * first, each page read 5 s after its mark; then a priming pass at the
 * period, and reports of the period, each page read one period after
 * its mark (windows never mixed).
 */
static void test_first_window(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	double t0;

	(void)state;
	make(&fx, &c);
	c.slice_pfns = 64;
	c.period = 16;
	c.first_window = 5;
	fake_start();
	util_fault_hook = record_window;
	win_e = &e;
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	t0 = fake[UTIL_MONO];
	assert_int_equal(run_until(&e, 1e9), 1);
	assert_true(fake[UTIL_MONO] - t0 < 10 + 1);
	assert_true(e.report.first && e.report.p.period == 5);
	assert_true(e.report.steady == 16);
	check_windows(&e.report);
	assert_int_equal(run_until(&e, 1e9), 1);
	assert_true(!e.report.first && e.report.p.period == 16);
	check_windows(&e.report);
	assert_true(fake[UTIL_MONO] - t0 > 10 + 2 * 16 - 2);
	assert_int_equal(run_until(&e, 1e9), 1);
	check_windows(&e.report);
	engine_close(&e);
	fake_stop();
	fx_destroy(&fx);
}

/*
 * p freezes the report for three periods while measuring goes on: the
 * report stays, thawing shows the newest cycle, and its windows are one
 * period (stopping the scan instead gave windows of period + pause).
 */
static void test_freeze(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	uint64_t shown;

	(void)state;
	open_windows(&fx, &c, &e);
	assert_int_equal(run_until(&e, 1e9), 1);
	run_until(&e, fake[UTIL_MONO] + 8);
	shown = e.report.cycle;
	assert_int_equal(engine_freeze(&e, 1), 0);
	assert_int_equal(run_until(&e, fake[UTIL_MONO] + 48), 0);
	assert_int_equal(e.report.cycle, shown);
	assert_true(e.held.cycle >= shown + 2);
	assert_int_equal(engine_freeze(&e, 0), 1);
	assert_true(e.report.cycle > shown);
	check_windows(&e.report);
	assert_int_equal(run_until(&e, 1e9), 1);
	check_windows(&e.report);
	assert_int_equal(engine_freeze(&e, 1), 0);
	assert_int_equal(engine_freeze(&e, 0), 0);	/* nothing newer */
	engine_close(&e);
	fake_stop();
	fx_destroy(&fx);
}

/*
 * Wall-clock steps (NTP, date -s) in the middle of cycles: the same
 * workload on the same monotonic time, with CLOCK_REALTIME stepped by
 * `by` seconds when the monotonic clock reaches t0 + `at`.  Every
 * report's length, rates and suggestions, and the text, JSON and
 * OpenMetrics figures made of them, must equal those of the run without
 * a step; only the timestamps move with the wall clock.
 */
#define STEP_REPORTS 6
#define STEP_PFNS 8192
struct clock_step {
	double at, by;
};

struct step_report {
	double seconds, start, end, refault_rate;
	double shift;		/* the wall clock's steps before it */
	uint64_t reaccess, sugg_high, idle_for0;
	unsigned sugg_cycles;
	int has_rate;
	char *text, *json_seconds, *om_seconds, *json_window, *om_window;
};

static char *render(const struct report *r, enum out_format fmt)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	assert_int_equal(batch_print(f, r, fmt), 0);
	assert_int_equal(fclose(f), 0);
	return s;
}

/* The rest of the line from `key` on, malloc'ed: one figure in context. */
static char *figure(const char *out, const char *key)
{
	const char *at = strstr(out, key);

	assert_non_null(at);
	return strndup(at, strcspn(at, ",\n"));
}

static void keep_report(struct step_report *k, const struct report *r)
{
	char *json = render(r, FMT_JSON), *om = render(r, FMT_OPENMETRICS);

	k->seconds = r->p.cycle_seconds;
	k->start = r->start;
	k->end = r->end;
	k->refault_rate = r->cg[1].refault_rate;
	k->has_rate = r->cg[1].has_rate;
	k->reaccess = r->cg[1].reaccess;
	k->sugg_high = r->cg[1].sugg_high;
	k->sugg_cycles = r->cg[1].sugg_cycles;
	k->idle_for0 = r->cg[1].idle_for[0];
	k->text = render(r, FMT_TEXT);
	k->json_seconds = figure(json, "\"cycle_seconds\":");
	k->om_seconds = figure(om, "\nidletop_cycle_duration_seconds ");
	k->json_window = figure(json, "\"ws_window_seconds\":");
	k->om_window = figure(om, "\nidletop_ws_window_seconds ");
	free(json);
	free(om);
}

/* Accesses: n pages from pfn read busy at their next look. */
static void touch(struct fixture *fx, uint64_t pfn, uint64_t n)
{
	char *idle = path_join(fx->root, "proc/kpageidle");
	uint64_t zero = 0, end = pfn + n;
	int fd;

	assert_non_null(idle);
	fd = open(idle, O_WRONLY);
	free(idle);
	assert_true(fd >= 0);
	for (; pfn < end; pfn++)
		assert_int_equal(pwrite(fd, &zero, 8, (off_t)pfn * 8), 8);
	close(fd);
}

/*
 * The workload at monotonic time t (since t0), 2 s before the end of
 * each period, after the scanner read the pages it touches: a hot set
 * every period, two warm sets every other period, in turns, so that in
 * every cycle one warm set is reaccessed after one idle cycle and the
 * other is idle for one cycle; the rest is cold.  The small warm set
 * reaccessed puts the suggestion's cut at 2 cycles at the true rate per
 * minute, at 1 cycle at a rate 226 times too low.  Refaults 10 a second.
 */
static void workload(struct fixture *fx, const char *cgdir, double t,
		     double *next_touch)
{
	char stat[256];
	unsigned n;

	if (t >= *next_touch) {
		n = (unsigned)(*next_touch / 16);
		touch(fx, 0, STEP_PFNS / 4);			/* hot */
		if (n % 2 == 0)
			touch(fx, STEP_PFNS / 4, 64);	/* warm, small */
		else
			touch(fx, STEP_PFNS / 2, STEP_PFNS / 4); /* warm */
		*next_touch += 16;
	}
	snprintf(stat, sizeof(stat), "anon 4194304\nfile 2097152\n"
		 "workingset_refault_anon 3\nworkingset_refault_file %.0f\n",
		 40 + 10 * t);
	assert_int_equal(fx_write(cgdir, "memory.stat", stat), 0);
}

static void run_steps(const struct clock_step *steps, size_t nsteps,
		      struct step_report *out)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	double t0, next_touch = 14, shift = 0;
	char *cgdir;
	size_t n = 0, s = 0;
	int rc;

	make_pfns(&fx, &c, STEP_PFNS);
	c.slice_pfns = STEP_PFNS / 16;
	c.period = 16;
	c.first_window = 0;
	cgdir = path_join(fx.cgroot, "/a");
	assert_non_null(cgdir);
	fake_start();
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	t0 = fake[UTIL_MONO];
	while (n < STEP_REPORTS) {
		if (s < nsteps && fake[UTIL_MONO] - t0 >= steps[s].at) {
			fake[UTIL_REAL] += steps[s].by;
			shift += steps[s++].by;
		}
		workload(&fx, cgdir, fake[UTIL_MONO] - t0, &next_touch);
		rc = fake_step(&e);
		assert_true(rc >= 0);
		if (rc == 1) {
			out[n].shift = shift;
			keep_report(&out[n++], &e.report);
		}
		assert_true(fake[UTIL_MONO] - t0 < 1000);
	}
	assert_int_equal(s, nsteps);	/* every step was taken */
	engine_close(&e);
	fake_stop();
	free(cgdir);
	fx_destroy(&fx);
}

static void free_steps(struct step_report *r)
{
	size_t i;

	for (i = 0; i < STEP_REPORTS; i++) {
		free(r[i].text);
		free(r[i].json_seconds);
		free(r[i].om_seconds);
		free(r[i].json_window);
		free(r[i].om_window);
	}
}

static void same_but_time(const struct step_report *a,
			  const struct step_report *b)
{
	assert_true(a->seconds == b->seconds);
	assert_true(fabs(b->end - a->end - b->shift) < 1e-3);
	assert_true(fabs(b->end - b->start - b->seconds) < 1e-3);
	assert_true(a->refault_rate == b->refault_rate);
	assert_int_equal(a->has_rate, b->has_rate);
	assert_int_equal(a->reaccess, b->reaccess);
	assert_int_equal(a->sugg_high, b->sugg_high);
	assert_int_equal(a->sugg_cycles, b->sugg_cycles);
	assert_int_equal(a->idle_for0, b->idle_for0);
	assert_string_equal(a->text, b->text);
	assert_string_equal(a->json_seconds, b->json_seconds);
	assert_string_equal(a->om_seconds, b->om_seconds);
	assert_string_equal(a->json_window, b->json_window);
	assert_string_equal(a->om_window, b->om_window);
}

static void test_wall_clock_steps(void **state)
{
	/* in cycles 3, 4 and 5 (cycle n: 16 n to 16 (n + 1) s) */
	static const struct clock_step fwd[] = { { 56, 3600 } };
	static const struct clock_step back[] = {
		{ 56, -3600 }, { 72, 7200 }, { 88, -3600 },
	};
	struct step_report base[STEP_REPORTS], f[STEP_REPORTS];
	struct step_report b[STEP_REPORTS];
	int i;

	(void)state;
	run_steps(NULL, 0, base);
	run_steps(fwd, 1, f);
	run_steps(back, 3, b);
	for (i = 0; i < STEP_REPORTS; i++) {
		assert_true(fabs(base[i].seconds - 16) < 16.0 / 16);
		same_but_time(&base[i], &f[i]);
		same_but_time(&base[i], &b[i]);
	}
	/*
	 * Cycle 3 (report 2) reaccessed the small warm set: 64 pages a
	 * cycle put the cut at 2 cycles; at the rate a cycle of 3,616 s
	 * gives, 1 cycle, and half the suggested memory.high.
	 */
	assert_int_equal(base[2].reaccess, 64 * 4096);
	assert_int_equal(base[2].sugg_cycles, 2);
	assert_int_equal(base[2].sugg_high, 24 << 20);
	assert_true(base[2].has_rate && fabs(base[2].refault_rate - 10) < 0.1);
	free_steps(base);
	free_steps(f);
	free_steps(b);
}

/*
 * Failed refreshes: while the cgroup tree cannot be read (EMFILE at its
 * opendir), a completed cycle's report fails: the report shown stays,
 * the failure is counted, the retry waits a period, doubled for each
 * failure in a row, and the cycle's report is built at the first step
 * that can; a failed mark write counts as a scan error, and a refresh
 * that works between scan failures does not reset their count (the TUI
 * would never give up).  Five in a row is where callers give up.
 */
static const char *fault_site;

static int inject(const char *site)
{
	return fault_site && !strcmp(site, fault_site) ? EMFILE : 0;
}

static void test_refresh_errors(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	unsigned i;

	(void)state;
	open_windows(&fx, &c, &e);
	util_fault_hook = inject;
	assert_int_equal(run_until(&e, 1e9), 1);
	assert_int_equal(e.report.cycle, 1);
	fault_site = "cg.opendir";
	while ((i = (unsigned)fake_step(&e)) == 0)
		;
	assert_int_equal((int)i, -1);
	assert_non_null(strstr(e.err, strerror(EMFILE)));
	assert_int_equal(e.report.cycle, 1);
	assert_int_equal(e.params.errors[REPORT_ERR_TREE], 1);
	assert_int_equal(e.report.p.errors[REPORT_ERR_TREE], 1);
	assert_int_equal(e.fails, 1);
	assert_true(fabs(engine_wait(&e) - 16) < 1e-6);
	assert_int_equal(fake_step(&e), -1);
	assert_int_equal(e.fails, 2);
	assert_true(fabs(engine_wait(&e) - 32) < 1e-6);
	assert_int_equal(engine_refresh(&e), -1);	/* the TUI's refresh */
	assert_int_equal(e.fails, 3);
	fault_site = NULL;
	assert_int_equal(fake_step(&e), 1);	/* the cycle's report, late */
	assert_int_equal(e.report.cycle, 2);
	assert_int_equal(e.report.p.errors[REPORT_ERR_TREE], 3);
	assert_int_equal(e.fails, 0);
	assert_true(engine_wait(&e) < 16);
	fault_site = "pwrite";		/* the marks cannot be written */
	assert_int_equal(fake_step(&e), -1);
	assert_int_equal(e.report.p.errors[REPORT_ERR_SCAN], 1);
	for (i = 2; i <= ENGINE_FAILS_MAX + 4; i++) {
		assert_int_equal(fake_step(&e), -1);
		assert_int_equal(e.fails, i);
		assert_true(engine_wait(&e) <= ENGINE_RETRY_MAX);
	}
	assert_true(fabs(engine_wait(&e) - ENGINE_RETRY_MAX) < 1e-6);
	assert_int_equal(e.report.cycle, 2);
	/* a tree read that works does not clear the scan's failures */
	assert_int_equal(engine_refresh(&e), 1);
	assert_int_equal(e.fails, ENGINE_FAILS_MAX + 4);
	fault_site = NULL;
	assert_int_equal(run_until(&e, 1e9), 1);
	assert_int_equal(e.report.cycle, 3);
	assert_int_equal(e.report.p.errors[REPORT_ERR_SCAN],
			 ENGINE_FAILS_MAX + 4);
	engine_close(&e);
	fake_stop();
	fx_destroy(&fx);
}

static int busy_pwrite(const char *site)
{
	return !strcmp(site, "pwrite") ? EBUSY : 0;
}

/*
 * The kernel refuses to mark (EBUSY: another tracker marks): fatal at
 * once, with who holds it; any other failure is retried.
 */
static void test_busy_fatal(void **state)
{
	struct fixture fx;
	struct config c;
	struct engine e;
	int rc = 0, guard = 0;

	(void)state;
	make(&fx, &c);
	c.source = IDLESRC_KPAGEIDLE_RW;
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	util_fault_hook = busy_pwrite;
	while ((rc = engine_step(&e)) == 0)
		assert_true(++guard < 1000);
	util_fault_hook = NULL;
	assert_int_equal(rc, -1);
	assert_int_equal(engine_fatal(&e), 1);
	assert_int_equal(engine_fails(&e), ENGINE_FAILS_MAX);
	assert_non_null(strstr(engine_err(&e), "has /proc/kpageidle open "
					       "for marking"));
	engine_close(&e);
	/* the same failure with another errno: counted, not fatal */
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	util_fault_hook = inject;
	fault_site = "pwrite";
	while ((rc = engine_step(&e)) == 0)
		;
	util_fault_hook = NULL;
	fault_site = NULL;
	assert_int_equal(rc, -1);
	assert_int_equal(engine_fatal(&e), 0);
	assert_int_equal(engine_fails(&e), 1);
	engine_close(&e);
	fx_destroy(&fx);
}

/* The kernel's nr_skipped, by the cycle whose calls reported it. */
static const struct scanner *skip_sc;
static uint64_t skip_of[8];
static unsigned skip_calls;

/*
 * Every other marking call could not walk the page tables of its first
 * record: the kernel reports it busy and counts its pages in nr_skipped.
 */
static int skipping_ioctl(int fd, struct kpageidle_scan_arg *a)
{
	struct kpageidle_folio *v = (void *)(uintptr_t)a->vec;
	int rc = fx_scan_ioctl(fd, a);

	if (rc || !(a->flags & KPAGEIDLE_SCAN_MARK) || !a->nr_records ||
	    skip_calls++ % 2)
		return rc;
	v[0].flags &= ~KPAGEIDLE_FOLIO_IDLE;
	a->nr_skipped = v[0].nr_pages;
	skip_of[skip_sc->cycle % 8] += v[0].nr_pages;
	return rc;
}

/* The engine scans with the folio records of a fake KPAGEIDLE_SCAN. */
static void open_folios(struct fixture *fx, struct config *c,
			struct engine *e)
{
	char err[256];

	c->slice_pfns = 64;	/* 16 calls a pass */
	if (engine_open(e, c))
		fail_msg("%s", e->err);
	fx_scan_fx = fx;
	fx_scan_errno = fx_scan_nomerge = 0;
	e->sc.src.ioctl = skipping_ioctl;
	if (idlesrc_open_folios(&e->sc.src, IDLESRC_KPAGEIDLE_FOLIOS, err,
				sizeof(err)))
		fail_msg("%s", err);
	e->params.method = idlesrc_method(&e->sc.src);
	skip_sc = &e->sc;
	skip_calls = 0;
	memset(skip_of, 0, sizeof(skip_of));
}

/* What the printers say of a report's skipped pages. */
static void check_printed(const struct report *r)
{
	char *json = render(r, FMT_JSON), *om = render(r, FMT_OPENMETRICS);
	char *text = render(r, FMT_TEXT), want[96];

	assert_non_null(strstr(om, "# TYPE idletop_scan_skipped_bytes gauge\n"
			       "# UNIT idletop_scan_skipped_bytes bytes\n"));
	if (r->has_skipped) {
		snprintf(want, sizeof(want), "\"skipped_bytes\":%llu,",
			 (unsigned long long)r->skipped);
		assert_non_null(strstr(json, want));
		snprintf(want, sizeof(want), "\nidletop_scan_skipped_bytes "
			 "%llu\n", (unsigned long long)r->skipped);
		assert_non_null(strstr(om, want));
		assert_non_null(strstr(text, "s, skipped 2M\n"));
	} else {
		assert_non_null(strstr(json, "\"skipped_bytes\":null,"));
		assert_null(strstr(om, "\nidletop_scan_skipped_bytes "));
		assert_null(strstr(text, "skipped"));
	}
	free(json);
	free(om);
	free(text);
}

/*
 * The pages the kernel reported busy only because it could not walk
 * their page tables reach the report summed over the calls of the pass
 * its numbers come from (not the priming pass, not one call), in bytes,
 * and every output; idle is understated by as much here, since every
 * page stayed idle.  --mark-wait's counting pass does not mark and
 * read + write has no ioctl: not known, and printed as such.
 */
static void test_skipped(void **state)
{
	volatile sig_atomic_t stop = 0;
	const struct report *r;
	struct fixture fx;
	struct config c;
	struct engine e;
	int n = 0, guard = 0;

	(void)state;
	make(&fx, &c);
	open_folios(&fx, &c, &e);
	r = &e.report;
	while (n < 2) {
		n += engine_step(&e);
		assert_true(++guard < 1000);
	}
	assert_int_equal(r->cycle, 2);
	assert_string_equal(r->p.method, "scan-folios");
	assert_int_equal(skip_of[2], 512);	/* 8 of the 16 calls */
	assert_true(r->has_skipped);
	assert_int_equal(r->skipped, skip_of[2] * e.params.page_size);
	assert_int_equal(r->cg[0].idle + r->skipped, 1024 * e.params.page_size);
	check_printed(r);
	engine_close(&e);
	c.mark_wait = 0.01;
	c.source = IDLESRC_KPAGEIDLE;
	open_folios(&fx, &c, &e);
	assert_int_equal(engine_mark_wait(&e, 0.01, &stop), 0);
	assert_int_equal(e.report.cycle, 1);
	assert_true(skip_of[0] > 0);	/* the priming pass marked */
	assert_false(e.report.has_skipped);
	check_printed(&e.report);
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
		cmocka_unit_test(test_cpu_budget),
		cmocka_unit_test(test_set_period),
		cmocka_unit_test(test_first_window),
		cmocka_unit_test(test_freeze),
		cmocka_unit_test(test_wall_clock_steps),
		cmocka_unit_test(test_refresh_errors),
		cmocka_unit_test(test_busy_fatal),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
