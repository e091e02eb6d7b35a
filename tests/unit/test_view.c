// SPDX-License-Identifier: GPL-2.0
/*
 * test_view.c - the tree screen's rows without a terminal: sort, filter,
 * zoom, collapse and the selection kept by path (ui_view.c, tree_key()),
 * and the key table that feeds both the dispatcher and the help screen.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>
#include <locale.h>
#include "ui.h"

#define MB (1024 * 1024ULL)

/*
 * Pre-order, as report_build() makes it:
 *   /            (root)
 *   /a           30M  (kids x 5M, y 20M)
 *   /b           50M  (kid web 40M)
 *   /c           1M
 */
static struct cg_stat cgs[] = {
	{ .path = "/", .name = "", .parent = -1, .depth = 0, .resident = 81 * MB },
	{ .path = "/a", .name = "a", .parent = 0, .depth = 1, .resident = 30 * MB },
	{ .path = "/a/x", .name = "x", .parent = 1, .depth = 2, .resident = 5 * MB },
	{ .path = "/a/y", .name = "y", .parent = 1, .depth = 2, .resident = 20 * MB },
	{ .path = "/b", .name = "b", .parent = 0, .depth = 1, .resident = 50 * MB },
	{ .path = "/b/web", .name = "Web", .parent = 4, .depth = 2, .resident = 40 * MB },
	{ .path = "/c", .name = "c", .parent = 0, .depth = 1, .resident = 1 * MB },
};

struct fix {
	struct report rep;
	struct ui u;
	char buf[256];
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->rep.cg = cgs;
	f->rep.n = sizeof(cgs) / sizeof(cgs[0]);
	f->rep.cycle = 1;
	f->rep.p.page_size = 4096;
	f->u.rep = &f->rep;
	f->u.vs.sort = F_NAME;
	fields_default(&f->u.vs.cols, FF_TUI);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;
	view_state_free(&f->u.vs);
	view_free(&f->u.view);
	free(f);
	return 0;
}

/* The rows shown, as "path path ...", with '+' after a collapsed one. */
static const char *rows(struct fix *f)
{
	size_t i, o = 0;

	f->buf[0] = '\0';
	for (i = 0; i < f->u.view.n; i++) {
		const struct view_row *r = &f->u.view.row[i];

		o += (size_t)snprintf(f->buf + o, sizeof(f->buf) - o, "%s%s%s",
				      i ? " " : "", cgs[r->cg].path,
				      r->collapsed ? "+" : "");
	}
	return f->buf;
}

static const char *selected(struct fix *f)
{
	const struct cg_stat *s = view_selected(&f->u);

	return s ? s->path : "(none)";
}

static void select_path(struct fix *f, const char *path)
{
	size_t i;

	for (i = 0; i < f->u.view.n; i++)
		if (!strcmp(cgs[f->u.view.row[i].cg].path, path)) {
			view_select(&f->u, i);
			return;
		}
	fail_msg("%s is not shown: %s", path, rows(f));
}

static void test_sort(void **state)
{
	struct fix *f = *state;

	view_build(&f->u);
	assert_string_equal(rows(f), "/ /a /a/x /a/y /b /b/web /c");
	f->u.vs.sort = F_RES;		/* largest first, within each parent */
	view_build(&f->u);
	assert_string_equal(rows(f), "/ /b /b/web /a /a/y /a/x /c");
	assert_int_equal(tree_key(&f->u, A_SORT_REV), 1);
	assert_string_equal(rows(f), "/ /c /a /a/x /a/y /b /b/web");
}

static void test_sort_ties_by_name(void **state)
{
	struct fix *f = *state;
	uint64_t keep = cgs[2].resident;

	/* /a/x named "yy": the name, not the order in the report, decides */
	cgs[2].resident = cgs[3].resident;
	cgs[2].name = "yy";
	f->u.vs.sort = F_RES;
	view_build(&f->u);
	cgs[2].resident = keep;
	cgs[2].name = "x";
	assert_string_equal(rows(f), "/ /b /b/web /a /a/y /a/x /c");
}

/* s and < cycle through NAME and the shown sortable columns. */
static void test_sort_keys_cycle(void **state)
{
	struct fix *f = *state;
	size_t i, n = 0;

	view_build(&f->u);
	for (i = 0; i < f->u.vs.cols.n; i++) {
		if (!(fields[f->u.vs.cols.id[i]].flags & FF_SORT))
			continue;
		tree_key(&f->u, A_SORT_NEXT);
		assert_int_equal(f->u.vs.sort, f->u.vs.cols.id[i]);
		n++;
	}
	assert_true(n >= 8);
	assert_int_equal(f->u.vs.cols.id[0], F_RES);
	tree_key(&f->u, A_SORT_NEXT);
	assert_int_equal(f->u.vs.sort, F_NAME);
	tree_key(&f->u, A_SORT_NEXT);
	assert_int_equal(f->u.vs.sort, F_RES);
	tree_key(&f->u, A_SORT_PREV);
	tree_key(&f->u, A_SORT_PREV);
	assert_int_equal(f->u.vs.sort, F_REFAULTS);	/* TREND does not sort */
}

