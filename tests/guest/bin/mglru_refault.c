// SPDX-License-Identifier: GPL-2.0
/*
 * mglru_refault - a workload under memory.high with a hot set that fits and
 * a cold set that does not, for measuring what an idle page monitor does to
 * reclaim (tests/guest/mglru/50-monitor-refaults.sh).
 *
 *   mglru_refault --cgroup DIR --hot MIB --cold MIB [--hot-interval MS]
 *                 [--cold-rate PAGES] [--warmup SEC] --duration SEC
 *
 * Joins DIR, populates COLD then HOT MiB of private anonymous memory
 * (MADV_NOHUGEPAGE; one word per page written, so zram must store them),
 * then runs two threads:
 *
 *   hot   writes one word in every hot page, then sleeps --hot-interval
 *         ms (default 1000), again and again;
 *   cold  writes one word per page sequentially through the cold set,
 *         wrapping around, at --cold-rate pages per second (default 1000;
 *         a backlog of more than 100 ms is dropped, not caught up).
 *
 * After --warmup seconds (default 10) it measures for --duration seconds
 * and prints one line of key=value, the deltas over that window:
 *
 *   secs            length of the window
 *   hot_passes      complete passes over the hot set
 *   hot_pass_ms     mean duration of a pass (faults make it longer)
 *   hot_majflt      major faults of the hot thread: hot-set refaults
 *   hot_minflt      minor faults of the hot thread
 *   cold_touches    cold pages written
 *   cold_majflt     major faults of the cold thread: cold-set refaults
 *   refault_anon, refault_file, activate_anon, restore_anon, pgscan,
 *   pgsteal, pgmajfault   DIR/memory.stat (workingset_*: the refault
 *                   counters of the whole cgroup)
 *   high            DIR/memory.events "high"
 *   current_kb      DIR/memory.current at the end
 *
 * With MGLRU_REFAULT_TRACE set in the environment it also prints, to
 * stderr, every second of the window: hot major faults, cold pages written
 * and pgsteal in that second (to see when the hot set goes out).
 *
 * Exit 0, or 1 on a setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define PG 4096UL

struct counters {		/* published by a thread after each step */
	uint64_t steps;		/* hot: passes; cold: pages */
	uint64_t busy_ns;	/* hot: time spent in passes */
	uint64_t majflt, minflt;
};

static char *hot, *cold;
static size_t hot_pages, cold_pages;
static double hot_interval = 1000, cold_rate = 1000;
static volatile int stop;
static struct counters hot_c, cold_c;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what)
{
	fprintf(stderr, "mglru_refault: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL),
			       (long)(ns % 1000000000ULL) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void publish(struct counters *c, uint64_t steps, uint64_t busy)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	pthread_mutex_lock(&lock);
	c->steps += steps;
	c->busy_ns += busy;
	c->majflt = (uint64_t)ru.ru_majflt;
	c->minflt = (uint64_t)ru.ru_minflt;
	pthread_mutex_unlock(&lock);
}

static void *hot_main(void *arg)
{
	size_t i;

	(void)arg;
	while (!stop) {
		uint64_t t0 = now_ns();

		for (i = 0; i < hot_pages; i++)
			(*(volatile uint64_t *)(hot + i * PG))++;
		publish(&hot_c, 1, now_ns() - t0);
		sleep_ns((uint64_t)(hot_interval * 1e6));
	}
	return NULL;
}

static void *cold_main(void *arg)
{
	const uint64_t tick = 10000000ULL;	/* 10 ms */
	const double per_ns = cold_rate / 1e9;
	uint64_t start = now_ns(), done = 0, lost = 0;
	size_t next = 0;

	(void)arg;
	while (!stop) {
		uint64_t due = (uint64_t)((double)(now_ns() - start) * per_ns);
		uint64_t n = 0;

		if (due > done + lost + (uint64_t)(cold_rate / 10))
			lost = due - done - (uint64_t)(cold_rate / 10);
		while (done + lost + n < due) {
			(*(volatile uint64_t *)(cold + next * PG))++;
			next = (next + 1) % cold_pages;
			n++;
		}
		done += n;
		publish(&cold_c, n, 0);
		sleep_ns(tick);
	}
	return NULL;
}

static char *map_populate(size_t pages)
{
	char *p = mmap(NULL, pages * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (p == MAP_FAILED)
		die("mmap");
	madvise(p, pages * PG, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		*(uint64_t *)(p + i * PG) = i + 1;
	return p;
}

static void join_cgroup(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f))
		die(path);
}

/* Value of KEY in a "key value" file, -1 if absent. */
static long long keyval(const char *dir, const char *file, const char *key)
{
	char path[4096], k[128];
	long long v, r = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fscanf(f, "%127s %lld", k, &v) == 2)
		if (!strcmp(k, key))
			r = v;
	fclose(f);
	return r;
}

static long long current_kb(const char *dir)
{
	char path[4096];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.current", dir);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &v) != 1)
		die(path);
	fclose(f);
	return v / 1024;
}

