// SPDX-License-Identifier: GPL-2.0
/*
 * test_export.c - the exporter's parts: identity labels, option parsing, idle ages in seconds on fake clocks, the
 * metrics' two formats, and the HTTP server (status, negotiation, a port
 * in use, a client that never reads).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <cmocka.h>
#include <zlib.h>
#include "batch.h"
#include "engine_impl.h"
#include "fixture.h"
#include "http.h"
#include "ident.h"
#include "kpf.h"
#include "metrics.h"
#include "options.h"
#include "selfstat.h"
#include "series.h"
#include "util.h"

static void want_ident(const char *path, const char *unit, const char *slice,
		       const char *pod, const char *qos, const char *cid,
		       const char *rt)
{
	const char *want[IDENT_FIELDS] = { unit, slice, pod, qos, cid, rt };
	struct ident id;
	int f;

	ident_parse(path, &id);
	for (f = 0; f < IDENT_FIELDS; f++)
		if (strcmp(id.f[f], want[f] ? want[f] : ""))
			fail_msg("%s: %s is '%s', want '%s'", path,
				 ident_name[f], id.f[f], want[f] ? want[f] : "");
}

#define UID "0a1b2c3d-4e5f-6789-abcd-ef0123456789"
#define UIDS "0a1b2c3d_4e5f_6789_abcd_ef0123456789"
#define CID "4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c"

static void test_ident(void **state)
{
	(void)state;
	want_ident("/", 0, 0, 0, 0, 0, 0);
	want_ident("/system.slice/ssh.service", "ssh.service", "system.slice",
		   0, 0, 0, 0);
	/* sessions and containers are not units: no unit, not an outer one */
	want_ident("/user.slice/user-1000.slice/session-3.scope", 0,
		   "user-1000.slice", 0, 0, 0, 0);
	want_ident("/system.slice/x.service/session-3.scope", 0,
		   "system.slice", 0, 0, 0, 0);
	want_ident("/user.slice/user-1000.slice/user@1000.service/app.slice/"
		   "run-u7.scope", "run-u7.scope", "app.slice", 0, 0, 0, 0);
	want_ident("/kubepods.slice/kubepods-burstable.slice/"
		   "kubepods-burstable-pod" UIDS ".slice/cri-containerd-" CID
		   ".scope", 0, "kubepods-burstable-pod" UIDS ".slice", UID,
		   "burstable", CID, "containerd");
	want_ident("/kubepods.slice/kubepods-pod" UIDS ".slice/crio-" CID
		   ".scope", 0, "kubepods-pod" UIDS ".slice", UID, "guaranteed",
		   CID, "cri-o");
	want_ident("/system.slice/docker-" CID ".scope", 0, "system.slice",
		   0, 0, CID, "docker");
	want_ident("/kubepods/besteffort/pod" UID "/" CID, 0, 0, UID,
		   "besteffort", CID, 0);
	want_ident("/kubepods/pod" UID, 0, 0, UID, "guaranteed", 0, 0);
	/* not a layout: nothing made up */
	want_ident("/podcast/pod" UID, 0, 0, 0, 0, 0, 0);
	want_ident("/kubepods/burstable/podnotauid", 0, 0, 0, "burstable", 0,
		   0);
	want_ident("/docker-xyz.scope", "docker-xyz.scope", 0, 0, 0, 0, 0);
}

/* root, /a (depth 1), /a/b (2), /a/b/c (3), /z (1) */
static void fake_report(struct report *r, struct cg_stat *cg)
{
	static const char *const path[] = { "/", "/a", "/a/b", "/a/b/c", "/z" };
	static const int parent[] = { -1, 0, 1, 2, 0 };
	static const int depth[] = { 0, 1, 2, 3, 1 };
	static const uint64_t res[] = { 100, 50, 40, 30, 5 };
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 5; i++) {
		memset(&cg[i], 0, sizeof(cg[i]));
		cg[i].path = path[i];
		cg[i].parent = parent[i];
		cg[i].depth = depth[i];
		cg[i].resident = res[i];
	}
	r->cg = cg;
	r->n = 5;
}

