// SPDX-License-Identifier: GPL-2.0
/*
 * folioshape - what the user memory of a cgroup (or of the machine) is
 * made of, from /proc/kpageflags and /proc/kpagecgroup: LRU folios
 * (head and the COMPOUND_TAIL PFNs after it; hugetlb left out) by size.
 *
 *   folioshape [CGROUP_DIR]
 *
 * prints one line, sizes in PFNs:
 *   folios=N small=PFNS large=PFNS large_file=PFNS pmd=PFNS pmd_anon=PFNS
 * small: 4 KiB folios; large: 2..511 PFNs (large_file: of them not anon);
 * pmd: 512 PFNs or more (pmd_anon: anon).  A folio belongs to the cgroup
 * of its head.  For the folio records' tests (large folios must be there for a
 * test of them to mean anything) and bench (records against folios).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KPF_LRU			5
#define KPF_ANON		12
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_HUGE		17
#define KPF_NOPAGE		20
#define BIT(f, b)	(((f) >> (b)) & 1)
#define CHUNK		65536

static uint64_t flags[CHUNK], cg[CHUNK];
static uint64_t folios, small, large, lfile, pmd, panon;

/* One folio of the cgroup ended: size PFNs. */
static void account(uint64_t size, int anon)
{
	folios++;
	if (size == 1) {
		small++;
	} else if (size < 512) {
		large += size;
		lfile += anon ? 0 : size;
	} else {
		pmd += size;
		panon += anon ? size : 0;
	}
}

static void die(const char *what)
{
	fprintf(stderr, "folioshape: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Entries [pfn, pfn + CHUNK) of one file; the number read. */
static size_t chunk(int fd, uint64_t *buf, uint64_t pfn)
{
	ssize_t r = pread(fd, buf, sizeof(flags), (off_t)(pfn * 8));

	if (r < 0)
		die("pread");
	return (size_t)r / 8;
}

int main(int argc, char **argv)
{
	uint64_t pfn = 0, n, i, size = 0, ino = 0;
	int kf = open("/proc/kpageflags", O_RDONLY);
	int kc = open("/proc/kpagecgroup", O_RDONLY);
	int mine = 0, anon = 0;
	struct stat st;

	if (argc > 2 || (argc == 2 && !strcmp(argv[1], "-h"))) {
		fputs("usage: folioshape [CGROUP_DIR]\n", stderr);
		return 2;
	}
	if (argc == 2) {
		if (stat(argv[1], &st))
			die(argv[1]);
		ino = st.st_ino;
	}
	if (kf < 0 || kc < 0)
		die("/proc/kpageflags, /proc/kpagecgroup");
	for (;;) {
		n = chunk(kf, flags, pfn);
		if (!n)
			break;
		if (chunk(kc, cg, pfn) < n)
			die("short read of kpagecgroup");
		for (i = 0; i < n; i++) {
			uint64_t f = flags[i];

			if (size && BIT(f, KPF_COMPOUND_TAIL)) {
				size++;		/* a tail of the folio */
				continue;
			}
			if (size && mine)	/* the folio ended */
				account(size, anon);
			size = 0;
			if (BIT(f, KPF_NOPAGE) || BIT(f, KPF_HUGE) ||
			    !BIT(f, KPF_LRU) || BIT(f, KPF_COMPOUND_TAIL))
				continue;
			mine = !ino || cg[i] == ino;
			anon = BIT(f, KPF_ANON);
			size = 1;
		}
		pfn += n;
	}
	if (size && mine)
		account(size, anon);
	printf("folios=%llu small=%llu large=%llu large_file=%llu pmd=%llu "
	       "pmd_anon=%llu\n", (unsigned long long)folios,
	       (unsigned long long)small, (unsigned long long)large,
	       (unsigned long long)lfile, (unsigned long long)pmd,
	       (unsigned long long)panon);
	return 0;
}
