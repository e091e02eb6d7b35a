// SPDX-License-Identifier: GPL-2.0
/*
 * peers - idle memory of one cgroup's workload, measured by the three
 * ways a 6.1 kernel offers, for `make bench`:
 *
 *   peers none  CGROUP WAIT CYCLES
 *   peers ioctl CGROUP WAIT CYCLES
 *   peers mglru CGROUP WAIT CYCLES
 *   peers damon CGROUP WAIT CYCLES [SAMPLE_US [WARMUP]]
 *   peers tick MS
 *
 * CGROUP is the workload's cgroup directory (/sys/fs/cgroup/...); one
 * cycle lasts WAIT seconds; CYCLES cycles are measured after one that
 * is not (the priming pass, or DAMON's first aggregations).
 *
 *   none   nothing monitors: the interrupts of the workload alone
 *   ioctl  idletop's method: KPAGEIDLE_SCAN with KPAGEIDLE_SCAN_MARK
 *          over every PFN (64 Ki PFNs per range, 4096 struct
 *          kpageidle_folio records per call), then WAIT seconds; idle =
 *          the pages of idle records of CGROUP's inode
 *   mglru  MGLRU forced aging: "+ MEMCG_ID NID MAX_SEQ 1 1" written to
 *          /sys/kernel/debug/lru_gen for every node (swappiness 1: anon
 *          is walked too, with or without swap; force_scan), which walks
 *          the page tables of the memcg's processes, moves the folios
 *          they find young into the youngest generation and then makes
 *          a new one; idle = the memcg's pages in the generations older
 *          than these two (lru_gen_full); needs MGLRU enabled
 *   damon  DAMON physical-address monitoring of the largest System RAM
 *          range of /proc/iomem through its sysfs interface, sampling
 *          every SAMPLE_US (default 5000, DAMON's default), aggregating
 *          every WAIT seconds, 10 to 1000 regions (the defaults), with
 *          two schemes of action "stat": regions with nr_accesses 0, and
 *          every region; 6.1 has no per-region output in sysfs
 *          (tried_regions came in 6.2), so idle comes from the schemes'
 *          sz_tried: per aggregation the first grows by the bytes of the
 *          regions not accessed during it, the second by the monitored
 *          size, which counts the aggregations.  DAMON cannot tell
 *          cgroups apart (memcg filters came in 6.3): idle = CGROUP's
 *          resident bytes minus every byte DAMON found accessed, i.e.
 *          all accesses are taken to be the workload's.  The regions
 *          adapt over aggregations: WARMUP of them (default 10) run
 *          before the first measured cycle
 *   tick   sleep MS milliseconds in a loop, until killed: run beside the
 *          workload on its CPU, every wake-up switches address spaces,
 *          which flushes QEMU's software TLB (a TLB that keeps no entry
 *          long, as a hardware TLB keeps few)
 *
 * Per measured cycle it prints
 *
 *   PEER peer=P cycle=I wall_s=W cpu_s=C idle=B busy=B resident=B
 *        idle_anon=B idle_file=B idle_shmem=B cal=N,N.. tlb=N,N.. [aggr=A]
 *
 * W the cycle's wall time (the wait and the measurement), C the CPU time
 * of the measurement: the calling thread's for ioctl and mglru (the
 * reads of lru_gen_full included), kdamond's (/proc/PID/stat, ticks)
 * for damon; idle, busy in bytes of CGROUP (-1 where the peer cannot
 * tell); resident = memory.stat's anon + file; cal, tlb: function-call
 * and TLB-shootdown interrupts per CPU during the cycle (/proc/interrupts
 * CAL and TLB rows).  For damon a "cycle" is WAIT seconds of sleep and
 * a read of the stats, which 6.1 answers only after the next aggregation
 * (its after_aggregation callback), and A the aggregations that ended
 * in it (usually 2); C and idle are per aggregation.  Then one line over
 * all measured cycles:
 *
 *   PEERSUM peer=P cycles=N ram_bytes=R monitored=M
 *
 * with R the PFNs of /proc/kpageflags times 4 KiB and M what the peer
 * looks at (ioctl: R; damon: the System RAM range; mglru: the memcg).
 * Nothing outlives the run: /proc/kpageidle is closed after every
 * cycle, DAMON turned off before peers exits (on an error, SIGINT or
 * SIGTERM too).
 * Exit: 0 ok, 1 error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "kpageidle_abi.h"

#define PAGE		4096ULL
#define RANGE		65536
#define RECS		4096
#define MAXCPU		64
#define LRU_GEN		"/sys/kernel/debug/lru_gen"
#define LRU_GEN_FULL	"/sys/kernel/debug/lru_gen_full"
#define KD		"/sys/kernel/mm/damon/admin/kdamonds"
#define CTX		KD "/0/contexts/0"

struct irqs {
	int ncpu;
	unsigned long long cal[MAXCPU], tlb[MAXCPU];
};

struct sample {
	long long idle, busy, resident;
	long long kind[3];	/* anon, file, shmem idle bytes */
	double cpu_s;
};