static void test_parse(void **state)
{
	struct idle_tbuckets tb;
	struct sockaddr_storage ss;
	socklen_t len;
	uint64_t v;
	char err[256];

	(void)state;
	assert_int_equal(parse_buckets("30,1m,1.5h,2d", &tb), 0);
	assert_int_equal(tb.n, 4);
	assert_true(tb.secs[1] == 60 && tb.secs[2] == 5400 &&
		    tb.secs[3] == 172800);
	assert_int_equal(parse_buckets("60,60", &tb), -1);
	assert_int_equal(parse_buckets("2m,60", &tb), -1);
	assert_int_equal(parse_buckets("0", &tb), -1);
	assert_int_equal(parse_buckets("1,", &tb), -1);
	assert_int_equal(parse_buckets("1x", &tb), -1);
	assert_int_equal(parse_buckets("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,"
				       "16,17", &tb), -1);
	assert_int_equal(parse_size("512M", &v), 0);
	assert_true(v == 512ULL << 20);
	assert_int_equal(parse_size("4096", &v), 0);
	assert_int_equal(parse_size("1.5K", &v), 0);
	assert_true(v == 1536);
	assert_int_equal(parse_size("-1", &v), -1);
	assert_int_equal(parse_size("5Q", &v), -1);
	assert_int_equal(http_parse_listen("9410", &ss, &len, err, 256), 0);
	assert_int_equal(((struct sockaddr_in *)&ss)->sin_addr.s_addr,
			 htonl(INADDR_LOOPBACK));
	assert_int_equal(http_parse_listen(":9410", &ss, &len, err, 256), 0);
	assert_int_equal(http_parse_listen("[::1]:1", &ss, &len, err, 256), 0);
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(http_parse_listen("0.0.0.0:80", &ss, &len, err, 256),
			 0);
	assert_int_equal(http_parse_listen("1.2.3:80", &ss, &len, err, 256),
			 -1);
	assert_non_null(strstr(err, "numeric IPv4"));
	assert_int_equal(http_parse_listen("localhost:80", &ss, &len, err,
					   256), -1);
	assert_int_equal(http_parse_listen("1.2.3.4:65536", &ss, &len, err,
					   256), -1);
	assert_non_null(strstr(err, "PORT"));
	assert_int_equal(http_parse_listen("1.2.3.4:", &ss, &len, err, 256),
			 -1);
}

/* Fake clocks: time moves only when the test says. */
static double fake[3];

static double fake_clock(int which)
{
	return fake[which];
}

static int fake_step(struct engine *e, double extra)
{
	double w = engine_wait(e) + 0.001 + extra;

	fake[UTIL_MONO] += w;
	fake[UTIL_REAL] += w;
	fake[UTIL_CPU] += 0.0001;
	return engine_step(e);
}

/* The next report; extra seconds of stall before its first slice. */
static const struct report *next_report(struct engine *e, double extra)
{
	int rc, guard = 0;

	while ((rc = fake_step(e, extra)) == 0) {
		extra = 0;
		assert_true(++guard < 10000);
	}
	assert_int_equal(rc, 1);
	return &e->report;
}

/*
 * Nothing touches the fixture's pages, so every page is idle since the
 * priming pass: at counted cycle k its age is k cycles, about 10k s at
 * --period 10.  A stall of 1000 s between two cycles (what a CPU-bound
 * cycle looks like) shows in the seconds, not in the cycles.
 */