/* Before the first counted cycle, resident comes from memory.stat; the
 * measured columns read "..." and nothing resident has no IDLE%. */
static void test_values_before_cycle_one(void **state)
{
	struct fix *f = *state;
	struct cg_stat s = { .resident = 7, .mem = { .has_stat = 1,
			     .anon = 3 * MB, .file = 2 * MB, .shmem = MB } };
	struct cg_stat empty = { .resident = 0 };
	struct field_val v;
	struct sbuf b;

	field_get(&f->rep, &s, F_RES, &v);
	assert_int_equal(v.u, 7);
	sb_init(&b);
	field_format(&b, &f->rep, &empty, F_IDLEPCT, U_AUTO, 0);
	assert_string_equal(sb_str(&b), "-");	/* 0 of 0 */
	f->rep.cycle = 0;
	field_get(&f->rep, &s, F_RES, &v);
	assert_int_equal(v.u, 5 * MB);
	field_get(&f->rep, &s, F_ANON, &v);
	assert_int_equal(v.u, 3 * MB);
	field_get(&f->rep, &s, F_FILE, &v);
	assert_int_equal(v.u, MB);		/* shmem apart */
	sb_reset(&b);
	field_format(&b, &f->rep, &s, F_IDLE, U_AUTO, 0);
	assert_string_equal(sb_str(&b), "...");
	sb_free(&b);
}

/* Ties in natural order: s2 before s10; numbers as numbers. */
static void test_natural_order(void **state)
{
	(void)state;
	assert_true(fields_natcmp("s2", "s10") < 0);
	assert_true(fields_natcmp("s10", "s100") < 0);
	assert_true(fields_natcmp("s11", "s100") < 0);
	assert_true(fields_natcmp("s1", "s1") == 0);
	assert_true(fields_natcmp("a", "b") < 0);
	assert_true(fields_natcmp("s02", "s10") < 0);
	assert_true(fields_natcmp("x9y", "x10a") < 0);
}

/* Flat: every cgroup, sorted together, paths; the filter keeps matches. */
static void test_flat(void **state)
{
	struct fix *f = *state;

	f->u.vs.flat = 1;
	f->u.vs.sort = F_RES;
	view_build(&f->u);
	assert_string_equal(rows(f), "/ /b /b/web /a /a/y /a/x /c");
	assert_int_equal(f->u.view.row[2].depth, 0);
	f->u.vs.sort = F_NAME;
	view_build(&f->u);
	assert_string_equal(rows(f), "/ /a /a/x /a/y /b /b/web /c");
	f->u.vs.filter = strdup("web");
	view_build(&f->u);
	assert_string_equal(rows(f), "/b/web");
	tree_key(&f->u, A_FLAT);
	assert_false(f->u.vs.flat);
	assert_string_equal(rows(f), "/ /b /b/web");
}

/* Search: the next row whose name matches, from the selection on. */
static void test_search(void **state)
{
	struct fix *f = *state;

	view_build(&f->u);
	assert_int_equal(view_find(&f->u, "WEB", 0), 5);
	assert_int_equal(view_find(&f->u, "nothing", 0), -1);
	assert_int_equal(view_find(&f->u, "a", 2), 1);	/* wraps */
	free(f->u.vs.search);
	f->u.vs.search = strdup("x");
	tree_key(&f->u, A_SEARCH_NEXT);
	assert_string_equal(selected(f), "/a/x");
}

/* --fields and the rc file's columns: ids or titles, bad ones named. */
static void test_fields_parse(void **state)
{
	struct field_set set;
	char err[160];

	(void)state;
	assert_int_equal(fields_parse(&set, "resident,IDLE%,psi,name", 0,
				      err, sizeof(err)), 0);
	assert_int_equal(set.n, 3);
	assert_int_equal(set.id[1], F_IDLEPCT);
	assert_int_equal(fields_parse(&set, "resident,bogus", 0, err,
				      sizeof(err)), -1);
	assert_non_null(strstr(err, "'bogus'"));
}

