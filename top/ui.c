// SPDX-License-Identifier: GPL-2.0
/*
 * ui.c - the interactive mode: terminal setup and restore, the main loop
 *   poll(stdin, scan_wait()) -> keys, or one scan slice
 *   -> after a completed cycle: rescan the tree, build a report, redraw
 * and the key dispatcher (keys.c's table -> the screen's x_key()).
 */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tty.h"
#include "ui.h"
#include "util.h"

#define TICK 0.5		/* header refresh (progress, CPU %) */
#define PRE_TREE_SCAN 2.0	/* tree rescan interval before cycle 1 */

int ui_measured(const struct ui *u)
{
	return u->have_rep && u->rep->cycle > 0;
}

/* Fraction of the wait for the next report (priming included). */
double ui_progress(const struct ui *u, double *left)
{
	struct engine_progress p;

	engine_progress(u->e, &p);
	*left = p.left;
	return p.done;
}

static char *read_line_file(const char *root, const char *rel)
{
	char *p = path_join(root, rel), *s, *nl;

	if (!p)
		return NULL;
	s = read_text_file(p, NULL);
	free(p);
	if (s && (nl = strchr(s, '\n')))
		*nl = '\0';
	return s;
}

static uint64_t read_mem_total(const char *root)
{
	char *s = read_line_file(root, "proc/meminfo");
	unsigned long long kb = 0;

	if (s && sscanf(s, "MemTotal: %llu kB", &kb) != 1)
		kb = 0;
	free(s);
	return (uint64_t)kb << 10;
}

/* After a new report, or before cycle 1 a new look at memory.* files. */
static void reload(struct ui *u)
{
	struct cg_tree tree = { 0 };
	struct report r;
	char err[256];

	if (u->e->report.cycle > 0) {
		u->rep = &u->e->report;
		report_free(&u->pre);
	} else if (cg_tree_scan(&tree, u->cgdir, err, sizeof(err))) {
		ui_msg(u, "%s", err);
		return;
	} else if (report_build(&r, &tree, &u->sc->last, &u->e->params)) {
		report_free(&r);
		ui_msg(u, "out of memory");
		return;
	} else {
		report_free(&u->pre);
		u->pre = r;
		u->rep = &u->pre;
	}
	u->have_rep = u->rep->n > 0;
	if (u->rep->cycle && trend_update(&u->trend, u->rep))
		ui_msg(u, "out of memory (trend)");
	view_build(u);
	if (u->screen == S_DETAIL && view_selected(u))
		procs_read(&u->procs, u->cfg->root, u->cgdir,
			   view_selected(u)->path);
	u->dirty = 1;
}

static void sample_cpu(struct ui *u)
{
	double t = now_mono(), c = now_cpu();

	if (t - u->cpu_t >= 1) {
		u->cpu_pct = 100 * (c - u->cpu_c) / (t - u->cpu_t);
		u->cpu_t = t;
		u->cpu_c = c;
	}
}

/* Last line: the prompt, a message, or hints built from the key table. */
static void status_line(struct ui *u)
{
	static const struct { enum action a; const char *what; } hint[] = {
		{ A_HELP, "help" }, { A_ZOOM_IN, "zoom" }, { A_DETAIL, "details" },
		{ A_BACK, "back" }, { A_SORT_NEXT, "sort" },
		{ A_FILTER, "filter" }, { A_UNITS, "units" },
		{ A_PAUSE, "freeze" }, { A_QUIT, "quit" },
	};
	struct sbuf b;
	const char *l;
	size_t i;
	int x;

	sb_init(&b);
	if (u->prompt) {
		sb_printf(&b, "%s: ", u->prompt == P_FILTER ? "Filter" :
			  "Period (seconds)");
		ui_esc(u, &b, sb_str(&u->input));
		x = ui_put(LINES - 1, 0, COLS - 1, sb_str(&b));
		move(LINES - 1, x < COLS ? x : COLS - 1);
		sb_free(&b);
		return;
	}
	if (u->msg[0])
		sb_puts(&b, u->msg);
	for (i = 0; !u->msg[0] && i < sizeof(hint) / sizeof(hint[0]); i++)
		if ((l = keys_label(u->screen, hint[i].a)))
			sb_printf(&b, "%s%s %s", b.len ? "  " : "", l,
				  hint[i].what);
	attrset(ui_attr(u, CP_DIM));
	ui_put(LINES - 1, 0, COLS - 1, sb_str(&b));
	attrset(A_NORMAL);
	sb_free(&b);
}