static void test_idle_seconds(void **state)
{
	const uint64_t all = 1024 * 4096ULL;
	const struct report *r;
	struct fixture fx;
	struct config c;
	struct engine e;
	uint64_t a;

	(void)state;
	assert_int_equal(fx_create(&fx, 1024), 0);
	a = fx_mkcg(&fx, "/a");
	fx_set(&fx, 0, 1024, F(KPF_LRU) | F(KPF_ANON), a, 0);
	assert_int_equal(fx_write_pages(&fx, 1, 0), 0);
	options_default(&c);
	c.root = fx.root;
	c.period = 10;
	c.first_window = 0;	/* steady cycles from the start */
	c.cpu_pct = 100;
	assert_int_equal(parse_buckets("15,25,1000", &c.idle_buckets), 0);
	fake[UTIL_MONO] = 1000;
	fake[UTIL_CPU] = 0;
	fake[UTIL_REAL] = 1.7e9;
	util_clock_hook = fake_clock;
	if (engine_open(&e, &c))
		fail_msg("%s", e.err);
	r = next_report(&e, 0);		/* cycle 1: idle ~10 s */
	assert_int_equal(r->cg[1].idle, all);
	assert_true(r->cg[1].idle_for[0] == 0 && r->cg[1].idle_for[1] == 0);
	r = next_report(&e, 0);		/* cycle 2: ~20 s */
	assert_true(r->cg[1].idle_for[0] == all && r->cg[1].idle_for[1] == 0);
	assert_int_equal(r->tb_min_age[0], 2);
	assert_int_equal(r->tb_min_age[1], 0);
	r = next_report(&e, 1000);	/* cycle 3: ~1030 s */
	assert_true(r->cg[1].idle_for[0] == all &&
		    r->cg[1].idle_for[1] == all && r->cg[1].idle_for[2] == all);
	assert_int_equal(r->cg[0].idle_for[2], all);	/* hierarchical */
	assert_int_equal(r->tb_min_age[2], 1);
	engine_close(&e);
	util_clock_hook = NULL;
	fx_destroy(&fx);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* Every sample line (not a comment) of an exposition contains what. */
static void samples_have(const char *text, const char *what)
{
	const char *p = text, *e;

	for (; *p; p = e + 1) {
		e = strchr(p, '\n');
		assert_non_null(e);
		if (*p != '#' && !memmem(p, (size_t)(e - p), what, strlen(what)))
			fail_msg("no %s in: %.*s", what, (int)(e - p), p);
	}
}

/* Distinct values in every member the registries (series.h) read. */
static void series_values(struct cg_stat *s)
{
	struct cg_mem *m = &s->mem;
	int k, i;

	m->has_current = m->has_stat = m->has_low = m->has_high = 1;
	m->has_max = m->has_pressure = m->has_events = m->has_swap = 1;
	m->current = 1001, m->low = 1002, m->high = 1003, m->max = 1004;
	m->anon = 1005, m->file = 1006, m->shmem = 1007;
	m->swap_current = 1008, m->refault_anon = 1009;
	m->refault_file = 1010, m->ev_high = 1011, m->ev_max = 1012;
	m->ev_oom_kill = 1013, m->some_total = 1014000001;
	m->full_total = 1015000002, m->some_avg10 = 1.25;
	m->some_avg60 = 2.5, m->some_avg300 = 3.75, m->full_avg10 = 4.5;
	m->full_avg60 = 5.25, m->full_avg300 = 6.75;
	for (k = 0; k < PK_NR; k++) {
		s->total.resident[k] = 20 + k, s->total.idle[k] = 30 + k;
		s->self.resident[k] = 40 + k, s->self.idle[k] = 50 + k;
		s->total.ws_idle[k] = 81 + k;
	}
	for (i = 0; i < AGE_BUCKETS; i++)
		s->total.age[i] = 60 + i, s->total.reaccess[i] = 70 + i;
	s->total.unevictable = 80;
}

static void has_text(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("no '%s' in the output", want);
}

/* "key":value as a whole JSON member: a ',' or '}' follows. */
static void has_member(const char *json, const char *want)
{
	const char *p = json;
	size_t n = strlen(want);

	while ((p = strstr(p, want)) && p[n] != ',' && p[n] != '}')
		p += n;
	if (!p)
		fail_msg("no member '%s' in the JSON", want);
}

/*
 * Every entry of the registries is in JSON and in the exposition, with
 * the value its getter reads, and the getters read the right members.
 */
static void test_series(void **state)
{
	struct report r;
	struct cg_stat cg[5];
	char *json = NULL, want[160];
	size_t len, i;
	struct sbuf b;
	uint64_t u;
	double d;
	FILE *f;
	int k;

	(void)state;
	fake_report(&r, cg);
	series_values(&cg[1]);
	r.p.page_size = 2;
	r.p.source = "kpageidle";
	r.p.tb.n = 1;
	r.p.tb.secs[0] = 60;
	cg[1].idle_for[0] = 4242;
	f = open_memstream(&json, &len);
	assert_non_null(f);
	assert_int_equal(batch_json(f, &r), 0);
	fclose(f);
	sb_init(&b);
	metrics_render(&b, &r.p, &r, MF_PROMETHEUS);
	assert_false(b.oom);
	/* the getters: three members picked at random */
	has_text(json, "\"swap\":1008,\"refault_anon\":1009,");
	has_member(json, "\"skipped_bytes\":null");	/* not known */
	has_text(json, "\"full_avg300\":6.75}");
	has_text(b.p, "idletop_pressure_memory_stalled_seconds_total{"
		 "cgroup=\"/a\"} 1015.000002\n");
	has_text(json, "\"total\":{\"anon\":40,\"file\":42,\"shmem\":44,"
		 "\"unevictable\":160,\"idle_anon\":60,");
	for (i = 0; i < mem_series_nr; i++) {
		const struct mem_series *ms = &mem_series[i];

		assert_true(mem_series_get(ms, &cg[1].mem, &u, &d));
		if (ms->json && ms->fmt == SF_PCT)
			snprintf(want, sizeof(want), "\"%s\":%.2f", ms->json, d);
		else if (ms->json)
			snprintf(want, sizeof(want), "\"%s\":%llu", ms->json,
				 (unsigned long long)u);
		if (ms->json)
			has_member(json, want);
		if (!ms->metric)
			continue;
		snprintf(want, sizeof(want), "%s_total{cgroup=\"/a\"} %llu",
			 ms->metric, ms->fmt == SF_USEC ?
			 (unsigned long long)(u / 1000000) :
			 (unsigned long long)u);
		has_text(b.p, want);
	}
	for (i = 0; i < page_series_nr; i++) {
		const struct page_series *ps = &page_series[i];

		if (ps->shape != PS_KIND)
			continue;
		for (k = 0; k < PK_NR; k++) {
			snprintf(want, sizeof(want), "\"%s%s\":%llu", ps->json,
				 page_kind_name[k], (unsigned long long)
				 (page_series_get(ps, &cg[1].total, k) * 2));
			has_member(json, want);
			snprintf(want, sizeof(want), "%s{cgroup=\"/a\","
				 "kind=\"%s\"} %llu\n", ps->self_metric,
				 page_kind_name[k], (unsigned long long)
				 (page_series_get(ps, &cg[1].self, k) * 2));
			has_text(b.p, want);
		}
	}
	has_text(json, "\"idle_age\":[120,122,124,126,128],"
		 "\"reaccess\":[140,142,144,146,148],\"ws_idle\":492}");
	snprintf(want, sizeof(want), "\"%s\":[4242]", idle_for_series.json);
	has_text(json, want);
	snprintf(want, sizeof(want), "%s{cgroup=\"/a\",%s=\"60\"} 4242\n",
		 idle_for_series.metric, idle_for_series.label);
	has_text(b.p, want);
	sb_free(&b);
	free(json);
}

static void test_metrics(void **state)
{
	struct report r;
	struct cg_stat cg[5];
	struct sbuf b;

	(void)state;
	fake_report(&r, cg);
	cg[4].path = "/system.slice/ssh.service";
	cg[4].mem.has_pressure = 1;
	cg[4].mem.some_total = 1500000;
	cg[4].mem.has_events = 1;
	cg[4].mem.ev_oom_kill = 3;
	cg[4].mem.has_high = 1;
	cg[4].mem.high = CG_NOLIMIT;
	r.p.tb.n = 2;
	r.p.tb.secs[0] = 60;
	r.p.tb.secs[1] = 90.5;
	r.p.page_size = 4096;
	r.cpu_total = 2.5;
	sb_init(&b);
	metrics_render(&b, &r.p, &r, MF_PROMETHEUS);
	/* not known (no scan ioctl): the family, no sample */
	assert_non_null(strstr(sb_str(&b), "# TYPE idletop_scan_skipped_bytes "
			       "gauge\n# HELP "));
	assert_null(strstr(b.p, "\nidletop_scan_skipped_bytes"));
	r.has_skipped = 1;
	r.skipped = 49152;
	sb_reset(&b);
	metrics_render(&b, &r.p, &r, MF_PROMETHEUS);
	assert_non_null(strstr(sb_str(&b), "# TYPE idletop_scan_skipped_bytes "
			       "gauge\nidletop_scan_skipped_bytes 49152\n"));
	assert_non_null(strstr(b.p, "# TYPE idletop_cpu_seconds_total "
			       "counter\nidletop_cpu_seconds_total 2.500\n"));
	assert_non_null(strstr(b.p, "idletop_pressure_memory_waiting_seconds"
			       "_total{cgroup=\"/system.slice/ssh.service\"} "
			       "1.500000\n"));
	/* identity once, in the info series */
	assert_non_null(strstr(b.p, "# TYPE idletop_cgroup_info gauge\n"));
	assert_non_null(strstr(b.p, "\nidletop_cgroup_info{cgroup=\"/system."
			       "slice/ssh.service\",unit=\"ssh.service\","
			       "slice=\"system.slice\"} 1\n"));
	assert_non_null(strstr(b.p, "\nidletop_cgroup_info{cgroup=\"/\"} "
			       "1\n"));
	assert_int_equal(count(b.p, "unit=\""), 1);
	assert_null(strstr(b.p, "node="));
	assert_non_null(strstr(b.p, "idletop_memory_events_oom_kill_total{"
			       "cgroup=\"/system.slice/ssh.service\"} 3\n"));
	assert_non_null(strstr(b.p, "idletop_idle_age_bytes{cgroup=\"/a\","
			       "min_seconds=\"90.5\"} 0\n"));
	assert_null(strstr(b.p, "idletop_memory_high_bytes{"));	/* "max" */
	assert_null(strstr(b.p, "scope="));
	assert_null(strstr(b.p, "# EOF"));
	assert_null(strstr(b.p, "# UNIT"));
	sb_reset(&b);
	metrics_render(&b, &r.p, &r, MF_OPENMETRICS);
	assert_non_null(strstr(sb_str(&b), "# TYPE idletop_cpu_seconds "
			       "counter\n# UNIT idletop_cpu_seconds seconds\n"
			       "idletop_cpu_seconds_total 2.500\n"));
	assert_non_null(strstr(b.p, "# TYPE idletop_cgroup info\n"));
	assert_non_null(strstr(b.p, "\nidletop_cgroup_info{cgroup=\"/a\"} "
			       "1\n"));
	assert_string_equal(b.p + b.len - 6, "# EOF\n");
	/* --node-label: on every series, the global ones too */
	r.p.node = "n\"1";
	sb_reset(&b);
	metrics_render(&b, &r.p, &r, MF_OPENMETRICS);
	assert_non_null(strstr(sb_str(&b), "\nidletop_cpu_seconds_total{node="
			       "\"n\\\"1\"} 2.500\n"));
	assert_non_null(strstr(b.p, "\nidletop_build_info{version=\""));
	assert_non_null(strstr(b.p, "\",node=\"n\\\"1\"} 1\n"));
	assert_non_null(strstr(b.p, "\nidletop_warning{warning=\"mglru_"
			       "unfixed\",node=\"n\\\"1\"} 0\n"));
	assert_non_null(strstr(b.p, "# UNIT idletop_scan_skipped_bytes bytes\n"
			       "idletop_scan_skipped_bytes{node=\"n\\\"1\"} "
			       "49152\n"));
	assert_non_null(strstr(b.p, "\nidletop_idle_age_bytes{cgroup=\"/a\","
			       "node=\"n\\\"1\",min_seconds=\"90.5\"} 0\n"));
	samples_have(b.p, "node=\"n\\\"1\"");
	r.p.node = NULL;
	sb_reset(&b);
	metrics_render(&b, &r.p, NULL, MF_OPENMETRICS);
	assert_non_null(strstr(sb_str(&b), "\nidletop_report_available 0\n"));
	assert_null(strstr(b.p, "cgroup="));
	sb_free(&b);
}

static int dial(const char *addr)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *colon = strrchr(addr, ':');
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0 && colon);
	sa.sin_port = htons((uint16_t)atoi(colon + 1));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* One request, the whole response (the server closes), malloc'ed. */
