// SPDX-License-Identifier: GPL-2.0
/* fmt.c - string buffer, units and escaping */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fmt.h"

void sb_init(struct sbuf *b)
{
	memset(b, 0, sizeof(*b));
}

void sb_free(struct sbuf *b)
{
	free(b->p);
	sb_init(b);
}

void sb_reset(struct sbuf *b)
{
	b->len = 0;
	b->oom = 0;
	if (b->p)
		b->p[0] = '\0';
}

static int sb_room(struct sbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 64;
	char *p;

	if (b->oom)
		return -1;
	if (b->len + n + 1 <= b->cap)
		return 0;
	while (cap < b->len + n + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (sb_room(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void sb_putc(struct sbuf *b, char c)
{
	sb_put(b, &c, 1);
}

void sb_puts(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || sb_room(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

const char *sb_str(struct sbuf *b)
{
	return b->p && !b->oom ? b->p : "";
}

int sb_write(FILE *f, struct sbuf *b)
{
	int rc = 0;

	if (b->oom) {
		errno = ENOMEM;
		rc = -1;
	} else if (fwrite(b->p, 1, b->len, f) != b->len || fflush(f)) {
		rc = -1;
	}
	sb_free(b);
	return rc;
}

size_t utf8_seq(const unsigned char *s, uint32_t *cp)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/*
 * Code points that are valid UTF-8 but must not reach a terminal raw:
 * C0, DEL, C1, and the invisible ones that reorder, join or hide text
 * or break lines (general category Cf, Zl, Zp and the rest of Unicode's
 * Default_Ignorable_Code_Point, plus the noncharacters U+FFFE/U+FFFF):
 * U+202E or U+2066 turn the rest of a row around, U+200B takes no cell.
 */
static const uint32_t hidden[][2] = {
	{ 0x0000, 0x001f }, { 0x007f, 0x009f }, { 0x00ad, 0x00ad },
	{ 0x034f, 0x034f }, { 0x0600, 0x0605 }, { 0x061c, 0x061c },
	{ 0x06dd, 0x06dd }, { 0x070f, 0x070f }, { 0x0890, 0x0891 },
	{ 0x08e2, 0x08e2 }, { 0x115f, 0x1160 }, { 0x17b4, 0x17b5 },
	{ 0x180b, 0x180f }, { 0x200b, 0x200f }, { 0x2028, 0x202e },
	{ 0x2060, 0x206f }, { 0x3164, 0x3164 }, { 0xfe00, 0xfe0f },
	{ 0xfeff, 0xfeff }, { 0xffa0, 0xffa0 }, { 0xfff0, 0xfffb },
	{ 0xfffe, 0xffff }, { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
	{ 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
	{ 0xe0000, 0xe0fff },
};

int fmt_hidden(uint32_t cp)
{
	size_t i;

	for (i = 0; i < sizeof(hidden) / sizeof(*hidden) &&
		    cp >= hidden[i][0]; i++)
		if (cp <= hidden[i][1])
			return 1;
	return 0;
}

/*
 * What each format writes for the few things that need escaping; every
 * other character is copied.  Text: \ doubled, a hidden code point or
 * invalid byte as \xNN per byte.  OpenMetrics: the text form, escaped
 * again by the label rules (\ -> \\, " -> \"), so a decoded label is the
 * text form.  JSON: the name itself, hidden code points as \uXXXX (C0
 * with the short escapes), an invalid byte as U+FFFD and two hex digits,
 * a U+FFFD of the name doubled.
 */
struct esc_policy {
	const char *backslash, *quote;
	const char *hex;	/* before a byte's two hex digits */
	int json;	/* hidden code points as \uXXXX, U+FFFD doubled */
};

static const struct esc_policy policy[] = {
	[ESC_TEXT] = { "\\\\", "\"", "\\x", 0 },
	[ESC_OM] = { "\\\\\\\\", "\\\"", "\\\\x", 0 },
	[ESC_JSON] = { "\\\\", "\\\"", "\\ufffd", 1 },
};

static void json_cp(struct sbuf *b, uint32_t cp)
{
	static const char short_esc[] = "\nn\tt\rr\bb\ff";
	const char *e = cp && cp < 0x20 ? strchr(short_esc, (int)cp) : NULL;

	if (e && (e - short_esc) % 2 == 0)
		sb_printf(b, "\\%c", e[1]);
	else if (cp < 0x10000)
		sb_printf(b, "\\u%04x", (unsigned)cp);
	else	/* a UTF-16 surrogate pair */
		sb_printf(b, "\\u%04x\\u%04x",
			  (unsigned)(0xd800 + ((cp - 0x10000) >> 10)),
			  (unsigned)(0xdc00 + ((cp - 0x10000) & 0x3ff)));
}

void fmt_esc(struct sbuf *b, const char *str, enum esc_to to)
{
	const struct esc_policy *p = &policy[to];
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp;
	size_t n, i;

	for (; *s; s += n) {
		n = utf8_seq(s, &cp);
		if (!n) {
			sb_printf(b, "%s%02x", p->hex, *s);
			n = 1;
		} else if (*s == '\\') {
			sb_puts(b, p->backslash);
		} else if (*s == '"') {
			sb_puts(b, p->quote);
		} else if (fmt_hidden(cp) && p->json) {
			json_cp(b, cp);
		} else if (fmt_hidden(cp)) {
			for (i = 0; i < n; i++)
				sb_printf(b, "%s%02x", p->hex, s[i]);
		} else if (cp == 0xfffd && p->json) {
			sb_puts(b, "\\ufffd\\ufffd");
		} else {
			sb_put(b, (const char *)s, n);
		}
	}
}

void fmt_esc_text(struct sbuf *b, const char *s)
{
	fmt_esc(b, s, ESC_TEXT);
}

void fmt_esc_json(struct sbuf *b, const char *s)
{
	fmt_esc(b, s, ESC_JSON);
}

void fmt_esc_om(struct sbuf *b, const char *s)
{
	fmt_esc(b, s, ESC_OM);
}

void fmt_bytes(struct sbuf *b, uint64_t bytes)
{
	static const char unit[] = "KMGTPE";
	double v = (double)bytes / 1024;
	int u = 0;

	if (bytes < 1024) {
		sb_printf(b, "%uB", (unsigned)bytes);
		return;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (v < 10 && v != (double)(uint64_t)v)
		sb_printf(b, "%.1f%c", v, unit[u]);
	else
		sb_printf(b, "%.0f%c", v, unit[u]);
}

void fmt_duration(struct sbuf *b, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (s < 10)
		sb_printf(b, "%.1fs", s > 0 ? s : 0);
	else if (t < 120)
		sb_printf(b, "%lus", t);
	else if (t < 3600)
		sb_printf(b, "%lum", t / 60);
	else
		sb_printf(b, "%luh%02lum", t / 3600, t / 60 % 60);
}
