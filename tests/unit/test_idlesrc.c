// SPDX-License-Identifier: GPL-2.0
/*
 * test_idlesrc.c - detection of the KPAGEIDLE_SCAN ioctl (its folio
 * records) and the fallback to read + write; idlesrc_folios() over the
 * fake ioctl (fx_scan_ioctl): checks of what the kernel returns, the end
 * of memory, its nr_skipped; marks cut short; EBUSY from marking
 * (another tracker marks) and who holds it.
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
	fx_scan_calls = fx_scan_errno = fx_scan_nomerge = 0;
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
	uint64_t we, sk;
	size_t i;

	for (i = 0; i < 2; i++) {
		assert_int_equal(open_src(t, k[i], NULL), 0);
		assert_int_equal(t->src.kind, IDLESRC_KPAGEIDLE);
		assert_int_equal(t->src.folios, 0);
		assert_null(t->src.rec);
		assert_int_equal(t->src.probe_errno, ENOTTY);
		assert_string_equal(idlesrc_method(&t->src), "read-write");
		assert_int_equal(idlesrc_folios(&t->src, 0, 64, 1, &we, &sk), -1);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(idlesrc_read(&t->src, 0, 64, idle), 64);
		assert_int_equal(idle[3], 1);	/* every third idle */
		assert_int_equal(idle[4], 0);
	}
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_FOLIOS, NULL), -1);
	assert_non_null(strstr(t->err, "--source kpageidle-folios: "));
	assert_non_null(strstr(t->err, "no usable KPAGEIDLE_SCAN ioctl"));
	assert_non_null(strstr(t->err, strerror(ENOTTY)));
	assert_non_null(strstr(t->err, "lacks the scan ioctl"));
	assert_non_null(strstr(t->err, "--source kpageidle-rw"));
	assert_null(strstr(t->err, "kpageidle-scan"));
	assert_int_equal(t->src.fd, -1);
}

/* A kernel with the ioctl: its records unless --source says otherwise. */
static void test_detect(void **state)
{
	struct t *t = *state;
	enum idlesrc_kind k[] = { IDLESRC_AUTO, IDLESRC_KPAGEIDLE,
				  IDLESRC_KPAGEIDLE_FOLIOS };
	size_t i;

	for (i = 0; i < 3; i++) {
		fx_scan_calls = 0;
		assert_int_equal(open_src(t, k[i], fx_scan_ioctl), 0);
		assert_int_equal(t->src.kind, IDLESRC_KPAGEIDLE);
		assert_int_equal(t->src.folios, 1);
		assert_int_equal(t->src.probe_errno, 0);
		assert_non_null(t->src.rec);
		assert_int_equal(t->src.rec_max, IDLESRC_FOLIO_RECS);
		assert_string_equal(idlesrc_method(&t->src), "scan-folios");
		assert_int_equal(fx_scan_calls, 1);	/* the probe */
	}
	assert_int_equal(fx_read_kpageidle(&t->fx, 0), 1);	/* untouched */
	assert_int_equal(fx_read_kpageidle(&t->fx, 1), 0);
	fx_scan_calls = 0;
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_RW, fx_scan_ioctl), 0);
	assert_int_equal(t->src.folios, 0);
	assert_string_equal(idlesrc_method(&t->src), "read-write");
	assert_int_equal(fx_scan_calls, 0);	/* not even probed */
	assert_int_equal(open_src(t, IDLESRC_BITMAP, fx_scan_ioctl), 0);
	assert_int_equal(t->src.kind, IDLESRC_BITMAP);
	assert_int_equal(t->src.folios, 0);
	assert_int_equal(fx_scan_calls, 0);
}

/*
 * Another version of the ABI (EINVAL) or any other refusal: read +
 * write, or an error that says why when the records are forced.
 */