static char *get(const char *addr, const char *req)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	int fd = dial(addr);
	ssize_t n;

	assert_non_null(buf);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (len + 1 == cap) {
			char *more = realloc(buf, cap * 2);

			assert_non_null(more);
			buf = more;
			cap *= 2;
		}
	}
	close(fd);
	buf[len] = 0;
	return buf;
}

static void publish_at(struct http *h, const char *prom, const char *om,
		       uint64_t cycle, double next_within)
{
	struct http_pub p = { .prom = strdup(prom), .om = strdup(om),
			      .prom_len = strlen(prom), .om_len = strlen(om),
			      .cycle = cycle, .next_within = next_within };

	assert_int_equal(http_publish(h, &p), 0);
}

static void publish(struct http *h, const char *prom, const char *om)
{
	publish_at(h, prom, om, 1, 60);
}

static void test_http(void **state)
{
	char err[256], *r, *big;
	const size_t bigsz = 16 << 20;
	struct http *h, *h2;
	double t0;
	int fd, i;

	(void)state;
	h = http_start("127.0.0.1:0", err, sizeof(err));
	if (!h)
		fail_msg("%s", err);
	publish(h, "prom 1\n", "om 1\n# EOF\n");
	r = get(http_address(h), "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "HTTP/1.1 200 "));
	assert_non_null(strstr(r, "text/plain; version=0.0.4"));
	assert_non_null(strstr(r, "\r\n\r\nprom 1\n"));
	free(r);
	r = get(http_address(h), "GET /metrics HTTP/1.0\r\nAccept: "
		"application/openmetrics-text;version=1.0.0,text/plain;q=0.5"
		"\r\n\r\n");
	assert_non_null(strstr(r, "application/openmetrics-text; version=1"));
	assert_non_null(strstr(r, "\r\n\r\nom 1\n# HELP process_cpu_seconds "));
	assert_non_null(strstr(r, "\nidletop_scan_errors_total 0\n"));
	assert_string_equal(r + strlen(r) - 6, "# EOF\n");
	assert_int_equal(strstr(r, "# EOF") - r, strlen(r) - 6);
	free(r);
	r = get(http_address(h), "GET /nothing HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 404 "));
	free(r);
	r = get(http_address(h), "DELETE /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 405 "));
	free(r);
	r = get(http_address(h), "GET / HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "href=\"/metrics\""));
	free(r);
	/* the same port again: a clear error */
	snprintf(err, sizeof(err), "%s", http_address(h));
	h2 = http_start(err, err, sizeof(err));
	assert_null(h2);
	assert_non_null(strstr(err, "Address already in use"));
	/*
	 * A client that asks for 16 MiB (more than the socket buffers) and
	 * never reads: publishing goes on.  Were the lock held while sending,
	 * a publish would wait for the 10 s connection timeout; 2 s leaves
	 * room for a loaded machine and the sanitizers.  The publishing
	 * starts once the server is sending to it (its first bytes are
	 * queued on our side), not after a guessed delay.
	 */
	big = malloc(bigsz + 1);
	assert_non_null(big);
	memset(big, 'x', bigsz);
	big[bigsz] = 0;
	publish(h, big, "om\n");
	free(big);
	fd = dial(http_address(h));
	assert_true(write(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 35) ==
		    35);
	for (i = 0; i < 1000; i++) {
		int queued = 0;

		assert_int_equal(ioctl(fd, FIONREAD, &queued), 0);
		if (queued > 0)
			break;
		usleep(10000);
	}
	assert_true(i < 1000);
	t0 = now_mono();
	for (i = 0; i < 20; i++)
		publish(h, "prom 2\n", "om 2\n");
	assert_true(now_mono() - t0 < 2);
	r = get(http_address(h), "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "\r\n\r\nprom 2\n"));
	free(r);
	close(fd);
	http_stop(h);
}

