// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_abi.c - ABI fuzzer for /proc/kpageidle, /proc/kpagecgroup,
 * /proc/kpageflags and /sys/kernel/mm/page_idle/bitmap.
 *
 *   fuzz_abi [-s SEED] [-t SECONDS] [-j THREADS] [-n MAXOPS]
 *
 * Every thread issues random pread/pwrite/lseek+read/lseek+write calls at
 * random offsets (0, aligned, unaligned, around the end, huge, negative)
 * with random sizes (0, 1, 7, 8, 9, 4096, 4100, up to the whole file, 1 GiB)
 * and user buffers that are valid, partly valid (a PROT_NONE guard page
 * follows) or invalid, and checks each result against the documented ABI
 * (docs/kpageidle.md, and mm/page_idle.c + kernfs for the bitmap): the
 * exact byte count or the exact errno.  Values written to kpageidle are
 * mostly 0/1 with the odd invalid one.  Read entries of kpageidle must be
 * 0 or 1 and 0 past max_pfn.  Only thread 0 writes kpageidle: one open
 * file marks at a time.  A shared descriptor per file is also raced
 * with read/lseek from all threads (only the result's shape is checked).
 *
 * The seed is printed first; rerun with -s SEED to replay a thread's
 * sequence (racing threads make the kernel's state differ, not the calls).
 * Exit 0: every call matched; 1: mismatches (the first 30 are printed);
 * 2: setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "common.h"

#define PAGE 4096L

enum target { T_IDLE, T_CGROUP, T_FLAGS, T_BITMAP, NR_T };
static const char *const paths[NR_T] = {
	"/proc/kpageidle", "/proc/kpagecgroup", "/proc/kpageflags",
	"/sys/kernel/mm/page_idle/bitmap",
};
static const char *const tnames[NR_T] = { "kpageidle", "kpagecgroup",
					  "kpageflags", "bitmap" };
static int present[NR_T];
static int shared_fd[NR_T];

static uint64_t dump_end;	/* bytes of kpageflags = max_dump_pfn * 8 */
static uint64_t max_pfn;
static size_t bufsz;		/* valid bytes in each thread's buffer */
static double deadline;
static long max_ops;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long nr_bad, nr_ops, nr_quirk;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *s)	/* xorshift64* */
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static uint64_t below(uint64_t *s, uint64_t n)
{
	return n ? rnd(s) % n : 0;
}

/* Result of a call: bytes (>= 0) or -errno. */
typedef long long res_t;

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&lock);
	if (nr_bad++ < 30) {
		va_start(ap, fmt);
		printf("MISMATCH: ");
		vprintf(fmt, ap);
		printf("\n");
		va_end(ap);
		fflush(stdout);
	}
	pthread_mutex_unlock(&lock);
}

