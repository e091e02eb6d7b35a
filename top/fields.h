/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fields.h - the one registry of per-cgroup columns: id, title, width,
 * getter, formatter, whether it sorts.  The TUI table, the column
 * chooser, batch text, JSON (fields with a json key), --fields and the
 * exporter's per-cgroup gauges (metric) read it, so a new column is one
 * entry in fields.c.  What JSON and the exporter print per cgroup beside
 * the columns is in the other registry, series.h.
 */
#ifndef IDLETOP_FIELDS_H
#define IDLETOP_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include "config.h"
#include "fmt.h"
#include "stats.h"

enum unit { U_AUTO, U_KIB, U_MIB, U_GIB, U_PAGES, U_NR };

enum field_kind {
	FK_NAME,	/* the cgroup; drawn by its user */
	FK_BYTES,	/* v.u bytes */
	FK_PCT,		/* v.d percent */
	FK_RATE,	/* v.d per second */
	FK_LIMIT,	/* v.u bytes, CG_NOLIMIT "max" */
	FK_HIGHMAX,	/* memory.high/memory.max */
	FK_TREND,	/* history the TUI keeps */
};

/* Field flags. */
#define FF_SORT		1u	/* sortable */
#define FF_MEASURED	2u	/* needs a counted cycle ("..." before) */
#define FF_TUI		4u	/* in the view by default */
#define FF_TEXT		8u	/* in batch text by default */
#define FF_NOTEXT	16u	/* never in batch text (TUI only) */

struct field_val {
	int has;		/* 0: nothing to show ("-", JSON null) */
	uint64_t u;
	double d;
};

struct field {
	const char *id;		/* --fields, rc file, JSON key when json */
	const char *title;	/* column title */
	int width;		/* cells, the separating space included */
	enum field_kind kind;
	unsigned flags;
	const char *json;	/* key in each JSON cgroup, NULL: elsewhere */
	const char *help;	/* one line: help screen, --fields=help */
	void (*get)(const struct report *r, const struct cg_stat *s,
		    struct field_val *v);
	int keep;		/* narrow view: lower ones stay longer */
	/* the exporter's per-cgroup gauge (bytes: FK_BYTES, FK_LIMIT with
	 * "max" absent), NULL: not exported as a column is */
	const char *metric;
};

extern const struct field fields[FIELDS_NR];

/* Default set for the view (FF_TUI) or batch text (FF_TEXT). */
void fields_default(struct field_set *set, unsigned flag);
/*
 * Parse "resident,idle,idle_pct" (ids, case-insensitive titles too) into
 * set. 0, or -1 with err naming the bad entry and the accepted ids.
 * "name" is implied and skipped.
 */
int fields_parse(struct field_set *set, const char *list, unsigned not,
		 char *err, size_t errlen);
/* "id,id,..." of a set (for the rc file). */
void fields_list(struct sbuf *b, const struct field_set *set);
int fields_find(const char *id);	/* index or -1 */
int fields_has(const struct field_set *set, enum field_id id);

/* Value of a field for s (before a counted cycle: memory.stat). */
void field_get(const struct report *r, const struct cg_stat *s,
	       enum field_id f, struct field_val *v);
/* The cell text; unit applies to sizes. "..." for FF_MEASURED fields
 * before a counted cycle (utf8: an ellipsis). */
void field_format(struct sbuf *b, const struct report *r,
		  const struct cg_stat *s, enum field_id f, int unit,
		  int utf8);
/* Size in a unit (U_AUTO: fmt_bytes; U_PAGES: of page bytes, 0: 4096). */
void field_fmt_size(struct sbuf *b, uint64_t v, int unit, uint64_t page);
/* A memory.low/high/max: "-" without the file, "max" for no limit, else
 * a size as field_fmt_size. */
void field_fmt_limit(struct sbuf *b, int has, uint64_t v, int unit,
		     uint64_t page);
/* Sort order of two cgroups by f: <0 when a comes first (largest first;
 * names in natural order: s2 before s10). */
int field_cmp(const struct report *r, enum field_id f,
	      const struct cg_stat *a, const struct cg_stat *b);
/* Natural order of two names: digit runs compare as numbers. */
int fields_natcmp(const char *a, const char *b);
/* --fields=help: every field with its id, title and meaning. */
void fields_help(struct sbuf *b);

#endif