static void test_detect_refused(void **state)
{
	struct t *t = *state;

	fx_scan_errno = EINVAL;
	assert_int_equal(open_src(t, IDLESRC_AUTO, fx_scan_ioctl), 0);
	assert_int_equal(t->src.folios, 0);
	assert_null(t->src.rec);
	assert_int_equal(t->src.probe_errno, EINVAL);
	assert_string_equal(idlesrc_method(&t->src), "read-write");
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_FOLIOS, fx_scan_ioctl),
			 -1);
	assert_non_null(strstr(t->err, strerror(EINVAL)));
	assert_non_null(strstr(t->err, "another version of its ABI"));
	assert_non_null(strstr(t->err, "--source kpageidle-rw"));
	assert_int_equal(t->src.fd, -1);
	fx_scan_errno = EPERM;
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE, fx_scan_ioctl), 0);
	assert_int_equal(t->src.folios, 0);
	assert_int_equal(t->src.probe_errno, EPERM);
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_FOLIOS, fx_scan_ioctl),
			 -1);
	assert_non_null(strstr(t->err, strerror(EPERM)));
	assert_null(strstr(t->err, "ABI"));
	assert_null(strstr(t->err, "lacks"));
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
	const char *n[] = { "auto", "kpageidle", "bitmap", "kpageidle-rw",
			    "kpageidle-folios", "mglru" };
	enum idlesrc_kind k;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(n) / sizeof(*n); i++) {
		assert_int_equal(idlesrc_parse_kind(n[i], &k), 0);
		assert_string_equal(idlesrc_kind_name(k), n[i]);
	}
	assert_int_equal(idlesrc_parse_kind("kpageidle-", &k), -1);
	/* the bitmap output of the ioctl is gone, and so is its source */
	assert_int_equal(idlesrc_parse_kind("kpageidle-scan", &k), -1);
}

/* Records the ABI does not allow are refused (EIO), never counted. */
static struct kpageidle_folio bad_rec;
static int bad_at, bad_walk;

static int bad_ioctl(int fd, struct kpageidle_scan_arg *a)
{
	struct kpageidle_folio *v = (void *)(uintptr_t)a->vec;
	int rc = fx_scan_ioctl(fd, a);

	if (!rc && a->vec_len && bad_at >= 0)
		v[bad_at] = bad_rec;
	if (!rc && a->vec_len)
		a->walk_end += (uint64_t)bad_walk;
	return rc;
}

static void check_bad(struct t *t, uint64_t pfn, uint64_t n, uint64_t cg,
		      int at, int walk, ssize_t want)
{
	uint64_t we = 0, sk;
	ssize_t r;

	bad_rec = (struct kpageidle_folio){ .pfn = pfn, .nr_pages = n,
					    .cgroup_id = cg };
	bad_at = at;
	bad_walk = walk;
	errno = 0;
	r = idlesrc_folios(&t->src, 64, 128, 1, &we, &sk);
	assert_int_equal(r, want);
	assert_int_equal(errno, want < 0 ? EIO : 0);
}

static void test_folio_checks(void **state)
{
	struct t *t = *state;
	uint64_t we = 0, sk;

	fx_scan_nomerge = 1;
	assert_int_equal(open_src(t, IDLESRC_AUTO, bad_ioctl), 0);
	assert_int_equal(t->src.folios, 1);
	check_bad(t, 64, 1, 0, -1, 0, 64);	/* as the fake says: fine */
	assert_int_equal(t->src.rec[1].pfn, 65);
	assert_int_equal(t->src.rec[0].flags, 0);	/* every third idle */
	assert_int_equal(t->src.rec[2].flags, KPAGEIDLE_FOLIO_IDLE);
	check_bad(t, 63, 1, 0, 0, 0, -1);	/* head before start */
	check_bad(t, 65, 1, 0, 0, 0, -1);	/* overlaps the next */
	check_bad(t, 64, 0, 0, 0, 0, -1);	/* empty */
	check_bad(t, 191, 1, 0, 63, 0, -1);	/* head at end */
	check_bad(t, 127, 1, 0, 63, 0, 64);
	check_bad(t, 127, 2, 0, 63, 0, -1);	/* past walk_end */
	check_bad(t, 127, 2, 0, 63, 1, 64);	/* ends past end: fine */
	check_bad(t, 127, 1, 0, 63, 9, 64);	/* free memory past end: fine */
	check_bad(t, 64, 1, 0, 0, -64, -1);	/* walk_end back at start */
	bad_at = -1;	/* as the fake says from here on */
	bad_walk = 0;
	t->src.rec_max = 10;
	assert_int_equal(idlesrc_folios(&t->src, 64, 128, 1, &we, &sk), 10);
	assert_int_equal(we, 74);	/* full: stopped at the 11th */
	assert_int_equal(idlesrc_folios(&t->src, NPFN - 1, NPFN + 100, 1, &we, &sk),
			 1);
	assert_int_equal(we, NPFN);	/* max_pfn */
	assert_int_equal(idlesrc_folios(&t->src, NPFN, NPFN + 100, 1, &we, &sk), 0);
	assert_int_equal(we, NPFN + 100);	/* ENXIO: nothing there */
	assert_int_equal(idlesrc_folios(&t->src, 64, 64, 1, &we, &sk), -1);
	assert_int_equal(errno, EINVAL);
	fx_scan_errno = EFAULT;
	assert_int_equal(idlesrc_folios(&t->src, 64, 128, 1, &we, &sk), -1);
	assert_int_equal(errno, EFAULT);
}

