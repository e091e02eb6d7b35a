/* SPDX-License-Identifier: GPL-2.0 */
/*
 * selfstat.h - the process_* metrics every Prometheus exporter has
 * (client_golang's process collector): CPU, memory, file descriptors and
 * start time of idletop itself, read from /proc/self at each scrape.
 */
#ifndef IDLETOP_SELFSTAT_H
#define IDLETOP_SELFSTAT_H

#include "fmt.h"
#include "metrics.h"

struct selfstat {
	double cpu_seconds;	/* user + system, all threads */
	double resident_bytes;
	double virtual_bytes;
	double open_fds;
	double max_fds;		/* RLIMIT_NOFILE, soft */
	double start_time;	/* UNIX time */
};

/* Read them. 0, or -1 when /proc/self could not be read. */
int selfstat_read(struct selfstat *s);
/*
 * One sample with its HELP, TYPE (and in OpenMetrics UNIT) lines; a
 * counter's name is given without "_total".
 */
void selfstat_metric(struct sbuf *b, enum metrics_fmt f, const char *name,
		     const char *type, const char *unit, const char *help,
		     double v);
/* Append them to b in format f; nothing when they cannot be read. */
void selfstat_render(struct sbuf *b, enum metrics_fmt f);

#endif
