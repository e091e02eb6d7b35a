// SPDX-License-Identifier: GPL-2.0
/* test_cgfiles.c - memory.* parsers, mountinfo, tree walk, vanishing dirs */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "cgroup.h"
#include "fixture.h"
#include "util.h"

static void test_memstat(void **state)
{
	struct cg_mem m = { 0 };
	static const char text[] =
		"anon 1000\nfile 2000\nkernel 5\nkernel_stack 8\n"
		"shmem 300\nfile_mapped 7\nanon_thp 2097152\n"
		"inactive_anon 11\nactive_anon 12\ninactive_file 13\n"
		"active_file 14\nunevictable 15\nbogus line\nfile_dirty x\n"
		"workingset_refault_anon 21\nworkingset_refault_file 22\n"
		"workingset_refault 99\nshmem_thp 0";

	(void)state;
	assert_int_equal(cg_parse_memstat(text, &m), 0);
	assert_int_equal(m.anon, 1000);
	assert_int_equal(m.file, 2000);	/* not file_mapped, not file_dirty */
	assert_int_equal(m.shmem, 300);
	assert_int_equal(m.file_mapped, 7);
	assert_int_equal(m.anon_thp, 2097152);
	assert_int_equal(m.active_file, 14);
	assert_int_equal(m.unevictable, 15);
	assert_int_equal(m.refault_anon, 21);	/* not workingset_refault */
	assert_int_equal(m.refault_file, 22);
	assert_int_equal(cg_parse_memstat("", &m), -1);
	assert_int_equal(cg_parse_memstat("nothing here\n", &m), -1);
}

static void test_events(void **state)
{
	struct cg_mem m = { 0 };

	(void)state;
	assert_int_equal(cg_parse_events("low 1\nhigh 22\nmax 3\noom 4\n"
					 "oom_kill 5\noom_group_kill 9\n", &m),
			 0);
	assert_int_equal(m.ev_low, 1);
	assert_int_equal(m.ev_high, 22);
	assert_int_equal(m.ev_max, 3);
	assert_int_equal(m.ev_oom, 4);
	assert_int_equal(m.ev_oom_kill, 5);	/* not oom_group_kill */
	assert_int_equal(cg_parse_events("", &m), -1);
	assert_int_equal(cg_parse_events("high -1\n", &m), -1);
}

