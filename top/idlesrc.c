// SPDX-License-Identifier: GPL-2.0
/* idlesrc.c - /proc/kpageidle and page_idle/bitmap behind one interface */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "idlesrc.h"
#include "util.h"

static const char *const kind_names[] = {
	[IDLESRC_AUTO] = "auto",
	[IDLESRC_KPAGEIDLE] = "kpageidle",
	[IDLESRC_BITMAP] = "bitmap",
	[IDLESRC_KPAGEIDLE_RW] = "kpageidle-rw",
	[IDLESRC_KPAGEIDLE_FOLIOS] = "kpageidle-folios",
	[IDLESRC_MGLRU] = "mglru",
};
#define NR_KINDS (sizeof(kind_names) / sizeof(*kind_names))

const char *idlesrc_kind_name(enum idlesrc_kind k)
{
	return (size_t)k < NR_KINDS ? kind_names[k] : "auto";
}

const char *idlesrc_method(const struct idlesrc *s)
{
	if (s->kind == IDLESRC_MGLRU)
		return s->aging ? "forced-aging" : "generations";
	return s->folios ? "scan-folios" : "read-write";
}

int idlesrc_parse_kind(const char *s, enum idlesrc_kind *k)
{
	size_t i;

	for (i = 0; i < NR_KINDS; i++)
		if (!strcmp(s, kind_names[i])) {
			*k = (enum idlesrc_kind)i;
			return 0;
		}
	return -1;
}

static int try_open(struct idlesrc *s, const char *root, enum idlesrc_kind k)
{
	const char *rel = k == IDLESRC_BITMAP ? IDLESRC_BITMAP_PATH
					      : IDLESRC_KPAGEIDLE_PATH;

	s->path = path_join(root, rel);
	if (!s->path) {
		errno = ENOMEM;
		return -1;
	}
	s->fd = open(s->path, O_RDWR | O_CLOEXEC);
	if (s->fd < 0) {
		int e = errno;

		free(s->path);
		s->path = NULL;
		errno = e;
		return -1;
	}
	s->kind = k;
	return 0;
}

void idlesrc_open_error(const char *root, enum idlesrc_kind want, int e,
			uid_t euid, char *err, size_t errlen)
{
	int bitmap = want == IDLESRC_AUTO || want == IDLESRC_BITMAP;
	int kpi = want != IDLESRC_BITMAP;
	char lsm[160];

	if (e == EACCES && euid == 0) {
		idlesrc_lsm(root, lsm, sizeof(lsm));
		snprintf(err, errlen,
			 "cannot open the idle page source under %s: %s, "
			 "although idletop runs as root: a security module "
			 "denied it (%s); its policy must allow /proc/kpageidle "
			 "read-write (for AppArmor, idletop(1) names a profile)",
			 root, strerror(e), lsm);
	} else if (e == EACCES)
		snprintf(err, errlen,
			 "cannot open the idle page source under %s: %s; "
			 "idle page tracking files are root-only (mode 0600): "
			 "run idletop as root", root, strerror(e));
	else if (e == EPERM)
		snprintf(err, errlen,
			 "cannot open the idle page source under %s: %s; "
			 "/proc/kpageidle needs CAP_SYS_ADMIN in the initial "
			 "user namespace (a container's root lacks it): run "
			 "idletop as root on the host, or give it that "
			 "capability", root, strerror(e));
	else if (e == ENOENT)
		snprintf(err, errlen,
			 "no idle page source: %s%s%s not found under %s; "
			 "the kernel needs CONFIG_IDLE_PAGE_TRACKING=y "
			 "(and /proc, /sys mounted)",
			 kpi ? "/" IDLESRC_KPAGEIDLE_PATH : "",
			 kpi && bitmap ? " and " : "",
			 bitmap ? "/" IDLESRC_BITMAP_PATH : "", root);
	else
		snprintf(err, errlen, "cannot open the idle page source "
			 "under %s: %s", root, strerror(e));
}

static int real_ioctl(int fd, struct kpageidle_scan_arg *arg)
{
	return ioctl(fd, KPAGEIDLE_SCAN, arg);
}

/*
 * errno after a marking write of /proc/kpageidle failed: EBUSY is the
 * kernel's "another tracker marks" (idlesrc_busy_error()).  Keeps errno.
 */
static void note_busy(struct idlesrc *s)
{
	if (errno == EBUSY && s->kind != IDLESRC_BITMAP)
		s->busy = 1;
}

int idlesrc_open(struct idlesrc *s, const char *root, enum idlesrc_kind want,
		 size_t max_pfns, idlesrc_ioctl_fn *ioctl_fn,
		 char *err, size_t errlen)
{
	int e = ENOENT;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->ioctl = ioctl_fn ? ioctl_fn : real_ioctl;
	s->root = strdup(root);
	if (!s->root) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	max_pfns = (max_pfns + 63) & ~(size_t)63;
	s->max_pfns = max_pfns;
	if (want != IDLESRC_BITMAP) {
		if (!try_open(s, root, IDLESRC_KPAGEIDLE))
			goto alloc;
		e = errno;
	}
	if (want == IDLESRC_AUTO || want == IDLESRC_BITMAP) {
		if (!try_open(s, root, IDLESRC_BITMAP))
			goto alloc;
		/* a permission problem on the first one is the better hint */
		if (want == IDLESRC_BITMAP || errno != ENOENT || e == ENOENT)
			e = errno;
	}
	idlesrc_open_error(root, want, e, geteuid(), err, errlen);
	idlesrc_close(s);
	return -1;
alloc:
	s->buf = calloc(max_pfns, sizeof(uint64_t));
	if (!s->buf) {
		snprintf(err, errlen, "out of memory");
		idlesrc_close(s);
		return -1;
	}
	if (s->kind != IDLESRC_KPAGEIDLE || want == IDLESRC_KPAGEIDLE_RW)
		return 0;
	if (idlesrc_open_folios(s, want, err, errlen)) {
		idlesrc_close(s);
		return -1;
	}
	return 0;
}

