// SPDX-License-Identifier: GPL-2.0
/*
 * stress_mem.c - a memory workload that checks its own data.
 *
 *   stress_mem [-t SECONDS] [-s SEED] [--anon MB] [--thp] [--file PATH:MB]
 *              [--shmem MB] [--forks] [--pageout] [--ready FILE]
 *
 * Every page of every region holds a pattern derived from (seed, region,
 * page index); a page is either "valid" (holds its pattern) or "zero"
 * (after MADV_DONTNEED of private anon, or truncation of a file).  Until
 * the deadline it randomly:
 *   - rewrites pages with their pattern and verifies random pages,
 *   - MADV_DONTNEEDs partial, unaligned ranges (splitting THPs) and checks
 *     they read zero,
 *   - MADV_PAGEOUTs ranges (--pageout: pushes them to swap/disk),
 *   - truncates the mapped file (or memfd) below some pages and extends it
 *     again: those pages must read zero, the others keep their data,
 *   - forks a child that verifies a random sample through its COW copy,
 *     dirties some pages (COW) and exits (--forks),
 *   - forks a child that faults a private region of its own and exits.
 * At the end every page is verified (file data also through pread()).
 * Exit 0: no corruption; 1: corruption (the first bad page is described);
 * 2: setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PG 4096UL
#define HPAGE (2UL << 20)

enum { R_ANON, R_FILE, R_SHMEM };

struct region {
	int kind;
	const char *name;
	char *map;
	size_t npages;
	int fd;
	unsigned char *zero;	/* 1 = page must read zero */
};

static uint64_t seed, rs;
static struct region reg[3];
static int nreg;
static int thp, forks, pageout;
static long nr_checked;

static uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 2685821657736338717ULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t word(int r, size_t page, size_t i)
{
	uint64_t x = seed ^ ((uint64_t)r << 56) ^ ((uint64_t)page << 12) ^ i;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x | 1;	/* never 0: a zeroed page cannot pass */
}

static void fill(struct region *g, size_t p)
{
	uint64_t *w = (uint64_t *)(g->map + p * PG);
	size_t i;

	for (i = 0; i < PG / 8; i++)
		w[i] = word(g->kind, p, i);
	g->zero[p] = 0;
}

static void die_bad(struct region *g, size_t p, size_t i, uint64_t got,
		    uint64_t want, const char *how)
{
	printf("CORRUPTION: %s page %zu word %zu (%s): got %#llx, want %#llx "
	       "(seed %llu)\n", g->name, p, i, how, (unsigned long long)got,
	       (unsigned long long)want, (unsigned long long)seed);
	fflush(stdout);
	exit(1);
}

static void check_buf(struct region *g, size_t p, const uint64_t *w,
		      const char *how)
{
	size_t i;

	for (i = 0; i < PG / 8; i++) {
		uint64_t want = g->zero[p] ? 0 : word(g->kind, p, i);

		if (w[i] != want)
			die_bad(g, p, i, w[i], want, how);
	}
	nr_checked++;
}

static void check(struct region *g, size_t p)
{
	check_buf(g, p, (const uint64_t *)(g->map + p * PG), "mapped");
}

static struct region *any_region(void)
{
	return &reg[below((uint64_t)nreg)];
}

static void op_rewrite(void)
{
	struct region *g = any_region();
	size_t p = below(g->npages), n = 1 + below(64), i;

	for (i = p; i < p + n && i < g->npages; i++)
		fill(g, i);
}

static void op_verify(void)
{
	struct region *g = any_region();
	size_t p = below(g->npages), n = 1 + below(128), i;

	for (i = p; i < p + n && i < g->npages; i++)
		check(g, i);
}

/* A partial, unaligned range of private anon memory: splits THPs. */
static void op_dontneed(void)
{
	struct region *g = &reg[0];
	size_t p, n, i;

	if (g->kind != R_ANON)
		return;
	p = below(g->npages);
	n = 1 + below(700);
	if (p + n > g->npages)
		n = g->npages - p;
	if (madvise(g->map + p * PG, n * PG, MADV_DONTNEED)) {
		perror("madvise(MADV_DONTNEED)");
		exit(2);
	}
	for (i = p; i < p + n; i++) {
		g->zero[i] = 1;
		if (!below(8))
			check(g, i);
	}
	/* refill most of it: faults new pages, maybe into a new THP */
	for (i = p; i < p + n; i++)
		if (below(4))
			fill(g, i);
}