static void draw(struct ui *u)
{
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	erase();
	u->too_small = cols < UI_MIN_COLS || rows < UI_MIN_ROWS;
	if (u->too_small) {
		mvprintw(0, 0, "Terminal too small: %dx%d", cols, rows);
		mvprintw(1, 0, "need %dx%d; q quits", UI_MIN_COLS, UI_MIN_ROWS);
	} else {
		header_draw(u);
		if (u->screen == S_HELP)
			help_draw(u);
		else if (u->screen == S_DETAIL)
			detail_draw(u);
		else
			tree_draw(u);
		status_line(u);
	}
	refresh();
	u->dirty = 0;
}

static void set_period(struct ui *u, const char *s)
{
	double v;

	if (parse_num(s, 0.01, 604800, &v)) {
		ui_msg(u, "invalid period '%.40s': seconds, 0.01..604800", s);
		return;
	}
	if (engine_set_period(u->e, v)) {
		ui_msg(u, "%s", u->e->err);
		return;
	}
	ui_msg(u, "period %gs: measuring anew, next report in %gs", v, 2 * v);
}

static void prompt_done(struct ui *u, int accept)
{
	const char *s = sb_str(&u->input);

	if (accept && u->prompt == P_FILTER) {
		free(u->filter);
		u->filter = *s ? strdup(s) : NULL;
		if (*s && !u->filter)
			ui_msg(u, "out of memory");
		view_build(u);
	} else if (accept && u->prompt == P_INTERVAL && *s) {
		set_period(u, s);
	}
	u->prompt = P_NONE;
	sb_reset(&u->input);
	curs_set(0);
}

/* Line editing for the / and d prompts. */
static void prompt_key(struct ui *u, int ch)
{
	if (ch == 27 || ch == 3)	/* Esc, ^C */
		prompt_done(u, 0);
	else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		prompt_done(u, 1);
	else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && u->input.len)
		u->input.p[--u->input.len] = '\0';
	else if (ch >= 0x20 && ch < 0x7f && u->input.len < 64)
		sb_putc(&u->input, (char)ch);
	u->dirty = 1;
}

static void global_key(struct ui *u, enum action a)
{
	switch (a) {
	case A_QUIT: u->quit = 1; break;
	case A_PAUSE:	/* freeze the report; measuring goes on */
		u->paused = !u->paused;
		if (engine_freeze(u->e, u->paused))
			reload(u);
		break;
	case A_UNITS: u->unit = (u->unit + 1) % U_NR; break;
	case A_INTERVAL: u->prompt = P_INTERVAL; curs_set(1); break;
	case A_HELP: u->screen = S_HELP; u->scroll = 0; break;
	default: break;
	}
}

static void key(struct ui *u, int ch)
{
	enum action a;

	u->dirty = 1;
	if (ch == KEY_RESIZE)
		return;
	if (u->prompt) {
		prompt_key(u, ch);
		return;
	}
	u->msg[0] = '\0';
	a = keys_lookup(u->too_small ? S_HELP : u->screen, ch);
	if (u->too_small && a != A_QUIT)
		return;
	if (u->screen == S_TREE && tree_key(u, a))
		return;
	if (u->screen == S_DETAIL && detail_key(u, a))
		return;
	if (u->screen == S_HELP && help_key(u, a))
		return;
	global_key(u, a);
}

