// SPDX-License-Identifier: GPL-2.0
/*
 * test_idlesrc.c - detection of the KPAGEIDLE_SCAN ioctl and its fallback
 * to read + write; idlesrc_scan() over the fake ioctl (fx_scan_ioctl):
 * resuming after EINTR, the end of memory.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixture.h"
#include "idlesrc.h"
#include "kpf.h"
#include "util.h"

#define NPFN 4196	/* max_pfn of the fake: not a multiple of 64 */
#define MAXP 8192

struct t {
	struct fixture fx;
	struct idlesrc src;
	char err[512];
};

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));
	uint64_t i;

	assert_non_null(t);
	assert_int_equal(fx_create(&t->fx, NPFN), 0);
	for (i = 0; i < NPFN; i++)	/* every third page idle */
		fx_set(&t->fx, i, 1, F(KPF_LRU), 0, i % 3 == 0);
	assert_int_equal(fx_write_pages(&t->fx, 1, 1), 0);
	t->src.fd = -1;
	fx_scan_fx = &t->fx;
	fx_scan_calls = fx_scan_eintr = fx_scan_errno = 0;
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;

	idlesrc_close(&t->src);
	fx_destroy(&t->fx);
	free(t);
	return 0;
}

static int open_src(struct t *t, enum idlesrc_kind want, idlesrc_ioctl_fn *f)
{
	idlesrc_close(&t->src);
	return idlesrc_open(&t->src, t->fx.root, want, MAXP, f, t->err,
			    sizeof(t->err));
}

/* Regular files answer ENOTTY: read + write, or an error if forced. */
static void test_fallback_without_ioctl(void **state)
{
	struct t *t = *state;
	enum idlesrc_kind k[] = { IDLESRC_AUTO, IDLESRC_KPAGEIDLE };
	uint8_t idle[64];
	size_t i;

	for (i = 0; i < 2; i++) {
		assert_int_equal(open_src(t, k[i], NULL), 0);
		assert_int_equal(t->src.kind, IDLESRC_KPAGEIDLE);
		assert_int_equal(t->src.scan, 0);
		assert_int_equal(t->src.probe_errno, ENOTTY);
		assert_string_equal(idlesrc_method(&t->src), "read-write");
		assert_int_equal(idlesrc_scan(&t->src, 0, 64, idle, 1), -1);
		assert_int_equal(errno, EINVAL);
	}
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_SCAN, NULL), -1);
	assert_non_null(strstr(t->err, "KPAGEIDLE_SCAN"));
	assert_non_null(strstr(t->err, "--source kpageidle-rw"));
	assert_non_null(strstr(t->err, strerror(ENOTTY)));
	assert_int_equal(t->src.fd, -1);
}

static void test_detect(void **state)
{
	struct t *t = *state;

	assert_int_equal(open_src(t, IDLESRC_AUTO, fx_scan_ioctl), 0);
	assert_int_equal(t->src.scan, 1);
	assert_string_equal(idlesrc_method(&t->src), "scan-ioctl");
	assert_int_equal(fx_scan_calls, 1);
	assert_int_equal(fx_read_kpageidle(&t->fx, 0), 1);	/* untouched */
	assert_int_equal(fx_read_kpageidle(&t->fx, 1), 0);
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_SCAN, fx_scan_ioctl), 0);
	assert_int_equal(t->src.scan, 1);
	fx_scan_calls = 0;
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_RW, fx_scan_ioctl), 0);
	assert_int_equal(t->src.scan, 0);
	assert_int_equal(fx_scan_calls, 0);	/* not even probed */
	assert_int_equal(open_src(t, IDLESRC_BITMAP, fx_scan_ioctl), 0);
	assert_int_equal(t->src.kind, IDLESRC_BITMAP);
	assert_int_equal(t->src.scan, 0);
	assert_int_equal(fx_scan_calls, 0);
}

/* Another struct size (EINVAL) or any other refusal: not used. */
static void test_detect_refused(void **state)
{
	struct t *t = *state;

	fx_scan_errno = EINVAL;
	assert_int_equal(open_src(t, IDLESRC_AUTO, fx_scan_ioctl), 0);
	assert_int_equal(t->src.scan, 0);
	assert_int_equal(t->src.probe_errno, EINVAL);
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_SCAN, fx_scan_ioctl),
			 -1);
	assert_non_null(strstr(t->err, "another version of the ABI"));
	fx_scan_errno = EPERM;
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE, fx_scan_ioctl), 0);
	assert_int_equal(t->src.scan, 0);
}

static void check_bits(const uint8_t *idle, uint64_t pfn, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(idle[i], pfn + i < NPFN && (pfn + i) % 3 == 0);
}