static void op_pageout(void)
{
	struct region *g = any_region();
	size_t p = below(g->npages), n = 1 + below(1024);

	if (p + n > g->npages)
		n = g->npages - p;
	madvise(g->map + p * PG, n * PG, MADV_PAGEOUT);	/* may be EINVAL */
}

/* Truncate a shared file mapping below a random page, extend it again. */
static void op_truncate(void)
{
	struct region *g = any_region();
	size_t p, i;

	if (g->fd < 0)
		return;
	p = below(g->npages);
	if (ftruncate(g->fd, (off_t)(p * PG)) ||
	    ftruncate(g->fd, (off_t)(g->npages * PG))) {
		perror("ftruncate");
		exit(2);
	}
	for (i = p; i < g->npages; i++)
		g->zero[i] = 1;
	for (i = p; i < g->npages && i < p + 32; i++)
		check(g, i);
	for (i = p; i < g->npages; i++)
		if (below(2))
			fill(g, i);
}

static void reap(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) < 0) {
		perror("waitpid");
		exit(2);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	printf("%s child failed: %s %d\n", what,
	       WIFEXITED(st) ? "exit" : "signal",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	exit(1);
}

/* A child checks a sample through its copy, dirties some, exits. */
static void op_fork_cow(void)
{
	pid_t pid = fork();
	int k;

	if (pid < 0)
		return;	/* no memory for a child: fine under memory.max */
	if (pid == 0) {
		rs ^= (uint64_t)getpid() << 7;
		for (k = 0; k < 64; k++)
			op_verify();
		for (k = 0; k < 16; k++) {
			struct region *g = &reg[0];
			size_t p = below(g->npages);

			if (g->kind == R_ANON)
				fill(g, p);	/* COW: the parent's copy stays */
		}
		_exit(0);
	}
	reap(pid, "COW");
}

/* A child faults 1-8 MiB of its own, checks it and exits. */
static void op_fork_fault(void)
{
	pid_t pid = fork();

	if (pid < 0)
		return;
	if (pid == 0) {
		size_t n = (1 + below(8)) << 20, i;
		uint64_t *m = mmap(NULL, n, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			_exit(0);
		if (thp)
			madvise(m, n, MADV_HUGEPAGE);
		for (i = 0; i < n / 8; i += 16)
			m[i] = i ^ 0x5a5a;
		for (i = 0; i < n / 8; i += 16)
			if (m[i] != (i ^ 0x5a5a))
				_exit(3);
		_exit(0);
	}
	reap(pid, "fault");
}

static void setup_region(int kind, const char *path, size_t mb)
{
	struct region *g = &reg[nreg];
	size_t len = mb << 20, i;
	int flags = MAP_SHARED;
	char *m;

	g->kind = kind;
	g->npages = len / PG;
	g->fd = -1;
	g->zero = calloc(g->npages, 1);
	if (!g->zero || !g->npages) {
		fprintf(stderr, "stress_mem: bad size\n");
		exit(2);
	}
	if (kind == R_ANON) {
		g->name = "anon";
		flags = MAP_PRIVATE | MAP_ANONYMOUS;
		/* 2 MiB aligned, so MADV_HUGEPAGE can give real THPs */
		m = mmap(NULL, len + HPAGE, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (m == MAP_FAILED) {
			perror("mmap anon");
			exit(2);
		}
		m = (char *)(((uintptr_t)m + HPAGE - 1) & ~(HPAGE - 1));
		if (thp && madvise(m, len, MADV_HUGEPAGE))
			perror("madvise(MADV_HUGEPAGE)");
	} else {
		if (kind == R_FILE) {
			g->name = path;
			g->fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		} else {
			g->name = "memfd";
			g->fd = memfd_create("stress_mem", 0);
		}
		if (g->fd < 0 || ftruncate(g->fd, (off_t)len)) {
			perror(g->name);
			exit(2);
		}
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, g->fd, 0);
		if (m == MAP_FAILED) {
			perror("mmap file");
			exit(2);
		}
	}
	g->map = m;
	for (i = 0; i < g->npages; i++)
		fill(g, i);
	nreg++;
}

static void final_check(void)
{
	uint64_t buf[PG / 8];
	int r;
	size_t p;

	for (r = 0; r < nreg; r++) {
		struct region *g = &reg[r];

		for (p = 0; p < g->npages; p++)
			check(g, p);
		if (g->fd < 0)
			continue;
		if (msync(g->map, g->npages * PG, MS_SYNC))
			perror("msync");
		for (p = 0; p < g->npages; p++) {
			if (pread(g->fd, buf, PG, (off_t)(p * PG)) != (ssize_t)PG) {
				printf("CORRUPTION: %s page %zu: short pread\n",
				       g->name, p);
				exit(1);
			}
			check_buf(g, p, buf, "pread");
		}
	}
}

int main(int argc, char **argv)
{
	double secs = 20, end;
	const char *ready = NULL;
	long ops = 0;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--thp")) {
			thp = 1;
		} else if (!strcmp(a, "--forks")) {
			forks = 1;
		} else if (!strcmp(a, "--pageout")) {
			pageout = 1;
		} else if (v && !strcmp(a, "-t")) {
			secs = atof(v), i++;
		} else if (v && !strcmp(a, "-s")) {
			seed = strtoull(v, NULL, 0), i++;
		} else if (v && !strcmp(a, "--ready")) {
			ready = v, i++;
		} else if (v && !strcmp(a, "--anon")) {
			if (nreg) {
				fprintf(stderr, "stress_mem: --anon first\n");
				return 2;
			}
			setup_region(R_ANON, NULL, strtoul(v, NULL, 0)), i++;
		} else if (v && !strcmp(a, "--file")) {
			char *path = strdup(v), *c = strrchr(path, ':');

			if (!c) {
				fprintf(stderr, "stress_mem: --file PATH:MB\n");
				return 2;
			}
			*c = 0;
			setup_region(R_FILE, path, strtoul(c + 1, NULL, 0)), i++;
		} else if (v && !strcmp(a, "--shmem")) {
			setup_region(R_SHMEM, NULL, strtoul(v, NULL, 0)), i++;
		} else {
			fprintf(stderr, "usage: stress_mem [-t S] [-s SEED] [--anon MB] "
				"[--thp] [--file PATH:MB] [--shmem MB] [--forks] "
				"[--pageout] [--ready FILE]\n");
			return 2;
		}
	}
	if (!nreg) {
		fprintf(stderr, "stress_mem: no region\n");
		return 2;
	}
	if (!seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	rs = seed | 1;
	/* -s may follow the regions: fill them again with the final seed */
	for (i = 0; i < nreg; i++) {
		size_t p;

		for (p = 0; p < reg[i].npages; p++)
			fill(&reg[i], p);
	}
	printf("stress_mem: seed %llu, pid %d\n", (unsigned long long)seed,
	       getpid());
	fflush(stdout);
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0) {
			if (write(fd, "ready\n", 6) != 6)
				perror(ready);
			close(fd);
		}
	}
	end = now() + secs;
	while (now() < end) {
		switch (below(16)) {
		case 0: case 1: case 2: case 3: op_rewrite(); break;
		case 4: case 5: case 6: case 7: op_verify(); break;
		case 8: case 9: op_dontneed(); break;
		case 10: if (pageout) op_pageout(); break;
		case 11: case 12: op_truncate(); break;
		case 13: if (forks) op_fork_cow(); break;
		case 14: if (forks) op_fork_fault(); break;
		default: usleep(2000); break;
		}
		ops++;
	}
	final_check();
	printf("stress_mem: %ld ops, %ld page checks, no corruption\n", ops,
	       nr_checked);
	return 0;
}
