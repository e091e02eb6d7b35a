// SPDX-License-Identifier: GPL-2.0
/*
 * test_escape.c - every escaping of cgroup names is injective: text,
 * JSON, OpenMetrics and the TUI's (ui_esc, UTF-8 and other locales).
 * Each form is decoded back by the rules fmt.h documents and must give
 * the name again, for names made to collide and for random bytes; and
 * no form lets a control or hidden (bidi, zero-width) character through.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "fmt.h"
#include "ui.h"

enum form { F_TEXT, F_JSON, F_OM, F_TUI_UTF8, F_TUI_ASCII, F_NR };

static void encode(enum form f, struct sbuf *b, const char *name)
{
	struct ui u;

	memset(&u, 0, sizeof(u));
	switch (f) {
	case F_TEXT: fmt_esc_text(b, name); break;
	case F_JSON: fmt_esc_json(b, name); break;
	case F_OM: fmt_esc_om(b, name); break;
	default:
		u.t.utf8 = f == F_TUI_UTF8;
		ui_esc(&u, b, name);
	}
	assert_false(b->oom);
}

static int hex(const char *s)
{
	unsigned v;

	if (!strchr("0123456789abcdef", s[0]) || !s[0] ||
	    !strchr("0123456789abcdef", s[1]) || !s[1] ||
	    sscanf(s, "%2x", &v) != 1)
		return -1;
	return (int)v;
}

/* The text form back to bytes: "\\" is "\", "\xNN" the byte NN. */
static void text_decode(const char *s, struct sbuf *out)
{
	int v;

	while (*s) {
		if (*s != '\\') {
			sb_putc(out, *s++);
			continue;
		}
		if (s[1] == '\\') {
			sb_putc(out, '\\');
			s += 2;
			continue;
		}
		assert_int_equal(s[1], 'x');
		v = hex(s + 2);
		assert_true(v > 0);
		sb_putc(out, (char)v);
		s += 4;
	}
}

/* An OpenMetrics label value back to its text form, then to bytes. */
static void om_decode(const char *s, struct sbuf *out)
{
	struct sbuf t;

	sb_init(&t);
	for (; *s; s++) {
		assert_true(*s != '"' && *s != '\n');
		if (*s != '\\') {
			sb_putc(&t, *s);
			continue;
		}
		s++;
		assert_true(*s == '\\' || *s == '"' || *s == 'n');
		sb_putc(&t, *s == 'n' ? '\n' : *s);
	}
	text_decode(sb_str(&t), out);
	sb_free(&t);
}

