/* SPDX-License-Identifier: GPL-2.0 */
/* options.h - command line: one getopt_long parser */
#ifndef IDLETOP_OPTIONS_H
#define IDLETOP_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include "batch.h"
#include "idlesrc.h"
#include "select.h"

struct config {
	const char *root;		/* --root, default "/" */
	const char *cgroup_dir;		/* --cgroup, NULL: from mountinfo */
	const char *output;		/* -o FILE: atomically replaced */
	int batch;			/* -b */
	unsigned long iterations;	/* -n, 0 = until killed */
	double period;			/* --period seconds per cycle */
	double delay;			/* -d: TUI refresh (batch: period) */
	int period_set, delay_set;	/* given on the command line */
	double first_window;		/* --first-window seconds, 0: off */
	const char *fields;		/* --fields LIST, NULL: default */
	struct field_set fset;		/* parsed --fields */
	double cpu_pct;			/* --cpu, % of one core */
	enum out_format format;
	enum idlesrc_kind source;
	unsigned ws_cycles;
	unsigned headroom_pct;
	double mark_wait;		/* --mark-wait seconds, < 0: off */
	size_t slice_pfns;
	double slice_ms;
	const char *listen;		/* --listen [ADDR:]PORT, NULL: off */
	const char *node_label;		/* --node-label, NULL: none */
	struct idle_tbuckets idle_buckets;	/* --idle-buckets */
	struct cg_select sel;		/* --max-depth, --min-bytes, ... */
};

#define OPT_OK		0
#define OPT_EXIT	1	/* --help/--version printed: exit 0 */
#define OPT_USAGE	2	/* bad usage, message printed: exit 2 */

void options_default(struct config *c);
int options_parse(struct config *c, int argc, char **argv, FILE *out,
		  FILE *err);
/* Strict number parsing: the whole string, finite, within [min, max]. */
int parse_num(const char *s, double min, double max, double *v);
/* "60,2m,1h": ascending seconds (suffix s, m, h, d), 1..16 of them. */
int parse_buckets(const char *s, struct idle_tbuckets *tb);
/* Bytes with an optional binary suffix K, M, G, T ("512M"). */
int parse_size(const char *s, uint64_t *v);

#endif
