/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt.h - a growable string buffer, units and escaping: the base layer
 * every other one may use (the tree reader escapes the path its error
 * names, the printers and screens everything they show).  Nothing here
 * returns a static buffer.
 */
#ifndef IDLETOP_FMT_H
#define IDLETOP_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sbuf {
	char *p;	/* NUL-terminated when len > 0 or after sb_str() */
	size_t len, cap;
	int oom;	/* an append failed: contents are truncated */
};

void sb_init(struct sbuf *b);
void sb_free(struct sbuf *b);
void sb_reset(struct sbuf *b);
void sb_putc(struct sbuf *b, char c);
void sb_put(struct sbuf *b, const char *s, size_t n);
void sb_puts(struct sbuf *b, const char *s);
void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *sb_str(struct sbuf *b);	/* "" when empty or on oom */
/*
 * b's text to f, then fflush(f); b is freed.  0, or -1 with errno
 * (ENOMEM when an append failed: nothing of a truncated text is written).
 */
int sb_write(FILE *f, struct sbuf *b);

/*
 * Length of the well-formed UTF-8 sequence at s (1..4), or 0 when the
 * bytes there are not one (bad lead, bad continuation, overlong,
 * surrogate, > U+10FFFF, truncated). *cp gets the code point.
 */
size_t utf8_seq(const unsigned char *s, uint32_t *cp);

/*
 * Escaping of cgroup names (raw bytes, any of them but NUL and '/' in a
 * component) for each output.  Every form is injective: distinct names
 * give distinct strings, and a name can be recovered from its form.
 *
 * "Hidden" code points (fmt_hidden) are valid UTF-8 that must not reach a
 * terminal or a text file raw: C0 controls, DEL, C1 controls, and the
 * invisible characters that reorder, join or hide text or break lines
 * (Unicode format characters such as U+200B..U+200F, U+202A..U+202E,
 * U+2066..U+2069, U+FEFF, the line and paragraph separators, variation
 * selectors, tags).  They are what lets a name spoof another or push the
 * TUI's columns out of line.
 *
 * ESC_TEXT, the text form (batch text, and the TUI through ui_esc()):
 *   "\" becomes "\\"; each byte of a hidden code point and each byte that
 *   is not valid UTF-8 becomes "\xNN" (two lowercase hex digits); all else
 *   is copied.  To decode: "\\" is "\", "\xNN" the byte NN.
 * ESC_OM, an OpenMetrics label value (no quotes): the text form, then the
 *   label rules ("\" -> "\\", '"' -> "\""), so "\" is written "\\\\" and a
 *   hidden or invalid byte "\\xNN".  The decoded label is the text form.
 * ESC_JSON, a JSON string body (no quotes): the name itself for valid
 *   UTF-8: '"' and "\" escaped, hidden code points as \uXXXX (a surrogate
 *   pair above U+FFFF; \n \t \r \b \f for those), all else copied; a byte
 *   that is not valid UTF-8 becomes U+FFFD (written "\ufffd") followed by
 *   its two hex digits, and a U+FFFD of the name itself is doubled
 *   ("\ufffd\ufffd").  So "a\xff" is "a\ufffdff", a U+FFFD then "ff".
 */
enum esc_to { ESC_TEXT, ESC_JSON, ESC_OM };

void fmt_esc(struct sbuf *b, const char *s, enum esc_to to);
void fmt_esc_text(struct sbuf *b, const char *s);	/* ESC_TEXT */
void fmt_esc_json(struct sbuf *b, const char *s);	/* ESC_JSON */
void fmt_esc_om(struct sbuf *b, const char *s);		/* ESC_OM */
/* 1 for the hidden code points above, C0/DEL/C1 included. */
int fmt_hidden(uint32_t cp);

/* Human-readable size with binary units: "0", "812K", "1.5M", "23G". */
void fmt_bytes(struct sbuf *b, uint64_t bytes);
/* Duration: "45s", "5m", "1h30m". */
void fmt_duration(struct sbuf *b, double seconds);

#endif
