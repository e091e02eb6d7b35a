// SPDX-License-Identifier: GPL-2.0
/*
 * rmaplock - how long mmap() and munmap() of a widely mapped file wait
 * while a marking scan walks the rmap of that file's pages.
 *
 *   rmaplock SHARERS PAGES SECONDS ROUNDS CGROUP_DIR
 *
 * A memfd of PAGES pages is mapped whole (MAP_SHARED) and read by SHARERS
 * child processes, which then sleep: the rmap of each of its pages has
 * SHARERS + 1 mappings, as a shared library's pages have on a host that
 * runs that many processes.  The rmap walk of one page holds the file's
 * i_mmap_rwsem for read while it visits all of them (rmap_walk_file()),
 * and mmap() and munmap() of the file take it for write (vma_link(),
 * unlink_file_vma()).  For SECONDS, this process, on CPU 0, maps and
 * unmaps one page of the memfd in a loop and times each pair, while a
 * scanner process on CPU 1 marks the memfd's pages over and over in one
 * of three ways:
 *
 *   none    not at all (the baseline);
 *   ioctl   KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK and
 *           KPAGEIDLE_SCAN_CGROUP, a call (struct kpageidle_folio
 *           records out) for each 64 PFNs that hold memfd pages,
 *           filtered by the memory cgroup CGROUP_DIR (made if missing;
 *           this process moves into it before it makes the memfd, which
 *           is so charged to it); the TLB flush of 0015 included;
 *   bitmap  /sys/kernel/mm/page_idle/bitmap, a word with the memfd's
 *           bits set for each 64 PFNs that hold its pages: mainline's
 *           page_idle.c, the same walks of the memfd's pages, with
 *           blocking rmap locks.
 *
 * The modes rotate per round.  Prints per round and mode
 *
 *   RMAPLOCK round=R mode=M ops=N p50_us=A p99_us=B max_us=C passes=P
 *            pass_cpu_ms=D pages=G
 *
 * A, B, C: percentiles of the mmap+munmap pairs (wall time); P: the
 * scanner's passes; D: its CPU time per pass; G: the user pages a pass
 * walks, so that D / G is about how long one walk holds the lock.  Then per mode the
 * medians over the rounds and their ratios to mode none's:
 *
 *   RMAPLOCKSUM mode=M p50_us=A p99_us=B max_us=C p99_x=X max_x=Y
 *               walk_us=W
 *
 * Both processes are pinned (sched_setaffinity) so that the writer never
 * waits for the scanner's CPU, only for its lock.  Needs two CPUs and
 * root.  Exit: 0 ok, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "kpageidle_abi.h"

#define MAX_OPS		(1 << 21)
#define MAX_ROUNDS	32
#define RECS		4096
#define NMODES		3

static const char *const modes[NMODES] = { "none", "ioctl", "bitmap" };
static long psz;

/* What the scanner reports back, in a shared mapping. */
struct scanner_out {
	uint64_t passes;
	double cpu_s;
};

