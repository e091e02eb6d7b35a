// SPDX-License-Identifier: GPL-2.0
/*
 * stress_scan.c - idle page tracking scanners for the stress tests.
 *
 *   stress_scan [-t SECONDS] [-j THREADS] [-s SEED] [-p PAUSE_MS] [-R]
 *   stress_scan -u      print the distinct non-zero inodes of kpagecgroup
 *
 * Each thread loops until the deadline over random, valid ranges (aligned
 * offsets, random sizes up to 64 Ki entries, sometimes the whole file in
 * one pass) of /proc/kpageidle and /sys/kernel/mm/page_idle/bitmap:
 * reads them (with /proc/kpageflags and /proc/kpagecgroup alongside, as
 * idletop does) and writes 1s (marks pages idle: rmap walks on whatever
 * the workloads are doing to those pages).  Checks: no unexpected errno
 * (only ENXIO for writes at max_pfn), kpageidle entries are 0 or 1, a THP
 * tail never reads idle.  Prints the seed; exit 0 ok, 1 a check failed.
 * -R: read /proc/kpageidle without marking through it, for a storm in
 * which another tracker (idletop) marks: one open file of it may mark at
 * a time, the others get EBUSY.  The bitmap is still marked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common.h"

#define KPF_COMPOUND_TAIL 16
#define MAXN 65536

static int fd_idle = -1, fd_bm = -1, fd_flags = -1, fd_cg = -1;
static uint64_t nr_pfns, seed;
static double deadline;
static int pause_ms = 5;
static int mark_kpageidle = 1;	/* 0 with -R */
static volatile int failed;
static long passes, bytes;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void fail(const char *fmt, uint64_t a, uint64_t b, int e)
{
	printf("FAIL: ");
	printf(fmt, a, b);
	printf(": %s\n", e ? strerror(e) : "bad value");
	fflush(stdout);
	failed = 1;
}

static void scan_idle(uint64_t *s, uint64_t *v, uint64_t *f)
{
	uint64_t pfn = rnd(s) % nr_pfns, n = 1 + rnd(s) % MAXN, i;
	ssize_t r, rf;
	int wr = rnd(s) & 1;

	if (rnd(s) % 16 == 0)
		pfn = 0, n = MAXN;	/* long sequential pass */
	if (pfn + n > nr_pfns)
		n = nr_pfns - pfn;
	rf = pread(fd_flags, f, n * 8, (off_t)(pfn * 8));
	if (fd_cg >= 0 && pread(fd_cg, v, n * 8, (off_t)(pfn * 8)) < 0)
		fail("kpagecgroup pfn %" PRIu64 " n %" PRIu64, pfn, n, errno);
	r = pread(fd_idle, v, n * 8, (off_t)(pfn * 8));
	if (r < 0 || rf < 0) {
		fail("read kpageidle/kpageflags pfn %" PRIu64 " n %" PRIu64,
		     pfn, n, errno);
		return;
	}
	__atomic_add_fetch(&bytes, r, __ATOMIC_RELAXED);
	for (i = 0; i < (uint64_t)r / 8; i++) {
		if (v[i] > 1) {
			fail("kpageidle pfn %" PRIu64 " = %" PRIu64, pfn + i, v[i], 0);
			return;
		}
		/* a tail read idle: THP state is reported on the head only
		 * (the flags were read just before: a THP may have been
		 * split or collapsed since, so recheck the flags) */
		if (v[i] && i < (uint64_t)rf / 8 &&
		    (f[i] >> KPF_COMPOUND_TAIL) & 1) {
			uint64_t fl, id;

			if (pread(fd_flags, &fl, 8, (off_t)((pfn + i) * 8)) == 8 &&
			    pread(fd_idle, &id, 8, (off_t)((pfn + i) * 8)) == 8 &&
			    pread(fd_flags, &f[i], 8, (off_t)((pfn + i) * 8)) == 8 &&
			    ((fl & f[i]) >> KPF_COMPOUND_TAIL) & 1 && id) {
				fail("THP tail pfn %" PRIu64 " reads idle (%" PRIu64 ")",
				     pfn + i, id, 0);
				return;
			}
		}
	}
	if (!wr || !mark_kpageidle)
		return;
	for (i = 0; i < n; i++)
		v[i] = 1;
	r = pwrite(fd_idle, v, n * 8, (off_t)(pfn * 8));
	if (r < 0 && errno != ENXIO)
		fail("write kpageidle pfn %" PRIu64 " n %" PRIu64, pfn, n, errno);
}