static const char *cgdir;
static int damon_on;
static struct kpageidle_folio rec[RECS];
static char text[256 * 1024];

static void damon_stop(void);

static void die(const char *what)
{
	fprintf(stderr, "peers: %s: %s\n", what, strerror(errno));
	if (damon_on)
		damon_stop();
	exit(1);
}

/* uses die() */
#include "benchutil.h"

static void nap(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts))
		if (errno != EINTR)
			die("nanosleep");
}

/* The whole of a (small, procfs or sysfs) file into text; its length. */
static size_t slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		die(path);
	while ((n = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += (size_t)n;
	if (n < 0)
		die(path);
	if (len == sizeof(text) - 1) {
		errno = EFBIG;
		die(path);
	}
	close(fd);
	text[len] = '\0';
	return len;
}

static void put(const char *path, const char *val)
{
	size_t len = strlen(val);
	int fd, tries;

	for (tries = 0; tries < 100; tries++) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			die(path);
		if (write(fd, val, len) == (ssize_t)len) {
			if (close(fd))
				die(path);
			return;
		}
		if (errno != EBUSY)
			die(path);
		close(fd);	/* DAMON's sysfs lock is a trylock */
		nap(0.01);
	}
	die(path);
}

static void putf(const char *val, const char *fmt, const char *arg)
{
	char path[512];

	snprintf(path, sizeof(path), fmt, arg);
	put(path, val);
}

static unsigned long long get_ull(const char *path)
{
	char *end;
	unsigned long long v;

	slurp(path);
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text) {
		errno = errno ? errno : EINVAL;
		die(path);
	}
	return v;
}

/* One row of /proc/interrupts, per CPU, into v; returns the CPUs. */
static int irq_row(const char *row, unsigned long long *v)
{
	char key[16], *p, *end;
	int n = 0;

	snprintf(key, sizeof(key), "%s:", row);
	p = strstr(text, key);
	while (p && p > text && p[-1] != ' ' && p[-1] != '\n')
		p = strstr(p + 1, key);
	if (!p) {
		errno = ENOENT;
		die(row);
	}
	for (p += strlen(key); n < MAXCPU; p = end) {
		v[n] = strtoull(p, &end, 10);
		if (end == p)
			break;
		n++;
	}
	return n;
}

static void irqs_now(struct irqs *s)
{
	slurp("/proc/interrupts");
	s->ncpu = irq_row("CAL", s->cal);
	if (irq_row("TLB", s->tlb) != s->ncpu) {
		errno = EINVAL;
		die("/proc/interrupts: CAL and TLB rows differ");
	}
}

static void irq_list(char *out, size_t len, const unsigned long long *a,
		     const unsigned long long *b, int ncpu)
{
	size_t used = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < ncpu && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%llu",
					 i ? "," : "", b[i] - a[i]);
}

static void emit(const char *peer, int cycle, double wall,
		 const struct sample *s, const struct irqs *i0,
		 const struct irqs *i1, int aggr)
{
	char cal[512], tlb[512];

	irq_list(cal, sizeof(cal), i0->cal, i1->cal, i1->ncpu);
	irq_list(tlb, sizeof(tlb), i0->tlb, i1->tlb, i1->ncpu);
	printf("PEER peer=%s cycle=%d wall_s=%.3f cpu_s=%.6f idle=%lld "
	       "busy=%lld resident=%lld idle_anon=%lld idle_file=%lld "
	       "idle_shmem=%lld cal=%s tlb=%s", peer, cycle, wall, s->cpu_s,
	       s->idle, s->busy, s->resident, s->kind[0], s->kind[1],
	       s->kind[2], cal, tlb);
	if (aggr >= 0)
		printf(" aggr=%d", aggr);
	putchar('\n');
	fflush(stdout);
}

