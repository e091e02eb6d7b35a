// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_targets.c - what fuzz.c feeds: every file idletop parses.
 *   memory.stat, memory.{current,low,high,max,swap.current},
 *	memory.pressure, memory.events: the parsers of cgfiles.c, on the
 *	text itself;
 *   mountinfo: cg_mountinfo_cgroup2();
 *   cgroup.procs, /proc/PID/status: procs_read() over files in a temp
 *	root (the detail screen's process list);
 *   lru_gen/enabled: idlesrc_mglru_unfixed() (item 9's MGLRU check);
 *   lru_gen-debugfs: the mglru source's parser (mglru.c) of
 *	/sys/kernel/debug/lru_gen, fed in pieces of random sizes;
 *   kpage: /proc/kpageflags, kpagecgroup, kpageidle and the page_idle
 *	bitmap of any length (short reads: not a multiple of 8, shorter
 *	than each other, empty) and content, through the whole engine
 *	(engine_open, a one-shot cycle, the report);
 *   cgroup-path: a cgroup name as ident.c reads it (identity labels);
 *   listen: --listen and --idle-buckets (http_parse_listen, parse_buckets);
 *   accept: the Accept and Accept-Encoding fields (http_accept.c).
 * /proc/meminfo,
 * hostname and osrelease are one sscanf()/line each in ui.c, out of reach.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup.h"
#include "engine_impl.h"
#include "options.h"
#include "fixture.h"
#include "fuzz.h"
#include "http.h"
#include "metrics.h"
#include "mglru.h"
#include "ident.h"
#include "kpf.h"
#include "ui.h"
#include "util.h"

static struct fixture fx;
static uint64_t ino[3];
static char *lg_root;	/* a root with lru_gen/enabled and no kpageidle */

/* mkdir -p root/rel, rel relative and not empty; -1 on error. */
static int mkdir_p(const char *root, const char *rel)
{
	char *p = path_join(root, rel), *s;
	int rc = 0;

	if (!p)
		return -1;
	for (s = p + strlen(root); !rc && (s = strchr(s + 1, '/'));) {
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (!rc && mkdir(p, 0755) && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

int fuzz_setup(void)
{
	if (fx_create(&fx, 64))
		return -1;
	ino[0] = fx_ino(&fx, "/");
	ino[1] = fx_mkcg(&fx, "/a");
	ino[2] = fx_mkcg(&fx, "/a/b");
	lg_root = path_join(fx.root, "lg");
	if (!ino[1] || !ino[2] || fx_write_pages(&fx, 1, 1) || !lg_root ||
	    mkdir_p(fx.root, "proc/42") ||
	    mkdir_p(fx.root, "lg/sys/kernel/mm/lru_gen"))
		return -1;
	return 0;
}

void fuzz_teardown(void)
{
	free(lg_root);
	lg_root = NULL;
	if (fx.root)
		fx_destroy(&fx);
	memset(&fx, 0, sizeof(fx));
}

static const char *const memstat_seeds[] = {
	"anon 4194304\nfile 2097152\nkernel 12288\nkernel_stack 0\n"
	"pagetables 0\nsec_pagetables 0\npercpu 0\nsock 0\nvmalloc 0\n"
	"shmem 1048576\nzswap 0\nzswapped 0\nfile_mapped 4096\n"
	"file_dirty 0\nfile_writeback 0\nswapcached 0\nanon_thp 2097152\n"
	"file_thp 0\nshmem_thp 0\ninactive_anon 4096\nactive_anon 8192\n"
	"inactive_file 0\nactive_file 0\nunevictable 0\n"
	"workingset_refault_anon 0\npgfault 1234\nthp_fault_alloc 1\n",
	"anon 0\n", "", "file 18446744073709551615\n", NULL,
};

static int run_memstat(const char *d, size_t len)
{
	struct cg_mem m;

	(void)len;
	memset(&m, 0, sizeof(m));
	cg_parse_memstat(d, &m);
	return 0;
}

static const char *const limit_seeds[] = {
	"max\n", "0\n", "1073741824\n", "9223372036854771712\n", "max", NULL,
};

/* Accepted: "max" (no limit) or a plain decimal, never a sign or junk. */
static int run_limit(const char *d, size_t len)
{
	uint64_t v;

	(void)len;
	if (cg_parse_limit(d, &v))
		return 0;
	if (!strncmp(d, "max", 3))
		return v == CG_NOLIMIT ? 0 : -1;
	return d[0] >= '0' && d[0] <= '9' ? 0 : -1;
}

static const char *const pressure_seeds[] = {
	"some avg10=1.50 avg60=0.25 avg300=0.00 total=1234\n"
	"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	"some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n", NULL,
};

static int run_pressure(const char *d, size_t len)
{
	struct cg_mem m;

	(void)len;
	memset(&m, 0, sizeof(m));
	cg_parse_pressure(d, &m);
	return 0;
}

static const char *const events_seeds[] = {
	"low 0\nhigh 7\nmax 2\noom 1\noom_kill 1\noom_group_kill 0\n",
	"high 18446744073709551615\n", NULL,
};

static int run_events(const char *d, size_t len)
{
	struct cg_mem m;

	(void)len;
	memset(&m, 0, sizeof(m));
	cg_parse_events(d, &m);
	return 0;
}

static const char *const mountinfo_seeds[] = {
	"22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
	"30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
	"shared:4 - cgroup2 cgroup2 rw,nsdelegate\n",
	"35 24 0:30 / /mnt/my\\040cg\\134x rw - cgroup2 none rw\n",
	"1 2 3 4 5 - cgroup2\n", " - cgroup2", NULL,
};

static int run_mountinfo(const char *d, size_t len)
{
	char *mp = cg_mountinfo_cgroup2(d);

	(void)len;
	if (mp && strlen(mp) > strlen(d))
		return -1;	/* unescaping only shrinks */
	free(mp);
	return 0;
}

static const char *const procs_seeds[] = {
	"42\n", "42\n1\n42\n", "", "-1\n99999999999999999999\n42", NULL,
};

static const char *const status_seeds[] = {
	"Name:\tstress_mem\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t42\n"
	"VmPeak:\t   10000 kB\nVmRSS:\t    2048 kB\nRssAnon:\t 1024 kB\n"
	"Threads:\t1\n",
	"Name:\t", "\nVmRSS:", "Name:\tx\xff\x1b[31m\nVmRSS:\t-5 kB\n", NULL,
};

/* cgroup.procs of /a and status of PID 42, through procs_read(). */
static int procs(const char *cgprocs, const char *status)
{
	char *dir = path_join(fx.cgroot, "a");
	struct cg_stat cg = { .path = "/a", .name = "a", .parent = -1 };
	struct report r = { .cg = &cg, .n = 1 };
	struct proc_list l;
	int rc = 0;

	memset(&l, 0, sizeof(l));
	if (!dir || fx_write(dir, "cgroup.procs", cgprocs) ||
	    fx_write(fx.root, "proc/42/status", status))
		rc = -1;
	free(dir);
	if (!rc)
		procs_read(&l, fx.root, fx.cgroot, &r, 0);
	if (l.n > strlen(cgprocs))	/* a PID takes a byte at least */
		rc = -1;
	procs_free(&l);
	return rc;
}

static int run_procs(const char *d, size_t len)
{
	(void)len;
	return procs(d, status_seeds[0]);
}

static int run_status(const char *d, size_t len)
{
	(void)len;
	return procs("42\n", d);
}

static const char *const lru_gen_seeds[] = {
	"0x0007\n", "0x0000\n", "y\n", "n\n", "0x0001", "", NULL,
};

/* /sys/kernel/mm/lru_gen/enabled on a kernel without the series. */
static int run_lru_gen(const char *d, size_t len)
{
	int r;

	(void)len;
	if (fx_write(lg_root, "sys/kernel/mm/lru_gen/enabled", d))
		return -1;
	r = idlesrc_mglru_unfixed(lg_root);
	return r == 0 || r == 1 ? 0 : -1;
}

static const char *const lru_gen_dbg_seeds[] = {
	"memcg     1 /\n node     0\n          3      30000        100"
	"        200 \n          4          0         10         20 \n",
	"memcg 2 /a\n node 0\n 1 0 1 1\n node 1\n 2 5 3 4\n",
	"memcg 3 /x\ny\n node 0\n 7 10 30 0\n 8 0 0 0\n",
	"memcg 0 \n node 0\n 1 0 0 0\n", "", NULL,
};

/* Each lruvec the parser hands over must be within its bounds. */
static int lru_gen_dbg_one(void *ctx, const struct mglru_lruvec *v,
			   char *err, size_t errlen)
{
	unsigned i;

	(void)err;
	(void)errlen;
	if (v->n > MGLRU_GENS_MAX || strlen(v->path) >= MGLRU_LINE_MAX)
		return *(int *)ctx = -1;
	for (i = 1; i < v->n; i++)
		if (v->gen[i].seq <= v->gen[i - 1].seq)
			return *(int *)ctx = -1;
	return 0;
}

/* /sys/kernel/debug/lru_gen through mglru_parse(), in random pieces. */
static int run_lru_gen_dbg(const char *d, size_t len)
{
	struct mglru_parser *p = malloc(sizeof(*p));
	char err[256];
	size_t at = 0, n;
	int bad = 0, rc = 0;

	if (!p)
		return -1;
	mglru_parse_init(p, "lru_gen", lru_gen_dbg_one, &bad);
	while (!rc && at < len) {
		n = 1 + (size_t)(fuzz_rand() % 97);
		if (n > len - at)
			n = len - at;
		rc = mglru_parse(p, d + at, n, err, sizeof(err));
		at += n;
	}
	if (!rc)
		rc = mglru_parse_end(p, err, sizeof(err));
	free(p);
	/* an error always says where: "lru_gen:LINE: ..." */
	if (bad || (rc && strncmp(err, "lru_gen:", 8)))
		return -1;
	return 0;
}

/*
 * kpage: "FLAGS CGROUP IDLE BITMAP SOURCE" (file lengths in bytes, a
 * length over 1 MiB: no such file; SOURCE: --source 0..4), then a
 * pattern whose bytes pick each 8-byte word: page flags from kflags[],
 * a cgroup inode (known or not), idle bits.
 */
static const char *const kpage_seeds[] = {
	"4096 4096 4096 64 0\n\x01\x02\x03\x06\x07\x07",
	"4093 4100 17 3 1\nabcdefgh",
	"512 0 9999999 64 2\n\x06\x07\x07\x07\x01",
	"0 0 0 0 4\n", "8 8 8 8 3\n\xff", NULL,
};

#define F_LA (F(KPF_LRU) | F(KPF_ANON))
static const uint64_t kflags[] = {
	0, F(KPF_LRU), F_LA | F(KPF_SWAPBACKED), F(KPF_LRU) | F(KPF_SWAPBACKED),
	F(KPF_LRU) | F(KPF_UNEVICTABLE), F(KPF_NOPAGE),
	F_LA | F(KPF_THP) | F(KPF_COMPOUND_HEAD),
	F(KPF_ANON) | F(KPF_THP) | F(KPF_COMPOUND_TAIL),
	F(KPF_COMPOUND_TAIL), F(KPF_HUGE) | F(KPF_COMPOUND_HEAD), ~0ULL,
};

static uint64_t word(int kind, unsigned b)
{
	if (kind == 0)
		return kflags[b % (sizeof(kflags) / sizeof(*kflags))];
	if (kind == 1)
		return b % 5 < 3 ? ino[b % 3] : b % 5 == 3 ? 0 : b * 0x9e37ULL;
	return b & 1 ? ~0ULL : b * 0x0101010101010101ULL;
}

/* rel gets len bytes of words made from pat; len > 1 MiB: removed. */
static int kfile(const char *rel, unsigned long len, int kind,
		 const unsigned char *pat, size_t plen)
{
	size_t words = (len + 7) / 8, i;
	char *path = path_join(fx.root, rel);
	uint64_t *w = NULL;
	int fd = -1, rc = -1;

	if (path && len > (1UL << 20)) {
		rc = unlink(path) && errno != ENOENT ? -1 : 0;
		goto out;
	}
	w = calloc(words ? words : 1, 8);
	fd = path && w ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
	if (fd < 0)
		goto out;
	for (i = 0; i < words; i++)
		w[i] = word(kind, plen ? pat[(i * 7 + (size_t)kind) % plen]
				      : 0);
	if (pwrite_full(fd, w, len, 0) == (ssize_t)len)
		rc = 0;
out:
	if (fd >= 0 && close(fd))
		rc = -1;
	free(w);
	free(path);
	return rc;
}

/* Up to 8192 PFNs and 7 bytes; over 1 MiB stays: no such file. */
static unsigned long klen(unsigned long l, unsigned long cap)
{
	return l > (1UL << 20) ? l : l % cap;
}

static int run_kpage(const char *d, size_t len)
{
	const unsigned char *pat;
	unsigned long l[5];
	volatile sig_atomic_t stop = 0;
	struct engine e;
	struct config c;
	int used = 0;

	if (sscanf(d, "%lu %lu %lu %lu %lu%n", &l[0], &l[1], &l[2], &l[3],
		   &l[4], &used) != 5)
		return 0;
	pat = (const unsigned char *)d + used;
	len -= (size_t)used;
	if (l[0] > (1UL << 20))	/* no kpageflags: not this target */
		l[0] = 0;
	if (kfile("proc/kpageflags", klen(l[0], 65544), 0, pat, len) ||
	    kfile("proc/kpagecgroup", klen(l[1], 65544), 1, pat, len) ||
	    kfile(IDLESRC_KPAGEIDLE_PATH, klen(l[2], 65544), 2, pat, len) ||
	    kfile(IDLESRC_BITMAP_PATH, klen(l[3], 8200), 2, pat, len))
		return -1;
	options_default(&c);
	c.root = fx.root;
	c.period = 0.01;
	c.mark_wait = 0;
	c.source = (enum idlesrc_kind)(l[4] % 5);
	if (engine_open(&e, &c))
		return 0;
	engine_mark_wait(&e, 0, &stop);
	engine_close(&e);
	return 0;
}

static const char *const path_seeds[] = {
	"/system.slice/ssh.service",
	"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
	"0a1b2c3d_4e5f_6789_abcd_ef0123456789.slice/cri-containerd-"
	"4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c.scope",
	"/kubepods/besteffort/pod0a1b2c3d-4e5f-6789-abcd-ef0123456789/"
	"4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c",
	"/kubepods/pod", "//.slice/", "/", NULL,
};

/* Identity from a cgroup path (ident.c): every field a NUL-terminated
 * string, a pod UID 36 bytes long, all of it escaped for each output. */
static int run_path(const char *d, size_t len)
{
	struct ident id;
	struct sbuf b;
	int f;

	(void)len;
	ident_parse(d, &id);
	for (f = 0; f < IDENT_FIELDS; f++)
		if (!memchr(id.f[f], 0, IDENT_MAX))
			return -1;
	if (id.f[ID_POD_UID][0] && strlen(id.f[ID_POD_UID]) != 36)
		return -1;
	sb_init(&b);
	ident_json(&b, d);
	ident_text(&b, d);
	f = b.oom;
	sb_free(&b);
	return f ? -1 : 0;
}

static const char *const listen_seeds[] = {
	"9410", ":9410", "127.0.0.1:9410", "[::1]:9410", "0.0.0.0:0",
	"1.2.3:4", "[::1:80", NULL,
};

/* --listen and --idle-buckets: accepted values are well-formed. */
static int run_listen(const char *d, size_t len)
{
	struct sockaddr_storage ss;
	struct idle_tbuckets tb;
	char err[256];
	socklen_t sl;
	unsigned i;

	(void)len;
	if (!http_parse_listen(d, &ss, &sl, err, sizeof(err)) &&
	    ss.ss_family != AF_INET && ss.ss_family != AF_INET6)
		return -1;
	if (parse_buckets(d, &tb))
		return 0;
	for (i = 0; i < tb.n; i++)
		if (!(tb.secs[i] > 0) || (i && tb.secs[i] <= tb.secs[i - 1]))
			return -1;
	return tb.n >= 1 && tb.n <= IDLE_TBUCKETS_MAX ? 0 : -1;
}

static const char *const accept_seeds[] = {
	"application/openmetrics-text;version=1.0.0,application/"
	"openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
	"q=0.5,*/*;q=0.1",
	"text/plain;q=0, */*", "a/b;x=\"q\\\";q=1\";q=0.5", "gzip;q=0, *",
	NULL,
};

/*
 * Accept and Accept-Encoding: the answer is one of the two formats with
 * its Content-Type, or 406; and a range appended that excludes all
 * (",* / *;q=0") changes nothing (a quote left open would swallow it;
 * a blank field means no Accept at all).
 */
static int run_accept(const char *d, size_t len)
{
	const char *ct = NULL, *ct2 = NULL;
	char *more;
	int f, f2;

	f = http_negotiate(d, &ct);
	if (f >= 0 && (!ct || (f != MF_PROMETHEUS && f != MF_OPENMETRICS) ||
		       !strstr(ct, f ? "openmetrics" : "text/plain")))
		return -1;
	http_gzip_ok(d);
	if (strchr(d, '"') || !d[strspn(d, " \t")])
		return 0;
	more = malloc(len + 16);
	if (!more)
		return 0;
	snprintf(more, len + 16, "%s,*/*;q=0", d);
	f2 = http_negotiate(more, &ct2);
	free(more);
	return f2 == f && (f < 0 || ct2 == ct) ? 0 : -1;
}

const struct fuzz_target fuzz_targets[] = {
	{ "memory.stat", run_memstat, memstat_seeds, 0, 1 },
	{ "memory.max", run_limit, limit_seeds, 0, 1 },
	{ "memory.pressure", run_pressure, pressure_seeds, 0, 1 },
	{ "memory.events", run_events, events_seeds, 0, 1 },
	{ "mountinfo", run_mountinfo, mountinfo_seeds, 0, 1 },
	{ "cgroup.procs", run_procs, procs_seeds, 0, 1 },
	{ "status", run_status, status_seeds, 0, 1 },
	{ "lru_gen", run_lru_gen, lru_gen_seeds, 0, 1 },
	{ "lru_gen-debugfs", run_lru_gen_dbg, lru_gen_dbg_seeds, 1, 1 },
	{ "kpage", run_kpage, kpage_seeds, 0, 2 },
	{ "cgroup-path", run_path, path_seeds, 0, 1 },
	{ "listen", run_listen, listen_seeds, 0, 1 },
	{ "accept", run_accept, accept_seeds, 0, 1 },
};
const size_t fuzz_ntargets = sizeof(fuzz_targets) / sizeof(*fuzz_targets);
