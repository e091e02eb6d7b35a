// SPDX-License-Identifier: GPL-2.0
/*
 * touchloop - a memory-touching workload whose throughput is measured with
 * and without idletop running.
 *
 *   touchloop SIZE_MIB SECONDS
 *
 * Maps SIZE_MIB of anonymous memory (no THP), writes every page once, then
 * for SECONDS writes one byte to a pseudo-random page (xorshift64) in a
 * loop and prints
 *
 *   TOUCH ops=N seconds=S ops_per_s=R cpu_s=C ops_per_cpu_s=Q
 *
 * (C is the loop's own CPU time, so Q leaves out the CPU other processes
 * took from it.)
 * Exit: 0 ok, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/resource.h>

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	size_t size, pages, i;
	volatile char *mem;
	uint64_t x = 88172645463325252ULL, ops = 0;
	double secs, t0, t, c0, c;

	if (argc != 3 || atoi(argv[1]) <= 0 || atof(argv[2]) <= 0) {
		fprintf(stderr, "usage: touchloop SIZE_MIB SECONDS\n");
		return 2;
	}
	size = (size_t)atoi(argv[1]) << 20;
	secs = atof(argv[2]);
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("touchloop: mmap");
		return 1;
	}
	madvise((void *)mem, size, MADV_NOHUGEPAGE);
	pages = size >> 12;
	for (i = 0; i < pages; i++)
		mem[i << 12] = 1;
	t0 = mono();
	c0 = cpu();
	do {
		/* check the clock every 4096 touches */
		for (i = 0; i < 4096; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			mem[(x % pages) << 12]++;
		}
		ops += 4096;
		t = mono() - t0;
	} while (t < secs);
	c = cpu() - c0;
	printf("TOUCH ops=%llu seconds=%.3f ops_per_s=%.0f cpu_s=%.3f "
	       "ops_per_cpu_s=%.0f\n", (unsigned long long)ops, t,
	       (double)ops / t, c, c > 0 ? (double)ops / c : 0);
	return 0;
}
