// SPDX-License-Identifier: GPL-2.0
/*
 * touchloop - a memory-touching workload whose throughput is measured with
 * and without idletop running.
 *
 *   touchloop SIZE_MIB SECONDS [TICK_MS [DELAY_S]]
 *
 * Maps SIZE_MIB of anonymous memory (no THP), writes every page once, then
 * for SECONDS writes one byte to a pseudo-random page (xorshift64) in a
 * loop and prints
 *
 *   TOUCH ops=N seconds=S ops_per_s=R cpu_s=C ops_per_cpu_s=Q
 *
 * (C is the loop's own CPU time, so Q leaves out the CPU other processes
 * took from it.)  With TICK_MS, a child process that sleeps TICK_MS in a
 * loop runs beside it (on the same CPUs): two switches of address space
 * per tick, each of which flushes the TLB.  Under QEMU TCG that evens out
 * the software TLB's size, which QEMU only adapts when the TLB is
 * flushed: a loop that nothing flushes keeps the small TLB it started
 * with and runs several times slower than one flushed now and then.
 * DELAY_S: sleep that long between writing every page once and the timed
 * loop (so that a scanner can find the pages first).
 * Exit: 0 ok, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

static double mono(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("touchloop: clock_gettime");
		exit(1);
	}
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru)) {
		perror("touchloop: getrusage");
		exit(1);
	}
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* A child that sleeps tick_ms in a loop until the parent exits. */
static pid_t ticker(double tick_ms)
{
	struct timespec ts;
	pid_t pid;

	ts.tv_sec = (time_t)(tick_ms / 1000);
	ts.tv_nsec = (long)((tick_ms - (double)ts.tv_sec * 1000) * 1e6);
	pid = fork();

	if (pid < 0) {
		perror("touchloop: fork");
		exit(1);
	}
	if (pid > 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL)) {
		perror("touchloop: prctl");
		_exit(1);
	}
	for (;;)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	size_t size, pages, i;
	volatile char *mem;
	uint64_t x = 88172645463325252ULL, ops = 0;
	double secs, t0, t, c0, c, tick = 0, delay = 0;
	struct timespec ts;
	pid_t tp = 0;

	if (argc >= 4)
		tick = atof(argv[3]);
	if (argc == 5)
		delay = atof(argv[4]);
	if (argc < 3 || argc > 5 || atoi(argv[1]) <= 0 || atof(argv[2]) <= 0 ||
	    (argc >= 4 && tick <= 0) || (argc == 5 && delay <= 0)) {
		fprintf(stderr, "usage: touchloop SIZE_MIB SECONDS "
			"[TICK_MS [DELAY_S]]\n");
		return 2;
	}
	size = (size_t)atoi(argv[1]) << 20;
	secs = atof(argv[2]);
	/* before the mmap, so that the loop's pages are not copy-on-write */
	if (tick > 0)
		tp = ticker(tick);
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("touchloop: mmap");
		return 1;
	}
	if (madvise((void *)mem, size, MADV_NOHUGEPAGE)) {
		perror("touchloop: madvise");
		return 1;
	}
	pages = size >> 12;
	for (i = 0; i < pages; i++)
		mem[i << 12] = 1;
	if (delay > 0) {
		ts.tv_sec = (time_t)delay;
		ts.tv_nsec = (long)((delay - (double)ts.tv_sec) * 1e9);
		if (nanosleep(&ts, NULL)) {
			perror("touchloop: nanosleep");
			return 1;
		}
	}
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
	if (tp > 0 && (kill(tp, SIGKILL) || waitpid(tp, NULL, 0) < 0)) {
		perror("touchloop: ticker");
		return 1;
	}
	printf("TOUCH ops=%llu seconds=%.3f ops_per_s=%.0f cpu_s=%.3f "
	       "ops_per_cpu_s=%.0f\n", (unsigned long long)ops, t,
	       (double)ops / t, c, c > 0 ? (double)ops / c : 0);
	return 0;
}
