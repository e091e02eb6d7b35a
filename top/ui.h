/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ui.h - idletop's interactive view (ncurses). ui.c owns the terminal and
 * the main loop; ui_view.c turns a struct report into visible rows (zoom,
 * filter, collapse, sort); ui_trend.c keeps idle % history per cgroup;
 * ui_procs.c reads a cgroup's processes; ui_text.c has the text helpers;
 * one file per screen (ui_header.c, ui_tree.c, ui_detail.c, ui_help.c)
 * with x_draw()/x_key().
 * Screens only format what the engine and these collectors computed.
 */
#ifndef IDLETOP_UI_H
#define IDLETOP_UI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "fmt.h"
#include "engine.h"
#include "keys.h"
#include "options.h"
#include "scan.h"
#include "stats.h"

#define UI_MIN_COLS 60
#define UI_MIN_ROWS 10
/* ui_header.c: host, cycle, memory, crumbs, and a line per warning */
#define UI_HEADER_ROWS(u) header_rows(u)
#define TREND_LEN 8

enum unit { U_AUTO, U_KIB, U_MIB, U_GIB, U_PAGES, U_NR };

/* Table columns; the sort key is one of them. */
enum col { C_NAME, C_RES, C_ANON, C_FILE, C_IDLE, C_IDLEPCT, C_WS,
	   C_LIMIT, C_TREND, C_NR };

enum color { CP_NORMAL, CP_HEADER, CP_TITLE, CP_SELECT, CP_HOT, CP_COLD,
	     CP_DIM, CP_NR };

struct view_row {
	size_t cg;		/* index into report.cg */
	int depth;		/* relative to the zoom root */
	int has_kids, collapsed, last;
	uint64_t more;		/* bit d: ancestor at depth d has a next sibling */
};

struct view {
	struct view_row *row;
	size_t n, cap;
	size_t root;		/* report index of the zoom root */
};

struct trend_ent {
	uint64_t ino;
	unsigned n;		/* valid samples, newest last */
	float pct[TREND_LEN];
};

struct trend {
	struct trend_ent *v;
	size_t n;
	uint64_t cycle;		/* last cycle recorded */
};

struct proc_ent {
	long pid;
	char *name;		/* raw bytes from status "Name:" */
	uint64_t rss;		/* bytes; UINT64_MAX: unknown (gone, kthread) */
};

struct proc_list {
	struct proc_ent *v;
	size_t n;
	int err;		/* errno reading cgroup.procs, 0 ok */
};

enum prompt_kind { P_NONE, P_FILTER, P_INTERVAL };

struct ui {
	struct config *cfg;
	struct engine *e;
	struct scanner *sc;		/* &e->sc */
	const char *cgdir;		/* e->cgdir */
	volatile sig_atomic_t *stop;
	int quit, dirty, too_small, utf8, colors;
	unsigned screen;		/* S_TREE, S_DETAIL or S_HELP */
	const struct report *rep;	/* shown: &e->report, or pre */
	struct report pre;		/* memory.* only, before cycle 1 */
	int have_rep, paused;
	double next_tree_scan;		/* before the first cycle */
	struct view view;
	struct trend trend;
	struct proc_list procs;
	size_t sel, top;		/* selected row, first row shown */
	int scroll;			/* detail/help scroll offset */
	char *sel_path, *zoom_path, *filter;	/* state kept across reports */
	char **collapsed;
	size_t ncollapsed;
	enum col sort;
	int sort_rev, unit;
	enum prompt_kind prompt;
	struct sbuf input;
	char msg[160];			/* one status line message */
	char *host, *kernel;
	uint64_t mem_total;
	double cpu_pct, cpu_t, cpu_c;	/* own CPU %, last sample */
};

/* ui.c */
/* The interactive mode; returns the exit status (0: q, SIGINT, SIGTERM). */
int ui_run(struct engine *e, struct config *cfg, volatile sig_atomic_t *stop);
int ui_measured(const struct ui *u);
double ui_progress(const struct ui *u, double *left);

/* ui_text.c */
void ui_msg(struct ui *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
unsigned ui_attr(const struct ui *u, enum color c);
void ui_fmt_size(const struct ui *u, struct sbuf *b, uint64_t bytes);
int ui_put(int y, int x, int w, const char *s);	/* cells written, <= w */
void ui_esc(const struct ui *u, struct sbuf *b, const char *name);
void ui_fill(int y, int x, int w);
const char *ui_unit_name(int unit);

/* ui_view.c */
void view_build(struct ui *u);
void view_free(struct view *v);
uint64_t view_value(const struct ui *u, const struct cg_stat *s, enum col c);
enum color view_idle_color(const struct ui *u, const struct cg_stat *s);
const char *view_col_name(enum col c);
void view_select(struct ui *u, size_t row);
int view_is_collapsed(const struct ui *u, const char *path);
int view_set_collapsed(struct ui *u, const char *path, int on);
const struct cg_stat *view_selected(const struct ui *u);

/* ui_trend.c */
int trend_update(struct trend *t, const struct report *r);
const struct trend_ent *trend_find(const struct trend *t, uint64_t ino);
void trend_free(struct trend *t);

/* ui_procs.c */
void procs_read(struct proc_list *l, const char *root, const char *cgdir,
		const char *path);
void procs_free(struct proc_list *l);

/* screens: draw the whole area below the header; key gets an action */
void header_draw(struct ui *u);
int header_rows(const struct ui *u);
void tree_draw(struct ui *u);
int tree_key(struct ui *u, enum action a);
void detail_draw(struct ui *u);
int detail_key(struct ui *u, enum action a);
void help_draw(struct ui *u);
int help_key(struct ui *u, enum action a);

#endif
