// SPDX-License-Identifier: GPL-2.0
/* fixture.c - fake /proc and cgroup trees for the unit tests */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fixture.h"
#include "kpageidle_abi.h"
#include "kpf.h"
#include "util.h"

static const char mountinfo[] =
	"22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
	"30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
	"shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";

/* mkdir -p root/rel; rel "/" or "" is root itself. */
static int mkdirs(const char *root, const char *rel)
{
	char *p = path_join(root, rel), *s;
	int rc = 0;

	if (!p)
		return -1;
	/* path_join drops rel's leading slashes: the rest ends p */
	rel += strspn(rel, "/");
	for (s = p + strlen(p) - strlen(rel); (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

int fx_write(const char *dir, const char *name, const char *text)
{
	char *p = path_join(dir, name);
	FILE *f = p ? fopen(p, "w") : NULL;
	int rc = f ? 0 : -1;

	if (f && (fputs(text, f) < 0))
		rc = -1;
	if (f && fclose(f))
		rc = -1;
	free(p);
	return rc;
}

int fx_create_at(struct fixture *fx, const char *dir, uint64_t npfn)
{
	memset(fx, 0, sizeof(*fx));
	fx->root = strdup(dir);
	if (!fx->root || (mkdir(dir, 0755) && errno != EEXIST))
		return -1;
	fx->npfn = npfn;
	fx->flags = calloc(npfn, 8);
	fx->cg = calloc(npfn, 8);
	fx->idle = calloc(npfn, 8);
	fx->cgroot = path_join(dir, "sys/fs/cgroup");
	if (!fx->flags || !fx->cg || !fx->idle || !fx->cgroot)
		return -1;
	if (mkdirs(dir, "proc/self") ||
	    mkdirs(dir, "sys/kernel/mm/page_idle") ||
	    mkdirs(dir, "sys/fs/cgroup") ||
	    fx_write(dir, "proc/self/mountinfo", mountinfo) ||
	    fx_write(dir, "proc/meminfo", "SwapTotal:     1048576 kB\n"))
		return -1;
	return fx_mkcg(fx, "/") ? 0 : -1;
}

int fx_create(struct fixture *fx, uint64_t npfn)
{
	const char *tmp = getenv("TMPDIR");
	char *tpl = path_join(tmp ? tmp : "/tmp", "idletop-fx.XXXXXX");
	int rc;

	memset(fx, 0, sizeof(*fx));
	if (!tpl || !mkdtemp(tpl)) {
		free(tpl);
		return -1;
	}
	rc = fx_create_at(fx, tpl, npfn);
	free(tpl);
	return rc;
}

static int rm_one(const char *p, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(p);
}

void fx_destroy(struct fixture *fx)
{
	if (fx->root && !getenv("FX_KEEP"))
		nftw(fx->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(fx->root);
	free(fx->cgroot);
	free(fx->flags);
	free(fx->cg);
	free(fx->idle);
	memset(fx, 0, sizeof(*fx));
}

uint64_t fx_ino(struct fixture *fx, const char *rel)
{
	char *p = path_join(fx->cgroot, rel);
	struct stat st;
	int rc = p ? stat(p, &st) : -1;

	free(p);
	return rc ? 0 : (uint64_t)st.st_ino;
}

uint64_t fx_mkcg(struct fixture *fx, const char *rel)
{
	char *dir;

	if (mkdirs(fx->cgroot, rel))
		return 0;
	dir = path_join(fx->cgroot, rel);
	if (!dir)
		return 0;
	fx_write(dir, "memory.current", "8388608\n");
	fx_write(dir, "memory.stat", "anon 4194304\nfile 2097152\n"
		 "kernel 12288\nshmem 1048576\nfile_mapped 4096\n"
		 "workingset_refault_anon 3\nworkingset_refault_file 40\n");
	fx_write(dir, "memory.events", "low 0\nhigh 7\nmax 2\noom 1\n"
		 "oom_kill 1\noom_group_kill 0\n");
	fx_write(dir, "memory.swap.current", "65536\n");
	fx_write(dir, "memory.low", "0\n");
	fx_write(dir, "memory.high", "max\n");
	fx_write(dir, "memory.max", "1073741824\n");
	fx_write(dir, "memory.pressure",
		 "some avg10=1.50 avg60=0.25 avg300=0.00 total=1234\n"
		 "full avg10=0.50 avg60=0.00 avg300=0.00 total=99\n");
	free(dir);
	return fx_ino(fx, rel);
}

static int write_array(const char *root, const char *rel, const void *v,
		       size_t len)
{
	char *p = path_join(root, rel);
	int fd = p ? open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600) : -1;
	int rc = fd >= 0 && pwrite_full(fd, v, len, 0) == (ssize_t)len ? 0 : -1;

	if (fd >= 0)
		close(fd);
	free(p);
	return rc;
}

int fx_write_pages(struct fixture *fx, int want_kpageidle, int want_bitmap)
{
	size_t words = (fx->npfn + 63) / 64, i;
	uint64_t *bm = calloc(words ? words : 1, 8);
	int rc = 0;

	if (!bm)
		return -1;
	for (i = 0; i < fx->npfn; i++)
		if (fx->idle[i])
			bm[i / 64] |= 1ULL << (i % 64);
	rc |= write_array(fx->root, "proc/kpageflags", fx->flags, fx->npfn * 8);
	rc |= write_array(fx->root, "proc/kpagecgroup", fx->cg, fx->npfn * 8);
	if (want_kpageidle)
		rc |= write_array(fx->root, "proc/kpageidle", fx->idle,
				  fx->npfn * 8);
	if (want_bitmap)
		rc |= write_array(fx->root, "sys/kernel/mm/page_idle/bitmap",
				  bm, words * 8);
	free(bm);
	return rc;
}

static uint64_t read_u64(struct fixture *fx, const char *rel, off_t off)
{
	char *p = path_join(fx->root, rel);
	int fd = p ? open(p, O_RDONLY) : -1;
	uint64_t v = ~0ULL;

	if (fd >= 0 && pread_full(fd, &v, 8, off) != 8)
		v = ~0ULL;
	if (fd >= 0)
		close(fd);
	free(p);
	return v;
}

uint64_t fx_read_kpageidle(struct fixture *fx, uint64_t pfn)
{
	return read_u64(fx, "proc/kpageidle", (off_t)(pfn * 8));
}

int fx_read_bitmap(struct fixture *fx, uint64_t pfn)
{
	uint64_t w = read_u64(fx, "sys/kernel/mm/page_idle/bitmap",
			      (off_t)(pfn / 64 * 8));

	return (int)((w >> (pfn % 64)) & 1);
}

void fx_set(struct fixture *fx, uint64_t pfn, uint64_t n, uint64_t flags,
	    uint64_t ino, int idle)
{
	uint64_t i;

	for (i = pfn; i < pfn + n && i < fx->npfn; i++) {
		fx->flags[i] = flags;
		fx->cg[i] = ino;
		fx->idle[i] = (uint64_t)idle;
	}
}

void fx_thp(struct fixture *fx, uint64_t pfn, uint64_t kind_flags,
	    uint64_t ino, int idle, uint64_t tail_ino, int tail_idle)
{
	uint64_t tail = (kind_flags & ~F(KPF_LRU)) | F(KPF_THP) |
			F(KPF_COMPOUND_TAIL);

	fx_set(fx, pfn, 1, kind_flags | F(KPF_LRU) | F(KPF_THP) |
	       F(KPF_COMPOUND_HEAD), ino, idle);
	fx_set(fx, pfn + 1, 511, tail, tail_ino, tail_idle);
}

void fx_folio(struct fixture *fx, uint64_t pfn, uint64_t n,
	      uint64_t kind_flags, uint64_t ino, int idle)
{
	uint64_t tail = (kind_flags & ~F(KPF_LRU)) | F(KPF_THP) |
			F(KPF_COMPOUND_TAIL);

	fx_set(fx, pfn, 1, kind_flags | F(KPF_LRU) | F(KPF_THP) |
	       F(KPF_COMPOUND_HEAD), ino, idle);
	fx_set(fx, pfn + 1, n - 1, tail, 0, 0);
}

struct fixture *fx_scan_fx;
int fx_scan_calls, fx_scan_errno, fx_scan_nomerge;
uint64_t fx_scan_records, fx_scan_past_end;

static int fake_check(int fd, const struct kpageidle_scan_arg *a)
{
	errno = 0;
	if (fx_scan_errno)
		errno = fx_scan_errno;
	else if (a->size != sizeof(*a) || a->flags & ~KPAGEIDLE_SCAN_MARK ||
		 a->end < a->start)
		errno = EINVAL;
	else if ((a->flags & KPAGEIDLE_SCAN_MARK) &&
		 (fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDWR)
		errno = EBADF;
	else if (a->start >= fx_scan_fx->npfn)
		errno = ENXIO;
	return errno ? -1 : 0;
}

/* The folio whose head is pfn: its PFNs; 0 if pfn is no user page. */
static uint64_t fake_folio_pages(uint64_t pfn)
{
	const uint64_t *fl = fx_scan_fx->flags;
	uint64_t e = pfn + 1;

	if (!KPF_BIT(fl[pfn], KPF_LRU) || KPF_BIT(fl[pfn], KPF_NOPAGE) ||
	    KPF_BIT(fl[pfn], KPF_HUGE) || KPF_BIT(fl[pfn], KPF_COMPOUND_TAIL))
		return 0;
	if (KPF_BIT(fl[pfn], KPF_COMPOUND_HEAD))
		while (e < fx_scan_fx->npfn &&
		       KPF_BIT(fl[e], KPF_COMPOUND_TAIL))
			e++;
	return e - pfn;
}

static uint32_t fake_folio_flags(uint64_t f, uint64_t idle)
{
	return (idle & 1 ? KPAGEIDLE_FOLIO_IDLE : 0) |
	       (KPF_BIT(f, KPF_ANON) ? KPAGEIDLE_FOLIO_ANON : 0) |
	       (KPF_BIT(f, KPF_SWAPBACKED) ? KPAGEIDLE_FOLIO_SWAPBACKED : 0) |
	       (KPF_BIT(f, KPF_UNEVICTABLE) ? KPAGEIDLE_FOLIO_UNEVICTABLE : 0);
}

/* Append the folio at pfn to the records (merged); 0 if vec is full. */
static int fake_record(struct kpageidle_scan_arg *a, uint64_t pfn,
		       uint64_t pages, uint32_t flags)
{
	struct kpageidle_folio *vec = (void *)(uintptr_t)a->vec;
	__u64 *n = &a->nr_records;
	uint64_t ino = fx_scan_fx->cg[pfn];
	struct kpageidle_folio *l;

	if (!vec)
		return 0;	/* no room at all */
	l = *n ? &vec[*n - 1] : NULL;
	if (l && !fx_scan_nomerge && l->pfn + l->nr_pages == pfn &&
	    l->cgroup_id == ino && l->flags == flags) {
		l->nr_pages += pages;
		return 1;
	}
	if (*n == a->vec_len)
		return 0;
	vec[(*n)++] = (struct kpageidle_folio){ .pfn = pfn, .nr_pages = pages,
						.cgroup_id = ino, .flags = flags };
	fx_scan_records++;
	return 1;
}

/* The records of heads in [start, end) until vec is full. */
static int fake_folios(int fd, struct kpageidle_scan_arg *a, int mark)
{
	uint64_t stop = a->end < fx_scan_fx->npfn ? a->end : fx_scan_fx->npfn;
	uint64_t pfn = a->start, pages, v, one = 1;

	a->nr_records = 0;
	while (pfn < stop) {
		pages = fake_folio_pages(pfn);
		if (!pages) {
			pfn++;
			continue;
		}
		if (pread_full(fd, &v, 8, (off_t)(pfn * 8)) != 8) {
			errno = EIO;
			return -1;
		}
		if (!fake_record(a, pfn, pages,
				 fake_folio_flags(fx_scan_fx->flags[pfn], v)))
			break;
		if (mark && pwrite_full(fd, &one, 8, (off_t)(pfn * 8)) != 8) {
			errno = EIO;
			return -1;
		}
		pfn += pages;
	}
	a->walk_end = pfn;
	fx_scan_past_end += pfn > a->end;
	return 0;
}

int fx_scan_ioctl(int fd, struct kpageidle_scan_arg *a)
{
	fx_scan_calls++;
	if (fake_check(fd, a))
		return -1;
	return fake_folios(fd, a, (a->flags & KPAGEIDLE_SCAN_MARK) != 0);
}
