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
 *                          /proc/kpageidle: one call per 64 Ki-PFN range
 *                          (resuming at walk_end, which a folio across
 *                          the range's end moves past it), one rmap walk
 *                          per user folio, struct kpageidle_folio records
 *                          out; idle = the PFNs of the idle records (a
 *                          THP counts 512, where a read counts its head)
 *   scanbench cycle-rw     read() 64 Ki entries of /proc/kpageidle, then
 *                          write() 64 Ki 1s to the same range
 *   scanbench cycle-bitmap the same through page_idle/bitmap (8 KiB
 *                          read, 8 KiB of all-ones words written)
 *
 * The cost of the TLB flush that ends every KPAGEIDLE_SCAN_MARK call
 * (patch 0015); both need two online CPUs:
 *
 *   scanbench flush-calls CALLS ROUNDS
 *                          pins itself to CPU 0 and makes CALLS calls per
 *                          mode per round, the modes rotating per round,
 *                          over one 64-PFN chunk (end - start = 64; a
 *                          THP there is reported whole, walk_end past
 *                          end): "ipi" = MARK on a THP (2 MiB,
 *                          MADV_HUGEPAGE) of a child spinning on
 *                          CPU 1 (each call flushes CPU 1 with an IPI),
 *                          "local" = MARK on a THP of a child pinned to
 *                          CPU 0 and asleep (the same rmap walk and flush
 *                          bookkeeping, no CPU to interrupt), "write" =
 *                          64 1s written to /proc/kpageidle over the
 *                          spinner's chunk (the same rmap walk, no flush at
 *                          all), "empty" = MARK on a chunk without LRU pages
 *                          (the call alone); prints per round and mode
 *     FLUSHCALL mode=M round=R calls=N wall_us=W cpu_us=C tlb=T cal=F
 *               accessed=A
 *                          W, C per call (wall, CPU of this thread); T the
 *                          TLB shootdowns received over all CPUs during the
 *                          N calls (the "TLB" row of /proc/interrupts), F
 *                          the function-call IPIs ("CAL"); A
 *                          the calls that found the page accessed: a
 *                          record at the chunk's first PFN without
 *                          KPAGEIDLE_FOLIO_IDLE (-1 for write; 0 for empty,
 *                          which has no record)
 *   scanbench loop MODE SECONDS CHUNK [PID]
 *                          for SECONDS or until SIGTERM, cycle over all
 *                          PFNs in CHUNK-PFN calls (end - start = CHUNK,
 *                          the next call from walk_end), or with PID (CHUNK
 *                          64) over only the chunks holding pages of
 *                          process PID, so that every marking call
 *                          flushes its TLB; MODE mark = KPAGEIDLE_SCAN
 *                          with KPAGEIDLE_SCAN_MARK, write = write() of 1s
 *                          to /proc/kpageidle (the same marking, no
 *                          flush), bitmap = 1s written to
 *                          /sys/kernel/mm/page_idle/bitmap (the same
 *                          marking through mainline's page_idle.c, which
 *                          never flushes; at most 32 Ki PFNs per write),
 *                          test = KPAGEIDLE_SCAN without the flag
 *                          (no marking, no flush); prints
 *     FLUSHLOOP mode=M chunk=K[pid] calls=N pfns=P seconds=S tlb=T cal=F
 *               targets=C cpu_s=U cal_cpu=F0,F1.. tlb_cpu=T0,T1..
 *                          P: the PFNs visited (for the ioctl walk_end -
 *                          start, a folio across a call's end included);
 *                          T, F: TLB shootdowns and function-call IPIs
 *                          received over all CPUs, F0.., T0.. per CPU;
 *                          C: the chunks of PID; U: the loop's CPU time
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
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../top/kpageidle_abi.h"

#define BATCH		(64 * 1024)	/* entries per read/write */
#define KPF_LRU		5
#define KPF_UNEVICTABLE	18
#define KPF_THP		22
#define THP_SIZE	(2UL << 20)
#define CHUNK		64	/* PFNs per flush-calls call */

static uint64_t buf[3][BATCH];	/* [2]: bitmap words of 1s for loop */
/* KPAGEIDLE_SCAN's output: at most a record per PFN of a call */
static struct kpageidle_folio rec[BATCH];

static void die(const char *what)
{
	fprintf(stderr, "scanbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* uses die() */
#include "benchutil.h"

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

/* The PFNs of the idle records among the first n of rec. */
static void count_records(uint64_t n)
{
	uint64_t i;

	if (n > BATCH) {
		errno = EIO;
		die("KPAGEIDLE_SCAN: nr_records past vec_len");
	}
	for (i = 0; i < n; i++)
		if (rec[i].flags & KPAGEIDLE_FOLIO_IDLE)
			idle_found += (unsigned long)rec[i].nr_pages;
}

/*
 * KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK over all PFNs, ranges of BATCH
 * PFNs from where the last call stopped (walk_end, past a range's end
 * when a folio crosses it), a record slot per PFN: only max_pfn stops a
 * call short.  The PFNs walked.
 */
static unsigned long cycle_ioctl(void)
{
	int fd = open_or_die("/proc/kpageidle", O_RDWR);
	struct kpageidle_scan_arg a = {
		.size = sizeof(a), .flags = KPAGEIDLE_SCAN_MARK,
		.vec = (uintptr_t)rec, .vec_len = BATCH,
	};
	uint64_t pfn = 0;

	for (;;) {
		a.start = pfn;
		a.end = pfn + BATCH;
		if (ioctl(fd, KPAGEIDLE_SCAN, &a)) {
			if (errno == ENXIO)
				break;
			if (errno == EINTR && a.walk_end > pfn) {
				count_records(a.nr_records);
				pfn = a.walk_end;
				continue;
			}
			die("ioctl KPAGEIDLE_SCAN");
		}
		if (a.walk_end <= pfn) {
			errno = EIO;
			die("KPAGEIDLE_SCAN: walk_end did not advance");
		}
		count_records(a.nr_records);
		pfn = a.walk_end;
		if (a.walk_end < a.end)		/* max_pfn */
			break;
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

#define MAXCPU 64

/*
 * Interrupts received so far of one row of /proc/interrupts: "TLB" (TLB
 * shootdowns) or "CAL" (function calls, e.g. flush_tlb_all()), per CPU
 * into per[] (with per non-NULL, at most MAXCPU), and their sum.
 */
static unsigned long long irq_cpus(const char *row, unsigned long long *per,
				   int *ncpu)
{
	static char text[64 * 1024];
	unsigned long long sum = 0, v;
	int fd = open_or_die("/proc/interrupts", O_RDONLY), n = 0;
	char key[16], *p, *end;
	size_t len = 0;
	ssize_t r;

	while ((r = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += (size_t)r;
	if (r < 0)
		die("read /proc/interrupts");
	close(fd);
	text[len] = 0;
	snprintf(key, sizeof(key), "%s:", row);	/* right-aligned names */
	p = strstr(text, key);
	while (p && p > text && p[-1] != ' ' && p[-1] != '\n')
		p = strstr(p + 1, key);
	if (!p) {
		errno = ENOENT;
		die(row);
	}
	p += strlen(key);
	for (;;) {
		v = strtoull(p, &end, 10);
		if (end == p)
			break;
		sum += v;
		if (per && n < MAXCPU)
			per[n++] = v;
		p = end;
	}
	if (ncpu)
		*ncpu = n;
	return sum;
}

static unsigned long long irq_row(const char *row)
{
	return irq_cpus(row, NULL, NULL);
}

static unsigned long long tlb_shootdowns(void)
{
	return irq_row("TLB");
}

/*
 * A child on CPU cpu with one THP, touched once, then touched in a loop
 * (spin) or left alone (pause); returns its pid and the THP's head PFN.
 */
static pid_t thp_child(int cpu, int spin, uint64_t *pfn)
{
	uint64_t flags, ent;
	uintptr_t addr;
	int p[2], fd;
	pid_t pid;
	char path[64];

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		volatile char *mem;
		char *raw;
		size_t i;

		close(p[0]);
		/* never outlive the bench */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL))
			die("prctl");
		pin(cpu);
		raw = mmap(NULL, 2 * THP_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw == MAP_FAILED)
			die("mmap");
		mem = (char *)(((uintptr_t)raw + THP_SIZE - 1) &
			       ~(THP_SIZE - 1));
		if (madvise((void *)mem, THP_SIZE, MADV_HUGEPAGE))
			die("madvise MADV_HUGEPAGE");
		for (i = 0; i < THP_SIZE; i += 4096)
			mem[i] = 1;
		addr = (uintptr_t)mem;
		if (write(p[1], &addr, sizeof(addr)) != sizeof(addr))
			die("write pipe");
		close(p[1]);
		if (!spin)
			for (;;)
				pause();
		for (;;)
			for (i = 0; i < THP_SIZE; i += 4096)
				mem[i]++;
	}
	close(p[1]);
	if (read(p[0], &addr, sizeof(addr)) != sizeof(addr)) {
		errno = EIO;
		die("child setup");
	}
	close(p[0]);
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open_or_die(path, O_RDONLY);
	if (pread(fd, &ent, 8, (off_t)(addr / 4096 * 8)) != 8)
		die(path);
	close(fd);
	if (!(ent >> 63)) {
		errno = EFAULT;
		die("child's page not present");
	}
	*pfn = ent & ((1ULL << 55) - 1);
	fd = open_or_die("/proc/kpageflags", O_RDONLY);
	if (pread(fd, &flags, 8, (off_t)(*pfn * 8)) != 8)
		die("/proc/kpageflags");
	close(fd);
	if (*pfn % 512 || !((flags >> KPF_THP) & 1)) {
		errno = EINVAL;
		die("the child's memory is not a THP (transparent_hugepage?)");
	}
	return pid;
}

/* The first 64-PFN chunk without an LRU page, for the "empty" mode. */
static uint64_t empty_chunk(void)
{
	int fd = open_or_die("/proc/kpageflags", O_RDONLY);
	uint64_t pfn = 0;
	ssize_t n;
	int i, lru;

	for (;; pfn += CHUNK) {
		n = pread(fd, buf[0], CHUNK * 8, (off_t)(pfn * 8));
		if (n < 0)
			die("/proc/kpageflags");
		if (n != CHUNK * 8) {
			errno = ENOENT;
			die("no 64-PFN chunk without LRU pages");
		}
		for (lru = 0, i = 0; i < CHUNK; i++)
			lru |= (buf[0][i] >> KPF_LRU) & 1;
		if (!lru)
			break;
	}
	close(fd);
	return pfn;
}

enum { M_IPI, M_LOCAL, M_WRITE, M_EMPTY, NMODES };
static const char *const mode_name[NMODES] = {
	"ipi", "local", "write", "empty"
};

/*
 * One KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK over [pfn, pfn + CHUNK)
 * (a THP at pfn is reported whole: walk_end pfn + 512).  1 if the
 * chunk's first PFN was found accessed: a record at it, not idle.
 */
static int mark_chunk(int fd, uint64_t pfn)
{
	struct kpageidle_scan_arg a = {
		.size = sizeof(a), .flags = KPAGEIDLE_SCAN_MARK,
		.start = pfn, .end = pfn + CHUNK,
		.vec = (uintptr_t)rec, .vec_len = CHUNK,
	};

	if (ioctl(fd, KPAGEIDLE_SCAN, &a))
		die("ioctl KPAGEIDLE_SCAN");
	if (a.walk_end < pfn + CHUNK || a.nr_records > CHUNK) {
		errno = EIO;
		die("KPAGEIDLE_SCAN stopped short");
	}
	return a.nr_records && rec[0].pfn == pfn &&
	       !(rec[0].flags & KPAGEIDLE_FOLIO_IDLE);
}

static void flush_calls(long calls, long rounds)
{
	int fd = open_or_die("/proc/kpageidle", O_RDWR);
	uint64_t pfn[NMODES], ones[CHUNK];
	unsigned long long t0, f0;
	pid_t spinner, sleeper;
	int order[NMODES], m, k, first;
	long r, i, acc;
	double w0, c0;

	for (i = 0; i < CHUNK; i++)
		ones[i] = 1;
	pin(0);
	spinner = thp_child(1, 1, &pfn[M_IPI]);
	sleeper = thp_child(0, 0, &pfn[M_LOCAL]);
	pfn[M_WRITE] = pfn[M_IPI];
	pfn[M_EMPTY] = empty_chunk();
	printf("FLUSHINFO ipi_pfn=%llu local_pfn=%llu empty_pfn=%llu\n",
	       (unsigned long long)pfn[M_IPI], (unsigned long long)pfn[M_LOCAL],
	       (unsigned long long)pfn[M_EMPTY]);
	for (m = 0; m < NMODES; m++)
		order[m] = m;
	/* round 0: warm-up, not printed */
	for (r = 0; r <= rounds; r++) {
		for (k = 0; k < NMODES; k++) {
			m = order[k];
			acc = 0;
			f0 = irq_row("CAL");
			t0 = tlb_shootdowns();
			w0 = now(CLOCK_MONOTONIC);
			c0 = now(CLOCK_THREAD_CPUTIME_ID);
			for (i = 0; i < calls; i++) {
				if (m != M_WRITE)
					acc += mark_chunk(fd, pfn[m]);
				else if (pwrite(fd, ones, sizeof(ones),
						(off_t)(pfn[m] * 8)) != sizeof(ones))
					die("write /proc/kpageidle");
			}
			c0 = now(CLOCK_THREAD_CPUTIME_ID) - c0;
			w0 = now(CLOCK_MONOTONIC) - w0;
			t0 = tlb_shootdowns() - t0;
			f0 = irq_row("CAL") - f0;
			if (r)
				printf("FLUSHCALL mode=%s round=%ld calls=%ld "
				       "wall_us=%.2f cpu_us=%.2f tlb=%llu "
				       "cal=%llu accessed=%ld\n", mode_name[m],
				       r, calls, w0 * 1e6 / (double)calls,
				       c0 * 1e6 / (double)calls, t0, f0,
				       m == M_WRITE ? -1L : acc);
		}
		first = order[0];	/* rotate, as run-guest.sh does */
		for (k = 1; k < NMODES; k++)
			order[k - 1] = order[k];
		order[NMODES - 1] = first;
		fflush(stdout);
	}
	if (kill(spinner, SIGKILL) || kill(sleeper, SIGKILL))
		die("kill");
	if (waitpid(spinner, NULL, 0) < 0 || waitpid(sleeper, NULL, 0) < 0)
		die("waitpid");
	close(fd);
}

static volatile sig_atomic_t stop_loop;

static void on_term(int sig)
{
	(void)sig;
	stop_loop = 1;
}

/* The 64-PFN chunks holding pages of process pid, sorted, for loop. */
static uint64_t tchunk[BATCH];
static size_t ntchunk;

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static void pid_chunks(const char *pid)
{
	unsigned long long lo, hi, va;
	char path[64], line[512];
	uint64_t ent;
	size_t i, k;
	FILE *maps;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/pagemap", pid);
	fd = open_or_die(path, O_RDONLY);
	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	maps = fopen(path, "re");
	if (!maps)
		die(path);
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%llx-%llx", &lo, &hi) != 2 ||
		    strstr(line, "[vsyscall]"))
			continue;
		for (va = lo; va < hi && ntchunk < BATCH; va += 4096) {
			if (pread(fd, &ent, 8, (off_t)(va / 4096 * 8)) != 8)
				die("pagemap");
			if (ent >> 63)	/* present: PFN in bits 0-54 */
				tchunk[ntchunk++] = ent & ((1ULL << 55) - 64);
		}
	}
	if (ferror(maps))
		die(path);
	fclose(maps);
	close(fd);
	if (!ntchunk) {
		errno = ENOENT;
		die("no pages in the target process");
	}
	qsort(tchunk, ntchunk, sizeof(tchunk[0]), cmp_u64);
	for (k = 1, i = 1; i < ntchunk; i++)
		if (tchunk[i] != tchunk[k - 1])
			tchunk[k++] = tchunk[i];
	ntchunk = k;
}

/* "a,b,...": per-CPU differences b - a */
static void cpu_list(char *out, size_t len, const unsigned long long *a,
		     const unsigned long long *b, int n)
{
	size_t used = 0;
	int i;

	out[0] = 0;
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%llu",
					 i ? "," : "", b[i] - a[i]);
}

/*
 * Mark chunk PFNs from pfn through page_idle/bitmap: 1s in chunk / 64
 * words at pfn / 64, at most a page per write (sysfs); the PFNs marked,
 * fewer past max_pfn.
 */
static uint64_t bitmap_mark(int fd, uint64_t pfn, uint64_t chunk)
{
	size_t len = (size_t)chunk / 64 * 8, done = 0, n;
	ssize_t w;

	while (done < len) {
		n = len - done < 4096 ? len - done : 4096;
		w = pwrite(fd, (char *)buf[2] + done, n,
			   (off_t)(pfn / 64 * 8 + done));
		if (w < 0 && errno == ENXIO)
			break;
		if (w <= 0)
			die("write page_idle/bitmap");
		done += (size_t)w;
	}
	return done / 8 * 64;
}

/*
 * Cycle over every PFN in chunk-PFN calls, or over the chunks of tchunk,
 * for secs seconds or to SIGTERM.
 */
static void loop(const char *mode, double secs, uint64_t chunk)
{
	int mark = !strcmp(mode, "mark"), wr = !strcmp(mode, "write");
	int bm = !strcmp(mode, "bitmap");
	int fd = open_or_die(bm ? "/sys/kernel/mm/page_idle/bitmap" :
			     "/proc/kpageidle", O_RDWR);
	struct kpageidle_scan_arg a = {
		.size = sizeof(a), .flags = mark ? KPAGEIDLE_SCAN_MARK : 0,
		.vec = (uintptr_t)rec, .vec_len = chunk,
	};
	unsigned long long t0, c0, calls = 0, pfns = 0;
	unsigned long long cal0[MAXCPU], cal1[MAXCPU], tlb0[MAXCPU], tlb1[MAXCPU];
	char calc[512], tlbc[512];
	uint64_t pfn = 0, next, i, got;
	size_t ti = 0;
	double w0, t, cpu0;
	ssize_t n;
	int ncpu;

	if (!mark && !wr && !bm && strcmp(mode, "test")) {
		errno = EINVAL;
		die(mode);
	}
	if (signal(SIGTERM, on_term) == SIG_ERR)
		die("signal");
	for (i = 0; i < chunk; i++)
		buf[1][i] = 1;
	for (i = 0; i < chunk / 64; i++)
		buf[2][i] = ~0ULL;
	if (ntchunk)
		pfn = tchunk[0];
	c0 = irq_cpus("CAL", cal0, &ncpu);
	t0 = irq_cpus("TLB", tlb0, NULL);
	w0 = now(CLOCK_MONOTONIC);
	cpu0 = now(CLOCK_THREAD_CPUTIME_ID);
	do {
		if (bm) {
			got = bitmap_mark(fd, pfn, chunk);
			next = got == chunk ? pfn + chunk : 0;
			pfns += got;
		} else if (wr) {
			n = pwrite(fd, buf[1], chunk * 8, (off_t)(pfn * 8));
			if (n < 0 && errno != ENXIO)
				die("write /proc/kpageidle");
			next = n > 0 && (uint64_t)n == chunk * 8 ?
			       pfn + chunk : 0;
			pfns += n > 0 ? (unsigned long long)n / 8 : 0;
		} else {
			/* the call size: end - start; the next call from
			 * walk_end, past end after a folio that crosses it;
			 * short of end only at max_pfn (a slot per PFN) */
			a.start = pfn;
			a.end = pfn + chunk;
			if (ioctl(fd, KPAGEIDLE_SCAN, &a)) {
				if (errno != ENXIO)
					die("ioctl KPAGEIDLE_SCAN");
				a.walk_end = pfn;
			}
			pfns += a.walk_end - pfn;
			next = a.walk_end >= pfn + chunk ? a.walk_end : 0;
		}
		if (ntchunk) {
			ti = (ti + 1) % ntchunk;
			next = tchunk[ti];
		}
		pfn = next;
		calls++;
		t = now(CLOCK_MONOTONIC) - w0;
	} while (t < secs && !stop_loop);
	cpu0 = now(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	t0 = irq_cpus("TLB", tlb1, NULL) - t0;
	c0 = irq_cpus("CAL", cal1, NULL) - c0;
	cpu_list(calc, sizeof(calc), cal0, cal1, ncpu);
	cpu_list(tlbc, sizeof(tlbc), tlb0, tlb1, ncpu);
	printf("FLUSHLOOP mode=%s chunk=%llu%s calls=%llu pfns=%llu "
	       "seconds=%.3f tlb=%llu cal=%llu targets=%zu cpu_s=%.4f "
	       "cal_cpu=%s tlb_cpu=%s\n", mode,
	       (unsigned long long)chunk, ntchunk ? "pid" : "", calls, pfns, t,
	       t0, c0, ntchunk, cpu0, calc, tlbc);
	close(fd);
}

int main(int argc, char **argv)
{
	unsigned long pfns;
	long a, b;

	if (argc == 4 && !strcmp(argv[1], "flush-calls")) {
		a = atol(argv[2]);
		b = atol(argv[3]);
		if (a <= 0 || b <= 0)
			goto usage;
		flush_calls(a, b);
		return 0;
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "loop")) {
		a = atol(argv[4]);
		if (atof(argv[3]) <= 0 || a < 64 || a > BATCH || a % 64 ||
		    (argc == 6 && (a != 64 || atol(argv[5]) <= 0)))
			goto usage;
		if (argc == 6)
			pid_chunks(argv[5]);
		loop(argv[2], atof(argv[3]), (uint64_t)a);
		return 0;
	}
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
		"seed-read|cycle-ioctl|cycle-rw|cycle-bitmap\n"
		"       scanbench flush-calls CALLS ROUNDS\n"
		"       scanbench loop mark|write|bitmap|test SECONDS CHUNK [PID]\n");
	return 2;
}
