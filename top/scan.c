// SPDX-License-Identifier: GPL-2.0
/* scan.c - PFN scanner: cycles, slices, pacing, idle-time map (scan.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kpf.h"
#include "pace.h"
#include "scan.h"
#include "scan_folio.h"
#include "scan_mglru.h"
#include "scan_pfn.h"
#include "util.h"

#define MIN_SLICE 64	/* one bitmap word; THPs may span slices */

uint64_t scan_count_pfns(int fd)
{
	uint64_t lo = 0, hi = 1 << 16, e;

	/* invariant: entry lo-1 exists (or lo == 0), entry hi does not */
	while (pread_full(fd, &e, 8, (off_t)(hi * 8)) == 8) {
		lo = hi + 1;
		if (hi >= (1ULL << 42))
			return hi;
		hi *= 2;
	}
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (pread_full(fd, &e, 8, (off_t)(mid * 8)) == 8)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int open_ro(const char *root, const char *rel, int *fd)
{
	char *p = path_join(root, rel);

	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	*fd = open(p, O_RDONLY | O_CLOEXEC);
	free(p);
	return *fd < 0 ? -1 : 0;
}

static int alloc_buffers(struct scanner *sc)
{
	size_t n = sc->cfg.slice_pfns;

	sc->age = calloc(sc->nr_pfns ? sc->nr_pfns : 1, 1);
	sc->kflags = calloc(n, sizeof(uint64_t));
	sc->kcg = calloc(n, sizeof(uint64_t));
	sc->idle = calloc(n, 1);
	sc->mark = calloc(n, 1);
	if (!sc->age || !sc->kflags || !sc->kcg || !sc->idle || !sc->mark)
		return -1;
	if (acct_init(&sc->cur) || acct_init(&sc->last.acct))
		return -1;
	return 0;
}

static void start_cycle(struct scanner *sc)
{
	sc->cursor = 0;
	sc->cpu_bound = 0;
	sc->skipped = 0;
	sc->thp.active = 0;
	sc->cycle_mono = now_mono();
	sc->cycle_cpu = now_cpu();
	sc->last_ino = 0;
	sc->last_pages = NULL;
	acct_clear(&sc->cur);
}

/* The mglru source: no PFN, no age array, no priming pass. */
static int open_mglru(struct scanner *sc, const char *root, char *err,
		      size_t errlen)
{
	sc->cfg.first_period = 0;
	if (acct_init(&sc->cur) || acct_init(&sc->last.acct)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (scan_mglru_open(sc, root, err, errlen))
		goto fail;
	sc->steady_period = sc->cfg.period;
	sc->next_at = sc->debt_mono = now_mono();
	sc->debt_cpu = now_cpu();
	return 0;
fail:
	scan_close(sc);
	return -1;
}

int scan_open(struct scanner *sc, const char *root,
	      const struct scan_config *cfg, char *err, size_t errlen)
{
	memset(sc, 0, sizeof(*sc));
	sc->cfg = *cfg;
	sc->cfg.slice_pfns = (cfg->slice_pfns + 63) & ~(size_t)63;
	if (sc->cfg.slice_pfns < MIN_SLICE)
		sc->cfg.slice_pfns = MIN_SLICE;
	sc->slice = sc->cfg.slice_pfns;
	sc->flags_fd = sc->cgroup_fd = -1;
	sc->src.fd = -1;
	sc->root = strdup(root);
	if (!sc->root)
		goto nomem;
	if (scan_mglru_wanted(root, cfg->source))
		return open_mglru(sc, root, err, errlen);
	if (open_ro(root, "proc/kpageflags", &sc->flags_fd)) {
		snprintf(err, errlen, "%s/proc/kpageflags: %s%s", root,
			 strerror(errno), errno == EACCES || errno == EPERM ?
			 " (run idletop as root)" : "");
		goto fail;
	}
	if (open_ro(root, "proc/kpagecgroup", &sc->cgroup_fd) &&
	    errno != ENOENT) {
		snprintf(err, errlen, "%s/proc/kpagecgroup: %s", root,
			 strerror(errno));
		goto fail;
	}
	if (idlesrc_open(&sc->src, root, cfg->source, sc->cfg.slice_pfns,
			 cfg->scan_ioctl, err, errlen))
		goto fail;
	sc->nr_pfns = scan_count_pfns(sc->flags_fd);
	if (alloc_buffers(sc))
		goto nomem;
	sc->priming = 1;
	sc->steady_period = sc->cfg.period;
	if (cfg->first_period > 0 && cfg->first_period < cfg->period) {
		sc->first = 1;
		sc->cfg.period = cfg->first_period;
	}
	start_cycle(sc);
	sc->next_at = sc->debt_mono = now_mono();
	sc->debt_cpu = now_cpu();
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	scan_close(sc);
	return -1;
}

void scan_close(struct scanner *sc)
{
	if (sc->flags_fd >= 0)
		close(sc->flags_fd);
	if (sc->cgroup_fd >= 0)
		close(sc->cgroup_fd);
	idlesrc_close(&sc->src);
	scan_mglru_close(sc);
	acct_free(&sc->cur);
	acct_free(&sc->last.acct);
	free(sc->root);
	free(sc->age);
	free(sc->kflags);
	free(sc->kcg);
	free(sc->idle);
	free(sc->mark);
	memset(sc, 0, sizeof(*sc));
	sc->flags_fd = sc->cgroup_fd = sc->src.fd = -1;
}

/*
 * At the first slice of a cycle n: a page found idle at age a (cycles)
 * was last marked in cycle n - a, at about the same point of that cycle,
 * so it has been idle for about first_slice[n] - first_slice[n - a]
 * seconds (acct.h); the first slice, not the start, so that --mark-wait's
 * wait counts.  Ages never reach back past the last priming pass.
 */
static void time_map(struct scanner *sc)
{
	uint64_t reach = sc->cycle - sc->prime_cycle;

	sc->first_slice[sc->cycle & 255] = now_mono();
	idle_tmap(sc->tmap, sc->first_slice, sc->cycle,
		  reach > 255 ? 255 : reach, &sc->cfg.tb);
}

static void finish_cycle(struct scanner *sc)
{
	struct acct tmp = sc->last.acct;

	sc->last.acct = sc->cur;
	sc->cur = tmp;
	sc->last.number = sc->cycle;
	sc->last.period = sc->cfg.period;
	sc->last.first = sc->first;
	sc->last.seconds = now_mono() - sc->cycle_mono;
	sc->last.end = now_real();
	sc->last.start = sc->last.end - sc->last.seconds;
	sc->last.cpu = now_cpu() - sc->cycle_cpu;
	sc->last.cpu_bound = sc->cpu_bound;
	sc->last.pfns = sc->cursor;
	sc->last.has_skipped = sc->src.folios && !sc->no_mark;
	sc->last.skipped = sc->skipped;	/* 0 unless a marking scan-folios */
	sc->last.reach = sc->cycle - sc->prime_cycle;
	sc->last.cpu_total = sc->cpu_total;
	idle_tmin(sc->tmap, sc->last.tb_min_age);
}

/* All CPU the process used since the last update counts (pace.h). */
double scan_update_debt(struct scanner *sc)
{
	double t = now_mono(), c = now_cpu();

	sc->cpu_debt = pace_debt(sc->cpu_debt, c - sc->debt_cpu,
				 t - sc->debt_mono, sc->cfg.cpu_frac);
	sc->debt_mono = t;
	sc->debt_cpu = c;
	return t;
}

/*
 * The first window was published: prime at the period, from the time
 * the first window's CPU debt is paid, so that the pass keeps its pace.
 */
static int end_first(struct scanner *sc)
{
	double debt;

	sc->first = 0;
	sc->cfg.period = sc->steady_period;
	sc->priming = 1;
	sc->prime_cycle = sc->cycle;
	memset(sc->age, 0, sc->nr_pfns);
	scan_update_debt(sc);
	debt = sc->cpu_debt;
	sc->cycle_mono += debt;
	sc->next_at = sc->cycle_mono;
	return 1;
}

/*
 * Memory hot-added since the last cycle moves the end of kpageflags
 * (max_pfn) up: the next cycle covers it, its PFNs with age 0 (never
 * marked, so they read busy until a cycle has marked them).  Removed
 * memory reads as holes.  Without memory for a larger age array, keep
 * the old size.
 */
static void recount_pfns(struct scanner *sc)
{
	uint64_t n = scan_count_pfns(sc->flags_fd);
	uint8_t *age;

	if (n <= sc->nr_pfns || n != (size_t)n)
		return;
	age = realloc(sc->age, (size_t)n);
	if (!age)
		return;
	memset(age + sc->nr_pfns, 0, (size_t)(n - sc->nr_pfns));
	sc->age = age;
	sc->nr_pfns = n;
}

/* The pass over all PFNs is done and its period is over: publish. */
static int end_cycle(struct scanner *sc)
{
	int published = !sc->priming;

	sc->pass_done = 0;
	sc->priming = 0;
	sc->cpu_total += now_cpu() - sc->cycle_cpu;
	if (published)
		finish_cycle(sc);
	recount_pfns(sc);
	sc->cycle++;
	start_cycle(sc);
	if (published && sc->first)
		return end_first(sc);
	sc->next_at = scan_update_debt(sc) + (sc->first ? 0 : sc->cpu_debt);
	/* behind the deadline of a first slice: like pace_delay() */
	sc->cpu_bound = sc->nr_pfns && sc->cpu_debt > sc->cfg.period *
			(double)(sc->slice < sc->nr_pfns ? sc->slice :
				 sc->nr_pfns) / (double)sc->nr_pfns;
	return published;
}

/*
 * The slice at the cursor, by one of the two paths: the folio records
 * (one pass, the records say it all) or per PFN.  They share only
 * count_page(); neither calls the other.
 */
static ssize_t scan_range(struct scanner *sc, size_t n, char *err,
			  size_t errlen)
{
	if (sc->src.folios)
		return scan_folio_range(sc, sc->cursor, n, err, errlen);
	return scan_pfn_range(sc, sc->cursor, n, err, errlen);
}

int scan_slice(struct scanner *sc, char *err, size_t errlen)
{
	double t0 = now_mono(), t1, wall;
	size_t n = sc->slice;
	struct pace_in in = { 0 };
	ssize_t done;
	int cpu_bound;

	if (sc->mg)
		return scan_mglru_slice(sc, err, errlen);
	if (sc->pass_done)
		return end_cycle(sc);
	if (sc->cursor + n > sc->nr_pfns)
		n = (size_t)(sc->nr_pfns - sc->cursor);
	if (!sc->cursor)
		time_map(sc);
	done = n ? scan_range(sc, n, err, errlen) : 0;
	if (done < 0)
		return -1;
	sc->cursor += (uint64_t)done;
	sc->pass_done = (size_t)done < n || !n || sc->cursor >= sc->nr_pfns;
	t1 = scan_update_debt(sc);
	wall = t1 - t0;
	in.period = sc->cfg.period;
	in.cpu_frac = sc->cfg.cpu_frac;
	in.nr_pfns = sc->nr_pfns;
	in.done_pfns = sc->pass_done ? sc->nr_pfns : sc->cursor;
	in.since_cycle = t1 - sc->cycle_mono;
	in.cpu_debt = sc->first ? 0 : sc->cpu_debt;	/* scan.h */
	sc->next_at = t1 + pace_delay(&in, &cpu_bound);
	sc->cpu_bound |= cpu_bound;
	sc->slice = pace_adapt(sc->slice, wall * 1e3, sc->cfg.slice_ms,
			       MIN_SLICE, sc->cfg.slice_pfns);
	return 0;
}

void scan_restart(struct scanner *sc, double period)
{
	if (sc->mg) {
		scan_mglru_restart(sc, period);
		return;
	}
	sc->cfg.period = period;
	sc->first = 0;
	sc->pass_done = 0;
	sc->priming = 1;
	sc->prime_cycle = ++sc->cycle;
	memset(sc->age, 0, sc->nr_pfns);
	start_cycle(sc);
	sc->next_at = scan_update_debt(sc) + sc->cpu_debt;
}

double scan_wait(const struct scanner *sc)
{
	double d = sc->next_at - now_mono();

	return d > 0 ? d : 0;
}