/* IDLE% colour: cold from 50%, hot under 10%, none if empty or unmeasured */
static void test_idle_color(void **state)
{
	struct fix *f = *state;
	struct cg_stat s = { .resident = 8 * MB };
	static const struct { double pct; enum color c; } t[] = {
		{ 0, CP_HOT }, { 9.9, CP_HOT }, { 10, CP_NORMAL },
		{ 49.9, CP_NORMAL }, { 50, CP_COLD }, { 100, CP_COLD },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s.idle_pct = t[i].pct;
		assert_int_equal(view_idle_color(&f->u, &s), t[i].c);
	}
	s.resident = 0;
	s.idle_pct = 0;
	assert_int_equal(view_idle_color(&f->u, &s), CP_NORMAL);
	s.resident = 8 * MB;
	f->rep.cycle = 0;
	assert_int_equal(view_idle_color(&f->u, &s), CP_NORMAL);
}

static void test_filter(void **state)
{
	struct fix *f = *state;

	f->u.vs.filter = strdup("WEB");	/* case-insensitive; ancestors stay */
	view_build(&f->u);
	assert_string_equal(rows(f), "/ /b /b/web");
	free(f->u.vs.filter);
	f->u.vs.filter = strdup("a");	/* a match brings its subtree */
	view_build(&f->u);
	assert_string_equal(rows(f), "/ /a /a/x /a/y");
	free(f->u.vs.filter);
	f->u.vs.filter = strdup("nothing");
	view_build(&f->u);
	assert_string_equal(rows(f), "/");
	assert_false(f->u.view.row[0].has_kids);
	tree_key(&f->u, A_CLEAR);
	assert_null(f->u.vs.filter);
	assert_string_equal(rows(f), "/ /a /a/x /a/y /b /b/web /c");
}

static void test_zoom(void **state)
{
	struct fix *f = *state;

	view_build(&f->u);
	select_path(f, "/a");
	tree_key(&f->u, A_ZOOM_IN);
	assert_string_equal(rows(f), "/a /a/x /a/y");
	assert_int_equal(f->u.view.row[0].depth, 0);
	assert_int_equal(f->u.view.row[1].depth, 1);
	select_path(f, "/a/y");
	tree_key(&f->u, A_ZOOM_IN);
	assert_string_equal(rows(f), "/a/y");
	tree_key(&f->u, A_ZOOM_OUT);	/* back up, the old root selected */
	assert_string_equal(rows(f), "/a /a/x /a/y");
	assert_string_equal(selected(f), "/a/y");
	tree_key(&f->u, A_ZOOM_OUT);
	assert_null(f->u.vs.zoom_path);
	assert_string_equal(rows(f), "/ /a /a/x /a/y /b /b/web /c");
	assert_string_equal(selected(f), "/a");
	tree_key(&f->u, A_ZOOM_OUT);	/* at the top: nothing to do */
	assert_string_equal(rows(f), "/ /a /a/x /a/y /b /b/web /c");
	select_path(f, "/");
	tree_key(&f->u, A_ZOOM_IN);	/* the root is already the root */
	assert_null(f->u.vs.zoom_path);
}

/* A zoomed cgroup that went away: its closest surviving ancestor. */
static void test_zoom_vanished(void **state)
{
	struct fix *f = *state;

	f->u.vs.zoom_path = strdup("/b/web/gone/deeper");
	view_build(&f->u);
	assert_string_equal(rows(f), "/b/web");
	assert_string_equal(f->u.vs.zoom_path, "/b/web");
	free(f->u.vs.zoom_path);
	f->u.vs.zoom_path = strdup("/nope");
	view_build(&f->u);
	assert_null(f->u.vs.zoom_path);
	assert_string_equal(rows(f), "/ /a /a/x /a/y /b /b/web /c");
}

static void test_collapse(void **state)
{
	struct fix *f = *state;

	view_build(&f->u);
	select_path(f, "/a");
	tree_key(&f->u, A_COLLAPSE);
	assert_string_equal(rows(f), "/ /a+ /b /b/web /c");
	assert_true(f->u.view.row[1].has_kids);
	f->u.vs.sort = F_RES;		/* kept by path across rebuilds */
	view_build(&f->u);
	assert_string_equal(rows(f), "/ /b /b/web /a+ /c");
	assert_string_equal(selected(f), "/a");
	tree_key(&f->u, A_TOGGLE);
	assert_string_equal(rows(f), "/ /b /b/web /a /a/y /a/x /c");
	tree_key(&f->u, A_TOGGLE);
	tree_key(&f->u, A_EXPAND);
	assert_int_equal(f->u.vs.ncollapsed, 0);
	select_path(f, "/c");		/* a leaf does not collapse */
	tree_key(&f->u, A_COLLAPSE);
	assert_int_equal(f->u.vs.ncollapsed, 0);
}