static void test_scan_resume(void **state)
{
	struct t *t = *state;
	uint8_t *idle = malloc(MAXP);

	assert_non_null(idle);
	assert_int_equal(open_src(t, IDLESRC_AUTO, fx_scan_ioctl), 0);
	fx_scan_calls = 0;
	fx_scan_eintr = 3;
	memset(idle, 7, MAXP);
	assert_int_equal(idlesrc_scan(&t->src, 0, 4288, idle, 0), 4288);
	assert_int_equal(fx_scan_calls, 4);
	check_bits(idle, 0, 4288);	/* past max_pfn: 0 */
	assert_int_equal(fx_read_kpageidle(&t->fx, 1), 0);	/* no mark */
	assert_int_equal(idlesrc_scan(&t->src, 64, 640, idle, 1), 640);
	check_bits(idle, 64, 640);
	assert_int_equal(fx_read_kpageidle(&t->fx, 65), 1);	/* marked */
	assert_int_equal(fx_read_kpageidle(&t->fx, 704), 0);
	memset(idle, 7, 64);
	assert_int_equal(idlesrc_scan(&t->src, 4224, 64, idle, 1), 64);
	check_bits(idle, 4224, 64);	/* ENXIO: nothing there */
	assert_int_equal(idlesrc_scan(&t->src, 32, 64, idle, 1), -1);
	assert_int_equal(errno, EINVAL);
	fx_scan_errno = EFAULT;
	assert_int_equal(idlesrc_scan(&t->src, 0, 64, idle, 1), -1);
	assert_int_equal(errno, EFAULT);
	free(idle);
}

/* Fault hook: ENXIO from the second pwrite() of a mark on. */
static int pwrites;

static int enxio_after_first(const char *site)
{
	return !strcmp(site, "pwrite") && ++pwrites > 1 ? ENXIO : 0;
}

/*
 * RLIMIT_FSIZE cuts the write of a mark short at byte `limit` (EFBIG
 * after progress); the hook can turn the rest into ENXIO, the end of
 * memory.  Returns idlesrc_mark() of 512 PFNs from 0, all or the first
 * `want` of them to be marked.
 */
static int mark_cut(struct t *t, rlim_t limit, size_t want, int enxio)
{
	struct rlimit old, rl;
	uint8_t mark[512];
	int rc, e;

	memset(mark, 0, sizeof(mark));
	memset(mark, 1, want);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	rl = old;
	rl.rlim_cur = limit;
	signal(SIGXFSZ, SIG_IGN);
	pwrites = 0;
	util_fault_hook = enxio ? enxio_after_first : NULL;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &rl), 0);
	rc = idlesrc_mark(&t->src, 0, 512, mark);
	e = errno;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	util_fault_hook = NULL;
	errno = e;
	return rc;
}

/* A mark write cut short in the middle loses marks: an error. */
static void test_mark_short(void **state)
{
	struct t *t = *state;

	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_RW, NULL), 0);
	assert_int_equal(mark_cut(t, 256 * 8, 512, 0), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(t->src.stop_pfn, 256);
	/* ENXIO where nothing more is to be marked: max_pfn, fine */
	assert_int_equal(mark_cut(t, 256 * 8, 256, 1), 0);
	/* ENXIO before pages to mark: their marks are lost */
	assert_int_equal(mark_cut(t, 256 * 8, 300, 1), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(t->src.lost_pfn, 256);
	idlesrc_error(&t->src, "mark", t->err, sizeof(t->err));
	assert_non_null(strstr(t->err, "stopped at PFN 0x100, before PFN "
				       "0x100 which is to be marked"));
	/* the bitmap: the word where the kernel stopped may be dropped */
	assert_int_equal(open_src(t, IDLESRC_BITMAP, NULL), 0);
	assert_int_equal(mark_cut(t, 4 * 8, 300, 0), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(mark_cut(t, 4 * 8, 300, 1), 0);
	assert_int_equal(mark_cut(t, 4 * 8, 320, 1), 0);
	assert_int_equal(mark_cut(t, 4 * 8, 321, 1), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(t->src.lost_pfn, 320);
}

static void test_names(void **state)
{
	const char *n[] = { "auto", "kpageidle", "bitmap", "kpageidle-scan",
			    "kpageidle-rw" };
	enum idlesrc_kind k;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(n) / sizeof(*n); i++) {
		assert_int_equal(idlesrc_parse_kind(n[i], &k), 0);
		assert_string_equal(idlesrc_kind_name(k), n[i]);
	}
	assert_int_equal(idlesrc_parse_kind("kpageidle-", &k), -1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_fallback_without_ioctl),
		T(test_detect),
		T(test_detect_refused),
		T(test_scan_resume),
		T(test_mark_short),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("idlesrc", tests, NULL, NULL);
}
