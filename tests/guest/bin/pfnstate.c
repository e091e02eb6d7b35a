// SPDX-License-Identifier: GPL-2.0
/*
 * pfnstate - the idle state of single PFNs, for the distro tests.
 *
 *   pfnstate mark PFN...   write 1 to /proc/kpageidle for each PFN
 *   pfnstate get PFN...    one line per PFN:
 *                          "PFN idle=0|1 cgroup=INO lru=0|1 ksm=0|1 huge=0|1"
 *                          (/proc/kpageidle, kpagecgroup, kpageflags)
 *   pfnstate scan PFN...   KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK over the
 *                          64 PFNs around each PFN (from the head of its
 *                          compound page if that is before them):
 *                          "PFN idle=0|1", the state before the ioctl
 *                          marked it again: 1 if a record with
 *                          KPAGEIDLE_FOLIO_IDLE covers the PFN
 *   pfnstate range LO HI   KPAGEIDLE_SCAN_MARK over [LO, HI) (from the
 *                          head of a folio that begins before LO) in
 *                          calls of at most 4096 PFNs, each from the last
 *                          one's walk_end: "scanned=N idle=N skipped=N",
 *                          the PFNs of [LO, HI) walked, those of them in
 *                          idle records (every PFN of an idle folio: a
 *                          THP's tails too, which a read reports 0), and
 *                          the calls' nr_skipped
 *   pfnstate markrange LO HI   write 1s to /proc/kpageidle for [LO, HI)
 *   pfnstate count LO HI   read /proc/kpageidle over [LO, HI), then
 *                          /proc/kpageflags: "idle=N kpf_idle=N" (PFNs
 *                          idle by the first, with KPF_IDLE by the second)
 *
 * PFNs are decimal or 0x hex.  Exits 1 on any error, naming it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/*
 * The scan ioctl's definitions: top/kpageidle_abi.h.  With
 * KPAGEIDLE_SCAN_MARK the ioctl needs a descriptor open for writing too
 * (EBADF otherwise, docs/kpageidle.md), as a write of marks does.
 */
#include "kpageidle_abi.h"

#define CALL		4096	/* PFNs per call at most, a record slot each */
#define KPF_LRU		5
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define KPF_HUGE	17
#define KPF_KSM		21
#define KPF_IDLE	25
#define MAX_FOLIO	512	/* PFNs of the largest LRU folio (a PMD THP) */

static void die(const char *what)
{
	fprintf(stderr, "pfnstate: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die(path);
	return fd;
}

static uint64_t read_u64(int fd, uint64_t pfn, const char *what)
{
	uint64_t v;

	if (pread(fd, &v, 8, (off_t)(pfn * 8)) != 8)
		die(what);
	return v;
}

static uint64_t parse_pfn(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "pfnstate: bad PFN '%s'\n", s);
		exit(1);
	}
	return v;
}

/*
 * The head of the compound page PFN pfn is a tail of, if it is within
 * MAX_FOLIO PFNs before it (/proc/kpageflags); else pfn (also past the
 * end of kpageflags, where the scan says ENXIO).  A scan that is to
 * report the folio at pfn must start there: a folio is reported by the
 * call that covers its head.
 */
static uint64_t head_of(int kpf, uint64_t pfn)
{
	uint64_t f[MAX_FOLIO], lo = pfn > MAX_FOLIO - 1 ? pfn - (MAX_FOLIO - 1) : 0;
	size_t i, n = (size_t)(pfn - lo + 1);

	/* short: pfn is past the end of kpageflags */
	if (pread(kpf, f, n * 8, (off_t)(lo * 8)) != (ssize_t)(n * 8) ||
	    !(f[n - 1] >> KPF_COMPOUND_TAIL & 1))
		return pfn;
	for (i = n; i-- > 0;)
		if (f[i] >> KPF_COMPOUND_HEAD & 1)
			return lo + i;
	return pfn;
}

struct tally {
	uint64_t lo, hi;	/* the PFNs counted */
	uint64_t idle;		/* of them, in idle records */
};

/* The PFNs of the records of one call in [t->lo, t->hi), if idle. */
static void tally(struct tally *t, const struct kpageidle_folio *rec,
		  uint64_t n)
{
	uint64_t i, a, b;

	for (i = 0; i < n; i++) {
		if (!(rec[i].flags & KPAGEIDLE_FOLIO_IDLE))
			continue;
		a = rec[i].pfn > t->lo ? rec[i].pfn : t->lo;
		b = rec[i].pfn + rec[i].nr_pages < t->hi ?
		    rec[i].pfn + rec[i].nr_pages : t->hi;
		if (a < b)
			t->idle += b - a;
	}
}

/*
 * KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK from start to hi, in calls of
 * at most CALL PFNs, each from the last one's walk_end (past its end
 * when a folio crosses it), until hi or max_pfn (ENXIO after the first
 * call; a first call there fails); the idle PFNs of the records into t,
 * nr_skipped into *skipped.  Returns where it stopped: >= hi, or short
 * of it at max_pfn (or where a call did not advance).
 */