static void test_selection_follows_path(void **state)
{
	struct fix *f = *state;

	view_build(&f->u);
	select_path(f, "/b/web");
	assert_int_equal(f->u.vs.sel, 5);
	tree_key(&f->u, A_SORT_NEXT);	/* by resident */
	assert_int_equal(f->u.vs.sel, 2);
	assert_string_equal(selected(f), "/b/web");
	tree_key(&f->u, A_END);
	assert_string_equal(selected(f), "/c");
	tree_key(&f->u, A_DOWN);	/* stays on the last row */
	assert_string_equal(selected(f), "/c");
	tree_key(&f->u, A_HOME);
	tree_key(&f->u, A_UP);
	assert_string_equal(selected(f), "/");
}

/* The tree lines: last child, and which ancestors have siblings below. */
static void test_tree_lines(void **state)
{
	struct fix *f = *state;
	const struct view_row *r;

	view_build(&f->u);
	r = f->u.view.row;
	assert_false(r[2].last);		/* /a/x */
	assert_true(r[3].last);			/* /a/y */
	assert_true(r[2].more & 2);		/* /a has /b below */
	assert_true(r[5].more & 2);		/* /b has /c below */
	assert_true(r[6].last);			/* /c */
	assert_false(r[6].has_kids);
	assert_true(r[1].has_kids);
}

/* Every action has a key on some screen and a help line; no key is
 * bound twice on one screen, or the help would lie. */
static void test_key_table(void **state)
{
	size_t i, j;
	int a, bound;

	(void)state;
	for (a = A_NONE + 1; a < A_NR; a++) {
		for (bound = 0, i = 0; i < keys_count; i++)
			bound |= keys_table[i].act == (enum action)a;
		assert_true(bound);
		assert_true(*keys_help((enum action)a));
	}
	for (i = 0; i < keys_count; i++)
		for (j = i + 1; j < keys_count; j++)
			if (keys_table[i].key == keys_table[j].key)
				assert_int_equal(keys_table[i].screens &
						 keys_table[j].screens, 0);
	assert_int_equal(keys_lookup(S_TREE, 'q'), A_QUIT);
	assert_int_equal(keys_lookup(S_TREE, 'i'), A_DETAIL);
	assert_int_equal(keys_lookup(S_DETAIL, 'i'), A_BACK);
	assert_int_equal(keys_lookup(S_HELP, 'x'), A_NONE);
}

/* Help and details scroll alike (one pager): PgUp goes a window back,
 * not to the top, on both. */
static void test_pager_keys(void **state)
{
	static const struct { enum action a; int want; } step[] = {
		{ A_PGDN, 18 }, { A_PGDN, 36 }, { A_DOWN, 37 }, { A_PGUP, 19 },
		{ A_UP, 18 }, { A_PGUP, 0 }, { A_UP, 0 }, { A_END, 1 << 20 },
		{ A_HOME, 0 },
	};
	struct fix *f = *state;
	size_t i;

	LINES = 24;	/* 4 header rows, a status line: 18 per page */
	for (i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		assert_int_equal(help_key(&f->u, step[i].a), 1);
		assert_int_equal(detail_key(&f->u, step[i].a), 1);
		assert_int_equal(f->u.help_scroll, step[i].want);
		assert_int_equal(f->u.detail.scroll, step[i].want);
	}
	assert_int_equal(help_key(&f->u, A_SORT_NEXT), 0);
	assert_int_equal(detail_key(&f->u, A_SORT_NEXT), 0);
}

/* Widths in display cells, not bytes: wide characters take two, a
 * combining mark none, a byte the locale cannot decode one. */
static void test_display_width(void **state)
{
	struct sbuf b;

	(void)state;
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		skip();
	assert_int_equal(ui_width("caf\u00e9 \u2713"), 6);
	assert_int_equal(ui_width("\u6f22\u5b57"), 4);
	assert_int_equal(ui_width("e\u0301"), 1);
	assert_int_equal(ui_width("\u2026"), 1);
	assert_int_equal(ui_width("a\xff" "b"), 3);
	sb_init(&b);
	ui_pad(&b, "\u6f22\u5b57", 6);
	assert_string_equal(sb_str(&b), "\u6f22\u5b57  ");
	sb_reset(&b);
	ui_pad(&b, "toolong", 3);
	assert_string_equal(sb_str(&b), "toolong");
	sb_free(&b);
	setlocale(LC_CTYPE, "C");
	assert_int_equal(ui_width("caf\u00e9"), 5);	/* bytes in C */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_ties_by_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_keys_cycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_values_before_cycle_one, setup, teardown),
		cmocka_unit_test(test_natural_order),
		cmocka_unit_test_setup_teardown(test_flat, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search, setup, teardown),
		cmocka_unit_test(test_fields_parse),
		cmocka_unit_test_setup_teardown(test_idle_color, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zoom, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zoom_vanished, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collapse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selection_follows_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_lines, setup, teardown),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test_setup_teardown(test_pager_keys, setup, teardown),
		cmocka_unit_test(test_display_width),
	};

	return cmocka_run_group_tests_name("view", tests, NULL, NULL);
}
