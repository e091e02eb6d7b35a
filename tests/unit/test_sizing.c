// SPDX-License-Identifier: GPL-2.0
/*
 * test_sizing.c - the suggestions can be applied as they are: memory.high
 * includes kernel memory (memory.current - resident) and, without swap,
 * all of anon + shmem; none for the root and aggregates; the working set
 * by kind; the window, headroom and "working set complete" exported.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "batch.h"
#include "engine_impl.h"
#include "fields.h"
#include "fake_steps.h"
#include "fixture.h"
#include "ident.h"
#include "kpf.h"
#include "metrics.h"
#include "options.h"
#include "util.h"

#define MiB (1ULL << 20)

/* Pages: 2048 anon (all idle), 512 shmem (idle), 1024 file (512 hot). */
static void db_pages(struct cg_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->total.resident[PK_ANON] = 2048;
	s->total.resident[PK_SHMEM] = 512;
	s->total.resident[PK_FILE] = 1024;
	s->total.idle[PK_ANON] = s->total.ws_idle[PK_ANON] = 2048;
	s->total.idle[PK_SHMEM] = s->total.ws_idle[PK_SHMEM] = 512;
	s->total.idle[PK_FILE] = s->total.ws_idle[PK_FILE] = 512;
	s->total.age[0] = 3072;
	s->mem.has_current = 1;
	s->mem.current = 3584 * 4096ULL + 256 * MiB;
}

static void test_parts(void **state)
{
	struct report_params p = { .page_size = 4096, .headroom_pct = 25,
				   .ws_cycles = 1, .cycle_seconds = 60 };
	struct cg_stat s;

	(void)state;
	db_pages(&s);
	stats_derive(&s, &p);
	assert_int_equal(s.working_set, 2 * MiB);	/* the hot file */
	assert_int_equal(s.ws_kind[PK_FILE], 2 * MiB);
	assert_int_equal(s.ws_kind[PK_ANON] + s.ws_kind[PK_SHMEM], 0);
	assert_int_equal(s.kernel, 256 * MiB);
	assert_int_equal(s.sugg_floor, 0);		/* swap */
	/* 2 MiB * 1.25 + 256 MiB = 258.5 MiB -> 260 MiB */
	assert_int_equal(s.sugg_high, 260 * MiB);
	assert_true(s.sugg_high >= s.working_set + s.kernel);
	/* no swap: anon + shmem (10 MiB) is the least base */
	s.no_swap = 1;
	stats_derive(&s, &p);
	assert_int_equal(s.sugg_floor, 10 * MiB);
	/* 10 MiB * 1.25 + 256 MiB = 268.5 MiB -> 272 MiB */
	assert_int_equal(s.sugg_high, 272 * MiB);
	assert_true(s.sugg_high >= s.sugg_floor + s.kernel);
	/* kernel memory below resident (a stale memory.current): none */
	s.mem.current = 4096;
	stats_derive(&s, &p);
	assert_int_equal(s.kernel, 0);
	s.mem.has_current = 0;
	s.mem.current = 1ULL << 40;
	stats_derive(&s, &p);
	assert_int_equal(s.kernel, 0);
	/* by kind sums to the working set */
	db_pages(&s);
	s.total.ws_idle[PK_ANON] = 1000;
	stats_derive(&s, &p);
	assert_int_equal(s.ws_kind[PK_ANON] + s.ws_kind[PK_FILE] +
			 s.ws_kind[PK_SHMEM], s.working_set);
	assert_int_equal(s.ws_kind[PK_ANON], 1048 * 4096ULL);
}

static void test_aggregate(void **state)
{
	(void)state;
	assert_true(ident_aggregate("/"));
	assert_true(ident_aggregate("/system.slice"));
	assert_true(ident_aggregate("/user.slice/user-1000.slice"));
	assert_true(ident_aggregate("/kubepods.slice/kubepods-burstable.slice"));
	assert_true(ident_aggregate("/kubepods"));
	assert_true(ident_aggregate("/kubepods/besteffort"));
	assert_false(ident_aggregate("/system.slice/db.service"));
	assert_false(ident_aggregate("/user.slice/user-1000.slice/"
				     "session-3.scope"));
	assert_false(ident_aggregate("/kubepods.slice/kubepods-burstable.slice/"
				     "kubepods-burstable-pod0a1b2c3d_4e5f_6789_"
				     "abcd_ef0123456789.slice"));
	assert_false(ident_aggregate("/kubepods/pod0a1b2c3d-4e5f-6789-abcd-"
				     "ef0123456789"));
	assert_false(ident_aggregate("/batch"));
}