static void scan_bitmap(uint64_t *s, uint64_t *v)
{
	uint64_t words = (nr_pfns + 63) / 64;
	uint64_t w = rnd(s) % words, n = 1 + rnd(s) % 512, i;	/* kernfs: 4 KiB */
	ssize_t r;

	if (w + n > words)
		n = words - w;
	r = pread(fd_bm, v, n * 8, (off_t)(w * 8));
	if (r < 0)
		fail("read bitmap word %" PRIu64 " n %" PRIu64, w, n, errno);
	else
		__atomic_add_fetch(&bytes, r, __ATOMIC_RELAXED);
	if (rnd(s) & 1) {
		for (i = 0; i < n; i++)
			v[i] = ~0ULL;
		r = pwrite(fd_bm, v, n * 8, (off_t)(w * 8));
		if (r < 0 && errno != ENXIO)
			fail("write bitmap word %" PRIu64 " n %" PRIu64, w, n, errno);
	}
}

static void *thread_main(void *arg)
{
	uint64_t s = seed + 0x9e3779b97f4a7c15ULL * (uintptr_t)arg;
	uint64_t *v = malloc(MAXN * 8), *f = malloc(MAXN * 8);

	if (!v || !f) {
		failed = 1;
		return NULL;
	}
	while (now() < deadline && !failed) {
		if (fd_idle >= 0 && (fd_bm < 0 || rnd(&s) % 3))
			scan_idle(&s, v, f);
		else
			scan_bitmap(&s, v);
		__atomic_add_fetch(&passes, 1, __ATOMIC_RELAXED);
		if (pause_ms)
			usleep((useconds_t)(rnd(&s) % (unsigned)pause_ms * 2000));
	}
	free(v);
	free(f);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int print_inodes(void)
{
	int fd = open("/proc/kpagecgroup", O_RDONLY);
	uint64_t *all = NULL, buf[4096];
	size_t n = 0, cap = 0, i;
	ssize_t r;

	if (fd < 0) {
		perror("/proc/kpagecgroup");
		return 2;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < (size_t)r / 8; i++) {
			if (!buf[i] || (n && all[n - 1] == buf[i]))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				all = realloc(all, cap * 8);
				if (!all)
					return 2;
			}
			all[n++] = buf[i];
		}
	}
	if (r < 0) {
		perror("read /proc/kpagecgroup");
		return 2;
	}
	if (n)
		qsort(all, n, 8, cmp_u64);
	for (i = 0; i < n; i++)
		if (!i || all[i] != all[i - 1])
			printf("%" PRIu64 "\n", all[i]);
	return 0;
}

int main(int argc, char **argv)
{
	double secs = 20;
	int nthreads = 2, i, opt;
	pthread_t tid[64];

	while ((opt = getopt(argc, argv, "t:j:s:p:uR")) != -1) {
		switch (opt) {
		case 'u': return print_inodes();
		case 't': secs = atof(optarg); break;
		case 'j': nthreads = atoi(optarg); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'p': pause_ms = atoi(optarg); break;
		case 'R': mark_kpageidle = 0; break;
		default:
			fprintf(stderr, "usage: stress_scan [-t S] [-j N] [-s SEED] [-p MS] [-R]\n");
			return 2;
		}
	}
	if (nthreads < 1 || nthreads > 64)
		nthreads = 2;
	if (!seed)
		seed = (uint64_t)time(NULL) * 2654435761U ^ (uint64_t)getpid();
	fd_flags = open("/proc/kpageflags", O_RDONLY);
	fd_cg = open("/proc/kpagecgroup", O_RDONLY);
	fd_idle = open("/proc/kpageidle", O_RDWR);
	fd_bm = open("/sys/kernel/mm/page_idle/bitmap", O_RDWR);
	if (fd_flags < 0 || (fd_idle < 0 && fd_bm < 0)) {
		perror("stress_scan: open");
		return 2;
	}
	nr_pfns = kpage_pfns(fd_flags);
	printf("stress_scan: seed %" PRIu64 ", %d threads, %" PRIu64 " PFNs%s%s\n",
	       seed, nthreads, nr_pfns, fd_idle >= 0 ? ", kpageidle" : "",
	       fd_bm >= 0 ? ", bitmap" : "");
	fflush(stdout);
	deadline = now() + secs;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&tid[i], NULL, thread_main, (void *)(uintptr_t)(i + 1))) {
			perror("pthread_create");
			return 2;
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	printf("stress_scan: %ld passes, %ld MiB read, %s\n", passes,
	       bytes >> 20, failed ? "FAILED" : "ok");
	return failed ? 1 : 0;
}
