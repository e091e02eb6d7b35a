// SPDX-License-Identifier: GPL-2.0
/*
 * ui.c - the interactive mode: the main loop
 *   poll(stdin, engine_wait()) -> keys, or one engine_step()
 *   -> a new report after a completed cycle, or engine_refresh() every
 *      refresh delay (memory.*, PSI, refaults): rebuild the rows, redraw
 * and the key dispatcher (keys.c's table -> the screen's x_key());
 * the terminal's setup is ui_term.c's.
 */
#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tty.h"
#include "ui.h"
#include "util.h"		/* now_mono(), now_cpu(): the loop's clocks */

#define TICK 0.5		/* header refresh (progress, CPU %) */

int ui_have_rep(const struct ui *u)
{
	return u->rep && u->rep->n > 0;
}

int ui_measured(const struct ui *u)
{
	return ui_have_rep(u) && u->rep->cycle > 0;
}

/* After a new report: the rows, the trend, the detail's processes. */
static void reload(struct ui *u)
{
	u->rep = engine_report(u->e);
	if (u->rep->cycle && trend_update(&u->trend, u->rep))
		ui_msg(u, "out of memory (trend)");
	view_build(u);
	if (u->screen == S_DETAIL && view_selected(u))
		engine_procs(u->e, u->view.row[u->vs.sel].cg,
			     &u->detail.procs);
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
		{ A_FILTER, "filter" }, { A_FLAT, "flat" }, { A_UNITS, "units" },
		{ A_PAUSE, "freeze" }, { A_QUIT, "quit" },
	};
	static const char *const what[] = { [P_FILTER] = "Filter",
		[P_SEARCH] = "Search", [P_PERIOD] = "Idle window, --period "
		"(seconds)", [P_DELAY] = "Refresh delay (seconds)" };
	struct sbuf b;
	const char *l;
	size_t i;
	int x;

	sb_init(&b);
	if (u->prompt) {
		sb_printf(&b, "%s: ", what[u->prompt]);
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
	u->t.too_small = cols < UI_MIN_COLS || rows < UI_MIN_ROWS;
	if (u->t.too_small) {
		mvprintw(0, 0, "Terminal too small: %dx%d", cols, rows);
		mvprintw(1, 0, "need %dx%d; q quits", UI_MIN_COLS, UI_MIN_ROWS);
	} else {
		header_draw(u);
		if (u->screen == S_HELP)
			help_draw(u);
		else if (u->screen == S_DETAIL)
			detail_draw(u);
		else if (u->screen == S_COLUMNS)
			columns_draw(u);
		else if (u->screen == S_SORTBY)
			sortby_draw(u);
		else
			tree_draw(u);
		status_line(u);
	}
	refresh();
	u->dirty = 0;
}

static void global_key(struct ui *u, enum action a)
{
	switch (a) {
	case A_QUIT: u->quit = 1; break;
	case A_PAUSE:	/* freeze the display; measuring goes on */
		u->paused = !u->paused;
		if (engine_freeze(u->e, u->paused) ||
		    (!u->paused && engine_refresh(u->e) == 1))
			reload(u);
		break;
	case A_UNITS: u->vs.unit = (u->vs.unit + 1) % U_NR; break;
	case A_DELAY: ui_prompt(u, P_DELAY, NULL); break;
	case A_PERIOD: ui_prompt(u, P_PERIOD, NULL); break;
	case A_HELP: u->screen = S_HELP; u->help_scroll = 0; break;
	default: break;
	}
}