/* memory.stat's anon + file of the workload's cgroup, in bytes. */
static long long resident(void)
{
	char path[512], *p;
	long long sum = 0;

	snprintf(path, sizeof(path), "%s/memory.stat", cgdir);
	slurp(path);
	p = strstr(text, "anon ");
	if (p == text || (p && p[-1] == '\n'))
		sum += atoll(p + 5);
	p = strstr(text, "\nfile ");
	if (p)
		sum += atoll(p + 6);
	return sum;
}

/* The PFNs of /proc/kpageflags (its size reads 0) times 4 KiB. */
static unsigned long long ram_bytes(void)
{
	int fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	unsigned long long lo = 0, hi = 1ULL << 40, mid;
	uint64_t v;
	ssize_t n;

	if (fd < 0)
		die("/proc/kpageflags");
	while (hi - lo > 1) {	/* PFN lo readable, hi not */
		mid = lo + (hi - lo) / 2;
		n = pread(fd, &v, 8, (off_t)(mid * 8));
		if (n < 0 && errno != EINVAL && errno != ENXIO)
			die("/proc/kpageflags");
		if (n == 8)
			lo = mid;
		else
			hi = mid;
	}
	close(fd);
	return hi * PAGE;
}

/* ---- ioctl: idletop's scan ---- */

static void tally(const struct kpageidle_scan_arg *a, uint64_t ino,
		  struct sample *s)
{
	uint64_t i, bytes;
	int k;

	for (i = 0; i < a->nr_records; i++) {
		if (rec[i].cgroup_id != ino)
			continue;
		bytes = rec[i].nr_pages * PAGE;
		if (!(rec[i].flags & KPAGEIDLE_FOLIO_IDLE)) {
			s->busy += (long long)bytes;
			continue;
		}
		s->idle += (long long)bytes;
		k = rec[i].flags & KPAGEIDLE_FOLIO_ANON ? 0 :
		    rec[i].flags & KPAGEIDLE_FOLIO_SWAPBACKED ? 2 : 1;
		s->kind[k] += (long long)bytes;
	}
}

static void ioctl_pass(int fd, uint64_t ino, struct sample *s)
{
	struct kpageidle_scan_arg a;
	uint64_t pfn = 0, end;

	for (;;) {
		end = (pfn / RANGE + 1) * RANGE;
		while (pfn < end) {
			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.flags = KPAGEIDLE_SCAN_MARK;
			a.start = pfn;
			a.end = end;
			a.vec = (uintptr_t)rec;
			a.vec_len = RECS;
			if (ioctl(fd, KPAGEIDLE_SCAN, &a)) {
				if (errno == ENXIO)
					return;
				if (errno == EINTR)
					continue;
				die("KPAGEIDLE_SCAN");
			}
			if (a.walk_end <= pfn || a.nr_records > RECS) {
				errno = EIO;
				die("KPAGEIDLE_SCAN: walk_end or nr_records");
			}
			tally(&a, ino, s);
			pfn = a.walk_end;
		}
	}
}

static void ioctl_sample(uint64_t ino, struct sample *s)
{
	int fd = open("/proc/kpageidle", O_RDWR | O_CLOEXEC);
	double c0;

	if (fd < 0)
		die("/proc/kpageidle");
	c0 = now(CLOCK_THREAD_CPUTIME_ID);
	ioctl_pass(fd, ino, s);
	s->cpu_s = now(CLOCK_THREAD_CPUTIME_ID) - c0;
	close(fd);	/* closed between cycles, as the peers must be */
}

/* ---- mglru: forced aging ---- */

/*
 * The memcg id that lru_gen prints for the cgroup path rel, or -1.  A
 * removed cgroup whose memcg still holds pages is listed under its old
 * path: a second memcg of that path is an error.
 */