/* A kernel whose walks were skipped: 5 pages each call, marking or not. */
static int skip5_ioctl(int fd, struct kpageidle_scan_arg *a)
{
	int rc = fx_scan_ioctl(fd, a);

	if (!rc)
		a->nr_skipped = 5;
	return rc;
}

/*
 * nr_skipped comes back from a marking call; a test-only call does not
 * count it (the kernel counts for marking calls alone), nor a failed one.
 */
static void test_folio_skipped(void **state)
{
	struct t *t = *state;
	uint64_t we = 0, sk;

	fx_scan_nomerge = 1;	/* a record per page */
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_FOLIOS, skip5_ioctl),
			 0);
	assert_int_equal(idlesrc_folios(&t->src, 64, 128, 1, &we, &sk), 64);
	assert_int_equal(sk, 5);
	sk = 99;
	assert_int_equal(idlesrc_folios(&t->src, 64, 128, 0, &we, &sk), 64);
	assert_int_equal(sk, 0);
	sk = 99;
	assert_int_equal(idlesrc_folios(&t->src, NPFN, NPFN + 64, 1, &we, &sk),
			 0);	/* ENXIO: past max_pfn */
	assert_int_equal(sk, 0);
	sk = 99;
	fx_scan_errno = EFAULT;
	assert_int_equal(idlesrc_folios(&t->src, 64, 128, 1, &we, &sk), -1);
	assert_int_equal(sk, 0);
}

/* mkdir -p root/rel and write text into root/rel/name */
static void put(const char *root, const char *rel, const char *name,
		const char *text)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/%s", root, rel);
	assert_int_equal(fx_write(cmd, name, text), 0);
}

