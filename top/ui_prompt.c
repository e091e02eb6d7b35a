// SPDX-License-Identifier: GPL-2.0
/*
 * ui_prompt.c - the status line's prompts: filter (backslash, F4), search as
 * you type (/, F3), refresh delay (d) and idle window (w).
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include "ui.h"

static void set_number(struct ui *u, enum prompt_kind k, const char *s)
{
	double v;

	if (k == P_DELAY) {
		if (parse_num(s, 0.1, 3600, &v)) {
			ui_msg(u, "invalid delay '%.40s': seconds, 0.1..3600", s);
			return;
		}
		u->delay = v;
		ui_msg(u, "refresh every %gs (idle numbers: every period)", v);
		return;
	}
	if (parse_num(s, 0.01, 604800, &v)) {
		ui_msg(u, "invalid period '%.40s': seconds, 0.01..604800", s);
		return;
	}
	if (engine_set_period(u->e, v)) {
		ui_msg(u, "%s", engine_err(u->e));
		return;
	}
	ui_msg(u, "period %gs: measuring anew, next report in %gs", v, 2 * v);
}

void ui_prompt(struct ui *u, enum prompt_kind k, const char *init)
{
	u->prompt = k;
	sb_reset(&u->input);
	sb_puts(&u->input, init ? init : "");
	curs_set(1);
}

static void set_filter(struct ui *u, const char *s)
{
	free(u->vs.filter);
	u->vs.filter = *s ? strdup(s) : NULL;
	if (*s && !u->vs.filter)
		ui_msg(u, "out of memory");
	view_build(u);
}

/* Search as you type: the first match from the selection on. */
static void search(struct ui *u, const char *s, int keep)
{
	long i;

	if (keep) {
		free(u->vs.search);
		u->vs.search = *s ? strdup(s) : NULL;
	}
	i = view_find(u, s, u->vs.sel);
	if (i >= 0)
		view_select(u, (size_t)i);
	else if (*s)
		ui_msg(u, "no cgroup matches '%.40s'", s);
}

static void prompt_done(struct ui *u, int accept)
{
	const char *s = sb_str(&u->input);

	if (accept && u->prompt == P_FILTER)
		set_filter(u, s);
	else if (accept && u->prompt == P_SEARCH)
		search(u, s, 1);
	else if (accept && *s)
		set_number(u, u->prompt, s);
	u->prompt = P_NONE;
	sb_reset(&u->input);
	curs_set(0);
}

#define INPUT_MAX 64	/* bytes; a character begun there is finished */

/*
 * A byte to add to the input: printable ASCII; on a UTF-8 terminal also
 * the bytes of a multibyte character, which getch() returns one at a
 * time (names are matched as bytes; the prompt shows the input escaped).
 */
static int typed(const struct ui *u, int ch)
{
	if (ch >= 0x20 && ch < 0x7f)
		return u->input.len < INPUT_MAX;
	if (!u->t.utf8 || ch < 0x80 || ch > 0xff)
		return 0;
	return (ch & 0xc0) == 0x80 ? u->input.len < INPUT_MAX + 3 :
	       u->input.len < INPUT_MAX;
}

/* Backspace: the last character, all the bytes of a multibyte one. */
static void erase_char(struct sbuf *in)
{
	while (in->len > 1 &&
	       ((unsigned char)in->p[in->len - 1] & 0xc0) == 0x80)
		in->len--;
	if (in->len)
		in->len--;
	in->p[in->len] = '\0';
}

/* Line editing for the prompts. */
void prompt_key(struct ui *u, int ch)
{
	if (ch == 27 || ch == 3)	/* Esc, ^C */
		prompt_done(u, 0);
	else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		prompt_done(u, 1);
	else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && u->input.len)
		erase_char(&u->input);
	else if (typed(u, ch))
		sb_putc(&u->input, (char)ch);
	if (u->prompt == P_SEARCH) {
		u->msg[0] = '\0';
		search(u, sb_str(&u->input), 0);
	}
	u->dirty = 1;
}

