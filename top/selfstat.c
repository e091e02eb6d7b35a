// SPDX-License-Identifier: GPL-2.0
/* selfstat.c - process_* metrics from /proc/self (selfstat.h) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "selfstat.h"
#include "util.h"

/* Boot time (UNIX seconds) from /proc/stat's btime line; -1: unknown. */
static double boot_time(void)
{
	char *text = read_text_file("/proc/stat", NULL), *p;
	double t = -1;

	if (!text)
		return -1;
	p = strstr(text, "\nbtime ");
	if (p)
		t = strtod(p + 7, NULL);
	free(text);
	return t;
}

/*
 * /proc/self/stat after the command's closing parenthesis: field 3
 * (state) first, then starttime (22), vsize (23) and rss (24) in pages.
 */
static int read_stat(struct selfstat *s)
{
	char *text = read_text_file("/proc/self/stat", NULL), *p;
	unsigned long long start, vsize;
	long long rss;
	double btime = boot_time();
	int n = 0;

	p = text ? strrchr(text, ')') : NULL;
	if (p)
		n = sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			   "%*u %*u %*u %*d %*d %*d %*d %*d %*d %llu %llu %lld",
			   &start, &vsize, &rss);
	free(text);
	if (n != 3 || btime < 0)
		return -1;
	s->start_time = btime + (double)start / (double)sysconf(_SC_CLK_TCK);
	s->virtual_bytes = (double)vsize;
	s->resident_bytes = (double)rss * (double)sysconf(_SC_PAGESIZE);
	return 0;
}

/* Entries of /proc/self/fd, the one reading them left out. */
static int count_fds(double *n)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	double c = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		c += de->d_name[0] != '.';
	closedir(d);
	*n = c - 1;
	return 0;
}

int selfstat_read(struct selfstat *s)
{
	struct rusage ru;
	struct rlimit rl;

	if (getrusage(RUSAGE_SELF, &ru) || getrlimit(RLIMIT_NOFILE, &rl) ||
	    read_stat(s) || count_fds(&s->open_fds))
		return -1;
	s->cpu_seconds = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
			 1e6;
	s->max_fds = rl.rlim_cur == RLIM_INFINITY ? -1 : (double)rl.rlim_cur;
	return 0;
}

void selfstat_metric(struct sbuf *b, enum metrics_fmt f, const char *name,
		     const char *type, const char *unit, const char *help,
		     double v)
{
	int om = f == MF_OPENMETRICS, counter = type[0] == 'c';
	const char *sfx = counter ? "_total" : "";

	sb_printf(b, "# HELP %s%s %s\n# TYPE %s%s %s\n", name,
		  om ? "" : sfx, help, name, om ? "" : sfx, type);
	if (unit && om)
		sb_printf(b, "# UNIT %s %s\n", name, unit);
	sb_printf(b, "%s%s %.15g\n", name, sfx, v);
}

void selfstat_render(struct sbuf *b, enum metrics_fmt f)
{
	struct selfstat s;

	if (selfstat_read(&s))
		return;
	selfstat_metric(b, f, "process_cpu_seconds", "counter", "seconds",
			"User and system CPU time of idletop, all threads.",
			s.cpu_seconds);
	selfstat_metric(b, f, "process_resident_memory_bytes", "gauge",
			"bytes", "Resident memory of idletop.",
			s.resident_bytes);
	selfstat_metric(b, f, "process_virtual_memory_bytes", "gauge",
			"bytes", "Virtual memory of idletop.", s.virtual_bytes);
	selfstat_metric(b, f, "process_open_fds", "gauge", NULL,
			"Open file descriptors of idletop.", s.open_fds);
	if (s.max_fds >= 0)
		selfstat_metric(b, f, "process_max_fds", "gauge", NULL,
				"Limit of open file descriptors "
				"(RLIMIT_NOFILE).", s.max_fds);
	selfstat_metric(b, f, "process_start_time_seconds", "gauge",
			"seconds", "When idletop started (UNIX time).",
			s.start_time);
}