/* EACCES as root names the security module; as a user, root-only. */
static void test_eacces_lsm(void **state)
{
	struct t *t = *state;
	const char *r = t->fx.root;
	char *e = t->err;
	size_t n = sizeof(t->err);
	char cmd[600];

	idlesrc_open_error(r, IDLESRC_AUTO, EACCES, 1000, e, n);
	assert_non_null(strstr(e, "root-only (mode 0600): run idletop as root"));
	assert_null(strstr(e, "security module"));
	idlesrc_open_error(r, IDLESRC_AUTO, EACCES, 0, e, n);
	assert_null(strstr(e, "run idletop as root"));
	assert_non_null(strstr(e, "security module denied it (AppArmor or SELinux)"));
	put(r, "sys/kernel/security", "lsm", "lockdown,capability,selinux\n");
	idlesrc_open_error(r, IDLESRC_AUTO, EACCES, 0, e, n);
	assert_non_null(strstr(e, "(active LSMs: lockdown,capability,selinux)"));
	/* SELinux writes the context NUL-terminated, without a newline */
	put(r, "proc/self/attr", "current", "system_u:system_r:spc_t:s0");
	idlesrc_open_error(r, IDLESRC_AUTO, EACCES, 0, e, n);
	assert_non_null(strstr(e, "(SELinux context \"system_u:system_r:spc_t:s0\")"));
	put(r, "proc/self/attr/apparmor", "current", "unconfined\n");
	idlesrc_open_error(r, IDLESRC_AUTO, EACCES, 0, e, n);
	assert_non_null(strstr(e, "(active LSMs: lockdown,capability,selinux)"));
	put(r, "proc/self/attr/apparmor", "current",
	    "cri-containerd.apparmor.d (enforce)\n");
	idlesrc_open_error(r, IDLESRC_AUTO, EACCES, 0, e, n);
	assert_non_null(strstr(e, "(AppArmor profile \"cri-containerd.apparmor.d (enforce)\")"));
	assert_non_null(strstr(e, "/proc/kpageidle read-write"));
	/* kernels before 5.8: AppArmor's profile in attr/current only */
	snprintf(cmd, sizeof(cmd), "rm -r '%s/proc/self/attr/apparmor'", r);
	assert_int_equal(system(cmd), 0);
	put(r, "proc/self/attr", "current", "docker-default (enforce)\n");
	idlesrc_open_error(r, IDLESRC_AUTO, EACCES, 0, e, n);
	assert_non_null(strstr(e, "(AppArmor profile \"docker-default (enforce)\")"));
}

#define HOLDER "another idle page tracker has /proc/kpageidle open for marking"

/* No kdamond on, nobody else with /proc/kpageidle open: the plain text. */
static void assert_busy_plain(const char *err)
{
	assert_non_null(strstr(err, "cannot mark pages idle through "
				    "/proc/kpageidle: busy: " HOLDER));
	assert_non_null(strstr(err, "no process here has it open"));
	assert_null(strstr(err, "DAMON"));
}

/* A kernel where another tracker marks: EBUSY for marking calls only. */
static int busy_marking(int fd, struct kpageidle_scan_arg *a)
{
	if (a->flags & KPAGEIDLE_SCAN_MARK) {
		errno = EBUSY;
		return -1;
	}
	return fx_scan_ioctl(fd, a);
}

/* EBUSY from the probe (an empty marking call): open fails, says why. */
static void test_busy_probe(void **state)
{
	struct t *t = *state;
	enum idlesrc_kind k[] = { IDLESRC_AUTO, IDLESRC_KPAGEIDLE,
				  IDLESRC_KPAGEIDLE_FOLIOS };
	size_t i;

	for (i = 0; i < sizeof(k) / sizeof(*k); i++) {
		assert_int_equal(open_src(t, k[i], busy_marking), -1);
		assert_busy_plain(t->err);
		assert_null(strstr(t->err, "no usable"));	/* not absent */
		assert_int_equal(t->src.fd, -1);
	}
	/* read + write does not probe: its first write says it */
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_RW, busy_marking), 0);
	assert_int_equal(t->src.busy, 0);
}

static int busy_pwrite(const char *site)
{
	return !strcmp(site, "pwrite") ? EBUSY : 0;
}