static const struct cg_stat *find(const struct report *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->cg[i].path, path))
			return &r->cg[i];
	fail_msg("no %s", path);
	return NULL;
}

#define POD "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-" \
	    "pod0a1b2c3d_4e5f_6789_abcd_ef0123456789.slice"
static const char *const tree[] = {
	"/system.slice", "/system.slice/db.service", "/kubepods.slice",
	"/kubepods.slice/kubepods-burstable.slice", POD,
};

static void write_cg(struct fixture *fx, const char *rel, const char *file,
		     const char *text)
{
	char *dir = path_join(fx->cgroot, rel);

	assert_non_null(dir);
	assert_int_equal(fx_write(dir, file, text), 0);
	free(dir);
}

/*
 * db.service: 2048 anon pages never touched, 512 file pages; its
 * memory.current 256 MiB above what the scan sees.  swap: the fixture's
 * meminfo SwapTotal, in kB.
 */
static void open_fixture(struct fixture *fx, struct engine *e,
			 const char *swap, unsigned ws_cycles, double first)
{
	struct config c;
	char text[64];
	uint64_t ino;
	size_t i;

	assert_int_equal(fx_create(fx, 4096), 0);
	for (i = 0; i < sizeof(tree) / sizeof(*tree); i++)
		assert_true(fx_mkcg(fx, tree[i]) != 0);
	ino = fx_ino(fx, "/system.slice/db.service");
	fx_set(fx, 0, 2048, F(KPF_LRU) | F(KPF_ANON), ino, 1);
	fx_set(fx, 2048, 512, F(KPF_LRU), ino, 1);
	fx_set(fx, 2560, 512, F(KPF_LRU) | F(KPF_ANON), fx_ino(fx, POD), 1);
	assert_int_equal(fx_write_pages(fx, 1, 0), 0);
	snprintf(text, sizeof(text), "%llu\n",
		 (unsigned long long)(2560 * 4096ULL + 256 * MiB));
	write_cg(fx, "/system.slice/db.service", "memory.current", text);
	snprintf(text, sizeof(text), "SwapTotal: %s kB\n", swap);
	assert_int_equal(fx_write(fx->root, "proc/meminfo", text), 0);
	options_default(&c);
	c.root = fx->root;
	c.period = 10;
	c.first_window = first;
	c.cpu_pct = 100;
	c.ws_cycles = ws_cycles;
	c.headroom_pct = 25;
	fake[UTIL_MONO] = 1000;
	fake[UTIL_REAL] = 1.7e9;
	util_clock_hook = fake_clock;
	if (engine_open(e, &c))
		fail_msg("%s", e->err);
}

static void close_fixture(struct fixture *fx, struct engine *e)
{
	engine_close(e);
	util_clock_hook = NULL;
	fx_destroy(fx);
}

static void render(const struct report *r, struct sbuf *b)
{
	sb_init(b);
	metrics_render(b, &r->p, r, MF_PROMETHEUS);
	assert_false(b->oom);
}

