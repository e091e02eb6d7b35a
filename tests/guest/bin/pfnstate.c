// SPDX-License-Identifier: GPL-2.0
/*
 * pfnstate - the idle state of single PFNs, for the distro tests.
 *
 *   pfnstate mark PFN...   write 1 to /proc/kpageidle for each PFN
 *   pfnstate get PFN...    one line per PFN:
 *                          "PFN idle=0|1 cgroup=INO lru=0|1 ksm=0|1 huge=0|1"
 *                          (/proc/kpageidle, kpagecgroup, kpageflags)
 *   pfnstate scan PFN...   KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK over the
 *                          64 PFNs around each PFN: "PFN idle=0|1" (the
 *                          state before the ioctl marked it again)
 *   pfnstate range LO HI   KPAGEIDLE_SCAN_MARK over [LO, HI) in chunks:
 *                          "scanned=N idle=N skipped=N" (LO a multiple
 *                          of 64)
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
 * include/uapi/linux/kpageidle.h of the series (top/kpageidle_abi.h).  With
 * SCAN_MARK the ioctl needs a descriptor open for writing too (EBADF
 * otherwise, docs/kpageidle.md), as a write of marks does.
 */
struct scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len;
	uint64_t nr_skipped, nr_records, cgroup_id;
};
#define SCAN_MARK	1ULL
#define KPAGEIDLE_SCAN	_IOWR(0xBB, 0x01, struct scan_arg)

#define KPF_LRU		5
#define KPF_HUGE	17
#define KPF_KSM		21
#define KPF_IDLE	25

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

static int scan(int fd, uint64_t lo, uint64_t hi, uint64_t *vec,
		struct scan_arg *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->flags = SCAN_MARK;
	a->start = lo;
	a->end = hi;
	a->vec = (uint64_t)(uintptr_t)vec;
	a->vec_len = (hi - lo + 63) / 64;
	return ioctl(fd, KPAGEIDLE_SCAN, a);
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
		struct scan_arg a;
		uint64_t vec;

		fd = open_or_die("/proc/kpageidle", O_RDWR);
		for (i = 2; i < argc; i++) {
			uint64_t pfn = parse_pfn(argv[i]), lo = pfn & ~63ULL;

			if (scan(fd, lo, lo + 64, &vec, &a))
				die("KPAGEIDLE_SCAN");
			printf("%llu idle=%d\n", (unsigned long long)pfn,
			       (int)(vec >> (pfn - lo) & 1));
		}
	} else if (!strcmp(argv[1], "range") && argc == 4) {
		uint64_t lo = parse_pfn(argv[2]), hi = parse_pfn(argv[3]);
		uint64_t vec[64], n = 0, idle = 0, skipped = 0;
		struct scan_arg a;

		fd = open_or_die("/proc/kpageidle", O_RDWR);
		while (lo < hi) {
			uint64_t e = hi - lo > 4096 ? lo + 4096 : hi, j;

			if (scan(fd, lo, e, vec, &a))
				die("KPAGEIDLE_SCAN");
			if (a.walk_end <= lo)
				break;
			for (j = 0; j < a.walk_end - lo; j++)
				idle += vec[j / 64] >> (j % 64) & 1;
			n += a.walk_end - lo;
			skipped += a.nr_skipped;
			lo = a.walk_end;
		}
		printf("scanned=%llu idle=%llu skipped=%llu\n",
		       (unsigned long long)n, (unsigned long long)idle,
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
