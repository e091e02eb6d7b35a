// SPDX-License-Identifier: GPL-2.0
/*
 * scanbench - the reference scanners `make bench` compares idletop with.
 *
 *   scanbench floor-mark   write 1s to /proc/kpageidle in 64 Ki-entry
 *                          (512 KiB) writes until ENXIO
 *   scanbench floor-read   read /proc/kpageflags, /proc/kpagecgroup and
 *                          /proc/kpageidle in lockstep, 64 Ki entries per
 *                          read(2), to EOF; no aggregation at all
 *   scanbench seed-mark    the 2015 seed script's set_idle(): one 8-byte
 *                          write(2) of 1 per PFN until ENXIO
 *   scanbench seed-read    the seed script's count_idle(): one 8-byte
 *                          read(2) per PFN from each of the three files,
 *                          skip unevictable, count 512 for KPF_THP, add
 *                          per memcg inode; prints the per-inode totals
 *
 * One steady-state cycle of the idle state alone (test every page, mark
 * it idle again), 64 Ki PFNs per call, three ways; each prints the
 * number of idle PFNs it found:
 *
 *   scanbench cycle-ioctl  KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK on
 *                          /proc/kpageidle: one call per range, one
 *                          rmap walk per user page
 *   scanbench cycle-rw     read() 64 Ki entries of /proc/kpageidle, then
 *                          write() 64 Ki 1s to the same range
 *   scanbench cycle-bitmap the same through page_idle/bitmap (8 KiB
 *                          read, 8 KiB of all-ones words written)
 *
 * The floor is the least a user-space scanner of these files can do per
 * cycle; the seed method is the script written in C, so that only the
 * system call pattern differs, not the interpreter.
 * Exit: 0 ok, 1 error, 2 usage.
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
#include "../top/kpageidle_abi.h"

#define BATCH		(64 * 1024)	/* entries per read/write */
#define KPF_UNEVICTABLE	18
#define KPF_THP		22

static uint64_t buf[3][BATCH];