/* Swap, then none: the floor; memory.swap.max 0 above counts too. */
static void test_engine(void **state)
{
	const struct cg_stat *db;
	const struct report *r;
	struct fixture fx;
	struct engine e;
	struct sbuf b;

	(void)state;
	open_fixture(&fx, &e, "1048576", 1, 0);
	r = next_report(&e);
	db = find(r, "/system.slice/db.service");
	assert_int_equal(db->kernel, 256 * MiB);
	assert_int_equal(db->working_set, 0);	/* nothing touched */
	assert_int_equal(db->sugg_high, 256 * MiB);	/* 0 * 1.25 + 256 */
	assert_false(db->no_swap);
	render(r, &b);
	assert_non_null(strstr(sb_str(&b), "\nidletop_suggested_high_bytes{"
			       "cgroup=\"/system.slice/db.service\"} 268435456\n"));
	assert_non_null(strstr(b.p, "\nidletop_kernel_bytes{cgroup=\"/system."
			       "slice/db.service\"} 268435456\n"));
	assert_null(strstr(b.p, "idletop_suggested_high_floor_bytes{"));
	/* none for the root, slices and the QoS level; the pod has one */
	assert_null(strstr(b.p, "idletop_suggested_high_bytes{cgroup=\"/\""));
	assert_null(strstr(b.p, "idletop_suggested_low_bytes{cgroup=\"/\""));
	assert_null(strstr(b.p, "idletop_suggested_high_bytes{cgroup=\"/system"
			    ".slice\""));
	assert_null(strstr(b.p, "idletop_suggested_high_bytes{cgroup=\"/kube"
			    "pods.slice/kubepods-burstable.slice\""));
	assert_non_null(strstr(b.p, "idletop_suggested_high_bytes{cgroup=\""
			       POD "\"}"));
	assert_non_null(strstr(b.p, "\nidletop_working_set_by_kind_bytes{"
			       "cgroup=\"/system.slice/db.service\",kind=\"file\"}"
			       " 0\n"));
	assert_non_null(strstr(b.p, "\nidletop_headroom_ratio 0.25\n"));
	assert_non_null(strstr(b.p, "\nidletop_ws_window_cycles 1\n"));
	assert_non_null(strstr(b.p, "\nidletop_working_set_complete 1\n"));
	sb_free(&b);

	/* the node's swap goes: all of anon is the base */
	assert_int_equal(fx_write(fx.root, "proc/meminfo", "MemTotal: 1 kB\n"
				  "SwapTotal:  0 kB\n"), 0);
	r = next_report(&e);
	db = find(r, "/system.slice/db.service");
	assert_true(db->no_swap);
	assert_int_equal(db->sugg_floor, 8 * MiB);
	/* 8 MiB * 1.25 + 256 MiB = 266 MiB -> 268 MiB */
	assert_int_equal(db->sugg_high, 268 * MiB);
	assert_true(db->sugg_high >= db->sugg_floor + db->kernel);
	render(r, &b);
	assert_non_null(strstr(sb_str(&b), "\nidletop_suggested_high_floor_"
			       "bytes{cgroup=\"/system.slice/db.service\"} "
			       "8388608\n"));
	sb_free(&b);

	/* swap again, but memory.swap.max 0 on the slice above */
	assert_int_equal(fx_write(fx.root, "proc/meminfo", "SwapTotal: 8 kB\n"),
			 0);
	write_cg(&fx, "/system.slice", "memory.swap.max", "0\n");
	r = next_report(&e);
	assert_true(find(r, "/system.slice/db.service")->no_swap);
	assert_false(find(r, POD)->no_swap);
	assert_int_equal(find(r, "/system.slice/db.service")->sugg_high,
			 268 * MiB);
	write_cg(&fx, "/system.slice", "memory.swap.max", "max\n");
	r = next_report(&e);
	assert_false(find(r, "/system.slice/db.service")->no_swap);
	close_fixture(&fx, &e);
}

/* What a format says, in a string (malloc'ed). */
static char *print(const struct report *r, int (*fn)(FILE *,
						      const struct report *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, r), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* Complete, as the metrics, the JSON and the text say it alike. */
static int complete(const struct report *r)
{
	char *json = print(r, batch_json), *text = print(r, batch_text);
	struct sbuf b;
	int c;

	render(r, &b);
	c = strstr(sb_str(&b), "\nidletop_working_set_complete 1\n") != NULL;
	assert_true(c || strstr(b.p, "\nidletop_working_set_complete 0\n"));
	assert_int_equal(c, r->ws_complete);
	assert_non_null(strstr(json, c ? "\"ws_complete\":true," :
			       "\"ws_complete\":false,"));
	assert_int_equal(!strstr(text, "; INCOMPLETE: ages reach back"), c);
	free(json);
	free(text);
	sb_free(&b);
	return c;
}

/* The first ws_cycles reports, and the first window, are not complete. */
static void test_complete(void **state)
{
	struct fixture fx;
	struct engine e;

	(void)state;
	open_fixture(&fx, &e, "0", 3, 0);
	assert_false(complete(next_report(&e)));
	assert_false(complete(next_report(&e)));
	assert_true(complete(next_report(&e)));
	assert_true(complete(next_report(&e)));
	close_fixture(&fx, &e);

	open_fixture(&fx, &e, "0", 1, 2);
	assert_true(e.report.cycle == 0);
	assert_false(complete(next_report(&e)));	/* the first window */
	assert_true(e.report.first);
	assert_true(complete(next_report(&e)));
	close_fixture(&fx, &e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_aggregate),
		cmocka_unit_test(test_engine),
		cmocka_unit_test(test_complete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
