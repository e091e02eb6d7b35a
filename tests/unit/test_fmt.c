// SPDX-License-Identifier: GPL-2.0
/* test_fmt.c - escaping for text, JSON and OpenMetrics; units; sb_write() */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "fmt.h"

typedef void (*esc_fn)(struct sbuf *, const char *);

static void check(esc_fn f, const char *in, const char *want)
{
	struct sbuf b;

	sb_init(&b);
	f(&b, in);
	assert_false(b.oom);
	assert_string_equal(sb_str(&b), want);
	sb_free(&b);
}

static void test_utf8_seq(void **state)
{
	uint32_t cp;

	(void)state;
	assert_int_equal(utf8_seq((const unsigned char *)"a", &cp), 1);
	assert_int_equal(utf8_seq((const unsigned char *)"\xc3\xa9", &cp), 2);
	assert_int_equal(cp, 0xe9);
	assert_int_equal(utf8_seq((const unsigned char *)"\xe2\x9c\x93", &cp), 3);
	assert_int_equal(utf8_seq((const unsigned char *)"\xf0\x9f\x98\x80", &cp), 4);
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(utf8_seq((const unsigned char *)"\xc0\xaf", &cp), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"\xe0\x80\xaf", &cp), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"\xed\xa0\x80", &cp), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"\xf4\x90\x80\x80", &cp), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"\xe2\x9c", &cp), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"\xff", &cp), 0);
	assert_int_equal(utf8_seq((const unsigned char *)"\x80", &cp), 0);
}

static void test_text(void **state)
{
	(void)state;
	check(fmt_esc_text, "/a b/c", "/a b/c");
	check(fmt_esc_text, "q\"uote", "q\"uote");
	check(fmt_esc_text, "back\\slash", "back\\\\slash");
	check(fmt_esc_text, "new\nline\ttab", "new\\x0aline\\x09tab");
	check(fmt_esc_text, "\033[31mred\x7f", "\\x1b[31mred\\x7f");
	check(fmt_esc_text, "bad\xff\xfe", "bad\\xff\\xfe");
	check(fmt_esc_text, "c1\xc2\x9b", "c1\\xc2\\x9b");
	check(fmt_esc_text, "caf\xc3\xa9 \xe2\x9c\x93", "caf\xc3\xa9 \xe2\x9c\x93");
	check(fmt_esc_text, "cut\xe2\x9c", "cut\\xe2\\x9c");
	check(fmt_esc_text, "dup\\x01", "dup\\\\x01");
	check(fmt_esc_text, "dup\x01", "dup\\x01");
	check(fmt_esc_text, "r\xef\xbf\xbd", "r\xef\xbf\xbd");
}

/* Bidi, zero-width and other invisible characters never pass raw. */
static void test_hidden(void **state)
{
	(void)state;
	check(fmt_esc_text, "rtl\xe2\x80\xae" "abc", "rtl\\xe2\\x80\\xae" "abc");
	check(fmt_esc_text, "z\xe2\x80\x8bw", "z\\xe2\\x80\\x8bw");
	check(fmt_esc_text, "i\xe2\x81\xa6\xe2\x81\xa9", "i\\xe2\\x81\\xa6\\xe2\\x81\\xa9");
	check(fmt_esc_text, "\xef\xbb\xbf" "bom", "\\xef\\xbb\\xbf" "bom");
	check(fmt_esc_text, "ls\xe2\x80\xa8", "ls\\xe2\\x80\\xa8");
	check(fmt_esc_text, "tag\xf3\xa0\x80\x81", "tag\\xf3\\xa0\\x80\\x81");
	check(fmt_esc_text, "shy\xc2\xad", "shy\\xc2\\xad");
	check(fmt_esc_om, "rtl\xe2\x80\xae", "rtl\\\\xe2\\\\x80\\\\xae");
	check(fmt_esc_json, "rtl\xe2\x80\xae", "rtl\\u202e");
	check(fmt_esc_json, "tag\xf3\xa0\x80\x81", "tag\\udb40\\udc01");
	/* neighbours that are visible stay raw */
	check(fmt_esc_text, "\xe2\x80\x90\xe2\x80\xaf", "\xe2\x80\x90\xe2\x80\xaf");
	assert_true(fmt_hidden(0x2066) && fmt_hidden(0x2069) && fmt_hidden(0xfeff));
	assert_true(fmt_hidden(0x200b) && fmt_hidden(0x9f) && fmt_hidden(0));
	assert_false(fmt_hidden(0x20) || fmt_hidden(0xa0) || fmt_hidden(0x2010));
	assert_false(fmt_hidden(0xfffd) || fmt_hidden(0x1f600) || fmt_hidden(0xe1000));
}

