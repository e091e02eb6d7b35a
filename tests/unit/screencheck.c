// SPDX-License-Identifier: GPL-2.0
/*
 * screencheck.c - properties every captured idletop screen must have,
 * whatever its golden says: `screencheck COLS FILE...` (UTF-8 text, one
 * screen line per line, as `tmux capture-pane -p` gives it).
 * - every line is valid UTF-8 without raw control characters (C0, DEL,
 *   C1), bidi controls or zero-width characters: names must reach the
 *   screen escaped;
 * - no line is wider than COLS display cells (wcwidth, as ncurses counts);
 * - in a table (a title line starting NAME or PATH, then its rows down to
 *   the first empty line or the status line, the last), every row's
 *   cells end in the cell where their column's title ends, and TREND's
 *   start where its title starts.
 * Each failure is printed as FILE:LINE: what; exit 1 if any.
 */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define MAX_CELLS 512
#define MAX_COLS 64

/* One line as cells: the character in each (0: the right half of a
 * wide one), and how many. */
struct cells {
	wchar_t c[MAX_CELLS];
	int n;
};

struct column {
	int start, end;		/* cells [start, end) of the title */
	int left;		/* left-aligned (TREND) */
	char title[16];		/* ASCII */
};

static const char *file;
static int lineno, bad;

static void fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	printf("%s:%d: ", file, lineno);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	bad = 1;
}

static int forbidden(wchar_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) ||	/* C0, DEL, C1 */
	       c == 0x061c || c == 0x200e || c == 0x200f ||	/* bidi marks */
	       (c >= 0x202a && c <= 0x202e) ||	/* embeddings, overrides */
	       (c >= 0x2066 && c <= 0x2069) ||	/* isolates */
	       (c >= 0x200b && c <= 0x200d) || c == 0x2060 ||	/* zero width */
	       c == 0xfeff;
}

/* Decode s into cells; 0, or -1 after reporting what is wrong. */
static int decode(const char *s, struct cells *l)
{
	mbstate_t st;
	size_t len = strlen(s), i = 0, n;
	wchar_t wc;
	int w;

	memset(&st, 0, sizeof(st));
	l->n = 0;
	while (i < len) {
		n = mbrtowc(&wc, s + i, len - i, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			fail("invalid UTF-8 at byte %zu", i);
			return -1;
		}
		if (forbidden(wc)) {
			fail("raw control, bidi or zero-width character "
			     "U+%04X", (unsigned)wc);
			return -1;
		}
		w = wcwidth(wc);
		if (w < 1 || l->n + w > MAX_CELLS) {
			fail("U+%04X: no width, or the line is too long",
			     (unsigned)wc);
			return -1;
		}
		l->c[l->n++] = wc;
		if (w == 2)
			l->c[l->n++] = 0;
		i += n;
	}
	return 0;
}

static int blank(const struct cells *l, int x)
{
	return x < 0 || x >= l->n || l->c[x] == L' ';
}

/* Does the text at cell x start with word (ASCII)? */
static int starts(const struct cells *l, int x, const char *word)
{
	for (; *word; word++, x++)
		if (x >= l->n || l->c[x] != (wchar_t)*word)
			return 0;
	return 1;
}

/* The titles of a title line (the first, NAME or PATH, left out). */
static int titles(const struct cells *l, struct column *col)
{
	int x = 0, n = 0;
	size_t k;

	while (!blank(l, x))
		x++;
	while (n < MAX_COLS) {
		while (x < l->n && blank(l, x))
			x++;
		if (x >= l->n)
			break;
		col[n].start = x;
		col[n].left = starts(l, x, "TREND");
		for (k = 0; !blank(l, x); x++)
			if (k < sizeof(col[n].title) - 1)
				col[n].title[k++] = l->c[x] < 0x80 ?
						    (char)l->c[x] : '?';
		col[n].title[k] = '\0';
		col[n++].end = x;
	}
	return n;
}

/* A left-aligned cell: nothing, or text from its title's first cell. */
static int left_ok(const struct cells *l, int start)
{
	int x = start;

	while (x < l->n && blank(l, x))
		x++;
	return blank(l, start - 1) && (x >= l->n || x == start);
}

static void check_row(const struct cells *l, const struct column *col,
		      int ncol)
{
	int k;

	for (k = 0; k < ncol; k++) {
		if (col[k].left ? !left_ok(l, col[k].start) :
		    blank(l, col[k].end - 1) || !blank(l, col[k].end))
			fail("%s: the cell is not aligned with the title "
			     "(cells %d-%d)", col[k].title, col[k].start,
			     col[k].end - 1);
	}
}

/*
 * A table row waits in `row` until the next line comes: the screen's
 * last line is the status line, never a row.
 */
static int check(FILE *f, int cols)
{
	static struct cells buf[2];
	struct column col[MAX_COLS];
	struct cells *l, *row = NULL;
	char *s = NULL;
	size_t cap = 0;
	ssize_t r;
	int ncol = 0, in_table = 0;

	for (lineno = 1; (r = getline(&s, &cap, f)) >= 0; lineno++) {
		if (r > 0 && s[r - 1] == '\n')
			s[r - 1] = '\0';
		l = &buf[lineno % 2];
		if (row) {
			lineno--;
			check_row(row, col, ncol);
			lineno++;
			row = NULL;
		}
		if (decode(s, l))
			continue;
		if (l->n > cols)
			fail("%d cells wide, wider than the screen", l->n);
		if (!l->n)
			in_table = 0;
		else if (in_table)
			row = l;
		else if ((in_table = starts(l, 0, "NAME") ||
				     starts(l, 0, "PATH")))
			ncol = titles(l, col);
	}
	free(s);
	return ferror(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	int cols, i;
	FILE *f;

	if (argc < 3 || (cols = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: screencheck COLS FILE...\n");
		return 2;
	}
	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "screencheck: no C.UTF-8 locale\n");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		file = argv[i];
		f = fopen(file, "r");
		if (!f || check(f, cols)) {
			perror(file);
			bad = 1;
		}
		if (f)
			fclose(f);
	}
	return bad;
}
