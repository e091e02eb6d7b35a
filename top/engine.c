// SPDX-License-Identifier: GPL-2.0
/* engine.c - scanner + cgroup tree + latest report behind one handle */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup.h"
#include "engine_impl.h"
#include "pace.h"
#include "util.h"

/*
 * Known kernel problems with the numbers, looked at again for every
 * report: a report warns when the problem was there at the start or at
 * the end of its cycle (the last look, or this one).
 */
static void check_kernel(struct engine *e)
{
	unsigned now = e->sc.mg ? REPORT_WARN_APPROX :
		       idlesrc_mglru_unfixed(e->sc.root) ? REPORT_WARN_MGLRU : 0;

	if (idlesrc_damon_paddr(e->sc.root))
		now |= REPORT_WARN_DAMON;

	e->params.warnings = now | e->warn_last;
	e->warn_last = now;
}

/*
 * 1 when the node has no swap: SwapTotal 0 in /proc/meminfo, or no
 * readable SwapTotal (the safe side for a suggested memory.high).
 */
static int node_no_swap(const char *root)
{
	char *path = path_join(root, "proc/meminfo"), *t, *l;
	unsigned long long kb = 0;
	int none = 1;

	t = path ? read_text_file(path, NULL) : NULL;
	l = t && strncmp(t, "SwapTotal:", 10) ? strstr(t, "\nSwapTotal:") : t;
	if (l && sscanf(l + (*l == '\n'), "SwapTotal: %llu kB", &kb) == 1)
		none = kb == 0;
	free(t);
	free(path);
	return none;
}

int engine_open(struct engine *e, const struct config *cfg)
{
	struct scan_config sc = {
		.slice_pfns = cfg->slice_pfns,
		.slice_ms = cfg->slice_ms,
		.period = cfg->period,
		.first_period = cfg->mark_wait >= 0 ? 0 : cfg->first_window,
		.cpu_frac = cfg->mark_wait >= 0 ? 1 : cfg->cpu_pct / 100.0,
		.ws_cycles = cfg->ws_cycles,
		.source = cfg->source,
		.mglru_aging = cfg->mglru_aging,
		.tb = cfg->idle_buckets,
	};
	struct cg_tree tree = { 0 };

	memset(e, 0, sizeof(*e));
	e->cgdir = cfg->cgroup_dir ? strdup(cfg->cgroup_dir) :
		   cg_find_mount(cfg->root, e->err, sizeof(e->err));
	if (!e->cgdir) {
		if (cfg->cgroup_dir)
			snprintf(e->err, sizeof(e->err), "out of memory");
		return -1;
	}
	sc.cgdir = e->cgdir;
	if (scan_open(&e->sc, cfg->root, &sc, e->err, sizeof(e->err)))
		goto fail;
	if (e->sc.mg && cfg->mark_wait >= 0) {
		snprintf(e->err, sizeof(e->err), "--mark-wait marks pages "
			 "idle, which needs idle page tracking; the mglru "
			 "source (no /proc/kpageidle, no page_idle bitmap) "
			 "has no marks: use -b");
		scan_close(&e->sc);
		goto fail;
	}
	/* can the tree be read? (its CPU counts against --cpu: pace.h) */
	if (cg_tree_scan(&tree, e->cgdir, e->err, sizeof(e->err))) {
		scan_close(&e->sc);
		goto fail;
	}
	cg_tree_free(&tree);
	e->params.ws_cycles = cfg->ws_cycles;
	e->params.headroom_pct = cfg->headroom_pct;
	e->params.node = cfg->node_label;
	e->params.tb = cfg->idle_buckets;
	e->params.period = cfg->mark_wait >= 0 ? cfg->mark_wait : cfg->period;
	e->params.source = idlesrc_kind_name(e->sc.src.kind);
	e->params.method = idlesrc_method(&e->sc.src);
	e->params.page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	check_kernel(e);
	return 0;
fail:
	free(e->cgdir);
	e->cgdir = NULL;
	return -1;
}

void engine_close(struct engine *e)
{
	report_free(&e->report);
	report_free(&e->held);
	scan_close(&e->sc);
	free(e->cgdir);
	e->cgdir = NULL;
}