static const char *const stat_keys[] = {
	"workingset_refault_anon", "workingset_refault_file",
	"workingset_activate_anon", "workingset_restore_anon",
	"pgscan", "pgsteal", "pgmajfault",
};
static const char *const stat_names[] = {
	"refault_anon", "refault_file", "activate_anon", "restore_anon",
	"pgscan", "pgsteal", "pgmajfault",
};
#define NSTAT (sizeof(stat_keys) / sizeof(*stat_keys))

struct snap {
	uint64_t t;
	struct counters hot, cold;
	long long stat[NSTAT], high;
};

static void snapshot(const char *cg, struct snap *s)
{
	size_t i;

	pthread_mutex_lock(&lock);
	s->hot = hot_c;
	s->cold = cold_c;
	pthread_mutex_unlock(&lock);
	s->t = now_ns();
	for (i = 0; i < NSTAT; i++)
		s->stat[i] = keyval(cg, "memory.stat", stat_keys[i]);
	s->high = keyval(cg, "memory.events", "high");
}

static void usage(FILE *f)
{
	fputs("Usage: mglru_refault --cgroup DIR --hot MIB --cold MIB "
	      "[--hot-interval MS]\n"
	      "       [--cold-rate PAGES] [--warmup SEC] --duration SEC\n", f);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "cgroup", 1, NULL, 'c' }, { "hot", 1, NULL, 'H' },
		{ "cold", 1, NULL, 'C' }, { "hot-interval", 1, NULL, 'i' },
		{ "cold-rate", 1, NULL, 'r' }, { "warmup", 1, NULL, 'w' },
		{ "duration", 1, NULL, 'd' }, { "help", 0, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *cg = NULL;
	double warmup = 10, duration = 0;
	struct snap a, b;
	pthread_t th, tc;
	FILE *f;
	size_t i;
	int o, trace = getenv("MGLRU_REFAULT_TRACE") != NULL;

	while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (o) {
		case 'c': cg = optarg; break;
		case 'H': hot_pages = strtoul(optarg, NULL, 10) << 8; break;
		case 'C': cold_pages = strtoul(optarg, NULL, 10) << 8; break;
		case 'i': hot_interval = atof(optarg); break;
		case 'r': cold_rate = atof(optarg); break;
		case 'w': warmup = atof(optarg); break;
		case 'd': duration = atof(optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (!cg || !hot_pages || !cold_pages || duration <= 0 ||
	    hot_interval < 0 || cold_rate <= 0 || warmup < 0 || optind < argc) {
		usage(stderr);
		return 1;
	}
	join_cgroup(cg);
	cold = map_populate(cold_pages);
	hot = map_populate(hot_pages);
	if (pthread_create(&th, NULL, hot_main, NULL) ||
	    pthread_create(&tc, NULL, cold_main, NULL))
		die("pthread_create");
	sleep_ns((uint64_t)(warmup * 1e9));
	snapshot(cg, &a);
	if (trace) {
		struct snap p = a, q;
		double t;

		for (t = 0; t < duration; t += 1) {
			double step = duration - t < 1 ? duration - t : 1;

			sleep_ns((uint64_t)(step * 1e9));
			snapshot(cg, &q);
			fprintf(stderr, "t=%.0f hot_majflt=%llu cold=%llu "
				"pgsteal=%lld\n", t + step,
				(unsigned long long)(q.hot.majflt - p.hot.majflt),
				(unsigned long long)(q.cold.steps - p.cold.steps),
				q.stat[5] - p.stat[5]);
			p = q;
		}
		b = p;
	} else {
		sleep_ns((uint64_t)(duration * 1e9));
		snapshot(cg, &b);
	}
	stop = 1;
	pthread_join(th, NULL);
	pthread_join(tc, NULL);

	f = stdout;
	fprintf(f, "secs=%.1f hot_passes=%llu hot_pass_ms=%.1f "
		"hot_majflt=%llu hot_minflt=%llu cold_touches=%llu "
		"cold_majflt=%llu",
		(double)(b.t - a.t) / 1e9,
		(unsigned long long)(b.hot.steps - a.hot.steps),
		b.hot.steps > a.hot.steps ? (double)(b.hot.busy_ns -
		a.hot.busy_ns) / 1e6 / (double)(b.hot.steps - a.hot.steps) : 0,
		(unsigned long long)(b.hot.majflt - a.hot.majflt),
		(unsigned long long)(b.hot.minflt - a.hot.minflt),
		(unsigned long long)(b.cold.steps - a.cold.steps),
		(unsigned long long)(b.cold.majflt - a.cold.majflt));
	for (i = 0; i < NSTAT; i++)
		fprintf(f, " %s=%lld", stat_names[i], b.stat[i] - a.stat[i]);
	fprintf(f, " high=%lld current_kb=%lld\n", b.high - a.high,
		current_kb(cg));
	return 0;
}
