// SPDX-License-Identifier: GPL-2.0
/*
 * mglru_idle: check that idle page tracking (/sys/kernel/mm/page_idle/bitmap)
 * gives the right answers while the multi-gen LRU is enabled.
 *
 *   mglru_idle anon           anonymous 4 KiB pages, aged by the page table
 *                             walker (walk_pte_range)
 *   mglru_idle thp            anonymous THPs, aged by the page table walker
 *                             (walk_pmd_range_locked); exits 77 without THP
 *   mglru_idle file PATH      page cache of PATH accessed with read() and
 *                             write() (folio_mark_accessed)
 *   mglru_idle lookaround PATH
 *                             MAP_SHARED pages of PATH found young by the
 *                             rmap walk of eviction (lru_gen_look_around)
 *
 * Each case: make the pages, find their PFNs (/proc/self/pagemap; for page
 * cache in a child process that maps the file before marking), mark them
 * idle, access a known subset, force aging (or eviction) through
 * /sys/kernel/debug/lru_gen for our own memcg, then read the bitmap.
 * Accessed pages must read not idle, untouched pages idle.  Where
 * /proc/kpageidle exists (kernel-series 0010), it must give the same answers.
 *
 * The caller enables MGLRU and puts us in a memory cgroup of our own.
 * Exit: 0 pass, 1 wrong answers, 2 setup error, 77 skip.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* sched_setaffinity(), CPU_SET() */
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common.h"

#define PAGE		4096UL
#define THP_SIZE	(2UL << 20)
#define PM_PRESENT	(1ULL << 63)
#define PM_PFN_MASK	((1ULL << 55) - 1)
#define KPF_LRU		5
#define KPF_THP		22
#define KPF_IDLE	25

#define BITMAP		"/sys/kernel/mm/page_idle/bitmap"
#define LRU_GEN		"/sys/kernel/debug/lru_gen"

static int bitmap_fd = -1, kpf_fd = -1, kpageidle_fd = -1;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mglru_idle: ");
	vfprintf(stderr, fmt, ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static uint64_t pfn_of(void *addr)
{
	static int fd = -1;
	uint64_t e;

	if (fd < 0 && (fd = open("/proc/self/pagemap", O_RDONLY)) < 0)
		die("open pagemap");
	if (pread(fd, &e, 8, (uintptr_t)addr / PAGE * 8) != 8)
		die("read pagemap");
	if (!(e & PM_PRESENT) || !(e & PM_PFN_MASK))
		return 0;
	return e & PM_PFN_MASK;
}

static uint64_t kpageflags(uint64_t pfn)
{
	uint64_t f;

	if (pread(kpf_fd, &f, 8, pfn * 8) != 8)
		die("read kpageflags");
	return f;
}

static void mark_idle(uint64_t pfn)
{
	uint64_t w = 1ULL << (pfn % 64);

	if (pwrite(bitmap_fd, &w, 8, pfn / 64 * 8) != 8)
		die("write " BITMAP " for pfn %#llx", (unsigned long long)pfn);
}

static int is_idle(uint64_t pfn)
{
	uint64_t w;

	if (pread(bitmap_fd, &w, 8, pfn / 64 * 8) != 8)
		die("read " BITMAP " for pfn %#llx", (unsigned long long)pfn);
	return !!(w & (1ULL << (pfn % 64)));
}

/* /proc/kpageidle (kernel-series 0010) must agree with the bitmap. */
static int kpageidle(uint64_t pfn)
{
	uint64_t v;

	if (pread(kpageidle_fd, &v, 8, pfn * 8) != 8)
		die("read /proc/kpageidle");
	return v == 1;
}


/* Flush this CPU's LRU batches: unmap_region() calls lru_add_drain(). */
static void drain_local(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	*(volatile char *)p = 1;
	munmap(p, PAGE);
}

/*
 * Marking a page idle clears the accessed bit of its PTEs without flushing
 * the TLB (ptep_clear_young_notify()), and an access through a cached
 * translation does not set the bit again: the page would stay idle for the
 * hardware and the test would not test anything.  mprotect() round trips
 * flush the TLB for the range and keep the accessed bits as they are.
 */
static void flush_tlb(void *addr, size_t len, int prot)
{
	if (mprotect(addr, len, PROT_NONE) || mprotect(addr, len, prot))
		die("mprotect");
}

/* Our memcg id and node 0's max_seq, from /sys/kernel/debug/lru_gen. */
static void lru_gen_state(int *id, unsigned long *min_seq, unsigned long *max_seq,
			  int verbose)
{
	static char buf[1 << 20];
	char path[4096], *line, *save;
	int fd, found = 0, mine = 0, node = -1;
	ssize_t n, len = 0;
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f || !fgets(path, sizeof(path), f) || strncmp(path, "0::", 3))
		die("cannot find our cgroup in /proc/self/cgroup");
	fclose(f);
	path[strcspn(path, "\n")] = 0;
	memmove(path, path + 3, strlen(path + 3) + 1);

	fd = open(LRU_GEN, O_RDONLY);
	if (fd < 0)
		die("open " LRU_GEN);
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char p[4096];
		int i;
		unsigned long seq;

		if (sscanf(line, "memcg %d %4095s", &i, p) == 2) {
			mine = !strcmp(p, path);
			node = -1;
			if (mine) {
				*id = i;
				found = 1;
			}
		} else if (sscanf(line, "memcg %d", &i) == 1) {
			mine = 0;
		} else if (sscanf(line, " node %d", &node) == 1) {
			;	/* the generations below are this node's */
		} else if (mine && node == 0 && sscanf(line, " %lu", &seq) == 1) {
			if (found == 1)
				*min_seq = seq;
			*max_seq = seq;
			found = 2;
		}
		if (mine && verbose)
			printf("  lru_gen: %s\n", line);
	}
	if (found != 2)
		die("memcg %s not found in " LRU_GEN, path);
}