static int overflows(long long pos, uint64_t count)
{
	if (pos < 0)
		return 1;
	if (count > (uint64_t)LLONG_MAX)
		return 1;
	return (long long)((uint64_t)pos + count) < 0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * Expected results.  avail = valid bytes at buf (a guard page follows).
 * count here is after the VFS clamp to MAX_RW_COUNT.
 */
static res_t exp_proc_read(enum target t, long long pos, uint64_t count,
			   uint64_t avail)
{
	uint64_t n, ok;

	if (overflows(pos, count))
		return -EINVAL;
	if (pos % 8 || count % 8)
		return -EINVAL;
	if ((uint64_t)pos >= dump_end)
		return 0;
	n = min64(count, dump_end - (uint64_t)pos);
	ok = avail / 8 * 8;
	if (n <= ok)
		return (res_t)n;
	/* kpageidle reports what was copied; the others say EFAULT */
	if (t == T_IDLE && ok)
		return (res_t)ok;
	return -EFAULT;
}

static res_t exp_idle_write(long long pos, uint64_t count, uint64_t avail,
			    const uint64_t *vals)
{
	uint64_t i = 0, pfn;
	res_t err = 0;

	if (overflows(pos, count))
		return -EINVAL;
	if (pos % 8 || count % 8)
		return -EINVAL;
	pfn = (uint64_t)pos / 8;
	for (i = 0; i * 8 < count; i++) {
		if (pfn + i >= max_pfn) {
			err = -ENXIO;
			break;
		}
		if ((i + 1) * 8 > avail) {
			err = -EFAULT;
			break;
		}
		if (vals[i] > 1) {
			err = -EINVAL;
			break;
		}
	}
	return i ? (res_t)(i * 8) : err;
}

static res_t exp_bitmap_read(long long pos, uint64_t count, uint64_t avail)
{
	uint64_t c, pfn, end, r;

	if (overflows(pos, count))
		return -EINVAL;
	if (!count)
		return 0;
	c = min64(count, PAGE);
	if (pos % 8 || c % 8)
		return -EINVAL;
	pfn = (uint64_t)pos * 8;
	if (pfn >= max_pfn)
		return 0;
	/* the chunk max_pfn cuts short counts (kernel-series 0002) */
	end = min64(pfn + c * 8, max_pfn);
	r = (end - pfn + 63) / 64 * 8;
	return r > avail ? -EFAULT : (res_t)r;
}

static res_t exp_bitmap_write(long long pos, uint64_t count, uint64_t avail)
{
	uint64_t c, pfn, end;

	if (overflows(pos, count))
		return -EINVAL;
	c = min64(count, PAGE);
	if (c > avail)
		return -EFAULT;
	if (!count)
		return 0;
	if (pos % 8 || c % 8)
		return -EINVAL;
	pfn = (uint64_t)pos * 8;
	if (pfn >= max_pfn)
		return -ENXIO;
	end = min64(pfn + c * 8, max_pfn);
	return (res_t)((end - pfn + 63) / 64 * 8);
}

struct thr {
	int id;
	uint64_t seed, s;
	char *buf;		/* bufsz valid bytes, then a PROT_NONE page */
	int fd[NR_T];
};

static long long pick_pos(struct thr *th, enum target t)
{
	uint64_t end = t == T_BITMAP ? (max_pfn + 63) / 64 * 8 : dump_end;
	/* the bitmap's pos * 8 wraps at 2^61: a quirk probed separately */
	uint64_t huge_lim = t == T_BITMAP ? (1ULL << 60) : (uint64_t)LLONG_MAX;

	switch (below(&th->s, 12)) {
	case 0: return 0;
	case 1: return (long long)(below(&th->s, end / 8) * 8);
	case 2: return (long long)(below(&th->s, end / 8) * 8);
	case 3: return (long long)below(&th->s, end + 64);
	case 4: return (long long)end - 8 * (long long)below(&th->s, 4);
	case 5: return (long long)end + 8 * (long long)below(&th->s, 4);
	case 6: return (long long)(max_pfn * 8) - 8 + 8 * (long long)below(&th->s, 3);
	case 7: return (long long)(below(&th->s, huge_lim / 8) * 8);
	case 8: return (long long)(huge_lim - 8 * below(&th->s, 3));
	case 9: return -8 * (long long)(1 + below(&th->s, 4096));
	case 10: return (long long)(max_pfn / 8) - 8 + 8 * (long long)below(&th->s, 3);
	default: return (long long)below(&th->s, 1ULL << 40);
	}
}

static uint64_t pick_count(struct thr *th)
{
	static const uint64_t fixed[] = { 0, 1, 7, 8, 9, 16, 4096, 4100, 4104 };

	switch (below(&th->s, 8)) {
	case 0:
	case 1: return fixed[below(&th->s, sizeof(fixed) / sizeof(*fixed))];
	case 2: return 8 * below(&th->s, 512);
	case 3: return below(&th->s, 8192);
	case 4: return 8 * below(&th->s, 65536);
	case 5: return dump_end + 8 * below(&th->s, 3);
	case 6: return below(&th->s, 2) ? 1ULL << 28 : 1ULL << 62;
	default: return 8 * (1 + below(&th->s, 64));
	}
}

/* Pointer with `avail` valid bytes before the guard page. */
static char *pick_buf(struct thr *th, uint64_t count, uint64_t *avail)
{
	switch (below(&th->s, 10)) {
	case 0: *avail = 0; break;
	case 1: *avail = below(&th->s, count + 1); break;
	case 2: *avail = 8 * below(&th->s, count / 8 + 1); break;
	default: *avail = bufsz; break;
	}
	if (*avail > bufsz)
		*avail = bufsz;
	return th->buf + bufsz - *avail;
}

static void fill_values(struct thr *th, enum target t, uint64_t *v, size_t n)
{
	int invalid = t == T_IDLE && !below(&th->s, 4);
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = t == T_IDLE ? (below(&th->s, 3) == 0) : rnd(&th->s);
	/* the kernel stops at the first bad value: put one in */
	if (invalid && n)
		v[below(&th->s, min64(n, 600))] = 2 + below(&th->s, 1000);
}

static const char *ename(res_t r)
{
	/* several per message: got and want */
	static __thread char bufs[4][32];
	static __thread unsigned int next;
	char *b = bufs[next++ % 4];

	if (r >= 0) {
		snprintf(b, 32, "%lld", r);
		return b;
	}
	return strerrorname_np((int)-r) ? strerrorname_np((int)-r) :
	       (snprintf(b, 32, "errno %lld", -r), b);
}

/* Checks the content of a successful read of kpageidle at pos. */
static void check_idle_content(const char *buf, long long pos, res_t r)
{
	uint64_t i, v, pfn0 = (uint64_t)pos / 8;

	for (i = 0; i < (uint64_t)r / 8; i++) {
		memcpy(&v, buf + i * 8, 8);
		if (v > 1 || (v && pfn0 + i >= max_pfn)) {
			bad("kpageidle pfn %" PRIu64 " (max_pfn %" PRIu64
			    ") reads %" PRIu64, pfn0 + i, max_pfn, v);
			return;
		}
	}
}

static uint64_t clamp_rw(uint64_t count)
{
	const uint64_t max_rw = INT_MAX & ~(uint64_t)(PAGE - 1);

	return count > max_rw ? max_rw : count;
}

static res_t expect_rw(enum target t, int wr, int positional, long long pos,
		       uint64_t count, uint64_t avail, const char *buf)
{
	if (positional && pos < 0)
		return -EINVAL;	/* ksys_pread64/ksys_pwrite64 */
	if (count >= 1ULL << 47)
		return -EFAULT;	/* access_ok() */
	count = clamp_rw(count);
	if (t == T_BITMAP)
		return wr ? exp_bitmap_write(pos, count, avail) :
			    exp_bitmap_read(pos, count, avail);
	if (wr)
		return exp_idle_write(pos, count, avail, (const uint64_t *)buf);
	return exp_proc_read(t, pos, count, avail);
}

/* lseek on the thread's fd: returns the new f_pos as the kernel sees it. */
static int do_seek(struct thr *th, enum target t, long long *pos)
{
	int fd = th->fd[t];
	static const int whences[] = { SEEK_SET, SEEK_CUR, SEEK_END,
					SEEK_DATA, SEEK_HOLE };
	int w = whences[below(&th->s, 5)];
	long long off = below(&th->s, 3) ? pick_pos(th, t) :
			-(long long)(8 * below(&th->s, 600));
	long long want, got, cur = *pos;
	int want_err = 0;

	if (w == SEEK_CUR)
		off = below(&th->s, 2) ? off - cur : 8 * (long long)below(&th->s, 8) - 32;
	if (t != T_BITMAP) {
		/* mem_lseek: SET and CUR only; negative positions allowed */
		if (w == SEEK_SET)
			want = off;
		else if (w == SEEK_CUR)
			want = (long long)((uint64_t)cur + (uint64_t)off);
		else
			want_err = EINVAL;
	} else {
		/* generic_file_llseek, i_size 0 */
		if (w == SEEK_DATA || w == SEEK_HOLE) {
			want_err = ENXIO;
		} else {
			want = w == SEEK_SET ? off :
			       w == SEEK_CUR ? cur + off : off;
			/* kernfs keeps the default s_maxbytes, MAX_NON_LFS */
			if (want < 0 || want > INT_MAX)
				want_err = EINVAL;
		}
	}
	errno = 0;
	got = lseek(fd, off, w);
	if (got == -1)
		got = -(long long)errno;
	if (want_err) {
		if (got != -want_err)
			bad("%s lseek(%lld, %d) at %lld: got %lld, want %s",
			    tnames[t], off, w, cur, got, ename(-want_err));
		return 0;
	}
	/* a negative f_pos in -4095..-1 reaches userspace as errno */
	if (got != want) {
		bad("%s lseek(%lld, %d) at %lld: got %lld, want %lld",
		    tnames[t], off, w, cur, got, want);
		got = lseek(fd, 0, SEEK_CUR);
		*pos = got == -1 ? -(long long)errno : got;
		return -1;
	}
	*pos = want;
	return 0;
}

static void one_op(struct thr *th)
{
	enum target t;
	int wr, seek, fd;
	long long pos;
	uint64_t count, avail;
	char *buf;
	res_t want, got;
	long long fpos;

	do
		t = (enum target)below(&th->s, NR_T);
	while (!present[t]);
	fd = th->fd[t];
	/*
	 * One open file of kpageidle marks at a time (the others get EBUSY,
	 * which the kselftest second_marker_gets_ebusy checks): only thread
	 * 0's file writes it, the other threads race it with reads.
	 */
	wr = ((t == T_IDLE && th->id == 0) || t == T_BITMAP) &&
	     below(&th->s, 2);
	seek = !below(&th->s, 3);
	count = pick_count(th);
	buf = pick_buf(th, count, &avail);
	if (wr)
		fill_values(th, t, (uint64_t *)buf,
			    min64(min64(avail, count), dump_end + 64) / 8);

	if (seek) {
		got = lseek(fd, 0, SEEK_CUR);
		fpos = got == -1 ? -(long long)errno : got;
		if (do_seek(th, t, &fpos))
			return;
		pos = fpos;
		want = expect_rw(t, wr, 0, pos, count, avail, buf);
		got = wr ? write(fd, buf, count) : read(fd, buf, count);
	} else {
		pos = pick_pos(th, t);
		want = expect_rw(t, wr, 1, pos, count, avail, buf);
		got = wr ? pwrite(fd, buf, count, pos) : pread(fd, buf, count, pos);
	}
	if (got < 0)
		got = -(res_t)errno;
	__atomic_add_fetch(&nr_ops, 1, __ATOMIC_RELAXED);
	if (got != want) {
		bad("%s %s%s(pos %lld, count %" PRIu64 ", %" PRIu64
		    " valid bytes): got %s, want %s", tnames[t],
		    seek ? "lseek+" : "p", wr ? "write" : "read", pos, count,
		    avail, ename(got), ename(want));
		return;
	}
	if (t == T_IDLE && !wr && got > 0)
		check_idle_content(buf, pos, got);
	if (seek && got >= 0) {
		long long np = lseek(fd, 0, SEEK_CUR);

		if (np == -1)
			np = -(long long)errno;
		if (np != pos + got)
			bad("%s: f_pos %lld after %s of %lld at %lld",
			    tnames[t], np, wr ? "write" : "read", got, pos);
	}
}

/* Shared descriptors: racing read/lseek; results must be sane. */
static void shared_op(struct thr *th)
{
	enum target t;
	uint64_t count = 8 * below(&th->s, 1024);
	res_t got;

	do
		t = (enum target)below(&th->s, NR_T);
	while (!present[t]);
	if (!below(&th->s, 4)) {
		lseek(shared_fd[t], (off_t)(8 * below(&th->s, dump_end / 8 + 8)),
		      SEEK_SET);
		return;
	}
	got = read(shared_fd[t], th->buf, count);
	if (got < 0)
		got = -(res_t)errno;
	if (got < 0 || got % 8 || (uint64_t)got > count)
		bad("shared %s read(%" PRIu64 "): %s", tnames[t], count,
		    ename(got));
}

static void *thread_main(void *arg)
{
	struct thr *th = arg;
	long i;

	for (i = 0; now() < deadline && (!max_ops || i < max_ops); i++) {
		if (below(&th->s, 8))
			one_op(th);
		else
			shared_op(th);
	}
	return NULL;
}

static int open_t(enum target t)
{
	int fd = open(paths[t], t == T_IDLE || t == T_BITMAP ? O_RDWR : O_RDONLY);

	return fd;
}

/* max_pfn: the first PFN where a write of 0 to kpageidle says ENXIO. */
static uint64_t find_max_pfn(int fd)
{
	uint64_t lo = 0, hi = dump_end / 8 + 1, zero = 0;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (pwrite(fd, &zero, 8, (off_t)(mid * 8)) == 8)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Pre-existing bitmap behaviour: pos * 8 wraps for pos >= 2^61. */
static void probe_bitmap_wrap(int fd)
{
	uint64_t w;
	ssize_t r = pread(fd, &w, 8, (off_t)(1ULL << 61));

	if (r != 0) {
		printf("NOTE: bitmap read at offset 2^61 returned %zd (pos * 8 "
		       "wraps to PFN 0 in mm/page_idle.c; upstream, not the "
		       "series)\n", r);
		nr_quirk++;
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = 0;
	double secs = 20;
	int nthreads = 4, i, opt;
	struct thr *th;
	pthread_t *tids;

	while ((opt = getopt(argc, argv, "s:t:j:n:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': secs = atof(optarg); break;
		case 'j': nthreads = atoi(optarg); break;
		case 'n': max_ops = atol(optarg); break;
		default:
			fprintf(stderr, "usage: fuzz_abi [-s SEED] [-t SECONDS] "
				"[-j THREADS] [-n MAXOPS]\n");
			return 2;
		}
	}
	if (!seed) {
		struct timeval tv;

		gettimeofday(&tv, NULL);
		seed = (uint64_t)tv.tv_sec * 1000003 ^ (uint64_t)tv.tv_usec ^
		       (uint64_t)getpid() << 20;
	}
	if (nthreads < 1)
		nthreads = 1;
	printf("fuzz_abi: seed %" PRIu64 " (replay: fuzz_abi -s %" PRIu64
	       "), %d threads, %.0f s\n", seed, seed, nthreads, secs);
	fflush(stdout);

	for (i = 0; i < NR_T; i++) {
		int fd = open_t((enum target)i);

		present[i] = fd >= 0;
		if (fd >= 0)
			shared_fd[i] = fd;
		else
			printf("%s: %s (not fuzzed)\n", paths[i], strerror(errno));
	}
	if (!present[T_FLAGS] || !present[T_IDLE]) {
		fprintf(stderr, "fuzz_abi: needs /proc/kpageflags and /proc/kpageidle\n");
		return 2;
	}
	dump_end = kpage_pfns(shared_fd[T_FLAGS]) * 8;
	max_pfn = find_max_pfn(shared_fd[T_IDLE]);
	printf("kpageflags size %" PRIu64 " (%" PRIu64 " PFNs), max_pfn %" PRIu64 "\n",
	       dump_end, dump_end / 8, max_pfn);
	if (kpage_pfns(shared_fd[T_IDLE]) * 8 != dump_end) {
		printf("MISMATCH: kpageidle ends at %" PRIu64 ", kpageflags at %" PRIu64 "\n",
		       kpage_pfns(shared_fd[T_IDLE]) * 8, dump_end);
		nr_bad++;
	}
	if (present[T_CGROUP] &&
	    kpage_pfns(shared_fd[T_CGROUP]) * 8 != dump_end) {
		printf("MISMATCH: kpagecgroup ends at %" PRIu64 ", kpageflags at %" PRIu64 "\n",
		       kpage_pfns(shared_fd[T_CGROUP]) * 8, dump_end);
		nr_bad++;
	}
	if (present[T_BITMAP])
		probe_bitmap_wrap(shared_fd[T_BITMAP]);

	bufsz = (dump_end * 2 + 2 * PAGE) & ~(size_t)(PAGE - 1);
	if (bufsz < (8 << 20))
		bufsz = 8 << 20;
	deadline = now() + secs;
	th = calloc((size_t)nthreads, sizeof(*th));
	tids = calloc((size_t)nthreads, sizeof(*tids));
	if (!th || !tids)
		return 2;
	for (i = 0; i < nthreads; i++) {
		char *m = mmap(NULL, bufsz + PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		int t;

		if (m == MAP_FAILED || mprotect(m + bufsz, PAGE, PROT_NONE)) {
			perror("fuzz_abi: mmap");
			return 2;
		}
		th[i].id = i;
		th[i].seed = th[i].s = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
		th[i].buf = m;
		for (t = 0; t < NR_T; t++) {
			th[i].fd[t] = present[t] ? open_t((enum target)t) : -1;
			if (present[t] && th[i].fd[t] < 0) {
				perror(paths[t]);
				return 2;
			}
		}
		if (pthread_create(&tids[i], NULL, thread_main, &th[i])) {
			perror("pthread_create");
			return 2;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	printf("fuzz_abi: %ld calls, %ld mismatches, %ld notes (seed %" PRIu64 ")\n",
	       nr_ops, nr_bad, nr_quirk, seed);
	return nr_bad ? 1 : 0;
}
