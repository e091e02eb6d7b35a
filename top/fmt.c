// SPDX-License-Identifier: GPL-2.0
/* fmt.c - string buffer, units and escaping */
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

static void put_hex(struct sbuf *b, const char *pre, unsigned char c)
{
	sb_printf(b, "%s%02x", pre, c);
}

void fmt_esc_text(struct sbuf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp;
	size_t n;

	while (*s) {
		n = utf8_seq(s, &cp);
		if (*s == '\\')
			sb_puts(b, "\\\\");
		else if (n == 1 && cp >= 0x20 && cp < 0x7f)
			sb_putc(b, (char)*s);
		else if (n > 1 && !(cp >= 0x80 && cp < 0xa0))
			sb_put(b, (const char *)s, n);
		else
			put_hex(b, "\\x", *s), n = 1;
		s += n ? n : 1;
	}
}

void fmt_esc_json(struct sbuf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	static const char short_esc[] = "\"\"\\\\\nn\tt\rr\bb\ff";
	const char *e;
	uint32_t cp;
	size_t n;

	while (*s) {
		n = utf8_seq(s, &cp);
		e = n == 1 ? strchr(short_esc, *s) : NULL;
		if (e && (e - short_esc) % 2 == 0) {
			sb_putc(b, '\\');
			sb_putc(b, e[1]);
		} else if (n == 0) {
			sb_puts(b, "\\ufffd");
			n = 1;
		} else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
			sb_printf(b, "\\u%04x", (unsigned)cp);
		} else {
			sb_put(b, (const char *)s, n);
		}
		s += n;
	}
}

void fmt_esc_om(struct sbuf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp;
	size_t n;

	while (*s) {
		n = utf8_seq(s, &cp);
		if (*s == '\\')
			sb_puts(b, "\\\\");
		else if (*s == '"')
			sb_puts(b, "\\\"");
		else if (*s == '\n')
			sb_puts(b, "\\n");
		else if (n == 1 && cp >= 0x20 && cp < 0x7f)
			sb_putc(b, (char)*s);
		else if (n > 1 && !(cp >= 0x80 && cp < 0xa0))
			sb_put(b, (const char *)s, n);
		else
			put_hex(b, "\\\\x", *s), n = 1;
		s += n ? n : 1;
	}
}

void fmt_bytes(struct sbuf *b, uint64_t bytes)
{
	static const char unit[] = "KMGTPE";
	double v = (double)bytes;
	int u = -1;

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