double engine_wait(const struct engine *e)
{
	double w = scan_wait(&e->sc), r = e->retry_at - now_mono();

	return r > w ? r : w;
}

/* The call failed (Errors in engine.h): count it, hold the next step. */
static int failed(struct engine *e, enum report_error what)
{
	double wait = scan_period(&e->sc);
	unsigned i;

	e->fatal = e->sc.src.busy;
	e->params.errors[what]++;
	e->report.p.errors[what] = e->params.errors[what];
	e->held.p.errors[what] = e->params.errors[what];
	if (++e->fails_of[what] > e->fails)
		e->fails = e->fails_of[what];
	for (i = 1; i < e->fails_of[what] && wait < ENGINE_RETRY_MAX; i++)
		wait *= 2;
	e->retry_at = now_mono() + (wait < ENGINE_RETRY_MAX ? wait :
				    ENGINE_RETRY_MAX);
	return -1;
}

static void succeeded(struct engine *e, enum report_error what)
{
	unsigned i;

	e->fails_of[what] = 0;
	for (e->fails = 0, i = 0; i < REPORT_ERR_NR; i++)
		if (e->fails_of[i] > e->fails)
			e->fails = e->fails_of[i];
	if (!e->fails)
		e->retry_at = 0;
}

/*
 * Rescan the tree (new and vanished cgroups) and join the last cycle,
 * into e->report, or e->held while frozen (then 0: nothing new shown).
 * The report it replaces gives the rates (refaults per second).
 */
static int rebuild_report(struct engine *e)
{
	struct report *r = e->frozen ? &e->held : &e->report, n;
	struct cg_tree tree = { 0 };

	if (cg_tree_scan(&tree, e->cgdir, e->err, sizeof(e->err)))
		return -1;
	check_kernel(e);
	e->params.no_swap = node_no_swap(e->sc.root);
	e->params.period = scan_period(&e->sc);
	if (report_build(&n, &tree, &e->sc.last, &e->params)) {
		report_free(&n);
		snprintf(e->err, sizeof(e->err), "out of memory");
		return -1;
	}
	n.taken = now_mono();
	report_rates(&n, r->n ? r : &e->report);
	report_free(r);
	*r = n;
	return !e->frozen;
}

int engine_refresh(struct engine *e)
{
	if (e->frozen)
		return 0;
	if (rebuild_report(e) < 0)
		return failed(e, REPORT_ERR_TREE);
	succeeded(e, REPORT_ERR_TREE);
	return 1;
}

int engine_set_period(struct engine *e, double seconds)
{
	if (!(seconds >= 0.01 && seconds <= 604800)) {
		snprintf(e->err, sizeof(e->err), "period %g out of range "
			 "(0.01..604800 seconds)", seconds);
		return -1;
	}
	scan_restart(&e->sc, seconds);
	e->params.period = seconds;
	return 0;
}

int engine_freeze(struct engine *e, int on)
{
	e->frozen = on;
	if (on || e->held.cycle <= e->report.cycle)
		return 0;
	report_free(&e->report);
	e->report = e->held;
	memset(&e->held, 0, sizeof(e->held));
	return 1;
}

/*
 * The cycle in progress: its period, or what the CPU budget stretches it
 * to (the first window does not wait for the budget: scan.h).
 */
static double cycle_left(const struct scanner *sc)
{
	double t = now_mono(), debt = sc->cpu_debt - (t - sc->debt_mono);
	struct pace_in in = {
		.period = sc->cfg.period,
		.cpu_frac = sc->first ? 0 : sc->cfg.cpu_frac,
		.nr_pfns = sc->nr_pfns,
		.done_pfns = sc->pass_done ? sc->nr_pfns : sc->cursor,
		.since_cycle = t - sc->cycle_mono,
		.cpu_debt = debt > 0 ? debt : 0,
	};

	return pace_left(&in, now_cpu() - sc->cycle_cpu, sc->last.cpu);
}

/*
 * A priming pass and the counted cycle after it are one wait for the
 * next report: two periods, or two passes at the CPU budget.
 */