static void test_limits(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(cg_parse_limit("max\n", &v), 0);
	assert_true(v == CG_NOLIMIT);
	assert_int_equal(cg_parse_limit("4096\n", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(cg_parse_limit("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(cg_parse_limit("-1\n", &v), -1);
	assert_int_equal(cg_parse_limit("12k\n", &v), -1);
	assert_int_equal(cg_parse_limit("", &v), -1);
	assert_int_equal(cg_parse_limit("99999999999999999999999\n", &v), -1);
}

static void test_pressure(void **state)
{
	struct cg_mem m = { 0 };

	(void)state;
	assert_int_equal(cg_parse_pressure(
		"some avg10=1.50 avg60=0.25 avg300=0.00 total=1234\n"
		"full avg10=0.50 avg60=0.00 avg300=0.10 total=99\n", &m), 0);
	assert_true(m.some_avg10 > 1.49 && m.some_avg10 < 1.51);
	assert_int_equal(m.some_total, 1234);
	assert_true(m.full_avg300 > 0.09 && m.full_avg300 < 0.11);
	assert_int_equal(m.full_total, 99);
	assert_int_equal(cg_parse_pressure("garbage", &m), -1);
}

static void test_mountinfo(void **state)
{
	char *mp;

	(void)state;
	mp = cg_mountinfo_cgroup2(
		"22 1 0:21 / /proc rw - proc proc rw\n"
		"35 24 0:30 / /sys/fs/cgroup/unified rw - cgroup cgroup rw\n"
		"36 24 0:31 / /my\\040cg\\134x rw shared:9 - cgroup2 none rw\n");
	assert_non_null(mp);
	assert_string_equal(mp, "/my cg\\x");
	free(mp);
	assert_null(cg_mountinfo_cgroup2("22 1 0:21 / /proc rw - proc p rw\n"));
	assert_null(cg_mountinfo_cgroup2("garbage\n\n"));
}

static void test_tree(void **state)
{
	struct fixture fx;
	struct cg_tree t = { 0 };
	char err[256], *mount;
	uint64_t b;
	long i;

	(void)state;
	assert_int_equal(fx_create(&fx, 64), 0);
	fx_mkcg(&fx, "/z");
	b = fx_mkcg(&fx, "/a/b");
	fx_mkcg(&fx, "/a/a");
	mount = cg_find_mount(fx.root, err, sizeof(err));
	assert_non_null(mount);
	assert_string_equal(mount, fx.cgroot);
	assert_int_equal(cg_tree_scan(&t, mount, err, sizeof(err)), 0);
	assert_int_equal(t.n, 5);
	assert_string_equal(t.v[0].path, "/");
	assert_string_equal(t.v[0].name, "/");
	assert_string_equal(t.v[1].path, "/a");
	assert_string_equal(t.v[2].path, "/a/a");
	assert_string_equal(t.v[3].path, "/a/b");
	assert_string_equal(t.v[3].name, "b");
	assert_string_equal(t.v[4].path, "/z");
	assert_int_equal(t.v[3].parent, 1);
	assert_int_equal(t.v[3].depth, 2);
	i = cg_tree_find(&t, b);
	assert_int_equal(i, 3);
	assert_int_equal(cg_tree_find(&t, 1), -1);
	assert_true(t.v[3].mem.has_current && t.v[3].mem.has_pressure);
	assert_true(t.v[3].mem.has_events && t.v[3].mem.has_swap);
	assert_int_equal(t.v[3].mem.ev_high, 7);
	assert_int_equal(t.v[3].mem.refault_file, 40);
	assert_int_equal(t.v[3].mem.swap_current, 65536);
	assert_true(t.v[3].mem.high == CG_NOLIMIT);
	assert_int_equal(t.v[3].mem.max, 1073741824);
	assert_int_equal(t.v[3].mem.anon, 4194304);
	/* a cgroup that vanished: rescan is fine, it is simply gone */
	{
		char *d = strdup(fx.cgroot), *cmd = NULL;

		assert_true(asprintf(&cmd, "rm -rf '%s/z'", d) > 0);
		assert_int_equal(system(cmd), 0);
		free(cmd);
		free(d);
	}
	assert_int_equal(cg_tree_scan(&t, mount, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_int_equal(cg_tree_scan(&t, "/nonexistent/x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x"));
	cg_tree_free(&t);
	free(mount);
	fx_destroy(&fx);
}

/* Fault injection: the call number `after` (0-based) at `site` fails. */
static const char *f_site;
static int f_after, f_hits, f_errno;

static int fail_nth(const char *site)
{
	if (strcmp(site, f_site))
		return 0;
	return f_hits++ == f_after ? f_errno : 0;
}

/*
 * Every failure of allocation, opendir, readdir or a cgroup's stat while
 * walking fails the scan with the reason and leaves no tree behind: never
 * a partial tree that looks whole.  Once the fault comes too late to hit,
 * the whole tree is there.
 */
static void test_tree_faults(void **state)
{
	static const struct { const char *site; int e; } f[] = {
		{ "cg.alloc", ENOMEM }, { "cg.readdir", EIO },
		{ "cg.opendir", EMFILE }, { "cg.node", EACCES },
	};
	struct fixture fx;
	struct cg_tree t = { 0 };
	char err[512];
	size_t i;
	int rc, ok;

	(void)state;
	assert_int_equal(fx_create(&fx, 64), 0);
	fx_mkcg(&fx, "/a/x");
	fx_mkcg(&fx, "/a/y");
	for (i = 0; i < 20; i++) {	/* > 16: the name array grows */
		char name[16];

		snprintf(name, sizeof(name), "/b/%02zu", i);
		fx_mkcg(&fx, name);
	}
	util_fault_hook = fail_nth;
	for (i = 0; i < sizeof(f) / sizeof(*f); i++) {
		f_site = f[i].site;
		f_errno = f[i].e;
		for (ok = 0, f_after = 0; !ok; f_after++) {
			f_hits = 0;
			err[0] = '\0';
			rc = cg_tree_scan(&t, fx.cgroot, err, sizeof(err));
			ok = f_hits <= f_after;	/* the fault did not hit */
			if (ok) {
				assert_int_equal(rc, 0);
				assert_int_equal(t.n, 25);
				continue;
			}
			assert_int_equal(rc, -1);
			assert_non_null(strstr(err, strerror(f[i].e)));
			assert_int_equal(t.n, 0);
			assert_null(t.v);
			assert_true(f_after < 1000);
		}
	}
	util_fault_hook = NULL;
	cg_tree_free(&t);
	fx_destroy(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memstat),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_pressure),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_tree_faults),
	};

	return cmocka_run_group_tests_name("cgfiles", tests, NULL, NULL);
}
