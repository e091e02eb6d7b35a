/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt.h - a growable string buffer, units and escaping, shared by the
 * batch printers and the TUI. Nothing here returns a static buffer.
 */
#ifndef IDLETOP_FMT_H
#define IDLETOP_FMT_H

#include <stddef.h>
#include <stdint.h>

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
 * Length of the well-formed UTF-8 sequence at s (1..4), or 0 when the
 * bytes there are not one (bad lead, bad continuation, overlong,
 * surrogate, > U+10FFFF, truncated). *cp gets the code point.
 */
size_t utf8_seq(const unsigned char *s, uint32_t *cp);

/*
 * Terminal/text: printable ASCII and valid UTF-8 (except C1 controls)
 * pass; backslash becomes \\, everything else \xNN per byte.
 */
void fmt_esc_text(struct sbuf *b, const char *s);
/*
 * JSON string body (no quotes): \" \\ \n \t \r \b \f, other controls
 * and DEL as \u00XX, C1 as \u00XX, each invalid UTF-8 byte as \uFFFD.
 */
void fmt_esc_json(struct sbuf *b, const char *s);
/*
 * OpenMetrics label value body: \\ \" \n per the spec; other control
 * bytes and invalid UTF-8 bytes become the text \\xNN (a literal
 * backslash, so the decoded value equals the text-format escaping).
 */
void fmt_esc_om(struct sbuf *b, const char *s);

/* Human-readable size with binary units: "0", "812K", "1.5M", "23G". */
void fmt_bytes(struct sbuf *b, uint64_t bytes);
/* Duration: "45s", "5m", "1h30m". */
void fmt_duration(struct sbuf *b, double seconds);

#endif
