// SPDX-License-Identifier: GPL-2.0
/* scan_mglru.c - cycles of the mglru source (scan_mglru.h) */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mglru.h"
#include "pace.h"
#include "scan_mglru.h"
#include "util.h"

/* Where a cycle is. */
enum {
	MG_WAIT,	/* between cycles */
	MG_LIST,	/* --mglru-aging: reading the youngest generations */
	MG_AGE,		/* --mglru-aging: one aging step per lruvec */
	MG_COUNT,	/* reading the generations and counting */
};

struct mg_lruvec {		/* one aging command */
	unsigned id;
	int node;
	uint64_t seq;
};

struct scan_mglru {
	char *path;		/* root + MGLRU_GEN_PATH */
	char *cgdir;		/* the cgroup2 root paths are joined to */
	int phase;
	int fd;			/* the file, open for the phase; -1 */
	struct mglru_parser parser;
	struct mg_lruvec *todo;	/* MG_LIST's result, MG_AGE's work */
	size_t n_todo, cap_todo, next_todo;
	/* one-entry path -> inode cache: a memcg's nodes come together */
	char *last_path;
	uint64_t last_ino;
	double prev_mono;	/* when the last published cycle began; 0 */
	char buf[16384];
};

int scan_mglru_wanted(const char *root, enum idlesrc_kind want)
{
	static const char *const idle[] = { IDLESRC_KPAGEIDLE_PATH,
					    IDLESRC_BITMAP_PATH };
	size_t i;
	char *p;
	int gone;

	if (want == IDLESRC_MGLRU)
		return 1;
	if (want != IDLESRC_AUTO)
		return 0;
	for (i = 0; i < 2; i++) {
		p = path_join(root, idle[i]);
		gone = p && access(p, F_OK) && errno == ENOENT;
		free(p);
		if (!gone)
			return 0;	/* there, or cannot tell: not mglru */
	}
	return mglru_available(root);
}

/*
 * Why the file cannot be used (e: open(2)'s errno, 0 when it opened),
 * with what to do.
 */
static void open_error(const char *root, const char *path, int e, char *err,
		       size_t errlen)
{
	char *en = path_join(root, MGLRU_ENABLED_PATH);
	int no_gen = en && access(en, F_OK);

	free(en);
	if (no_gen)
		snprintf(err, errlen, "--source mglru: no /%s under %s: the "
			 "kernel needs CONFIG_LRU_GEN (Debian's has it)",
			 MGLRU_ENABLED_PATH, root);
	else if (!e)
		snprintf(err, errlen, "--source mglru: the multi-gen LRU is "
			 "off (bit 0x0001 of /%s under %s): echo y > /%s "
			 "(changes page reclaim for the whole machine)",
			 MGLRU_ENABLED_PATH, root, MGLRU_ENABLED_PATH);
	else if (e == ENOENT)
		snprintf(err, errlen, "--source mglru: %s: %s; mount debugfs "
			 "(mount -t debugfs none /sys/kernel/debug)", path,
			 strerror(e));
	else
		snprintf(err, errlen, "--source mglru: %s: %s%s", path,
			 strerror(e), e == EACCES || e == EPERM ?
			 " (run idletop as root)" : "");
}

