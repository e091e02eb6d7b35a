// SPDX-License-Identifier: GPL-2.0
/*
 * test_select.c - what --max-depth, --min-bytes, --include and --exclude
 * leave out folds into the nearest shown ancestor: the exported self
 * series sum to the root's resident bytes under every selection, over
 * a Kubernetes- and systemd-shaped fixture tree; --min-bytes hysteresis.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "engine_impl.h"
#include "fake_steps.h"
#include "fixture.h"
#include "kpf.h"
#include "metrics.h"
#include "options.h"
#include "select.h"
#include "util.h"

/* root, /a (depth 1), /a/b (2), /a/b/c (3), /z (1); resident in bytes */
static void fake_report(struct report *r, struct cg_stat *cg)
{
	static const char *const path[] = { "/", "/a", "/a/b", "/a/b/c", "/z" };
	static const int parent[] = { -1, 0, 1, 2, 0 };
	static const int depth[] = { 0, 1, 2, 3, 1 };
	static const uint64_t res[] = { 100, 50, 40, 30, 5 };
	static const uint64_t self[] = { 45, 10, 10, 30, 5 };
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 5; i++) {
		memset(&cg[i], 0, sizeof(cg[i]));
		cg[i].path = path[i];
		cg[i].ino = 100 + (uint64_t)i;
		cg[i].parent = parent[i];
		cg[i].depth = depth[i];
		cg[i].resident = res[i];
		cg[i].self.resident[PK_ANON] = self[i];
	}
	r->cg = cg;
	r->n = 5;
}

/* "path<parent:self" of each shown cgroup; Σ self is always 100. */
static void selected(const struct cg_select *s, struct cg_stat *cg,
		     const char *want, size_t folded)
{
	struct report r, v;
	char got[128] = "";
	uint64_t sum = 0;
	size_t i;

	fake_report(&r, cg);
	assert_int_equal(report_select(&r, s, NULL, &v), 0);
	for (i = 0; i < v.n; i++) {
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
			 "%s%s<%d:%llu", i ? " " : "", v.cg[i].path,
			 v.cg[i].parent, (unsigned long long)
			 cg_pages_resident(&v.cg[i].self));
		sum += cg_pages_resident(&v.cg[i].self);
	}
	assert_string_equal(got, want);
	assert_int_equal(sum, 100);
	assert_int_equal(v.folded, folded);
	report_free(&v);
}

static void test_fold(void **state)
{
	struct cg_stat cg[5];
	struct cg_select s;

	(void)state;
	select_default(&s);
	assert_false(select_active(&s));
	selected(&s, cg, "/<-1:45 /a<0:10 /a/b<1:10 /a/b/c<2:30 /z<0:5",
		 0);
	s.max_depth = 1;
	selected(&s, cg, "/<-1:45 /a<0:50 /z<0:5", 2);
	s.max_depth = 0;
	selected(&s, cg, "/<-1:100", 4);
	select_default(&s);
	s.min_bytes = 35;
	selected(&s, cg, "/<-1:50 /a<0:10 /a/b<1:40", 2);
	select_default(&s);
	s.exclude[s.n_exclude++] = "/a/b";	/* nearest ancestor */
	selected(&s, cg, "/<-1:45 /a<0:20 /a/b/c<1:30 /z<0:5", 1);
	select_default(&s);
	s.include[s.n_include++] = "/a*";
	s.exclude[s.n_exclude++] = "*/c";
	assert_true(select_active(&s));
	selected(&s, cg, "/<-1:50 /a<0:10 /a/b<1:40", 2);
}

/*
 * --min-bytes 4: /z at 5 bytes is shown, stays at 3 (at least half the
 * threshold) and at 2, goes at 1, and comes back only at 4 again.
 */
static int z_shown(struct select_state *st, uint64_t z)
{
	struct cg_stat cg[5];
	struct cg_select s;
	struct report r, v;
	int shown;

	select_default(&s);
	s.min_bytes = 4;
	fake_report(&r, cg);
	cg[4].resident = z;
	assert_int_equal(report_select(&r, &s, st, &v), 0);
	shown = !strcmp(v.cg[v.n - 1].path, "/z");
	report_free(&v);
	return shown;
}

static void test_hysteresis(void **state)
{
	struct select_state st = { 0 };

	(void)state;
	assert_false(z_shown(&st, 3));	/* never shown: the threshold */
	assert_true(z_shown(&st, 5));
	assert_true(z_shown(&st, 3));
	assert_true(z_shown(&st, 2));
	assert_false(z_shown(&st, 1));
	assert_false(z_shown(&st, 3));
	assert_true(z_shown(&st, 4));
	assert_true(z_shown(NULL, 4));	/* no state: the threshold alone */
	assert_false(z_shown(NULL, 3));
	select_state_free(&st);
	assert_null(st.ino);
}

/*
 * Sum of the values of the lines that start with prefix: what follows
 * the line's last space (a label value may hold spaces and braces).
 */