static void lru_gen_cmd(const char *cmd)
{
	int fd = open(LRU_GEN, O_WRONLY);

	printf("  %s: '%s'\n", LRU_GEN, cmd);
	if (fd < 0)
		die("open " LRU_GEN);
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		die("write '%s' to " LRU_GEN, cmd);
	close(fd);
}

/* Force one aging step: walk our page tables, clearing accessed bits. */
static void force_aging(void)
{
	char cmd[128];
	int id;
	unsigned long min_seq, max_seq;

	lru_gen_state(&id, &min_seq, &max_seq, 0);
	snprintf(cmd, sizeof(cmd), "+ %d 0 %lu 1 1", id, max_seq);
	lru_gen_cmd(cmd);
	lru_gen_state(&id, &min_seq, &max_seq, 1);
}

/*
 * Mark idle pfn[first], pfn[first + step], ... of the @n pages, then
 * require all @n to read idle.
 */
static void mark_checked(const uint64_t *pfn, int n, int first, int step)
{
	int i, bad = 0;

	for (i = first; i < n; i += step)
		mark_idle(pfn[i]);
	for (i = 0; i < n; i++)
		bad += !is_idle(pfn[i]);
	if (bad) {
		errno = 0;
		die("%d of %d pages not idle right after marking", bad, n);
	}
}

/* Make the pages LRU pages (page_idle ignores others) and mark them idle. */
static void prepare(uint64_t *pfn, int n)
{
	int i, bad = 0;

	drain_local();
	for (i = 0; i < n; i++) {
		if (!pfn[i])
			die("page %d has no PFN", i);
		if (!(kpageflags(pfn[i]) & (1ULL << KPF_LRU)))
			bad++;
	}
	if (bad) {
		errno = 0;
		die("%d of %d pages are not on an LRU list", bad, n);
	}
	mark_checked(pfn, n, 0, 1);
	printf("  marked %d pages idle\n", n);
}