static void mouse(struct ui *u)
{
	MEVENT m;

	if (getmouse(&m) != OK)
		return;
	if (m.bstate & BUTTON4_PRESSED)
		tree_mouse(u, m.y, m.x, -1);
#ifdef BUTTON5_PRESSED
	else if (m.bstate & BUTTON5_PRESSED)
		tree_mouse(u, m.y, m.x, 1);
#endif
	else if (m.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
		tree_mouse(u, m.y, m.x, 0);
}

static int screen_key(struct ui *u, enum action a)
{
	switch (u->screen) {
	case S_TREE: return tree_key(u, a);
	case S_DETAIL: return detail_key(u, a);
	case S_HELP: return help_key(u, a);
	case S_COLUMNS: return columns_key(u, a);
	case S_SORTBY: return sortby_key(u, a);
	default: return 0;
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
	a = keys_lookup(u->t.too_small ? S_HELP : u->screen, ch);
	if (a != A_NONE)	/* a message stays until a key does something */
		u->msg[0] = '\0';
	if (u->t.too_small && a != A_QUIT)
		return;
	if (a == A_MOUSE) {
		if (u->screen == S_TREE)
			mouse(u);
		else
			getmouse(&(MEVENT){ 0 });
		return;
	}
	if (!screen_key(u, a))
		global_key(u, a);
}

static int fail(struct ui *u)
{
	endwin();
	tty_disarm();
	if (engine_fatal(u->e))
		fprintf(stderr, "idletop: %s\n", engine_err(u->e));
	else
		fprintf(stderr, "idletop: %s; giving up after %u failures in "
			"a row\n", engine_err(u->e), engine_fails(u->e));
	return -1;
}

/*
 * A failed refresh or step (engine.h, Errors): the report stays, the
 * error is on the status line, the engine retries; after
 * ENGINE_FAILS_MAX in a row, or at once when the failure is fatal
 * (engine_fatal()), idletop ends with the error on stderr.
 */
static int failed(struct ui *u)
{
	if (engine_fails(u->e) >= ENGINE_FAILS_MAX)
		return fail(u);
	ui_msg(u, "%s; retrying (%u of %u)", engine_err(u->e), engine_fails(u->e),
	       ENGINE_FAILS_MAX);
	u->dirty = 1;
	return 0;
}

/*
 * Periodic display work (a refresh, a redraw) that cost `cpu` seconds
 * comes again after `floor` seconds, or later when that would take more
 * than a quarter of the --cpu budget: with both held so, the scan keeps
 * at least half of it.
 */
static double display_gap(const struct ui *u, double cpu, double floor)
{
	double gap = cpu / (u->cfg->cpu_pct / 100 / 4);

	return gap > floor ? gap : floor;
}

/*
 * A slice when one is due (pacing), else a refresh when that is due:
 * every refresh delay, or less often when a refresh costs more than a
 * quarter of the CPU budget over that time (thousands of cgroups).
 */
static int step(struct ui *u, double *next_refresh)
{
	int rc = engine_wait(u->e) <= 0 ? engine_step(u->e) : 0;

	if (rc == 0 && !u->paused && now_mono() >= *next_refresh) {
		double c0 = now_cpu();

		rc = engine_refresh(u->e);
		u->refresh_gap = display_gap(u, now_cpu() - c0, u->delay);
		*next_refresh = now_mono() + u->refresh_gap;
		return rc < 0 ? failed(u) : rc == 1 ? (reload(u), 0) : 0;
	}
	if (rc < 0)
		return failed(u);
	if (rc == 1) {
		reload(u);
		*next_refresh = now_mono() + (u->refresh_gap > u->delay ?
					      u->refresh_gap : u->delay);
	}
	return 0;
}

/*
 * A redraw; the next one that no key asks for comes after TICK, or later
 * on a slow terminal or an emulated machine (display_gap()).
 */
static double tick(struct ui *u)
{
	double c0 = now_cpu();

	sample_cpu(u);
	draw(u);
	return now_mono() + display_gap(u, now_cpu() - c0, TICK);
}

static int loop(struct ui *u)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	double next_tick = 0, next_refresh = now_mono() + u->delay, wait;
	int ch, n;

	while (!*u->t.stop && !u->quit) {
		if (u->dirty || now_mono() >= next_tick)
			next_tick = tick(u);
		wait = engine_wait(u->e);
		if (wait > next_tick - now_mono())
			wait = next_tick - now_mono();
		if (!u->paused && wait > next_refresh - now_mono())
			wait = next_refresh - now_mono();
		n = poll_stop(&pfd, 1, wait > 0 ? wait + 0.001 : 0, u->t.stop);
		if (*u->t.stop)
			break;
		if (n < 0 && errno != EINTR)
			return 1;
		if (n > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)))
			return 0;	/* the terminal went away */
		for (n = 0; n < 64 && (ch = getch()) != ERR; n++)
			key(u, ch);
		if (!u->quit && (engine_wait(u->e) <= 0 ||
				 now_mono() >= next_refresh) &&
		    step(u, &next_refresh))
			return 1;
	}
	return 0;
}

static void ui_free(struct ui *u)
{
	view_free(&u->view);
	view_state_free(&u->vs);
	trend_free(&u->trend);
	procs_free(&u->detail.procs);
	sb_free(&u->input);
	host_free(&u->host);
}

/*
 * Columns, sort, units, view: defaults, the rc file, the command line;
 * what the file holds and what the session starts with are kept apart.
 */
static void settings(struct ui *u, const char *rc)
{
	fields_default(&u->vs.cols, FF_TUI);
	u->vs.sort = F_RES;
	if (rc && rc_load(&u->vs, rc, u->msg, sizeof(u->msg))) {
		fprintf(stderr, "idletop: warning: %s\n", u->msg);
		u->rc_bad = 1;	/* shown on the status line; not overwritten */
	}
	rc_take(&u->rc_file, &u->vs);
	if (u->cfg->fields)
		u->vs.cols = u->cfg->fset;
	rc_take(&u->rc_start, &u->vs);
}

/* The settings changed in this session, over the rc file's others. */
static void save_settings(struct ui *u, const char *rc)
{
	struct rc_settings s;

	if (!rc || u->rc_bad ||
	    !rc_merge(&s, &u->rc_file, &u->rc_start, &u->vs))
		return;
	if (rc_save(&s, rc, u->msg, sizeof(u->msg)))
		fprintf(stderr, "idletop: settings not saved: %s\n", u->msg);
}

int ui_run(struct engine *e, struct config *cfg, volatile sig_atomic_t *stop)
{
	struct ui u;
	SCREEN *scr;
	char *rc = rc_path();
	int ret;

	memset(&u, 0, sizeof(u));
	u.cfg = cfg;
	u.e = e;
	u.t.stop = stop;
	u.rep = engine_report(e);
	u.screen = S_TREE;
	u.dirty = 1;
	u.delay = cfg->delay;
	sb_init(&u.input);
	settings(&u, rc);
	engine_host(e, &u.host);
	u.cpu_t = now_mono();
	u.cpu_c = now_cpu();
	if (ui_term_start(&u, &scr)) {
		ui_free(&u);
		free(rc);
		return 1;
	}
	if (engine_refresh(e) < 0)
		ui_msg(&u, "%s", engine_err(e));
	reload(&u);
	ret = loop(&u);
	endwin();
	tty_disarm();
	delscreen(scr);
	save_settings(&u, rc);
	ui_free(&u);
	free(rc);
	return ret;
}