/* Accept fields as scrapers and browsers send them, and the RFC's corners. */
static void test_negotiate(void **state)
{
	static const struct {
		const char *accept;
		int fmt;	/* -1: 406 */
		const char *ct;	/* a part of the Content-Type */
	} cases[] = {
		{ NULL, MF_PROMETHEUS, "version=0.0.4" },
		{ "", MF_PROMETHEUS, "version=0.0.4" },
		{ "*/*", MF_PROMETHEUS, "version=0.0.4" },
		{ "text/*", MF_PROMETHEUS, "version=0.0.4" },
		{ "text/plain", MF_PROMETHEUS, "version=0.0.4" },
		/* Prometheus 2 */
		{ "application/openmetrics-text;version=1.0.0,application/"
		  "openmetrics-text;version=0.0.1;q=0.75,text/plain;version="
		  "0.0.4;q=0.5,*/*;q=0.1", MF_OPENMETRICS, "version=1.0.0" },
		/* Prometheus 3: text 1.0.0 is not ours, escaping is ignored */
		{ "application/openmetrics-text;version=1.0.0;escaping="
		  "allow-utf-8;q=0.5,application/openmetrics-text;version=0.0.1"
		  ";q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,"
		  "text/plain;version=0.0.4;q=0.2,*/*;q=0.1", MF_OPENMETRICS,
		  "version=1.0.0" },
		/* q decides, not the order, nor the mere mention */
		{ "text/plain;version=0.0.4;q=1,application/openmetrics-text;"
		  "q=0.1", MF_PROMETHEUS, "version=0.0.4" },
		{ "application/openmetrics-text;q=0.3, text/plain;q=0.7",
		  MF_PROMETHEUS, "0.0.4" },
		/* case-insensitive names, OWS, a quoted version */
		{ "Application/OpenMetrics-Text ; Version=\"1.0.0\" ; Q=0.9 , "
		  "TEXT/PLAIN;q=0.8", MF_OPENMETRICS, "version=1.0.0" },
		{ "application/openmetrics-text; version=0.0.1",
		  MF_OPENMETRICS, "version=0.0.1" },
		{ "application/openmetrics-text;version=2.0.0", -1, NULL },
		{ "application/openmetrics-text;version=2.0.0,text/plain;q=0.1",
		  MF_PROMETHEUS, "0.0.4" },
		/* q=0 excludes, also a type a wildcard would allow */
		{ "text/plain;q=0, */*", MF_OPENMETRICS, "version=1.0.0" },
		{ "text/plain;q=0, application/*;q=0", -1, NULL },
		{ "*/*;q=0", -1, NULL },
		{ "text/html, application/json", -1, NULL },
		/* the most specific range decides its format's q */
		{ "application/openmetrics-text;version=1.0.0;q=0,"
		  "application/openmetrics-text;q=1, text/plain;q=0.5",
		  MF_OPENMETRICS, "version=0.0.1" },
		/* a tie: the range listed first, then the text format */
		{ "application/openmetrics-text, text/plain", MF_OPENMETRICS,
		  "version=1.0.0" },
		{ "text/plain, application/openmetrics-text", MF_PROMETHEUS,
		  "0.0.4" },
		/* malformed ranges, bad q and other charsets are skipped */
		{ "application/openmetrics-text;q=2, text/plain;q=0.5",
		  MF_PROMETHEUS, "0.0.4" },
		{ "application/openmetrics-text;q=0.5x,text/plain;q=0.1",
		  MF_PROMETHEUS, "0.0.4" },
		{ "text/plain;charset=latin1", -1, NULL },
		{ "text/plain;charset=UTF-8", MF_PROMETHEUS, "0.0.4" },
		{ "garbage, /, text/, ;;, text/plain;q=0.001", MF_PROMETHEUS,
		  "0.0.4" },
		{ "application/openmetrics-text;q=1.0001", -1, NULL },
	};
	const char *ct;
	size_t i;
	int f;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		ct = NULL;
		f = http_negotiate(cases[i].accept, &ct);
		if (f != cases[i].fmt ||
		    (f >= 0 && !strstr(ct, cases[i].ct)))
			fail_msg("Accept: %s: %d %s, want %d %s",
				 cases[i].accept ? cases[i].accept : "(none)",
				 f, ct ? ct : "", cases[i].fmt,
				 cases[i].ct ? cases[i].ct : "");
	}
	assert_true(http_gzip_ok("gzip"));
	assert_true(http_gzip_ok("deflate, GZIP;q=0.5"));
	assert_true(http_gzip_ok("x-gzip"));
	assert_true(http_gzip_ok("br;q=1, *;q=0.1"));
	assert_false(http_gzip_ok(NULL));
	assert_false(http_gzip_ok(""));
	assert_false(http_gzip_ok("identity"));
	assert_false(http_gzip_ok("gzip;q=0"));
	assert_false(http_gzip_ok("gzip;q=0, *"));
	assert_false(http_gzip_ok("*;q=0"));
	assert_false(http_gzip_ok("gzipper"));
}

