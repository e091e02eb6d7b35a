// SPDX-License-Identifier: GPL-2.0
/*
 * tuibench.c - key latency and redraw of idletop's view over a fixture
 * with many cgroups, on the host (no kernel): `bench/tui-latency`.
 *
 *   tuibench [-n CGROUPS] [-r REPS]
 *
 * Builds a fixture of CGROUPS cgroups (/gK/sJ, 50 per group, 64 pages
 * each), runs the engine to its first report, then draws the view into a
 * curses screen on /dev/null (80x24, TERM=xterm) and times, REPS times
 * each: a refresh (tree walk, memory.* files, report build), the rows
 * (view_build), a redraw (header + table + doupdate), and keys (Down,
 * PgDn, next sort column, flat view, search) each with the redraw after
 * it.  Prints the median and the worst in milliseconds.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fixture.h"
#include "kpf.h"
#include "engine_impl.h"
#include "ui.h"
#include "util.h"

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *what, double *t, int n)
{
	qsort(t, (size_t)n, sizeof(*t), cmpd);
	printf("%-28s median %7.2f ms   max %7.2f ms\n", what,
	       t[n / 2] * 1e3, t[n - 1] * 1e3);
}

static void redraw(struct ui *u)
{
	erase();
	header_draw(u);
	tree_draw(u);
	refresh();
}

static int make(struct fixture *fx, int n)
{
	char rel[64];
	uint64_t ino;
	int i;

	if (fx_create(fx, (uint64_t)n * 64 + 1024))
		return -1;
	for (i = 0; i < n; i++) {
		if (i % 50 == 0) {
			snprintf(rel, sizeof(rel), "/g%d", i / 50);
			if (!fx_mkcg(fx, rel))
				return -1;
		}
		snprintf(rel, sizeof(rel), "/g%d/s%d", i / 50, i);
		ino = fx_mkcg(fx, rel);
		if (!ino)
			return -1;
		fx_set(fx, 1024 + (uint64_t)i * 64, 64, F(KPF_LRU) |
		       (i % 2 ? F(KPF_ANON) : 0), ino, i % 3 == 0);
	}
	return fx_write_pages(fx, 1, 0);
}

int main(int argc, char **argv)
{
	struct fixture fx;
	struct config cfg;
	struct engine e;
	struct ui u;
	SCREEN *scr;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	int n = 5000, reps = 30, i, k, opt;
	double *t, t0;
	static const enum action keys[] = { A_DOWN, A_PGDN, A_SORT_NEXT,
					    A_FLAT, A_END };
	static const char *const names[] = { "key Down + redraw",
		"key PgDn + redraw", "key s (sort) + redraw",
		"key F5 (flat) + redraw", "key End + redraw" };

	while ((opt = getopt(argc, argv, "n:r:")) != -1)
		if (opt == 'n')
			n = atoi(optarg);
		else if (opt == 'r')
			reps = atoi(optarg);
	t = calloc((size_t)reps, sizeof(*t));
	if (!t || !out || !in || n < 1 || reps < 1 || make(&fx, n)) {
		perror("tuibench");
		return 1;
	}
	options_default(&cfg);
	cfg.root = fx.root;
	cfg.period = 0.05;
	cfg.cpu_pct = 100;
	if (engine_open(&e, &cfg)) {
		fprintf(stderr, "tuibench: %s\n", e.err);
		return 1;
	}
	while (!e.report.cycle)
		if (engine_step(&e) < 0 ||
		    (engine_wait(&e) > 0 && usleep(1000) && 0))
			return 1;
	setenv("TERM", "xterm", 1);
	scr = newterm(NULL, out, in);
	if (!scr)
		return 1;
	resizeterm(24, 80);
	memset(&u, 0, sizeof(u));
	u.cfg = &cfg;
	u.e = &e;
	u.rep = &e.report;
	u.delay = 2;
	fields_default(&u.vs.cols, FF_TUI);
	u.vs.sort = F_RES;
	printf("%d cgroups (%zu in the report), %d runs each, 80x24\n", n,
	       e.report.n, reps);
	for (i = 0; i < reps; i++) {
		t0 = now_mono();
		if (engine_refresh(&e) < 0)
			return 1;
		t[i] = now_mono() - t0;
	}
	report("refresh (engine_refresh)", t, reps);
	for (i = 0; i < reps; i++) {
		t0 = now_mono();
		view_build(&u);
		t[i] = now_mono() - t0;
	}
	report("rows (view_build)", t, reps);
	for (i = 0; i < reps; i++) {
		t0 = now_mono();
		redraw(&u);
		t[i] = now_mono() - t0;
	}
	report("redraw", t, reps);
	for (k = 0; k < (int)(sizeof(keys) / sizeof(keys[0])); k++) {
		for (i = 0; i < reps; i++) {
			t0 = now_mono();
			tree_key(&u, keys[k]);
			redraw(&u);
			t[i] = now_mono() - t0;
		}
		report(names[k], t, reps);
	}
	for (i = 0; i < reps; i++) {
		t0 = now_mono();
		view_select(&u, (size_t)view_find(&u, "s4999", 0));
		redraw(&u);
		t[i] = now_mono() - t0;
	}
	report("search s4999 + redraw", t, reps);
	endwin();
	delscreen(scr);
	view_free(&u.view);
	view_state_free(&u.vs);
	trend_free(&u.trend);
	engine_close(&e);
	fx_destroy(&fx);
	free(t);
	return 0;
}
