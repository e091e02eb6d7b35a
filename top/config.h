/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - what idletop is asked to do: the command line's result
 * (struct config, filled by options.c) and the plain types it is made
 * of.  Types and constants only: no functions, and no header of the
 * kernel I/O, scanner, model or output layers, so that every layer can
 * take its settings from here (docs/design.md, "Layers").
 */
#ifndef IDLETOP_CONFIG_H
#define IDLETOP_CONFIG_H

#include <stddef.h>
#include <stdint.h>

/* -f: the batch and -o output format */
enum out_format { FMT_TEXT, FMT_JSON, FMT_OPENMETRICS, FMT_PROMETHEUS };

/*
 * What --source asks for.  An open source's kind is KPAGEIDLE, BITMAP or
 * MGLRU (auto takes it when there is no idle page tracking);
 * `folios` says whether the scan ioctl's records are in use.
 */
enum idlesrc_kind {
	IDLESRC_AUTO,		/* kpageidle (scan ioctl if present), else bitmap */
	IDLESRC_KPAGEIDLE,	/* kpageidle, scan ioctl if present */
	IDLESRC_BITMAP,
	IDLESRC_KPAGEIDLE_RW,	/* kpageidle with read + write only */
	IDLESRC_KPAGEIDLE_FOLIOS,	/* kpageidle with folio records, or fail */
	IDLESRC_MGLRU,		/* the multi-gen LRU's generations (approximate) */
};

/*
 * Idle time buckets (seconds, --idle-buckets): a page idle for a
 * consecutive cycles was last found accessed (and marked again) in the
 * cycle a cycles before the one that reads it, so it has been idle for
 * about the time between the starts of those two cycles; cycles stretch
 * under the CPU budget, so that time comes from the cycles' clocks, not
 * from a times the period (scan.c keeps the starts of the last 256
 * cycles).  idle_t[i] counts the pages whose idle time is in
 * [secs[i], secs[i+1]); struct cg_stat's idle_for[] makes it cumulative.
 */
#define IDLE_TBUCKETS_MAX 16
struct idle_tbuckets {
	unsigned n;			/* 0: none */
	double secs[IDLE_TBUCKETS_MAX];	/* ascending, > 0 */
};

/* --max-depth, --min-bytes, --include, --exclude (select.h) */
#define SELECT_MAX_PATTERNS 32
struct cg_select {
	int max_depth;			/* -1: any depth */
	uint64_t min_bytes;		/* least subtree resident bytes */
	/* fnmatch(3) globs on the path, no flags: '*' matches '/' too */
	const char *include[SELECT_MAX_PATTERNS];
	const char *exclude[SELECT_MAX_PATTERNS];
	unsigned n_include, n_exclude;
};

/* Field ids: the order of fields[] (fields.c), the registry. */
enum field_id {
	F_NAME, F_RES, F_ANON, F_FILE, F_SHMEM, F_IDLE, F_IDLEPCT, F_WS,
	F_LOW, F_HIGH_SUGG, F_CURRENT, F_MEMLOW, F_HIGH, F_MAX, F_LIMIT,
	F_LIMITPCT,
	F_PSI, F_REFAULTS, F_SWAP, F_REACCESS, F_KERNEL, F_FLOOR, F_TREND,
	FIELDS_NR
};

/* A column set: ids in display order. */
struct field_set {
	enum field_id id[FIELDS_NR];
	size_t n;
};

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
	int mglru_aging;		/* --mglru-aging: forced aging steps */
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

#endif