static void put_utf8(struct sbuf *b, uint32_t c)
{
	if (c < 0x80) {
		sb_putc(b, (char)c);
	} else if (c < 0x800) {
		sb_printf(b, "%c%c", 0xc0 | (c >> 6), 0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		sb_printf(b, "%c%c%c", 0xe0 | (c >> 12),
			  0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
	} else {
		sb_printf(b, "%c%c%c%c", 0xf0 | (c >> 18),
			  0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f),
			  0x80 | (c & 0x3f));
	}
}

/* One JSON string character as a code point; s advances past it. */
static uint32_t json_char(const char **s)
{
	static const char short_esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char *e;
	unsigned u, lo;
	uint32_t cp;
	size_t n;

	if (**s != '\\') {
		n = utf8_seq((const unsigned char *)*s, &cp);
		assert_true(n > 0 && cp >= 0x20);
		*s += n;
		return cp;
	}
	e = strchr(short_esc, (*s)[1]);
	if ((*s)[1] != 'u') {
		assert_true(e && (e - short_esc) % 2 == 0);
		*s += 2;
		return (unsigned char)e[1];
	}
	assert_int_equal(sscanf(*s + 2, "%4x", &u), 1);
	*s += 6;
	if (u < 0xd800 || u > 0xdbff)
		return u;
	assert_int_equal(sscanf(*s, "\\u%4x", &lo), 1);
	assert_true(lo >= 0xdc00 && lo <= 0xdfff);
	*s += 6;
	return 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
}

/* JSON: U+FFFD then two hex digits is a byte, U+FFFD twice a U+FFFD. */
static void json_decode(const char *s, struct sbuf *out)
{
	uint32_t c, next;
	const char *after;
	char h[3];

	while (*s) {
		c = json_char(&s);
		if (c != 0xfffd) {
			put_utf8(out, c);
			continue;
		}
		after = s;
		next = json_char(&after);
		if (next == 0xfffd) {
			put_utf8(out, 0xfffd);
			s = after;
			continue;
		}
		h[0] = (char)next;
		h[1] = (char)json_char(&after);
		h[2] = '\0';
		assert_true(hex(h) > 0);
		sb_putc(out, (char)hex(h));
		s = after;
	}
}

static void decode(enum form f, const char *s, struct sbuf *out)
{
	if (f == F_JSON)
		json_decode(s, out);
	else if (f == F_OM)
		om_decode(s, out);
	else
		text_decode(s, out);
}

/* Nothing raw that a terminal would act on or hide. */
static void assert_inert(enum form f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t n;

	for (; *p; p += n) {
		n = utf8_seq(p, &cp);
		assert_true(n > 0);
		assert_false(fmt_hidden(cp));
		if (f == F_TUI_ASCII)
			assert_true(cp < 0x80);
	}
}

static void round_trip(const char *name)
{
	struct sbuf e, d;
	int f;

	for (f = 0; f < F_NR; f++) {
		sb_init(&e);
		sb_init(&d);
		encode(f, &e, name);
		assert_inert(f, sb_str(&e));
		decode(f, sb_str(&e), &d);
		if (strcmp(sb_str(&d), name)) {
			print_error("form %d: '%s' decodes to '%s'\n", f,
				    sb_str(&e), sb_str(&d));
			fail();
		}
		sb_free(&e);
		sb_free(&d);
	}
}

/* Pairs that collided before: OpenMetrics and JSON. */
static const char *const twins[] = {
	"/dup\x01", "/dup\\x01", "/dup\\\\x01", "/dup\\\x01",
	"/a\xff", "/a\xfe", "/a\xef\xbf\xbd" "ff", "/a\xef\xbf\xbd",
	"/q\"", "/q\\\"", "/n\n", "/n\\n", "/n\\x0a",
	"/rtl\xe2\x80\xae" "abc", "/rtl\\xe2\\x80\\xae" "abc", "/rtlabc",
	"/zw\xe2\x80\x8b", "/zw", "/caf\xc3\xa9", "/caf\\xc3\\xa9",
};

static void test_twins(void **state)
{
	size_t n = sizeof(twins) / sizeof(*twins), i, j;
	struct sbuf a, b;
	int f;

	(void)state;
	for (i = 0; i < n; i++)
		round_trip(twins[i]);
	for (f = 0; f < F_NR; f++)
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				sb_init(&a);
				sb_init(&b);
				encode(f, &a, twins[i]);
				encode(f, &b, twins[j]);
				assert_string_not_equal(sb_str(&a), sb_str(&b));
				sb_free(&a);
				sb_free(&b);
			}
}

/* Random names from bytes that matter to the escapes, fixed seed. */
static void test_random(void **state)
{
	static const char pool[] = "\\x\"n0fa/ \x01\n\x7f\xff\xfe\xef\xbf\xbd"
				   "\xe2\x80\xae\x8b\xc2\x85\xc3\xa9\xf0\x9f";
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	char name[24];
	int i, k, len;

	(void)state;
	for (i = 0; i < 20000; i++) {
		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		len = (int)(seed % (sizeof(name) - 1));
		for (k = 0; k < len; k++) {
			seed ^= seed << 13, seed ^= seed >> 7;
			seed ^= seed << 17;
			name[k] = pool[seed % (sizeof(pool) - 1)];
		}
		name[len] = '\0';
		round_trip(name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_twins),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
