// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - idletop: options, then the main loop:
 *   poll(input or nothing, time until the next slice) -> one scan slice
 *   -> after a completed cycle: rescan the cgroup tree, build a report,
 *   print it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "batch.h"
#include "cgroup.h"
#include "options.h"
#include "scan.h"
#include "stats.h"
#include "util.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct app {
	struct config cfg;
	struct scanner sc;
	char *cgdir;
	char err[512];
};

/* Sleep up to `seconds`, waking early for input on fd (-1: none). */
static int wait_input(int fd, double seconds)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ms = (int)(seconds * 1000 + 0.5);

	if (seconds > 3600)
		ms = 3600 * 1000;
	return poll(fd >= 0 ? &p : NULL, fd >= 0 ? 1 : 0, ms);
}

static int write_report(struct app *a, const struct report *r)
{
	FILE *f = stdout;
	char *tmp = NULL;
	int rc;

	if (a->cfg.output) {
		if (asprintf(&tmp, "%s.tmp", a->cfg.output) < 0)
			return -1;
		f = fopen(tmp, "w");
		if (!f) {
			fprintf(stderr, "idletop: %s: %s\n", tmp,
				strerror(errno));
			free(tmp);
			return -1;
		}
	}
	rc = batch_print(f, r, a->cfg.format);
	if (!a->cfg.output) {
		if (rc && errno != EPIPE)
			fprintf(stderr, "idletop: write: %s\n",
				strerror(errno));
		return rc;
	}
	if (fclose(f) || rc || rename(tmp, a->cfg.output)) {
		fprintf(stderr, "idletop: %s: %s\n", a->cfg.output,
			strerror(errno));
		rc = -1;
	}
	free(tmp);
	return rc;
}

static int report(struct app *a, double period)
{
	struct cg_tree tree = { 0 };
	struct report r;
	struct report_params p = {
		.ws_cycles = a->cfg.ws_cycles,
		.headroom_pct = a->cfg.headroom_pct,
		.period = period,
		.source = idlesrc_kind_name(a->sc.src.kind),
		.page_size = (uint64_t)sysconf(_SC_PAGESIZE),
		.nr_pfns = a->sc.nr_pfns,
	};
	int rc;

	if (cg_tree_scan(&tree, a->cgdir, a->err, sizeof(a->err))) {
		fprintf(stderr, "idletop: %s\n", a->err);
		return -1;
	}
	if (report_build(&r, &tree, &a->sc.last, &p)) {
		fprintf(stderr, "idletop: out of memory\n");
		report_free(&r);
		return -1;
	}
	rc = write_report(a, &r);
	report_free(&r);
	return rc;
}

static int slice(struct app *a)
{
	int rc = scan_slice(&a->sc, a->err, sizeof(a->err));

	if (rc < 0)
		fprintf(stderr, "idletop: %s\n", a->err);
	return rc;
}

static int run_batch(struct app *a)
{
	unsigned long done = 0;
	int rc;

	while (!stop) {
		if (wait_input(-1, scan_wait(&a->sc)) < 0 && errno != EINTR)
			return 1;
		if (stop)
			break;
		rc = slice(a);
		if (rc < 0)
			return 1;
		if (rc == 0)
			continue;
		if (report(a, a->cfg.period))
			return 1;
		if (a->cfg.iterations && ++done >= a->cfg.iterations)
			break;
	}
	return 0;
}

/* Mark everything (priming cycle, unpaced), wait, read once, report. */
static int run_mark_wait(struct app *a)
{
	double until;
	int rc;

	while (a->sc.cycle == 0 && !stop)
		if (slice(a) < 0)
			return 1;
	until = now_mono() + a->cfg.mark_wait;
	while (!stop && now_mono() < until)
		wait_input(-1, until - now_mono());
	if (stop)
		return 1;
	a->sc.no_mark = 1;
	while ((rc = slice(a)) == 0 && !stop)
		;
	if (rc < 0 || stop)
		return 1;
	return report(a, a->cfg.mark_wait) ? 1 : 0;
}

static int setup(struct app *a)
{
	struct scan_config sc = {
		.slice_pfns = a->cfg.slice_pfns,
		.slice_ms = a->cfg.slice_ms,
		.period = a->cfg.period,
		.cpu_frac = a->cfg.cpu_pct / 100.0,
		.ws_cycles = a->cfg.ws_cycles,
		.source = a->cfg.source,
	};
	struct cg_tree tree = { 0 };

	if (a->cfg.mark_wait >= 0)
		sc.cpu_frac = 1;	/* one shot: no pacing */
	a->cgdir = a->cfg.cgroup_dir ? strdup(a->cfg.cgroup_dir) :
		   cg_find_mount(a->cfg.root, a->err, sizeof(a->err));
	if (!a->cgdir) {
		fprintf(stderr, "idletop: %s\n", a->cfg.cgroup_dir ?
			"out of memory" : a->err);
		return -1;
	}
	if (cg_tree_scan(&tree, a->cgdir, a->err, sizeof(a->err))) {
		fprintf(stderr, "idletop: %s\n", a->err);
		return -1;
	}
	cg_tree_free(&tree);
	if (scan_open(&a->sc, a->cfg.root, &sc, a->err, sizeof(a->err))) {
		fprintf(stderr, "idletop: %s\n", a->err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct app a;
	int rc;

	memset(&a, 0, sizeof(a));
	options_default(&a.cfg);
	rc = options_parse(&a.cfg, argc, argv, stdout, stderr);
	if (rc == OPT_EXIT)
		return fflush(stdout) ? 1 : 0;
	if (rc != OPT_OK)
		return 2;
	setup_signals();
	if (setup(&a)) {
		free(a.cgdir);
		return 1;
	}
	rc = a.cfg.mark_wait >= 0 ? run_mark_wait(&a) : run_batch(&a);
	scan_close(&a.sc);
	free(a.cgdir);
	return rc;
}
