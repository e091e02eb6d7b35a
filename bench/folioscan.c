// SPDX-License-Identifier: GPL-2.0
/*
 * folioscan - what one cycle of the KPAGEIDLE_SCAN ioctl returns (struct
 * kpageidle_folio records), against the folios it describes, for
 * `make bench`.
 *
 *   folioscan NAME
 *
 * One pass over all PFNs as idletop makes it (KPAGEIDLE_SCAN with
 * KPAGEIDLE_SCAN_MARK, 64 Ki PFNs per range, 4096 records per call,
 * resuming at walk_end), then a count of the LRU folios /proc/kpageflags
 * shows (a head: KPF_LRU, not a compound tail, not hugetlb).  Prints
 *
 *   BENCHREC name=NAME records=R calls=C covered=P idle=I folios=F
 *            pfns=N cpu_s=S
 *
 * R records over C calls covering P PFNs, I of them idle; F LRU folios
 * among the N PFNs of kpageflags; S the CPU time of the scan pass alone.
 * Records per folio (R / F) is what merging runs saves.
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
#include <time.h>
#include <unistd.h>
#include "kpageidle_abi.h"

#define RANGE	65536
#define RECS	4096
#define KPF_LRU			5
#define KPF_COMPOUND_TAIL	16
#define KPF_HUGE		17
#define KPF_NOPAGE		20
#define BIT(f, b)	(((f) >> (b)) & 1)

static struct kpageidle_folio rec[RECS];
static uint64_t flags[RANGE];

static void die(const char *what)
{
	fprintf(stderr, "folioscan: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct tally {
	uint64_t records, calls, covered, idle;
};

/* One call from *pfn; 0 at the end (ENXIO). */
static int one_call(int fd, uint64_t *pfn, uint64_t end, struct tally *t)
{
	struct kpageidle_scan_arg a;
	uint64_t i;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = KPAGEIDLE_SCAN_MARK;
	a.start = *pfn;
	a.end = end;
	a.vec = (uintptr_t)rec;
	a.vec_len = RECS;
	t->calls++;
	if (ioctl(fd, KPAGEIDLE_SCAN, &a)) {
		if (errno == ENXIO)
			return 0;
		die("KPAGEIDLE_SCAN");
	}
	if (a.walk_end <= *pfn || a.nr_records > RECS) {
		errno = EIO;
		die("walk_end or nr_records out of range");
	}
	for (i = 0; i < a.nr_records; i++) {
		t->covered += rec[i].nr_pages;
		if (rec[i].flags & KPAGEIDLE_FOLIO_IDLE)
			t->idle += rec[i].nr_pages;
	}
	t->records += a.nr_records;
	*pfn = a.walk_end;
	return 1;
}

static void scan(struct tally *t)
{
	int fd = open("/proc/kpageidle", O_RDWR);
	uint64_t pfn = 0, end;

	if (fd < 0)
		die("/proc/kpageidle");
	for (;;) {
		end = (pfn / RANGE + 1) * RANGE;
		while (pfn < end)
			if (!one_call(fd, &pfn, end, t))
				goto out;
	}
out:
	close(fd);
}

/* LRU folios (heads) and PFNs in /proc/kpageflags. */
static void count_folios(uint64_t *folios, uint64_t *pfns)
{
	int fd = open("/proc/kpageflags", O_RDONLY);
	ssize_t r;
	size_t i;

	if (fd < 0)
		die("/proc/kpageflags");
	*folios = *pfns = 0;
	while ((r = pread(fd, flags, sizeof(flags), (off_t)(*pfns * 8))) > 0) {
		for (i = 0; i < (size_t)r / 8; i++)
			*folios += BIT(flags[i], KPF_LRU) &&
				   !BIT(flags[i], KPF_COMPOUND_TAIL) &&
				   !BIT(flags[i], KPF_HUGE) &&
				   !BIT(flags[i], KPF_NOPAGE);
		*pfns += (uint64_t)r / 8;
	}
	if (r < 0)
		die("read /proc/kpageflags");
	close(fd);
}

int main(int argc, char **argv)
{
	struct tally t = { 0 };
	uint64_t folios, pfns;
	double c0;

	if (argc != 2) {
		fputs("usage: folioscan NAME\n", stderr);
		return 2;
	}
	c0 = cpu_now();
	scan(&t);
	c0 = cpu_now() - c0;
	count_folios(&folios, &pfns);
	printf("BENCHREC name=%s records=%llu calls=%llu covered=%llu "
	       "idle=%llu folios=%llu pfns=%llu cpu_s=%.6f\n", argv[1],
	       (unsigned long long)t.records, (unsigned long long)t.calls,
	       (unsigned long long)t.covered, (unsigned long long)t.idle,
	       (unsigned long long)folios, (unsigned long long)pfns, c0);
	return 0;
}