/* EBUSY from each marking path sets busy; from reading, it does not. */
static void test_busy_marking(void **state)
{
	struct t *t = *state;
	uint8_t mark[64];
	uint64_t we, sk;

	memset(mark, 1, sizeof(mark));
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_RW, NULL), 0);
	util_fault_hook = busy_pwrite;
	assert_int_equal(idlesrc_mark(&t->src, 0, 64, mark), -1);
	util_fault_hook = NULL;
	assert_int_equal(errno, EBUSY);
	assert_int_equal(t->src.busy, 1);
	idlesrc_error(&t->src, "mark", t->err, sizeof(t->err));
	assert_busy_plain(t->err);
	/* the bitmap has no such rule: a plain error */
	assert_int_equal(open_src(t, IDLESRC_BITMAP, NULL), 0);
	util_fault_hook = busy_pwrite;
	assert_int_equal(idlesrc_mark(&t->src, 0, 64, mark), -1);
	util_fault_hook = NULL;
	assert_int_equal(t->src.busy, 0);
	idlesrc_error(&t->src, "mark", t->err, sizeof(t->err));
	assert_null(strstr(t->err, HOLDER));
	assert_non_null(strstr(t->err, strerror(EBUSY)));
	/* the scan ioctl: only a marking call */
	assert_int_equal(open_src(t, IDLESRC_KPAGEIDLE_FOLIOS, fx_scan_ioctl),
			 0);
	fx_scan_errno = EBUSY;
	assert_int_equal(idlesrc_folios(&t->src, 0, 64, 0, &we, &sk), -1);
	assert_int_equal(t->src.busy, 0);
	assert_int_equal(idlesrc_folios(&t->src, 0, 64, 1, &we, &sk), -1);
	assert_int_equal(errno, EBUSY);
	assert_int_equal(t->src.busy, 1);
	idlesrc_error(&t->src, "scan", t->err, sizeof(t->err));
	assert_busy_plain(t->err);
}

/* Who holds it: a kdamond that is on (paddr first), else the processes. */
static void test_busy_who(void **state)
{
	struct t *t = *state;
	const char *r = t->fx.root;
	char *e = t->err, path[600], cmd[1400];
	size_t n = sizeof(t->err);

	/* processes with the file open; this one and a reader elsewhere not */
	put(r, "proc/4242", "comm", "othertop\n");
	put(r, "proc/4243", "comm", "cat\n");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/proc/4242/fd' "
		 "'%s/proc/4243/fd' '%s/proc/%d/fd' && "
		 "ln -s /proc/kpageidle '%s/proc/4242/fd/5' && "
		 "ln -s /proc/kpageflags '%s/proc/4243/fd/3' && "
		 "ln -s /proc/kpageidle '%s/proc/%d/fd/7'", r, r, r,
		 (int)getpid(), r, r, r, (int)getpid());
	assert_int_equal(system(cmd), 0);
	idlesrc_busy_error(r, e, n);
	assert_non_null(strstr(e, HOLDER " (processes with it open: "
				  "pid 4242 (othertop));"));
	assert_null(strstr(e, "4243"));
	snprintf(path, sizeof(path), "pid %d ", (int)getpid());
	assert_null(strstr(e, path));
	/* a kdamond that is off does not count; one that is on does */
	put(r, "sys/kernel/mm/damon/admin/kdamonds/0", "state", "off\n");
	put(r, "sys/kernel/mm/damon/admin/kdamonds/0/contexts/0",
	    "operations", "paddr\n");
	put(r, "sys/kernel/mm/damon/admin/kdamonds/1", "state", "on\n");
	put(r, "sys/kernel/mm/damon/admin/kdamonds/1", "pid", "77\n");
	put(r, "sys/kernel/mm/damon/admin/kdamonds/1/contexts/0",
	    "operations", "vaddr\n");
	idlesrc_busy_error(r, e, n);
	assert_non_null(strstr(e, "busy: DAMON is running (kdamond 1, pid 77, "
				  "vaddr operations)"));
	assert_non_null(strstr(e, "echo off > /sys/kernel/mm/damon/admin/"
				  "kdamonds/1/state"));
	assert_null(strstr(e, HOLDER));
	/* a paddr one is named before others */
	put(r, "sys/kernel/mm/damon/admin/kdamonds/0", "state", "on\n");
	put(r, "sys/kernel/mm/damon/admin/kdamonds/0", "pid", "76\n");
	idlesrc_busy_error(r, e, n);
	assert_non_null(strstr(e, "(kdamond 0, pid 76, paddr operations)"));
	assert_int_equal(idlesrc_damon_paddr(r), 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_fallback_without_ioctl),
		T(test_detect),
		T(test_detect_refused),
		T(test_folio_checks),
		T(test_folio_skipped),
		T(test_mark_short),
		T(test_eacces_lsm),
		T(test_busy_probe),
		T(test_busy_marking),
		T(test_busy_who),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("idlesrc", tests, NULL, NULL);
}
