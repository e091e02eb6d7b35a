// SPDX-License-Identifier: GPL-2.0
/*
 * memhold - memory of one kind held in a cgroup, for the distro tests.
 * Joins --cgroup first, sets up the memory, writes one "ready ..." line to
 * READY (with the PFNs from /proc/self/pagemap), then keeps the hot part
 * hot (loads every 50 ms) until killed.
 *
 *   memhold [--cgroup DIR] ksm PAGES READY
 *	two regions of PAGES pages, every page of one the same bytes, made
 *	MADV_MERGEABLE; waits (60 s at most) until KSM merged each region
 *	into one page: "ready hot=PFN cold=PFN", then loads from every page
 *	of the hot region.
 *   memhold [--cgroup DIR] hugetlb MB READY
 *	MB of MAP_HUGETLB memory, written once: "ready pfns=PFN,..." (the
 *	first PFN of each huge page); never touched again.
 *   memhold [--cgroup DIR] anon MB HOT ABOVE READY
 *	MB of anonymous memory (no THP, each page different but
 *	compressible), the fraction HOT (0..1) kept hot:
 *	"ready pages=N hot_above=N cold_above=N", counting the pages whose
 *	PFN is ABOVE or higher.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define HPAGE (2UL << 20)

static int pagemap = -1;

static void die(const char *what)
{
	fprintf(stderr, "memhold: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t pfn_of(const void *p)
{
	uint64_t e;

	if (pread(pagemap, &e, 8, (off_t)((uintptr_t)p / PAGE * 8)) != 8)
		die("read /proc/self/pagemap");
	if (!(e >> 63 & 1))
		return 0;	/* not present */
	return e & ((1ULL << 55) - 1);
}

static void join(const char *cg)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
		die(path);
}

static void ready(const char *file, const char *line)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "ready %s\n", line) < 0 || fclose(f) ||
	    rename(tmp, file))
		die(file);
}

static void *map(size_t len, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* one PFN for every page of the region, or 0 */
static uint64_t merged(const char *p, size_t pages)
{
	uint64_t first = pfn_of(p);
	size_t i;

	for (i = 1; i < pages; i++)
		if (pfn_of(p + i * PAGE) != first)
			return 0;
	return first;
}

static void hot_loop(volatile const char *p, size_t len)
{
	unsigned long sum = 0;
	size_t i;

	for (;;) {
		for (i = 0; i < len; i += PAGE)
			sum += p[i];
		nap(50);
	}
	(void)sum;
}

static int ksm(size_t pages, const char *file)
{
	size_t len = pages * PAGE;
	char *hot = map(len, 0), *cold = map(len, 0), line[128];
	uint64_t h = 0, c = 0;
	int i;

	memset(hot, 0x5a, len);
	memset(cold, 0xa5, len);
	if (madvise(hot, len, MADV_NOHUGEPAGE) ||
	    madvise(cold, len, MADV_NOHUGEPAGE) ||
	    madvise(hot, len, MADV_MERGEABLE) ||
	    madvise(cold, len, MADV_MERGEABLE))
		die("madvise");
	for (i = 0; i < 600 && !(h && c && h != c); i++) {
		nap(100);
		h = merged(hot, pages);
		c = merged(cold, pages);
	}
	if (!(h && c && h != c)) {
		fprintf(stderr, "memhold: KSM did not merge the regions in 60 s\n");
		return 1;
	}
	snprintf(line, sizeof(line), "hot=%llu cold=%llu",
		 (unsigned long long)h, (unsigned long long)c);
	ready(file, line);
	hot_loop(hot, len);
	return 0;
}

static int hugetlb(size_t mb, const char *file)
{
	size_t len = mb << 20, i, n = 0;
	char *p = map(len, MAP_HUGETLB), *line = malloc(len / HPAGE * 24 + 8);

	if (!line)
		die("malloc");
	memset(p, 0x33, len);
	n += sprintf(line, "pfns=");
	for (i = 0; i < len; i += HPAGE)
		n += sprintf(line + n, "%s%llu", i ? "," : "",
			     (unsigned long long)pfn_of(p + i));
	ready(file, line);
	for (;;)
		pause();
	return 0;
}

static int anon(size_t mb, double hot, uint64_t above, const char *file)
{
	size_t len = mb << 20, hotlen = (size_t)(len * hot) / PAGE * PAGE, i;
	char *p = map(len, 0), line[128];
	unsigned long pages = 0, hot_above = 0, cold_above = 0;

	if (madvise(p, len, MADV_NOHUGEPAGE))
		die("madvise");
	memset(p, 0x77, len);
	for (i = 0; i < len; i += PAGE) {
		/* not same-filled: zswap compresses them into its pool */
		*(unsigned long *)(p + i) = i / PAGE;
		pages++;
		if (pfn_of(p + i) >= above)
			(*(i < hotlen ? &hot_above : &cold_above))++;
	}
	snprintf(line, sizeof(line), "pages=%lu hot_above=%lu cold_above=%lu",
		 pages, hot_above, cold_above);
	ready(file, line);
	hot_loop(p, hotlen);
	return 0;
}

int main(int argc, char **argv)
{
	int a = 1;

	if (argc > 3 && !strcmp(argv[1], "--cgroup")) {
		join(argv[2]);
		a = 3;
	}
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0)
		die("/proc/self/pagemap");
	if (argc - a == 3 && !strcmp(argv[a], "ksm"))
		return ksm(strtoul(argv[a + 1], NULL, 0), argv[a + 2]);
	if (argc - a == 3 && !strcmp(argv[a], "hugetlb"))
		return hugetlb(strtoul(argv[a + 1], NULL, 0), argv[a + 2]);
	if (argc - a == 5 && !strcmp(argv[a], "anon"))
		return anon(strtoul(argv[a + 1], NULL, 0), atof(argv[a + 2]),
			    strtoull(argv[a + 3], NULL, 0), argv[a + 4]);
	fputs("usage: memhold [--cgroup DIR] ksm PAGES READY |\n"
	      "       hugetlb MB READY | anon MB HOT ABOVE_PFN READY\n", stderr);
	return 2;
}