void idlesrc_close(struct idlesrc *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	free(s->root);
	free(s->buf);
	free(s->rec);
	s->fd = -1;
	s->path = NULL;
	s->root = NULL;
	s->buf = NULL;
	s->rec = NULL;
	s->folios = 0;
}

static ssize_t read_kpageidle(struct idlesrc *s, uint64_t pfn, size_t n,
			      uint8_t *idle)
{
	ssize_t r = pread_full(s->fd, s->buf, n * 8, (off_t)(pfn * 8));
	size_t i, got;

	if (r < 0)
		return -1;
	got = (size_t)r / 8;
	for (i = 0; i < got; i++)
		idle[i] = s->buf[i] & 1;
	return (ssize_t)got;
}

static ssize_t read_bitmap(struct idlesrc *s, uint64_t pfn, size_t n,
			   uint8_t *idle)
{
	size_t words = (n + 63) / 64, i, got;
	ssize_t r = pread_full(s->fd, s->buf, words * 8, (off_t)(pfn / 8));

	if (r < 0)
		return -1;
	got = (size_t)r / 8 * 64;
	if (got > n)
		got = n;
	for (i = 0; i < got; i++)
		idle[i] = (s->buf[i / 64] >> (i % 64)) & 1;
	return (ssize_t)got;
}

ssize_t idlesrc_read(struct idlesrc *s, uint64_t pfn, size_t n, uint8_t *idle)
{
	if (pfn % 64 || n > s->max_pfns) {
		errno = EINVAL;
		return -1;
	}
	if (s->kind == IDLESRC_BITMAP)
		return read_bitmap(s, pfn, n, idle);
	return read_kpageidle(s, pfn, n, idle);
}

/*
 * A mark write may stop short at the end of memory, or where the kernel
 * refuses a 1 with EBUSY (another tracker marks: fatal).  PFNs past the
 * kernel's max_pfn (kpageflags rounds up to a memory section) cannot be
 * marked: the kernel stops there (a short count, or ENXIO for a write
 * that starts there; a stock kernel's bitmap also drops the 64-PFN word
 * that max_pfn cuts short, after marking its pages).  Those PFNs are no
 * LRU pages, so nothing is to be marked there.  Any other error, or a
 * page to mark past where the kernel stopped, loses marks: -1, with the
 * PFN in s->stop_pfn (and errno EIO for lost marks).
 */
static int write_done(struct idlesrc *s, ssize_t r, size_t len,
		      uint64_t pfn, size_t n, const uint8_t *mark)
{
	size_t stop, i;

	if (r == (ssize_t)len)
		return 0;
	/*
	 * errno is the failed write's, also after a short count: the
	 * kernel takes the zeros before a 1 it refuses with EBUSY.
	 */
	note_busy(s);
	if (r < 0)
		r = 0;
	else if (errno == 0)
		errno = ENXIO;	/* write() returned 0: the end */
	stop = s->kind == IDLESRC_BITMAP ? (size_t)r / 8 * 64 : (size_t)r / 8;
	s->stop_pfn = pfn + stop;
	if (errno != ENXIO)
		return -1;
	i = s->kind == IDLESRC_BITMAP ? stop + 64 : stop;
	for (; i < n; i++)
		if (mark[i]) {
			s->lost_pfn = pfn + i;
			errno = EIO;
			return -1;
		}
	return 0;
}

void idlesrc_error(const struct idlesrc *s, const char *what, char *err,
		   size_t errlen)
{
	if (s->busy && errno == EBUSY)
		idlesrc_busy_error(s->root, err, errlen);
	else if (!strcmp(what, "mark") && errno == EIO &&
		 s->lost_pfn != UINT64_MAX)
		snprintf(err, errlen, "mark %s: the kernel stopped at PFN "
			 "%#llx, before PFN %#llx which is to be marked: "
			 "marks lost, idle would be undercounted", s->path,
			 (unsigned long long)s->stop_pfn,
			 (unsigned long long)s->lost_pfn);
	else if (!strcmp(what, "mark"))
		snprintf(err, errlen, "mark %s at PFN %#llx: %s", s->path,
			 (unsigned long long)s->stop_pfn, strerror(errno));
	else
		snprintf(err, errlen, "%s %s: %s", what, s->path,
			 strerror(errno));
}

int idlesrc_mark(struct idlesrc *s, uint64_t pfn, size_t n,
		 const uint8_t *mark)
{
	size_t i, words;

	if (pfn % 64 || n > s->max_pfns) {
		errno = EINVAL;
		return -1;
	}
	s->lost_pfn = UINT64_MAX;
	if (s->kind != IDLESRC_BITMAP) {
		for (i = 0; i < n; i++)
			s->buf[i] = mark[i] ? 1 : 0;
		return write_done(s, pwrite_full(s->fd, s->buf, n * 8,
						 (off_t)(pfn * 8)),
				  n * 8, pfn, n, mark);
	}
	words = (n + 63) / 64;
	memset(s->buf, 0, words * 8);
	for (i = 0; i < n; i++)
		if (mark[i])
			s->buf[i / 64] |= 1ULL << (i % 64);
	return write_done(s, pwrite_full(s->fd, s->buf, words * 8,
					 (off_t)(pfn / 8)),
			  words * 8, pfn, n, mark);
}