static void die(const char *what)
{
	fprintf(stderr, "rmaplock: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* uses die() */
#include "benchutil.h"

/*
 * What a scanner marks: the memfd's pages and as few others as it can.
 * For each 64 PFNs that hold memfd pages, the ioctl scans them filtered
 * by the memory cgroup the memfd is charged to (a 64-PFN call may walk
 * an anonymous page of this process or a sharer too), and the bitmap
 * gets a word with the memfd's bits set.
 */
struct target {
	uint64_t lo, hi;	/* PFNs, lo a multiple of 64 */
	uint64_t cgroup_id;
	size_t nwords;
	uint64_t *word_idx;	/* bitmap word numbers (PFN / 64) */
	uint64_t *word_bits;	/* the memfd's bits in each */
};

/*
 * One pass by the scan ioctl, a call for each 64 PFNs that hold memfd
 * pages, filtered by the memfd's cgroup: user pages walked.
 */
static uint64_t pass_ioctl(int fd, const struct target *t, uint64_t flags)
{
	static struct kpageidle_folio rec[RECS];
	struct kpageidle_scan_arg arg;
	uint64_t pages = 0, i;
	size_t w;

	for (w = 0; w < t->nwords; w++) {
		memset(&arg, 0, sizeof(arg));
		arg.size = sizeof(arg);
		arg.flags = flags | KPAGEIDLE_SCAN_CGROUP;
		arg.cgroup_id = t->cgroup_id;
		arg.start = t->word_idx[w] * 64;
		arg.end = arg.start + 64;
		arg.vec = (uintptr_t)rec;
		arg.vec_len = RECS;
		if (ioctl(fd, KPAGEIDLE_SCAN, &arg))
			die("KPAGEIDLE_SCAN");
		for (i = 0; i < arg.nr_records; i++)
			pages += rec[i].nr_pages;
	}
	return pages;
}

/* One marking pass through the bitmap: a write(2) per word. */
static void pass_bitmap(int fd, const struct target *t)
{
	size_t i;

	for (i = 0; i < t->nwords; i++)
		if (pwrite(fd, &t->word_bits[i], 8, t->word_idx[i] * 8) != 8)
			die("page_idle/bitmap write");
}

/* The scanner: mark @t in MODE until killed, on CPU 1. */
static pid_t scanner(int mode, const struct target *t,
		     struct scanner_out *out)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	pin(1);
	fd = open(mode == 1 ? "/proc/kpageidle" :
		  "/sys/kernel/mm/page_idle/bitmap", O_RDWR);
	if (fd < 0)
		die(mode == 1 ? "/proc/kpageidle" : "page_idle/bitmap");
	for (;;) {
		if (mode == 1)
			pass_ioctl(fd, t, KPAGEIDLE_SCAN_MARK);
		else
			pass_bitmap(fd, t);
		/* read by the parent after it has killed this process */
		out->passes++;
		out->cpu_s = now(CLOCK_PROCESS_CPUTIME_ID);
	}
}

/* Add @pfn to @t's PFN range and bitmap words. */
static void target_add(struct target *t, uint64_t pfn)
{
	size_t i;

	t->lo = pfn - pfn % 64 < t->lo ? pfn - pfn % 64 : t->lo;
	t->hi = pfn + 1 > t->hi ? pfn + 1 : t->hi;
	for (i = 0; i < t->nwords && t->word_idx[i] != pfn / 64; i++)
		;
	if (i == t->nwords) {
		t->word_idx[i] = pfn / 64;
		t->word_bits[i] = 0;
		t->nwords++;
	}
	t->word_bits[i] |= 1ULL << (pfn % 64);
}

/* Add the @n pages mapped at @mem, read from one pagemap read, to @t. */
static void target_add_pages(struct target *t, const char *mem, int n)
{
	uint64_t *ent = calloc(n, sizeof(*ent));
	int fd = open("/proc/self/pagemap", O_RDONLY);
	int k;

	if (!ent || fd < 0)
		die("/proc/self/pagemap");
	if (pread(fd, ent, n * sizeof(*ent),
		  (uintptr_t)mem / psz * sizeof(*ent)) != (ssize_t)(n * sizeof(*ent)))
		die("pagemap read");
	close(fd);
	for (k = 0; k < n; k++) {
		if (!(ent[k] >> 63)) {
			errno = ENOENT;
			die("memfd page not present");
		}
		target_add(t, ent[k] & ((1ULL << 55) - 1));
	}
	free(ent);
}

/* Move this process to the cgroup @dir (made if missing): its id. */
static uint64_t enter_cgroup(const char *dir)
{
	char path[4096];
	struct stat st;
	int fd;

	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, "0", 1) != 1)
		die(path);
	close(fd);
	if (stat(dir, &st))
		die(dir);
	return st.st_ino;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double t[MAX_ROUNDS];

	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

struct result {
	double p50, p99, max, walk_us;
};

/* The writer: mmap+munmap pairs of one page of @mfd for @secs. */
static uint64_t write_loop(int mfd, double secs, uint64_t *lat)
{
	double end = now(CLOCK_MONOTONIC) + secs;
	struct timespec t0, t1;
	uint64_t n = 0;
	void *p;

	while (n < MAX_OPS && now(CLOCK_MONOTONIC) < end) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		p = mmap(NULL, psz, PROT_READ, MAP_SHARED, mfd, 0);
		if (p == MAP_FAILED)
			die("mmap");
		if (munmap(p, psz))
			die("munmap");
		clock_gettime(CLOCK_MONOTONIC, &t1);
		lat[n++] = (t1.tv_sec - t0.tv_sec) * 1000000000ULL +
			   t1.tv_nsec - t0.tv_nsec;
	}
	return n;
}