int scan_mglru_open(struct scanner *sc, const char *root, char *err,
		    size_t errlen)
{
	struct scan_mglru *m = calloc(1, sizeof(*m));
	int fd;

	sc->mg = m;
	if (!m || !(m->path = path_join(root, MGLRU_GEN_PATH)) ||
	    !(m->cgdir = strdup(sc->cfg.cgdir ? sc->cfg.cgdir : root))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	m->fd = -1;
	fd = open(m->path, (sc->cfg.mglru_aging ? O_RDWR : O_RDONLY) |
		  O_CLOEXEC);
	if (fd < 0 || !mglru_available(root)) {
		open_error(root, m->path, fd < 0 ? errno : 0, err, errlen);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	sc->src.kind = IDLESRC_MGLRU;
	sc->src.aging = sc->cfg.mglru_aging;
	sc->cycle = 1;		/* no priming pass */
	sc->prime_cycle = 0;
	m->phase = MG_WAIT;
	return 0;
}

static void close_fd(struct scan_mglru *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

void scan_mglru_close(struct scanner *sc)
{
	struct scan_mglru *m = sc->mg;

	if (!m)
		return;
	close_fd(m);
	free(m->path);
	free(m->cgdir);
	free(m->todo);
	free(m->last_path);
	free(m);
	sc->mg = NULL;
}

/* MG_LIST: remember each lruvec's youngest generation. */
static int list_one(void *ctx, const struct mglru_lruvec *v, char *err,
		    size_t errlen)
{
	struct scan_mglru *m = ctx;
	struct mg_lruvec *t;

	if (!v->n)
		return 0;
	if (m->n_todo == m->cap_todo) {
		size_t cap = m->cap_todo ? m->cap_todo * 2 : 64;

		t = realloc(m->todo, cap * sizeof(*t));
		if (!t) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		m->todo = t;
		m->cap_todo = cap;
	}
	t = &m->todo[m->n_todo++];
	t->id = v->id;
	t->node = v->node;
	t->seq = v->gen[v->n - 1].seq;
	return 0;
}

/*
 * *ino: the inode of the cgroup at path (from the hierarchy's root): 0
 * (the root's pages) without memcg, UINT64_MAX, in no tree, where no
 * such cgroup is under cgdir (removed, or outside a cgroup namespace's
 * view): the report's "(unknown)".  0, or -1 out of memory.
 */
static int path_ino(struct scan_mglru *m, const char *path, uint64_t *ino)
{
	struct stat st;
	char *p;

	if (!*path) {
		*ino = 0;
		return 0;
	}
	if (!m->last_path || strcmp(m->last_path, path)) {
		free(m->last_path);
		m->last_path = strdup(path);
		p = path_join(m->cgdir, path);
		if (!m->last_path || !p) {
			free(p);
			return -1;
		}
		m->last_ino = !stat(p, &st) && S_ISDIR(st.st_mode) ?
			      (uint64_t)st.st_ino : UINT64_MAX;
		free(p);
	}
	*ino = m->last_ino;
	return 0;
}

/* Largest idle time bucket that d seconds reach, -1 none. */
static int tbucket(const struct idle_tbuckets *tb, double d)
{
	int i;

	for (i = (int)tb->n - 1; i >= 0; i--)
		if (d >= tb->secs[i])
			return i;
	return -1;
}

/* Count one generation of age d seconds into p. */
static void count_gen(const struct scanner *sc, struct cg_pages *p,
		      const struct mglru_gen *g, double d)
{
	double period = sc->cfg.period > 0 ? sc->cfg.period : 1;
	double c = floor(d / period + 0.5);
	unsigned age = c > 255 ? 255 : (unsigned)c;
	uint64_t n = g->anon + g->file;
	int t;

	p->resident[PK_ANON] += g->anon;
	p->resident[PK_FILE] += g->file;
	if (!age)
		return;
	p->idle[PK_ANON] += g->anon;
	p->idle[PK_FILE] += g->file;
	p->age[age_bucket(age)] += n;
	t = tbucket(&sc->cfg.tb, d);
	if (t >= 0)
		p->idle_t[t] += n;
	if (age >= sc->cfg.ws_cycles) {
		p->ws_idle[PK_ANON] += g->anon;
		p->ws_idle[PK_FILE] += g->file;
	}
}

/* MG_COUNT: one lruvec's generations into its cgroup's counters. */
static int count_one(void *ctx, const struct mglru_lruvec *v, char *err,
		     size_t errlen)
{
	struct scanner *sc = ctx;
	struct cg_pages *p = NULL;
	uint64_t young, ino;
	unsigned i;

	if (!v->n)
		return 0;
	if (!path_ino(sc->mg, v->path, &ino))
		p = acct_get(&sc->cur, ino);
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* idle since the aging step after the one that made it */
	young = v->gen[v->n - 1].age_ms;
	for (i = 0; i < v->n; i++) {
		uint64_t a = i + 1 < v->n ? v->gen[i + 1].age_ms : young;

		count_gen(sc, p, &v->gen[i],
			  a > young ? (double)(a - young) / 1e3 : 0);
	}
	return 0;
}

static int start_read(struct scanner *sc, int phase, char *err,
		      size_t errlen)
{
	struct scan_mglru *m = sc->mg;

	close_fd(m);
	m->fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (m->fd < 0) {
		snprintf(err, errlen, "%s: %s", m->path, strerror(errno));
		return -1;
	}
	m->phase = phase;
	if (phase == MG_LIST) {
		m->n_todo = 0;
		mglru_parse_init(&m->parser, m->path, list_one, m);
	} else {
		acct_clear(&sc->cur);
		free(m->last_path);	/* a cgroup made again: a new inode */
		m->last_path = NULL;
		mglru_parse_init(&m->parser, m->path, count_one, sc);
	}
	return 0;
}

/* Up to MGLRU_SLICE_BYTES of the file.  1 at its end, 0 more, -1 error. */
static int read_some(struct scan_mglru *m, char *err, size_t errlen)
{
	size_t done = 0;
	ssize_t n;

	while (done < MGLRU_SLICE_BYTES) {
		n = util_fault("mglru_read") ? -1 :
		    read(m->fd, m->buf, sizeof(m->buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", m->path,
				 strerror(errno));
			return -1;
		}
		if (!n)
			return mglru_parse_end(&m->parser, err, errlen) ? -1 : 1;
		if (mglru_parse(&m->parser, m->buf, (size_t)n, err, errlen))
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/*
 * Up to MGLRU_SLICE_AGES aging steps, and no more once the slice took
 * --slice-ms (each step walks the page tables of a memcg's processes,
 * in the kernel).  1 when all are done, -1 error.
 */
static int age_some(struct scanner *sc, char *err, size_t errlen)
{
	struct scan_mglru *m = sc->mg;
	int (*age)(int, unsigned, int, uint64_t) =
		sc->cfg.mglru_age ? sc->cfg.mglru_age : mglru_age;
	double until = now_mono() + sc->cfg.slice_ms / 1e3;
	size_t k;

	for (k = 0; k < MGLRU_SLICE_AGES && m->next_todo < m->n_todo &&
	     (!k || now_mono() < until); k++) {
		const struct mg_lruvec *t = &m->todo[m->next_todo++];

		/* EINVAL: the memcg went, or reclaim aged it meanwhile */
		if (age(m->fd, t->id, t->node, t->seq) &&
		    errno != EINVAL) {
			snprintf(err, errlen, "%s: aging memcg %u node %d: %s",
				 m->path, t->id, t->node, strerror(errno));
			return -1;
		}
	}
	return m->next_todo >= m->n_todo;
}

/*
 * The count is complete: publish it as cycle sc->cycle, whose length is
 * the time since the last one began (the first: the period).
 */
static void publish(struct scanner *sc)
{
	struct acct tmp = sc->last.acct;
	double period = sc->cfg.period > 0 ? sc->cfg.period : 1;
	unsigned i;

	sc->last.acct = sc->cur;
	sc->cur = tmp;
	acct_clear(&sc->cur);
	sc->last.number = sc->cycle;
	sc->last.period = sc->cfg.period;
	sc->last.first = 0;
	/* the ages span the time between aging steps: start to start */
	sc->last.seconds = sc->mg->prev_mono > 0 ?
			   sc->cycle_mono - sc->mg->prev_mono : sc->cfg.period;
	sc->mg->prev_mono = sc->cycle_mono;
	sc->last.end = now_real();
	sc->last.start = sc->last.end - sc->last.seconds;
	sc->last.cpu = now_cpu() - sc->cycle_cpu;
	sc->cpu_total += sc->last.cpu;
	sc->last.cpu_total = sc->cpu_total;
	sc->last.cpu_bound = sc->cpu_bound;
	sc->last.pfns = 0;
	sc->last.has_skipped = 0;	/* no KPAGEIDLE_SCAN: not known */
	sc->last.skipped = 0;
	sc->last.reach = 255;	/* the kernel's generations carry the ages */
	for (i = 0; i < IDLE_TBUCKETS_MAX; i++) {	/* cycles, for show */
		double c = i < sc->cfg.tb.n ?
			   ceil(sc->cfg.tb.secs[i] / period) : 0;

		if (i < sc->cfg.tb.n && c < 1)
			c = 1;
		sc->last.tb_min_age[i] = c > 255 ? 255 : (unsigned)c;
	}
}

static int begin_cycle(struct scanner *sc, char *err, size_t errlen)
{
	sc->cycle_mono = now_mono();
	sc->cycle_cpu = now_cpu();
	sc->cpu_bound = 0;
	sc->mg->next_todo = 0;
	return start_read(sc, sc->cfg.mglru_aging ? MG_LIST : MG_COUNT, err,
			  errlen);
}

/* A failed slice drops the cycle: the next one starts a period later. */
static int fail(struct scanner *sc)
{
	close_fd(sc->mg);
	acct_clear(&sc->cur);
	sc->mg->phase = MG_WAIT;
	sc->next_at = sc->cycle_mono + sc->cfg.period;
	return -1;
}

/* One step of the phase; 1 when the count was published. */
static int step(struct scanner *sc, char *err, size_t errlen)
{
	struct scan_mglru *m = sc->mg;
	int rc;

	switch (m->phase) {
	case MG_WAIT:
		return begin_cycle(sc, err, errlen);
	case MG_LIST:
		rc = read_some(m, err, errlen);
		if (rc <= 0)
			return rc;
		close_fd(m);
		m->fd = open(m->path, O_WRONLY | O_CLOEXEC);
		if (m->fd < 0) {
			snprintf(err, errlen, "%s: %s", m->path,
				 strerror(errno));
			return -1;
		}
		m->phase = MG_AGE;
		return 0;
	case MG_AGE:
		rc = age_some(sc, err, errlen);
		return rc <= 0 ? rc : start_read(sc, MG_COUNT, err, errlen);
	default:
		rc = read_some(m, err, errlen);
		if (rc <= 0)
			return rc;
		close_fd(m);
		m->phase = MG_WAIT;
		publish(sc);
		return 1;
	}
}

int scan_mglru_slice(struct scanner *sc, char *err, size_t errlen)
{
	double t, due;
	int rc = step(sc, err, errlen);

	if (rc < 0)
		return fail(sc);
	t = scan_update_debt(sc);
	if (rc == 1) {
		due = sc->cycle_mono + sc->cfg.period;
		sc->cycle++;
		sc->next_at = t + sc->cpu_debt > due ? t + sc->cpu_debt : due;
		return 1;
	}
	/*
	 * A cycle in progress waits only for the CPU budget; the first
	 * does not (like the first window, scan.h), so that the start-up's
	 * CPU does not hold the first report back: its debt is waited out
	 * before the second cycle.
	 */
	sc->next_at = sc->last.number ? t + sc->cpu_debt : t;
	sc->cpu_bound |= t + sc->cpu_debt > sc->cycle_mono + sc->cfg.period;
	return 0;
}

void scan_mglru_restart(struct scanner *sc, double period)
{
	close_fd(sc->mg);
	acct_clear(&sc->cur);
	sc->mg->phase = MG_WAIT;
	sc->mg->prev_mono = 0;
	sc->cfg.period = period;
	sc->first = 0;
	sc->cycle++;
	sc->next_at = scan_update_debt(sc) + sc->cpu_debt;
}