/* The body of an HTTP response (after the blank line). */
static const char *body_of(const char *r)
{
	const char *b = strstr(r, "\r\n\r\n");

	assert_non_null(b);
	return b + 4;
}

/* gunzip n bytes at gz into a new NUL-terminated string. */
static char *gunzip(const char *gz, size_t n)
{
	size_t cap = 1 << 20;
	char *out = malloc(cap);
	z_stream z;

	assert_non_null(out);
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 16 + 15), Z_OK);
	z.next_in = (Bytef *)gz;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap - 1;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.avail_in, 0);
	out[cap - 1 - z.avail_out] = 0;
	inflateEnd(&z);
	return out;
}

static size_t content_length(const char *r)
{
	const char *p = strstr(r, "Content-Length: ");

	assert_non_null(p);
	return (size_t)atol(p + 16);
}

/* Drop the lines of s that start with prefix (samples that vary). */
static void drop_samples(char *s, const char *prefix)
{
	char *in = s, *out = s, *nl;
	size_t len;

	while (*in) {
		nl = strchr(in, '\n');
		len = nl ? (size_t)(nl - in + 1) : strlen(in);
		if (strncmp(in, prefix, strlen(prefix))) {
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	*out = 0;
}

/* /healthz, the error counter and gzip, against the plain body. */
static void test_http_health(void **state)
{
	char err[256], *r, *plain, *g;
	struct http *h;

	(void)state;
	h = http_start("127.0.0.1:0", err, sizeof(err));
	if (!h)
		fail_msg("%s", err);
	r = get(http_address(h), "GET /healthz HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 503 "));
	free(r);
	publish_at(h, "x 0\n", "x 0\n# EOF\n", 0, 60);
	r = get(http_address(h), "GET /healthz HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 503 "));
	assert_non_null(strstr(r, "not ready"));
	free(r);
	publish_at(h, "x 1\n", "x 1\n# EOF\n", 7, 60);
	r = get(http_address(h), "GET /healthz HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 200 "));
	assert_non_null(strstr(r, "ok: the report of cycle 7"));
	free(r);
	http_error(h, "cgroup.procs: Too many open files");
	http_error(h, "cgroup.procs: Too many open files");
	r = get(http_address(h), "GET /healthz HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 200 "));
	assert_non_null(strstr(r, "last error: cgroup.procs: Too many"));
	free(r);
	plain = get(http_address(h), "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(plain, "\r\n\r\nx 1\n"));
	assert_non_null(strstr(plain, "\nidletop_scan_errors_total 2\n"));
	assert_non_null(strstr(plain, "\nprocess_open_fds "));
	/* stale: the next report was due within 0.05 s */
	publish_at(h, "x 2\n", "x 2\n# EOF\n", 8, 0.05);
	usleep(100000);
	r = get(http_address(h), "GET /healthz HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 503 "));
	assert_non_null(strstr(r, "stale: the report of cycle 8"));
	assert_null(strstr(r, "last error"));	/* a report came since */
	free(r);
	/* gzip: the same exposition, process_* values aside */
	publish_at(h, "x 1\n", "x 1\n# EOF\n", 9, 60);
	r = get(http_address(h), "GET /metrics HTTP/1.1\r\nHost: x\r\n"
		"Accept-Encoding: gzip\r\nConnection: close\r\n\r\n");
	assert_non_null(strstr(r, "Content-Encoding: gzip"));
	g = gunzip(body_of(r), content_length(r));
	assert_non_null(strstr(g, "x 1\n# HELP process_cpu_seconds_total"));
	assert_non_null(strstr(g, "\nidletop_scan_errors_total 2\n"));
	drop_samples(g, "process_");
	drop_samples(strstr(plain, "\r\n\r\n"), "process_");
	assert_string_equal(g, body_of(plain));
	free(g);
	free(r);
	r = get(http_address(h), "GET /metrics HTTP/1.1\r\nHost: x\r\n"
		"Accept: application/openmetrics-text\r\n"
		"Accept-Encoding: gzip\r\nConnection: close\r\n\r\n");
	g = gunzip(body_of(r), content_length(r));
	assert_string_equal(g + strlen(g) - 6, "# EOF\n");
	assert_non_null(strstr(g, "x 1\n# HELP process_cpu_seconds "));
	free(g);
	free(r);
	r = get(http_address(h), "GET /metrics HTTP/1.0\r\nAccept: "
		"text/html\r\n\r\n");
	assert_non_null(strstr(r, " 406 "));
	free(r);
	free(plain);
	http_stop(h);
}