static struct result run(int round, int mode, int mfd, double secs,
			 const struct target *t, uint64_t pages,
			 uint64_t *lat, struct scanner_out *out)
{
	struct result r = { 0 };
	pid_t pid = 0;
	uint64_t n;

	memset(out, 0, sizeof(*out));
	if (mode) {
		pid = scanner(mode, t, out);
		usleep(200000);
	}
	n = write_loop(mfd, secs, lat);
	if (pid) {
		int status;

		kill(pid, SIGKILL);
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		/* one that died by itself has said why on stderr */
		if (!WIFSIGNALED(status)) {
			errno = ECHILD;
			die(mode == 1 ? "the ioctl scanner failed" :
			    "the bitmap scanner failed");
		}
	}
	if (!n) {
		errno = EIO;
		die("no mmap+munmap pair timed");
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	r.p50 = lat[n / 2] / 1e3;
	r.p99 = lat[n * 99 / 100] / 1e3;
	r.max = lat[n - 1] / 1e3;
	if (out->passes && pages)
		r.walk_us = out->cpu_s * 1e6 / out->passes / pages;
	printf("RMAPLOCK round=%d mode=%s ops=%llu p50_us=%.1f p99_us=%.1f "
	       "max_us=%.1f passes=%llu pass_cpu_ms=%.2f pages=%llu\n",
	       round, modes[mode], (unsigned long long)n, r.p50, r.p99, r.max,
	       (unsigned long long)out->passes,
	       out->passes ? out->cpu_s * 1e3 / out->passes : 0.0,
	       (unsigned long long)pages);
	fflush(stdout);
	return r;
}

/* Fork @n processes that map @mfd whole, read it and sleep until killed. */
static pid_t *sharers(int n, int mfd, size_t len)
{
	pid_t *pids = calloc(n, sizeof(*pids));
	volatile const char *m;
	int i, fds[2];
	size_t off;
	char c;

	if (!pids || pipe(fds))
		die("sharers");
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i])
			continue;
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, mfd, 0);
		if (m == MAP_FAILED)
			_exit(1);
		for (off = 0; off < len; off += psz)
			(void)m[off];
		if (write(fds[1], "", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	for (i = 0; i < n; i++)
		if (read(fds[0], &c, 1) != 1)
			die("a sharer failed to map the memfd");
	close(fds[0]);
	close(fds[1]);
	return pids;
}

int main(int argc, char **argv)
{
	double p50[NMODES][MAX_ROUNDS], p99[NMODES][MAX_ROUNDS];
	double mx[NMODES][MAX_ROUNDS], walk[NMODES][MAX_ROUNDS];
	int nsh, npages, rounds, r, k, m, mfd, kfd, order[NMODES] = { 0, 1, 2 };
	struct target t = { .lo = ~0ULL };
	uint64_t pages[NMODES], *lat;
	struct scanner_out *out;
	struct result res;
	double secs;
	pid_t *pids;
	char *mem;
	size_t len;

	if (argc != 6 || (nsh = atoi(argv[1])) < 1 ||
	    (npages = atoi(argv[2])) < 1 || (secs = atof(argv[3])) <= 0 ||
	    (rounds = atoi(argv[4])) < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: rmaplock SHARERS PAGES SECONDS ROUNDS "
			"CGROUP_DIR (ROUNDS at most %d)\n", MAX_ROUNDS);
		return 2;
	}
	psz = sysconf(_SC_PAGESIZE);
	len = (size_t)npages * psz;
	t.cgroup_id = enter_cgroup(argv[5]);
	lat = malloc(MAX_OPS * sizeof(*lat));
	t.word_idx = calloc(npages, sizeof(*t.word_idx));
	t.word_bits = calloc(npages, sizeof(*t.word_bits));
	out = mmap(NULL, sizeof(*out), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	mfd = memfd_create("rmaplock", 0);
	if (!lat || !t.word_idx || !t.word_bits || out == MAP_FAILED ||
	    mfd < 0 || ftruncate(mfd, len))
		die("setup");
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (mem == MAP_FAILED)
		die("mmap memfd");
	memset(mem, 1, len);
	target_add_pages(&t, mem, npages);
	pids = sharers(nsh, mfd, len);
	pin(0);
	kfd = open("/proc/kpageidle", O_RDONLY);
	if (kfd < 0)
		die("/proc/kpageidle");
	pages[0] = 0;
	pages[1] = pass_ioctl(kfd, &t, 0);
	pages[2] = npages;
	close(kfd);
	printf("RMAPLOCKINFO sharers=%d pages=%d pfn_lo=%llu pfn_hi=%llu "
	       "words=%zu ioctl_pages=%llu seconds=%.1f rounds=%d\n", nsh,
	       npages, (unsigned long long)t.lo, (unsigned long long)t.hi,
	       t.nwords, (unsigned long long)pages[1], secs, rounds);
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < NMODES; k++) {
			m = order[k];
			res = run(r + 1, m, mfd, secs, &t, pages[m], lat, out);
			p50[m][r] = res.p50;
			p99[m][r] = res.p99;
			mx[m][r] = res.max;
			walk[m][r] = res.walk_us;
		}
		/* the first mode moves to the end */
		m = order[0];
		memmove(order, order + 1, (NMODES - 1) * sizeof(*order));
		order[NMODES - 1] = m;
	}
	for (m = 0; m < NMODES; m++)
		printf("RMAPLOCKSUM mode=%s p50_us=%.1f p99_us=%.1f max_us=%.1f "
		       "p99_x=%.2f max_x=%.2f walk_us=%.1f\n", modes[m],
		       median(p50[m], rounds), median(p99[m], rounds),
		       median(mx[m], rounds),
		       median(p99[m], rounds) / median(p99[0], rounds),
		       median(mx[m], rounds) / median(mx[0], rounds),
		       median(walk[m], rounds));
	for (k = 0; k < nsh; k++)
		kill(pids[k], SIGKILL);
	for (k = 0; k < nsh; k++)
		waitpid(pids[k], NULL, 0);
	return 0;
}
