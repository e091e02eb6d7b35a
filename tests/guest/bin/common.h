/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - what more than one guest helper needs; a helper includes it
 * after #define _GNU_SOURCE.  vm/mkinitramfs builds only the *.c files
 * of tests/guest/bin, so this is no helper of its own.
 */
#ifndef GUEST_BIN_COMMON_H
#define GUEST_BIN_COMMON_H

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * The PFNs of a /proc/kpage* file of 8 bytes per PFN (kpageflags: up to
 * the end of the last memory section, past max_pfn): the first one that
 * cannot be read.
 */
static inline uint64_t kpage_pfns(int fd)
{
	uint64_t lo = 0, hi = 1ULL << 36, e;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (pread(fd, &e, 8, (off_t)(mid * 8)) == 8)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* This thread, and those it starts from now, on CPU 0 only: 0, or -1
 * with errno. */
static inline int pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

#endif