/*
 * accessed[i]: 0 untouched, 1 accessed since marking, 2 not counted.
 *
 * PG_idle of the accessed pages is sampled in /proc/kpageflags before the
 * bitmap is read: reading the bitmap of an idle page walks the rmap and
 * clears PG_idle if it finds a young PTE, so an accessed page whose PTE the
 * aging left young reads not idle whatever the aging does.  Those pages are
 * counted as "not harvested": with exercise set, there must be none, or the
 * test would not test the aging at all.
 */
static int verdict(const char *what, uint64_t *pfn, const char *accessed,
		   int n, int exercise)
{
	int i, acc = 0, unt = 0, acc_idle = 0, unt_busy = 0, young = 0;
	int differ = 0;
	char *raw = calloc(n, 1);

	if (!raw)
		die("calloc");
	for (i = 0; i < n; i++)
		if (accessed[i] == 1)
			raw[i] = !!(kpageflags(pfn[i]) & (1ULL << KPF_IDLE));
	for (i = 0; i < n; i++) {
		int idle;

		if (accessed[i] == 2)
			continue;
		idle = is_idle(pfn[i]);
		if (kpageidle_fd >= 0 && kpageidle(pfn[i]) != idle && ++differ <= 4)
			printf("  page %d (pfn %#llx): bitmap says %d, /proc/kpageidle %d\n",
			       i, (unsigned long long)pfn[i], idle, !idle);
		if (accessed[i]) {
			acc++;
			if (idle && ++acc_idle <= 4)
				printf("  accessed page %d (pfn %#llx) reads idle\n",
				       i, (unsigned long long)pfn[i]);
			if (raw[i] && !idle)
				young++;
		} else {
			unt++;
			if (!idle && ++unt_busy <= 4)
				printf("  untouched page %d (pfn %#llx) reads not idle\n",
				       i, (unsigned long long)pfn[i]);
		}
	}
	free(raw);
	printf("%s: %s: accessed %d, %d read idle; untouched %d, %d read not idle",
	       acc_idle || unt_busy || !acc || !unt ? "FAIL" : "ok",
	       what, acc, acc_idle, unt, unt_busy);
	if (exercise)
		printf("; accessed but not harvested by MGLRU: %d", young);
	if (kpageidle_fd >= 0)
		printf("; /proc/kpageidle disagrees: %d", differ);
	printf("\n");
	if (differ)
		return 1;
	if (exercise && young) {
		printf("  the aging left %d accessed pages young: setup problem\n", young);
		return 1;
	}
	return acc_idle || unt_busy || !acc || !unt;
}

static int test_anon(void)
{
	int n = 512, i;
	char *p, *acc = calloc(n, 1);
	uint64_t *pfn = calloc(n, sizeof(*pfn));

	p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || !acc || !pfn)
		die("mmap");
	madvise(p, n * PAGE, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++) {
		p[i * PAGE] = 1;
		pfn[i] = pfn_of(p + i * PAGE);
	}
	prepare(pfn, n);
	flush_tlb(p, n * PAGE, PROT_READ | PROT_WRITE);

	for (i = 0; i < n; i += 2) {
		((volatile char *)p)[i * PAGE] += 1;
		acc[i] = 1;
	}
	printf("  wrote to %d of %d pages\n", n / 2, n);
	force_aging();
	return verdict("anon 4K pages, page table walk", pfn, acc, n, 1);
}