void engine_progress(const struct engine *e, struct engine_progress *p)
{
	const struct scanner *sc = &e->sc;
	double f = sc->nr_pfns ? (double)sc->cursor / (double)sc->nr_pfns : 1;
	double next;

	memset(p, 0, sizeof(*p));
	p->cycle = sc->cycle;
	p->priming = sc->priming;
	p->fresh = sc->priming || sc->cycle == sc->prime_cycle + 1;
	p->first = sc->first;
	p->period = sc->cfg.period;
	p->steady = scan_period(sc);
	p->frozen = e->frozen;
	p->newer = e->frozen && e->held.cycle > e->report.cycle ?
		   e->held.cycle - e->report.cycle : 0;
	p->source = e->params.source;
	p->method = e->params.method;
	if (sc->pass_done)
		f = 1;
	if (sc->mg)	/* a read a period: the time since the last began */
		f = sc->cfg.period > 0 ?
		    (now_mono() - sc->cycle_mono) / sc->cfg.period : 1;
	if (f > 1)
		f = 1;
	p->left = cycle_left(sc);
	if (sc->priming) {	/* then a pass like the last one */
		next = sc->cfg.period;
		if (!sc->first && sc->cfg.cpu_frac > 0 &&
		    sc->last.cpu / sc->cfg.cpu_frac > next)
			next = sc->last.cpu / sc->cfg.cpu_frac;
		p->left += next;
		f /= 2;
	} else if (p->fresh) {
		f = (1 + f) / 2;
	}
	p->done = f;
}

int engine_step(struct engine *e)
{
	int rc = scan_slice(&e->sc, e->err, sizeof(e->err));

	if (rc < 0)
		return failed(e, REPORT_ERR_SCAN);
	/* the mglru source's cycle is one read of one file: it worked
	 * when it was published, not when its first piece was read */
	if (rc == 1 || !e->sc.mg)
		succeeded(e, REPORT_ERR_SCAN);
	if (rc == 1 || e->unbuilt) {
		rc = rebuild_report(e);
		e->unbuilt = rc < 0;
		if (rc < 0)
			return failed(e, REPORT_ERR_TREE);
		succeeded(e, REPORT_ERR_TREE);
	}
	return rc;
}

int engine_mark_wait(struct engine *e, double seconds,
		     volatile sig_atomic_t *stop)
{
	double until;
	int rc = 0;

	while (e->sc.priming && !*stop)
		if (scan_slice(&e->sc, e->err, sizeof(e->err)) < 0)
			return -1;
	e->sc.cfg.period = e->sc.steady_period = seconds;
	until = now_mono() + seconds;
	while (!*stop && now_mono() < until)
		poll_stop(NULL, 0, until - now_mono() + 0.001, stop);
	e->sc.no_mark = 1;
	while (!*stop && (rc = scan_slice(&e->sc, e->err,
					   sizeof(e->err))) == 0)
		;
	if (rc < 0)
		return -1;
	if (*stop)
		return 1;
	return rebuild_report(e) < 0 ? -1 : 0;
}

struct engine *engine_new(const struct config *cfg, char *err, size_t errlen)
{
	struct engine *e = malloc(sizeof(*e));

	if (!e) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (engine_open(e, cfg)) {
		snprintf(err, errlen, "%s", e->err);
		free(e);
		return NULL;
	}
	return e;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	engine_close(e);
	free(e);
}

const struct report *engine_report(const struct engine *e)
{
	return &e->report;
}

const struct report_params *engine_params(const struct engine *e)
{
	return &e->params;
}

const char *engine_err(const struct engine *e)
{
	return e->err;
}

unsigned engine_fails(const struct engine *e)
{
	return e->fatal ? ENGINE_FAILS_MAX : e->fails;
}

int engine_fatal(const struct engine *e)
{
	return e->fatal;
}

void engine_procs(const struct engine *e, size_t i, struct proc_list *l)
{
	procs_read(l, e->sc.root, e->cgdir, &e->report, i);
}

void engine_host(const struct engine *e, struct host_info *h)
{
	host_read(h, e->sc.root);
}