static int memcg_id(const char *rel)
{
	char *line, *save = NULL, path[4096];
	int id, found = -1;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "memcg %d %4095s", &id, path) != 2 ||
		    strcmp(path, rel))
			continue;
		if (found >= 0) {
			errno = EEXIST;
			die("two memcgs of the cgroup's path in lru_gen");
		}
		found = id;
	}
	return found;
}

struct gen {
	int nid;
	unsigned long seq, n[2];
	char mark[2][2];
};

/*
 * The generations of memcg id in lru_gen_full (in text): per node its
 * number and, per generation, seq, age, anon and file pages, each
 * followed by 'x' when below min_seq (stale).  The tier and mm_walk
 * lines that follow each generation are longer than 60 characters.
 */
static int parse_gens(int id, struct gen *g, int max)
{
	char *line, *save = NULL;
	unsigned int age;
	int in = 0, nid = -1, cur, n = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "memcg %d", &cur) == 1) {
			in = cur == id;
			nid = -1;
			continue;
		}
		if (!in || sscanf(line, " node %d", &nid) == 1)
			continue;
		if (nid < 0 || strlen(line) > 60)
			continue;
		if (n == max) {
			errno = E2BIG;
			die("lru_gen_full: generations");
		}
		g[n].nid = nid;
		if (sscanf(line, " %lu %u %lu%1[x ] %lu%1[x ]", &g[n].seq, &age,
			   &g[n].n[0], g[n].mark[0], &g[n].n[1],
			   g[n].mark[1]) == 6)
			n++;
	}
	return n;
}

/* The youngest generation of node nid among g[0..n), 0 if none. */
static unsigned long max_seq(const struct gen *g, int n, int nid)
{
	unsigned long m = 0;
	int i;

	for (i = 0; i < n; i++)
		if (g[i].nid == nid && g[i].seq > m)
			m = g[i].seq;
	return m;
}

/*
 * After an aging step: the walk moved the folios it found young into the
 * generation that was the youngest while it ran, then a new, empty one
 * was made (inc_max_seq()).  So the two youngest generations of each
 * node are busy (the newer one holds only folios added since), the
 * older ones idle.
 */
static void sum_gens(const struct gen *g, int n, struct sample *s)
{
	int i, t;

	for (i = 0; i < n; i++)
		for (t = 0; t < 2; t++) {
			if (g[i].mark[t][0] == 'x')
				continue;
			if (g[i].seq + 1 >= max_seq(g, n, g[i].nid))
				s->busy += (long long)(g[i].n[t] * PAGE);
			else
				s->kind[t] += (long long)(g[i].n[t] * PAGE);
		}
	s->idle = s->kind[0] + s->kind[1];
	s->kind[2] = -1;	/* MGLRU counts shmem as anon */
}

static void mglru_sample(const char *rel, struct sample *s, int *idp)
{
	static struct gen g[1024];
	char cmd[128];
	double c0 = now(CLOCK_THREAD_CPUTIME_ID);
	unsigned long seq;
	int n, nid;

	if (*idp < 0) {
		slurp(LRU_GEN);
		*idp = memcg_id(rel);
		if (*idp < 0) {
			errno = ENOENT;
			die("no memcg in lru_gen for the cgroup (MGLRU off?)");
		}
	}
	slurp(LRU_GEN_FULL);
	n = parse_gens(*idp, g, 1024);
	for (nid = 0; nid < 1024; nid++) {
		seq = max_seq(g, n, nid);
		if (!seq)
			continue;
		snprintf(cmd, sizeof(cmd), "+ %d %d %lu 1 1", *idp, nid, seq);
		put(LRU_GEN, cmd);
	}
	slurp(LRU_GEN_FULL);
	n = parse_gens(*idp, g, 1024);
	sum_gens(g, n, s);
	s->cpu_s = now(CLOCK_THREAD_CPUTIME_ID) - c0;
}

/* ---- damon: paddr through sysfs ---- */