static int test_thp(void)
{
	int n = 4, i;
	char *raw, *p, acc[4] = { 1, 0, 1, 0 };
	uint64_t pfn[4];

	raw = mmap(NULL, (n + 1) * THP_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap");
	p = (char *)(((uintptr_t)raw + THP_SIZE - 1) & ~(THP_SIZE - 1));
	if (madvise(p, n * THP_SIZE, MADV_HUGEPAGE))
		die("madvise(MADV_HUGEPAGE)");
	for (i = 0; i < n; i++) {
		p[i * THP_SIZE] = 1;
		pfn[i] = pfn_of(p + i * THP_SIZE);
		if (!pfn[i] || !(kpageflags(pfn[i]) & (1ULL << KPF_THP))) {
			printf("SKIP: no THP at %p (pfn %#llx)\n", p + i * THP_SIZE,
			       (unsigned long long)pfn[i]);
			return 77;
		}
	}
	prepare(pfn, n);
	flush_tlb(p, n * THP_SIZE, PROT_READ | PROT_WRITE);

	for (i = 0; i < n; i++)
		if (acc[i])
			((volatile char *)p)[i * THP_SIZE + 12345] += 1;
	printf("  wrote to THPs 0 and 2 of %d\n", n);
	force_aging();
	return verdict("anon THPs, page table walk", pfn, acc, n, 1);
}

/* PFNs of a file's pages, looked up by a child that maps them briefly. */
static void file_pfns(const char *path, int n, uint64_t *pfn)
{
	int pfd[2], status, i;
	pid_t pid;

	if (pipe(pfd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		int fd = open(path, O_RDONLY);
		char *m;

		if (fd < 0)
			die("open %s", path);
		m = mmap(NULL, n * PAGE, PROT_READ, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			die("mmap %s", path);
		for (i = 0; i < n; i++) {
			(void)((volatile char *)m)[i * PAGE];
			pfn[i] = pfn_of(m + i * PAGE);
		}
		if (write(pfd[1], pfn, n * sizeof(*pfn)) != (ssize_t)(n * sizeof(*pfn)))
			die("write pipe");
		_exit(0);
	}
	close(pfd[1]);
	if (read(pfd[0], pfn, n * sizeof(*pfn)) != (ssize_t)(n * sizeof(*pfn)))
		die("read pipe");
	close(pfd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("child failed");
}

static int make_file(const char *path, int n)
{
	static char page[PAGE];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644), i;

	if (fd < 0)
		die("create %s", path);
	for (i = 0; i < n; i++) {
		memset(page, 'a' + i % 26, PAGE);
		if (write(fd, page, PAGE) != PAGE)
			die("write %s", path);
	}
	fsync(fd);
	return fd;
}

static int test_file(const char *path)
{
	int n = 256, i, fd, ret;
	char *acc = calloc(n, 1), page[PAGE];
	uint64_t *pfn = calloc(n, sizeof(*pfn));

	if (!acc || !pfn)
		die("calloc");
	close(make_file(path, n));
	file_pfns(path, n, pfn);
	prepare(pfn, n);

	fd = open(path, O_RDWR);
	if (fd < 0)
		die("open %s", path);
	for (i = 0; i < n; i++) {
		switch (i % 4) {
		case 0:	/* read() the whole page */
			if (pread(fd, page, PAGE, i * PAGE) != PAGE)
				die("pread");
			acc[i] = 1;
			break;
		case 1:	/* write() one byte, same value */
			page[0] = 'a' + i % 26;
			if (pwrite(fd, page, 1, i * PAGE + 7) != 1)
				die("pwrite");
			acc[i] = 1;
			break;
		}
	}
	close(fd);
	printf("  read() %d, write() %d, left %d of %d pages untouched\n",
	       n / 4, n / 4, n / 2, n);
	force_aging();

	/* report read() and write() apart: they take different paths */
	for (i = 0; i < n; i++)
		acc[i] = i % 4 == 0 ? 1 : i % 4 == 1 ? 2 : 0;
	ret = verdict("page cache read()", pfn, acc, n, 0);
	for (i = 0; i < n; i++)
		acc[i] = i % 4 == 1 ? 1 : i % 4 == 0 ? 2 : 0;
	ret |= verdict("page cache write()", pfn, acc, n, 0);
	return ret;
}

/*
 * lru_gen_look_around(): eviction finds a young PTE while walking the rmap of
 * a folio in the oldest generation and then clears the accessed bits of up to
 * MIN_LRU_BATCH neighbouring PTEs, promoting their folios.  Set up a 64-page
 * MAP_SHARED window of a file in which even pages ("A") sit in the oldest
 * generation and odd pages ("B") in a younger one, all marked idle, access
 * every other A and B page, evict from the oldest generation, read.
 *
 * Marking comes first, while the pages are still together: on a kernel
 * whose marking feeds MGLRU (kernel-series 0006), a page whose accessed bit
 * marking clears moves to the youngest generation, so marking after the
 * generations are set up would promote A and leave nothing for eviction to
 * find.  After marking no PTE is young; two aging steps make the marked
 * generation old, and B is read and promoted by a third, then marked idle
 * again (its PTEs are old by then: no promotion).
 * The caller sets /sys/kernel/debug/fault_around_bytes to 4096, or faulting
 * in B would map (young) A pages too.
 */
static int test_lookaround(const char *path)
{
	enum { N = 64 };
	int i, fd, id, ret;
	char *raw, *m, acc[N];
	uint64_t pfn[N];
	unsigned long min_seq, max_seq;
	char cmd[128];

	fd = make_file(path, N);
	/* a VMA inside one PMD: the look-around window covers all of it */
	raw = mmap(NULL, 2 * THP_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap");
	m = (char *)(((uintptr_t)raw + THP_SIZE - 1) & ~(THP_SIZE - 1));
	m = mmap(m, N * PAGE, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
	if (m == MAP_FAILED)
		die("mmap %s", path);

	for (i = 0; i < N; i++)
		(void)((volatile char *)m)[i * PAGE];
	for (i = 0; i < N; i++)
		pfn[i] = pfn_of(m + i * PAGE);
	prepare(pfn, N);
	flush_tlb(m, N * PAGE, PROT_READ);
	drain_local();		/* folio_activate() batches */
	force_aging();
	force_aging();
	/* B: read and promote with one aging step, then mark idle again */
	for (i = 1; i < N; i += 2)
		(void)((volatile char *)m)[i * PAGE];
	force_aging();
	mark_checked(pfn, N, 1, 2);
	flush_tlb(m, N * PAGE, PROT_READ);

	for (i = 0; i < N; i++) {
		acc[i] = i % 4 < 2;
		if (acc[i])
			(void)((volatile char *)m)[i * PAGE];
	}
	printf("  read %d of %d mapped pages (A and B)\n", N / 2, N);

	/* at most four generations: A's is the oldest, max_seq - 3 */
	lru_gen_state(&id, &min_seq, &max_seq, 1);
	snprintf(cmd, sizeof(cmd), "- %d 0 %lu 0 %d", id, max_seq - 3, N);
	lru_gen_cmd(cmd);
	lru_gen_state(&id, &min_seq, &max_seq, 1);

	for (i = 0, ret = 0; i < N; i++) {
		if (pfn_of(m + i * PAGE) != pfn[i]) {
			acc[i] = 2;	/* evicted: the PFN is no longer ours */
			ret++;
		}
	}
	printf("  %d pages evicted\n", ret);
	ret = verdict("mapped file, eviction look-around", pfn, acc, N, 1);
	munmap(m, N * PAGE);
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		goto usage;
	/* everything on CPU 0: lru_add_drain() on munmap() drains it */
	if (pin_cpu0())
		die("sched_setaffinity");
	bitmap_fd = open(BITMAP, O_RDWR);
	if (bitmap_fd < 0)
		die("open " BITMAP);
	kpf_fd = open("/proc/kpageflags", O_RDONLY);
	if (kpf_fd < 0)
		die("open /proc/kpageflags");
	kpageidle_fd = open("/proc/kpageidle", O_RDONLY);	/* optional */
	errno = 0;

	if (!strcmp(argv[1], "anon"))
		return test_anon();
	if (!strcmp(argv[1], "thp"))
		return test_thp();
	if (!strcmp(argv[1], "file") && argc == 3)
		return test_file(argv[2]);
	if (!strcmp(argv[1], "lookaround") && argc == 3)
		return test_lookaround(argv[2]);
usage:
	fprintf(stderr, "usage: mglru_idle anon|thp|file PATH|lookaround PATH\n");
	return 2;
}