static void test_json(void **state)
{
	(void)state;
	check(fmt_esc_json, "/a b", "/a b");
	check(fmt_esc_json, "q\"b\\", "q\\\"b\\\\");
	check(fmt_esc_json, "n\nt\tr\rb\bf\f", "n\\nt\\tr\\rb\\bf\\f");
	check(fmt_esc_json, "\033x\x01\x7f", "\\u001bx\\u0001\\u007f");
	check(fmt_esc_json, "bad\xff\xfeok", "bad\\ufffdff\\ufffdfeok");
	check(fmt_esc_json, "r\xef\xbf\xbd" "ff", "r\\ufffd\\ufffdff");
	check(fmt_esc_json, "c1\xc2\x85", "c1\\u0085");
	check(fmt_esc_json, "\xc3\xa9\xf0\x9f\x98\x80", "\xc3\xa9\xf0\x9f\x98\x80");
	check(fmt_esc_json, "sd\\x2d", "sd\\\\x2d");
	check(fmt_esc_json, "nb", "nb");
}

/* The decoded label is the text form: \ and " escaped once more. */
static void test_openmetrics(void **state)
{
	(void)state;
	check(fmt_esc_om, "/a b", "/a b");
	check(fmt_esc_om, "q\"b\\n\n", "q\\\"b\\\\\\\\n\\\\x0a");
	check(fmt_esc_om, "\033[0m\t", "\\\\x1b[0m\\\\x09");
	check(fmt_esc_om, "bad\xff", "bad\\\\xff");
	check(fmt_esc_om, "\xc3\xa9", "\xc3\xa9");
	check(fmt_esc_om, "dup\x01", "dup\\\\x01");
	check(fmt_esc_om, "dup\\x01", "dup\\\\\\\\x01");
}

static void test_units(void **state)
{
	struct sbuf b;

	(void)state;
	sb_init(&b);
	fmt_bytes(&b, 0);
	sb_puts(&b, " ");
	fmt_bytes(&b, 1023);
	sb_puts(&b, " ");
	fmt_bytes(&b, 1536);
	sb_puts(&b, " ");
	fmt_bytes(&b, 4ULL << 20);
	sb_puts(&b, " ");
	fmt_bytes(&b, 23ULL << 30);
	sb_puts(&b, " ");
	fmt_duration(&b, 2.54);
	sb_puts(&b, " ");
	fmt_duration(&b, 300);
	sb_puts(&b, " ");
	fmt_duration(&b, 5400);
	assert_string_equal(sb_str(&b), "0B 1023B 1.5K 4M 23G 2.5s 5m 1h30m");
	sb_free(&b);
}

/* The whole text, or on a failed append nothing and ENOMEM; b freed. */
static void test_sb_write(void **state)
{
	char out[64] = "";
	FILE *f = fmemopen(out, sizeof(out), "w");
	struct sbuf b;

	(void)state;
	assert_non_null(f);
	sb_init(&b);
	sb_puts(&b, "whole\n");
	assert_int_equal(sb_write(f, &b), 0);
	assert_null(b.p);
	assert_string_equal(out, "whole\n");
	sb_init(&b);
	sb_puts(&b, "truncated");
	b.oom = 1;
	errno = 0;
	assert_int_equal(sb_write(f, &b), -1);
	assert_int_equal(errno, ENOMEM);
	assert_null(b.p);
	assert_string_equal(out, "whole\n");
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_sb_write),
	};

	return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}