/* The largest System RAM range of /proc/iomem: [*start, *end). */
static void system_ram(unsigned long long *start, unsigned long long *end)
{
	char *line, *save = NULL;
	unsigned long long s, e, best = 0;

	slurp("/proc/iomem");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strstr(line, " : System RAM") ||
		    sscanf(line, " %llx-%llx", &s, &e) != 2)
			continue;
		if (e + 1 - s > best) {
			best = e + 1 - s;
			*start = s;
			*end = e + 1;
		}
	}
	if (!best) {
		errno = ENOENT;
		die("/proc/iomem: no System RAM (root needed)");
	}
}

static void damon_stop(void)
{
	int fd = open(KD "/0/state", O_WRONLY | O_CLOEXEC);

	damon_on = 0;
	if (fd >= 0) {
		if (write(fd, "off", 3) < 0 && errno != EINVAL)
			fprintf(stderr, "peers: DAMON off: %s\n", strerror(errno));
		close(fd);
	}
	fd = open(KD "/nr_kdamonds", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "0", 1) < 0)
			fprintf(stderr, "peers: nr_kdamonds 0: %s\n", strerror(errno));
		close(fd);
	}
}

static void on_signal(int sig)
{
	(void)sig;
	if (damon_on)
		damon_stop();
	_exit(1);
}

static void damon_scheme(const char *n, const char *max_accesses)
{
	char dir[256];

	snprintf(dir, sizeof(dir), CTX "/schemes/%s", n);
	putf("stat", "%s/action", dir);
	putf("0", "%s/access_pattern/sz/min", dir);
	putf("18446744073709551615", "%s/access_pattern/sz/max", dir);
	putf("0", "%s/access_pattern/nr_accesses/min", dir);
	putf(max_accesses, "%s/access_pattern/nr_accesses/max", dir);
	putf("0", "%s/access_pattern/age/min", dir);
	putf("4294967295", "%s/access_pattern/age/max", dir);
}

static unsigned long long damon_start(double wait, long sample_us)
{
	unsigned long long start = 0, end = 0;
	char v[64];

	system_ram(&start, &end);
	put(KD "/nr_kdamonds", "1");
	damon_on = 1;
	put(KD "/0/contexts/nr_contexts", "1");
	put(CTX "/operations", "paddr");
	snprintf(v, sizeof(v), "%ld", sample_us);
	put(CTX "/monitoring_attrs/intervals/sample_us", v);
	snprintf(v, sizeof(v), "%.0f", wait * 1e6);
	put(CTX "/monitoring_attrs/intervals/aggr_us", v);
	put(CTX "/monitoring_attrs/nr_regions/min", "10");
	put(CTX "/monitoring_attrs/nr_regions/max", "1000");
	put(CTX "/targets/nr_targets", "1");
	put(CTX "/targets/0/regions/nr_regions", "1");
	snprintf(v, sizeof(v), "%llu", start);
	put(CTX "/targets/0/regions/0/start", v);
	snprintf(v, sizeof(v), "%llu", end);
	put(CTX "/targets/0/regions/0/end", v);
	put(CTX "/schemes/nr_schemes", "2");
	damon_scheme("0", "0");
	damon_scheme("1", "4294967295");
	put(KD "/0/state", "on");
	return end - start;
}

struct dstat {
	unsigned long long idle, all, ticks;
};

static void damon_now(int pid, struct dstat *d)
{
	char path[64], *p;
	int i;

	put(KD "/0/state", "update_schemes_stats");
	d->idle = get_ull(CTX "/schemes/0/stats/sz_tried");
	d->all = get_ull(CTX "/schemes/1/stats/sz_tried");
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	slurp(path);
	p = strrchr(text, ')');	/* fields 14, 15: utime, stime */
	for (i = 2; p && i < 14; i++)
		p = strchr(p + 1, ' ');
	if (!p) {
		errno = EINVAL;
		die(path);
	}
	d->ticks = strtoull(p + 1, &p, 10);
	d->ticks += strtoull(p, NULL, 10);
}

/*
 * What DAMON's stats say since *d0: busy = the monitored bytes minus the
 * bytes of unaccessed regions, per aggregation; CPU = kdamond's per
 * aggregation.  Returns the aggregations that ended since *d0.
 */
static int damon_sample(int pid, unsigned long long mon, double tick,
			struct dstat *d0, struct sample *s)
{
	struct dstat d1;
	int aggr;