/* A connection from 127.0.0.N that sends `req` and does not read. */
static int dial_from(const char *addr, int n, const char *req)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0), rc;
	struct sockaddr_in sa = { .sin_family = AF_INET };

	assert_true(fd >= 0);
	me.sin_addr.s_addr = htonl(0x7f000000u + (unsigned)n);
	assert_int_equal(bind(fd, (struct sockaddr *)&me, sizeof(me)), 0);
	sa.sin_port = htons((uint16_t)atoi(strrchr(addr, ':') + 1));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	assert_int_equal(rc, 0);
	if (*req)
		assert_int_equal(write(fd, req, strlen(req)),
				 (ssize_t)strlen(req));
	return fd;
}

/* Bytes read from fd until the server closes or 2 s pass without any. */
static size_t read_all(int fd)
{
	struct timeval tv = { .tv_sec = 2 };
	static char buf[1 << 16];
	size_t total = 0;
	ssize_t got;

	assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				    sizeof(tv)), 0);
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		total += (size_t)got;
	return total;
}

/*
 * Slots: HTTP_MAX_CONN idle and half-sent connections from other
 * addresses do not keep a scrape out; 40 readers that never read cost
 * one exposition, not 40 (they share the snapshot): RSS grows by less
 * than 4 (sanitizers' shadow memory included), not by 40.  About 6 s.
 */