static uint64_t scan(int fd, uint64_t start, uint64_t hi, struct tally *t,
		     uint64_t *skipped)
{
	static struct kpageidle_folio rec[CALL];
	struct kpageidle_scan_arg a;
	uint64_t pos = start;

	while (pos < hi) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.flags = KPAGEIDLE_SCAN_MARK;
		a.start = pos;
		a.end = hi - pos > CALL ? pos + CALL : hi;
		a.vec = (uint64_t)(uintptr_t)rec;
		a.vec_len = CALL;
		if (ioctl(fd, KPAGEIDLE_SCAN, &a)) {
			if (errno == ENXIO && pos > start)
				break;
			die("KPAGEIDLE_SCAN");
		}
		if (a.nr_records > CALL) {
			errno = EIO;
			die("KPAGEIDLE_SCAN: more records than vec_len");
		}
		if (a.walk_end <= pos)
			break;
		tally(t, rec, a.nr_records);
		*skipped += a.nr_skipped;
		pos = a.walk_end;
	}
	return pos;
}

int main(int argc, char **argv)
{
	int i, fd;

	if (argc < 3) {
		fputs("usage: pfnstate mark|get|scan PFN... | range|markrange|count LO HI\n",
		      stderr);
		return 2;
	}
	if (!strcmp(argv[1], "mark")) {
		uint64_t one = 1;

		fd = open_or_die("/proc/kpageidle", O_WRONLY);
		for (i = 2; i < argc; i++)
			if (pwrite(fd, &one, 8,
				   (off_t)(parse_pfn(argv[i]) * 8)) != 8)
				die("write /proc/kpageidle");
	} else if (!strcmp(argv[1], "get")) {
		int idle = open_or_die("/proc/kpageidle", O_RDONLY);
		int cg = open_or_die("/proc/kpagecgroup", O_RDONLY);
		int fl = open_or_die("/proc/kpageflags", O_RDONLY);

		for (i = 2; i < argc; i++) {
			uint64_t pfn = parse_pfn(argv[i]);
			uint64_t f = read_u64(fl, pfn, "read /proc/kpageflags");

			printf("%llu idle=%llu cgroup=%llu lru=%d ksm=%d huge=%d\n",
			       (unsigned long long)pfn,
			       (unsigned long long)read_u64(idle, pfn,
						"read /proc/kpageidle"),
			       (unsigned long long)read_u64(cg, pfn,
						"read /proc/kpagecgroup"),
			       (int)(f >> KPF_LRU & 1), (int)(f >> KPF_KSM & 1),
			       (int)(f >> KPF_HUGE & 1));
		}
	} else if (!strcmp(argv[1], "scan")) {
		int kpf = open_or_die("/proc/kpageflags", O_RDONLY);
		uint64_t skipped = 0;

		fd = open_or_die("/proc/kpageidle", O_RDWR);
		for (i = 2; i < argc; i++) {
			uint64_t pfn = parse_pfn(argv[i]), lo = pfn & ~63ULL;
			uint64_t head = head_of(kpf, pfn);
			struct tally t = { .lo = pfn, .hi = pfn + 1 };

			scan(fd, head < lo ? head : lo, lo + 64, &t, &skipped);
			printf("%llu idle=%d\n", (unsigned long long)pfn,
			       (int)t.idle);
		}
	} else if (!strcmp(argv[1], "range") && argc == 4) {
		uint64_t lo = parse_pfn(argv[2]), hi = parse_pfn(argv[3]);
		uint64_t skipped = 0, end = lo;
		struct tally t = { .lo = lo, .hi = hi };

		if (lo < hi) {
			int kpf = open_or_die("/proc/kpageflags", O_RDONLY);

			fd = open_or_die("/proc/kpageidle", O_RDWR);
			/* a folio that begins before LO: from its head */
			end = scan(fd, head_of(kpf, lo), hi, &t, &skipped);
			if (end < lo)
				end = lo;
		}
		printf("scanned=%llu idle=%llu skipped=%llu\n",
		       (unsigned long long)((end < hi ? end : hi) - lo),
		       (unsigned long long)t.idle,
		       (unsigned long long)skipped);
	} else if (!strcmp(argv[1], "markrange") && argc == 4) {
		uint64_t lo = parse_pfn(argv[2]), hi = parse_pfn(argv[3]);
		static uint64_t buf[4096];
		size_t j;

		for (j = 0; j < 4096; j++)
			buf[j] = 1;
		fd = open_or_die("/proc/kpageidle", O_WRONLY);
		while (lo < hi) {
			size_t n = hi - lo > 4096 ? 4096 : (size_t)(hi - lo);

			if (pwrite(fd, buf, n * 8, (off_t)(lo * 8)) != (ssize_t)(n * 8))
				die("write /proc/kpageidle");
			lo += n;
		}
	} else if (!strcmp(argv[1], "count") && argc == 4) {
		uint64_t lo = parse_pfn(argv[2]), hi = parse_pfn(argv[3]);
		uint64_t idle = 0, kpf = 0;
		static uint64_t buf[4096];
		int fl = open_or_die("/proc/kpageflags", O_RDONLY);
		size_t j;

		fd = open_or_die("/proc/kpageidle", O_RDONLY);
		while (lo < hi) {
			size_t n = hi - lo > 4096 ? 4096 : (size_t)(hi - lo);

			if (pread(fd, buf, n * 8, (off_t)(lo * 8)) != (ssize_t)(n * 8))
				die("read /proc/kpageidle");
			for (j = 0; j < n; j++)
				idle += buf[j] == 1;
			if (pread(fl, buf, n * 8, (off_t)(lo * 8)) != (ssize_t)(n * 8))
				die("read /proc/kpageflags");
			for (j = 0; j < n; j++)
				kpf += buf[j] >> KPF_IDLE & 1;
			lo += n;
		}
		printf("idle=%llu kpf_idle=%llu\n", (unsigned long long)idle,
		       (unsigned long long)kpf);
	} else {
		fprintf(stderr, "pfnstate: unknown command '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