	damon_now(pid, &d1);
	aggr = (int)((d1.all - d0->all + mon / 2) / mon);
	s->kind[0] = s->kind[1] = s->kind[2] = -1;
	s->idle = s->busy = -1;
	if (aggr <= 0)	/* nothing new: keep counting from *d0 */
		return 0;
	s->cpu_s = (double)(d1.ticks - d0->ticks) / tick / aggr;
	s->busy = (long long)mon -
		  (long long)((d1.idle - d0->idle) / (unsigned long long)aggr);
	*d0 = d1;
	return aggr;
}

/* ---- the cycles ---- */

static int run(const char *peer, double wait, int cycles, long sample_us,
	       long warm)
{
	struct irqs i0, i1;
	struct sample s;
	struct dstat d0;
	struct stat st;
	unsigned long long ram = ram_bytes(), mon = ram;
	double w0 = 0, w1, tick = (double)sysconf(_SC_CLK_TCK);
	int c, id = -1, pid = 0, aggr = -1;
	const char *rel = strstr(cgdir, "/sys/fs/cgroup") == cgdir ?
			  cgdir + strlen("/sys/fs/cgroup") : cgdir;

	if (stat(cgdir, &st))
		die(cgdir);
	if (!strcmp(peer, "damon")) {
		mon = damon_start(wait, sample_us);
		pid = (int)get_ull(KD "/0/pid");
		nap((double)warm * wait + 0.5);
		damon_now(pid, &d0);
	}
	for (c = 0; c <= cycles; c++) {
		memset(&s, 0, sizeof(s));
		if (!strcmp(peer, "ioctl"))
			ioctl_sample((uint64_t)st.st_ino, &s);
		else if (!strcmp(peer, "mglru"))
			mglru_sample(rel, &s, &id);
		else if (pid && c)
			aggr = damon_sample(pid, mon, tick, &d0, &s);
		else
			s.idle = s.busy = s.kind[0] = s.kind[1] = s.kind[2] = -1;
		s.resident = resident();
		if (!strcmp(peer, "damon") && aggr > 0)
			s.idle = s.resident - s.busy;
		irqs_now(&i1);
		w1 = now(CLOCK_MONOTONIC);
		if (c)	/* cycle 0 primes: its end starts cycle 1 */
			emit(peer, c, w1 - w0, &s, &i0, &i1, aggr);
		i0 = i1;
		w0 = w1;
		if (c < cycles)
			nap(wait);
	}
	if (pid)
		damon_stop();
	printf("PEERSUM peer=%s cycles=%d ram_bytes=%llu monitored=%llu\n",
	       peer, cycles, ram, !strcmp(peer, "mglru") ? 0 : mon);
	return 0;
}

int main(int argc, char **argv)
{
	double wait;
	long cycles, sample_us = 5000, warm = 10;
	const char *peer;

	if (argc == 3 && !strcmp(argv[1], "tick") && atof(argv[2]) > 0)
		for (;;)
			nap(atof(argv[2]) / 1000);
	if (argc < 5 || argc > 7)
		goto usage;
	peer = argv[1];
	cgdir = argv[2];
	wait = atof(argv[3]);
	cycles = atol(argv[4]);
	if (argc >= 6)
		sample_us = atol(argv[5]);
	if (argc == 7)
		warm = atol(argv[6]);
	if (wait <= 0 || cycles <= 0 || cycles > 1000 || sample_us <= 0 ||
	    warm < 0 || warm > 1000 || (argc >= 6 && strcmp(peer, "damon")) ||
	    (strcmp(peer, "none") && strcmp(peer, "ioctl") &&
	     strcmp(peer, "mglru") && strcmp(peer, "damon")))
		goto usage;
	if (signal(SIGTERM, on_signal) == SIG_ERR ||
	    signal(SIGINT, on_signal) == SIG_ERR)
		die("signal");
	return run(peer, wait, (int)cycles, sample_us, warm);
usage:
	fputs("usage: peers none|ioctl|mglru CGROUP WAIT CYCLES\n"
	      "       peers damon CGROUP WAIT CYCLES [SAMPLE_US [WARMUP]]\n"
	      "       peers tick MS\n", stderr);
	return 2;
}