static void test_http_slots(void **state)
{
	const size_t bigsz = 8 << 20;
	int fd[HTTP_MAX_CONN + 40], i, n = 0;
	struct selfstat s0, s1;
	char err[256], *r, *big;
	struct http *h;
	double t0;

	(void)state;
	h = http_start("127.0.0.1:0", err, sizeof(err));
	if (!h)
		fail_msg("%s", err);
	publish(h, "prom 1\n", "om 1\n# EOF\n");
	for (i = 0; i < HTTP_MAX_CONN; i++)
		fd[n++] = dial_from(http_address(h), 2 + i / 8,
				    i % 2 ? "GET /metrics HTTP/1.1\r\nHo" : "");
	usleep(200000);
	t0 = now_mono();
	r = get(http_address(h), "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "\r\n\r\nprom 1\n"));
	assert_true(now_mono() - t0 < 1);
	free(r);
	while (n)
		close(fd[--n]);
	/* shared: 40 stalled readers of an 8 MiB exposition */
	big = malloc(bigsz + 1);
	assert_non_null(big);
	memset(big, 'x', bigsz);
	big[bigsz] = 0;
	publish(h, big, "om\n");
	free(big);
	usleep(300000);		/* the slots above are closed */
	assert_int_equal(selfstat_read(&s0), 0);
	for (i = 0; i < 40; i++)
		fd[n++] = dial_from(http_address(h), 20 + i / 8,
				    "GET /metrics HTTP/1.1\r\nHost: x\r\n"
				    "Connection: close\r\n\r\n");
	usleep(500000);
	assert_int_equal(selfstat_read(&s1), 0);
	if (s1.resident_bytes - s0.resident_bytes > 4.0 * bigsz)
		fail_msg("40 readers: resident memory grew by %.0f bytes",
			 s1.resident_bytes - s0.resident_bytes);
	/*
	 * Past the headers' deadline, a reader whose headers came in time
	 * is not cut off: it still gets all of the 8 MiB.
	 */
	usleep((useconds_t)(HTTP_HEADER_DEADLINE * 1e6) + 500000);
	assert_true(read_all(fd[0]) > bigsz);
	while (n)
		close(fd[--n]);
	http_stop(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ident),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_idle_seconds),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_http),
		cmocka_unit_test(test_negotiate),
		cmocka_unit_test(test_http_health),
		cmocka_unit_test(test_http_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