static void die(const char *what)
{
	fprintf(stderr, "scanbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		die(path);
	return fd;
}

static unsigned long floor_mark(void)
{
	int fd = open_or_die("/proc/kpageidle", O_WRONLY);
	unsigned long pfns = 0;
	size_t i;
	ssize_t n;

	for (i = 0; i < BATCH; i++)
		buf[0][i] = 1;
	for (;;) {
		n = write(fd, buf[0], sizeof(buf[0]));
		if (n < 0) {
			if (errno == ENXIO)
				break;
			die("write /proc/kpageidle");
		}
		pfns += (unsigned long)n / 8;
	}
	close(fd);
	return pfns;
}

static unsigned long floor_read(void)
{
	static const char *const path[3] = {
		"/proc/kpageflags", "/proc/kpagecgroup", "/proc/kpageidle"
	};
	unsigned long pfns = 0;
	int fd[3], k;
	ssize_t n, m;

	for (k = 0; k < 3; k++)
		fd[k] = open_or_die(path[k], O_RDONLY);
	for (;;) {
		n = read(fd[0], buf[0], sizeof(buf[0]));
		if (n < 0)
			die(path[0]);
		if (n == 0)
			break;
		for (k = 1; k < 3; k++) {
			m = read(fd[k], buf[k], (size_t)n);
			if (m != n) {
				if (m >= 0)
					errno = EIO;
				die(path[k]);
			}
		}
		pfns += (unsigned long)n / 8;
	}
	for (k = 0; k < 3; k++)
		close(fd[k]);
	return pfns;
}

static unsigned long seed_mark(void)
{
	int fd = open_or_die("/proc/kpageidle", O_WRONLY);
	uint64_t one = 1;
	unsigned long pfns = 0;

	for (;;) {
		if (write(fd, &one, 8) != 8) {
			if (errno == ENXIO)
				break;
			die("write /proc/kpageidle");
		}
		pfns++;
	}
	close(fd);
	return pfns;
}

/* The script's dict: memcg inode -> idle pages (open addressing). */
#define NSLOT 4096
static uint64_t slot_ino[NSLOT], slot_n[NSLOT];
static int slot_used[NSLOT];

static void add_idle(uint64_t ino, uint64_t n)
{
	size_t h = (size_t)(ino * 0x9e3779b97f4a7c15ULL) >> 52;

	while (slot_used[h] && slot_ino[h] != ino)
		h = (h + 1) % NSLOT;
	slot_used[h] = 1;
	slot_ino[h] = ino;
	slot_n[h] += n;
}

static int read8(int fd, uint64_t *v)
{
	ssize_t n = read(fd, v, 8);

	if (n < 0)
		die("read");
	return n == 8;
}

static unsigned long seed_read(void)
{
	int ff = open_or_die("/proc/kpageflags", O_RDONLY);
	int fc = open_or_die("/proc/kpagecgroup", O_RDONLY);
	int fi = open_or_die("/proc/kpageidle", O_RDONLY);
	uint64_t flags, ino, idle;
	unsigned long pfns = 0;
	size_t h;

	while (read8(ff, &flags)) {
		pfns++;
		if (!read8(fc, &ino) || !read8(fi, &idle)) {
			errno = EIO;
			die("short kpagecgroup/kpageidle");
		}
		if (!idle)
			continue;
		if ((flags >> KPF_UNEVICTABLE) & 1)
			continue;
		add_idle(ino, (flags >> KPF_THP) & 1 ? 512 : 1);
	}
	close(ff);
	close(fc);
	close(fi);
	for (h = 0; h < NSLOT; h++)
		if (slot_used[h])
			printf("ino %llu: %llu idle pages\n",
			       (unsigned long long)slot_ino[h],
			       (unsigned long long)slot_n[h]);
	return pfns;
}

static unsigned long idle_found;

static void count_bits(const uint64_t *w, size_t words)
{
	size_t i;

	for (i = 0; i < words; i++)
		idle_found += (unsigned long)__builtin_popcountll(w[i]);
}

static unsigned long cycle_ioctl(void)
{
	int fd = open_or_die("/proc/kpageidle", O_RDWR);
	struct kpageidle_scan_arg a = {
		.size = sizeof(a), .flags = KPAGEIDLE_SCAN_MARK,
		.vec = (uintptr_t)buf[0], .vec_len = BATCH / 64,
	};
	uint64_t pfn = 0;

	for (;;) {
		a.start = pfn;
		a.end = pfn + BATCH;
		if (ioctl(fd, KPAGEIDLE_SCAN, &a)) {
			if (errno == ENXIO)
				break;
			if (errno == EINTR && a.walk_end > pfn) {
				count_bits(buf[0], (size_t)(a.walk_end - pfn) / 64);
				pfn = a.walk_end;
				continue;
			}
			die("ioctl KPAGEIDLE_SCAN");
		}
		count_bits(buf[0], (size_t)(a.walk_end - pfn + 63) / 64);
		if (a.walk_end < a.end) {	/* max_pfn */
			pfn = a.walk_end;
			break;
		}
		pfn = a.end;
	}
	close(fd);
	return (unsigned long)pfn;
}

/* Read a range, then write 1s to it; entry = 8 B (kpageidle) or 64 PFNs. */
static unsigned long cycle_rw(const char *path, int bitmap)
{
	int fd = open_or_die(path, O_RDWR);
	size_t len = bitmap ? sizeof(buf[0]) / 64 : sizeof(buf[0]), i;
	unsigned long pfns = 0;
	off_t off = 0;
	ssize_t n, w;

	for (i = 0; i < BATCH; i++)
		buf[1][i] = bitmap ? ~0ULL : 1;
	for (;;) {
		n = pread(fd, buf[0], len, off);
		if (n < 0)
			die(path);
		if (n == 0)
			break;
		if (bitmap) {
			count_bits(buf[0], (size_t)n / 8);
		} else {
			for (i = 0; i < (size_t)n / 8; i++)
				idle_found += buf[0][i] & 1;
		}
		/* sysfs takes at most a page per call; ENXIO past max_pfn */
		for (i = 0; i < (size_t)n; i += (size_t)w) {
			w = pwrite(fd, (char *)buf[1] + i, (size_t)n - i,
				   off + (off_t)i);
			if (w < 0 && errno == ENXIO)
				break;
			if (w <= 0)
				die(path);
		}
		pfns += (unsigned long)n / 8 * (bitmap ? 64 : 1);
		off += n;
	}
	close(fd);
	return pfns;
}

int main(int argc, char **argv)
{
	unsigned long pfns;

	if (argc != 2)
		goto usage;
	if (!strcmp(argv[1], "floor-mark"))
		pfns = floor_mark();
	else if (!strcmp(argv[1], "floor-read"))
		pfns = floor_read();
	else if (!strcmp(argv[1], "seed-mark"))
		pfns = seed_mark();
	else if (!strcmp(argv[1], "seed-read"))
		pfns = seed_read();
	else if (!strcmp(argv[1], "cycle-ioctl"))
		pfns = cycle_ioctl();
	else if (!strcmp(argv[1], "cycle-rw"))
		pfns = cycle_rw("/proc/kpageidle", 0);
	else if (!strcmp(argv[1], "cycle-bitmap"))
		pfns = cycle_rw("/sys/kernel/mm/page_idle/bitmap", 1);
	else
		goto usage;
	if (!strncmp(argv[1], "cycle-", 6))
		fprintf(stderr, "scanbench %s: %lu pfns, %lu idle\n", argv[1],
			pfns, idle_found);
	else
		fprintf(stderr, "scanbench %s: %lu pfns\n", argv[1], pfns);
	return 0;
usage:
	fprintf(stderr, "usage: scanbench floor-mark|floor-read|seed-mark|"
		"seed-read|cycle-ioctl|cycle-rw|cycle-bitmap\n");
	return 2;
}