static double sum_lines(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text, *e, *sp;
	double sum = 0;

	for (; *p; p = e + 1) {
		e = strchr(p, '\n');
		assert_non_null(e);
		if (strncmp(p, prefix, n))
			continue;
		for (sp = e; sp > p && sp[-1] != ' ';)
			sp--;
		assert_true(sp > p);
		sum += strtod(sp, NULL);
	}
	return sum;
}

static const char *const kube_tree[] = {
	"/kubepods.slice",
	"/kubepods.slice/kubepods-burstable.slice",
	"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
	"0a1b2c3d_4e5f_6789_abcd_ef0123456789.slice",
	"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
	"0a1b2c3d_4e5f_6789_abcd_ef0123456789.slice/cri-containerd-"
	"4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c"
	".scope",
	"/system.slice",
	"/system.slice/ssh.service",
	"/system.slice/cron.service",
	"/system.slice/odd} name 1.service",	/* a brace, spaces, a digit */
	"/user.slice",
	"/user.slice/user-1000.slice",
	"/user.slice/user-1000.slice/session-3.scope",
};
#define KUBE_N (sizeof(kube_tree) / sizeof(*kube_tree))

/* Each cgroup of kube_tree gets (i + 1) * 64 pages; 64 pages of an
 * inode idletop never sees go to "(unknown)", 64 uncharged to "/". */
static void kube_fixture(struct fixture *fx)
{
	uint64_t pfn = 0, ino;
	size_t i;

	assert_int_equal(fx_create(fx, 8192), 0);
	for (i = 0; i < KUBE_N; i++) {
		ino = fx_mkcg(fx, kube_tree[i]);
		assert_true(ino != 0);
		fx_set(fx, pfn, (i + 1) * 64, F(KPF_LRU) | F(KPF_ANON), ino,
		       (int)(i & 1));
		pfn += (i + 1) * 64;
	}
	fx_set(fx, pfn, 64, F(KPF_LRU), 987654321, 1);
	fx_set(fx, pfn + 64, 64, F(KPF_LRU), 0, 0);
	assert_int_equal(fx_write_pages(fx, 1, 0), 0);
}

static void check_sum(const struct report *r, const struct cg_select *s,
		      struct select_state *st)
{
	struct report v;
	struct sbuf b;
	double self, root, shown, folded;

	assert_int_equal(report_select(r, s, st, &v), 0);
	sb_init(&b);
	metrics_render(&b, &v.p, &v, MF_PROMETHEUS);
	assert_false(b.oom);
	self = sum_lines(sb_str(&b), "idletop_self_resident_bytes{");
	root = sum_lines(b.p, "idletop_resident_bytes{cgroup=\"/\",");
	shown = sum_lines(b.p, "idletop_cgroups{state=\"shown\"");
	folded = sum_lines(b.p, "idletop_cgroups{state=\"folded\"");
	if (self != root || root == 0)
		fail_msg("depth %d min %llu incl %u excl %u: self %.0f, "
			 "root %.0f", s->max_depth,
			 (unsigned long long)s->min_bytes, s->n_include,
			 s->n_exclude, self, root);
	assert_true(shown + folded == KUBE_N + 1);	/* and the root */
	sb_free(&b);
	report_free(&v);
}

static void test_sums(void **state)
{
	static const uint64_t mins[] = { 1, 64 * 4096, 256 * 4096,
					 512 * 4096, 1ULL << 40 };
	const struct report *r;
	struct select_state st = { 0 };
	struct fixture fx;
	struct cg_select s;
	struct config c;
	struct engine e;
	size_t i;
	int d;

	(void)state;
	kube_fixture(&fx);
	options_default(&c);
	c.root = fx.root;
	c.period = 10;
	c.first_window = 0;
	c.cpu_pct = 100;
	fake[UTIL_MONO] = 1000;
	fake[UTIL_REAL] = 1.7e9;
	util_clock_hook = fake_clock;
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	r = next_report(&e);
	assert_true(r->cg[r->n - 1].pseudo);
	select_default(&s);
	check_sum(r, &s, NULL);
	for (d = 0; d <= 5; d++) {
		s.max_depth = d;
		check_sum(r, &s, NULL);
	}
	select_default(&s);
	for (i = 0; i < sizeof(mins) / sizeof(*mins); i++) {
		s.min_bytes = mins[i];
		check_sum(r, &s, &st);
		check_sum(r, &s, NULL);
	}
	select_default(&s);
	s.include[s.n_include++] = "/kubepods.slice*";
	check_sum(r, &s, NULL);
	s.exclude[s.n_exclude++] = "*.scope";
	check_sum(r, &s, NULL);
	s.n_include = 0;
	s.max_depth = 2;
	s.min_bytes = 256 * 4096;
	check_sum(r, &s, &st);
	engine_close(&e);
	select_state_free(&st);
	util_clock_hook = NULL;
	fx_destroy(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_hysteresis),
		cmocka_unit_test(test_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