static int slice(struct ui *u)
{
	int rc = engine_step(u->e);

	if (rc < 0) {
		endwin();
		tty_disarm();
		fprintf(stderr, "idletop: %s\n", u->e->err);
		return -1;
	}
	if (rc == 1 || (!ui_measured(u) && !u->paused &&
			now_mono() >= u->next_tree_scan)) {
		reload(u);
		u->next_tree_scan = now_mono() + PRE_TREE_SCAN;
	}
	return 0;
}

static int loop(struct ui *u)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	double next_tick = 0, wait;
	int ch, n;

	while (!*u->stop && !u->quit) {
		if (u->dirty || now_mono() >= next_tick) {
			sample_cpu(u);
			draw(u);
			next_tick = now_mono() + TICK;
		}
		wait = engine_wait(u->e);
		if (wait > next_tick - now_mono())
			wait = next_tick - now_mono();
		n = poll(&pfd, 1, wait > 0 ? (int)(wait * 1000) + 1 : 0);
		if (n < 0 && errno != EINTR)
			return 1;
		if (n > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			return 0;	/* the terminal went away */
		for (n = 0; n < 64 && (ch = getch()) != ERR; n++)
			key(u, ch);
		if (!u->quit && engine_wait(u->e) <= 0 && slice(u))
			return 1;
	}
	return 0;
}

static void setup_colors(struct ui *u)
{
	u->colors = has_colors() && start_color() == OK;
	if (!u->colors)
		return;
	use_default_colors();
	init_pair(CP_NORMAL, -1, -1);
	init_pair(CP_HEADER, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_TITLE, COLOR_CYAN, -1);
	init_pair(CP_SELECT, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_HOT, COLOR_RED, -1);
	init_pair(CP_COLD, COLOR_BLUE, -1);
	init_pair(CP_DIM, COLOR_YELLOW, -1);
}

static int start_term(struct ui *u, SCREEN **scr)
{
	const char *cs;

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	u->utf8 = cs && !strcmp(cs, "UTF-8");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "idletop: the interactive view needs a "
			"terminal; use -b for batch output\n");
		return -1;
	}
	tty_save(STDOUT_FILENO);	/* for a fatal signal's handler */
	*scr = newterm(NULL, stdout, stdin);
	if (!*scr) {
		fprintf(stderr, "idletop: cannot use terminal type '%s'\n",
			getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	raw();		/* ^C is a key (quit), not a SIGINT to the shell too */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	setup_colors(u);
	tty_arm();
	return 0;
}

static void ui_free(struct ui *u)
{
	size_t i;

	report_free(&u->pre);
	view_free(&u->view);
	trend_free(&u->trend);
	procs_free(&u->procs);
	sb_free(&u->input);
	for (i = 0; i < u->ncollapsed; i++)
		free(u->collapsed[i]);
	free(u->collapsed);
	free(u->sel_path);
	free(u->zoom_path);
	free(u->filter);
	free(u->host);
	free(u->kernel);
}

int ui_run(struct engine *e, struct config *cfg, volatile sig_atomic_t *stop)
{
	struct ui u;
	SCREEN *scr;
	int rc;

	memset(&u, 0, sizeof(u));
	u.cfg = cfg;
	u.e = e;
	u.sc = &e->sc;
	u.cgdir = e->cgdir;
	u.stop = stop;
	u.rep = &u.pre;
	u.screen = S_TREE;
	u.sort = C_RES;
	u.dirty = 1;
	sb_init(&u.input);
	u.host = read_line_file(cfg->root, "proc/sys/kernel/hostname");
	u.kernel = read_line_file(cfg->root, "proc/sys/kernel/osrelease");
	u.mem_total = read_mem_total(cfg->root);
	u.cpu_t = now_mono();
	u.cpu_c = now_cpu();
	if (start_term(&u, &scr)) {
		ui_free(&u);
		return 1;
	}
	reload(&u);
	u.next_tree_scan = now_mono() + PRE_TREE_SCAN;
	rc = loop(&u);
	endwin();
	tty_disarm();
	delscreen(scr);
	ui_free(&u);
	return rc;
}
