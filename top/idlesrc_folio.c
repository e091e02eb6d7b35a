// SPDX-License-Identifier: GPL-2.0
/*
 * idlesrc_folio.c - the KPAGEIDLE_SCAN ioctl of /proc/kpageidle and its
 * per-folio records: its probe, and one call whose records are checked
 * against the ABI before anyone counts them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "idlesrc.h"

static void folio_arg(const struct idlesrc *s, struct kpageidle_scan_arg *a,
		      uint64_t start, uint64_t end, uint64_t flags,
		      uint64_t vec_len)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->flags = flags;
	a->start = start;
	a->end = end;
	a->walk_end = start;
	a->vec = (uintptr_t)s->rec;
	a->vec_len = vec_len;
}

/* Why the ioctl's probe failed with e, for the message; "" if unknown. */
static const char *probe_why(int e)
{
	if (e == ENOTTY)
		return "; the kernel lacks the scan ioctl of the idlemem series";
	if (e == EINVAL)
		return "; the kernel has another version of its ABI";
	return "";
}

static void folio_error(const struct idlesrc *s, char *err, size_t errlen)
{
	int e = s->probe_errno;

	snprintf(err, errlen, "--source kpageidle-folios: %s has no usable "
		 "KPAGEIDLE_SCAN ioctl (%s)%s: use --source kpageidle-rw, or "
		 "kpageidle, which falls back to it", s->path, strerror(e),
		 probe_why(e));
}

/*
 * An empty range (vec_len 0) passes the argument checks and scans
 * nothing; MARK: the fd must be open for writing too.  0, or errno.
 */
static int probe(struct idlesrc *s)
{
	struct kpageidle_scan_arg a;

	folio_arg(s, &a, 0, 0, KPAGEIDLE_SCAN_MARK, 0);
	errno = 0;
	if (!s->ioctl(s->fd, &a))
		return 0;
	return errno ? errno : EIO;
}

int idlesrc_open_folios(struct idlesrc *s, enum idlesrc_kind want,
			char *err, size_t errlen)
{
	s->rec = calloc(IDLESRC_FOLIO_RECS, sizeof(*s->rec));
	if (!s->rec) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->rec_max = IDLESRC_FOLIO_RECS;
	s->probe_errno = probe(s);
	if (!s->probe_errno) {
		s->folios = 1;
		return 0;
	}
	free(s->rec);
	s->rec = NULL;
	s->rec_max = 0;
	if (s->probe_errno == EBUSY) {	/* another tracker marks: so would we */
		s->busy = 1;
		idlesrc_busy_error(s->root, err, errlen);
		return -1;
	}
	if (want != IDLESRC_KPAGEIDLE_FOLIOS)
		return 0;	/* read + write of the file */
	folio_error(s, err, errlen);
	return -1;
}

/*
 * What the ABI promises of a call that returned: progress, records
 * sorted, not overlapping, each head in [start, end) and none past
 * walk_end.  walk_end may pass end: after a folio whose head is before
 * end, and after a free block, a hugetlb page or an offline section the
 * kernel stepped over whole (no user memory to report there).
 */
static int records_ok(const struct idlesrc *s,
		      const struct kpageidle_scan_arg *a, uint64_t nr)
{
	uint64_t at = a->start, i, e;

	if (nr > s->rec_max || a->walk_end <= a->start)
		return 0;
	for (i = 0; i < nr; i++) {
		const struct kpageidle_folio *r = &s->rec[i];

		e = r->pfn + r->nr_pages;
		if (r->pfn < at || r->pfn >= a->end || !r->nr_pages ||
		    e < r->pfn || e > a->walk_end)
			return 0;
		at = e;
	}
	return 1;
}

ssize_t idlesrc_folios(struct idlesrc *s, uint64_t pfn, uint64_t end, int mark,
		       uint64_t *walk_end, uint64_t *skipped)
{
	struct kpageidle_scan_arg a;
	uint64_t nr;

	*skipped = 0;
	if (!s->folios || end <= pfn) {
		errno = EINVAL;
		return -1;
	}
	folio_arg(s, &a, pfn, end, mark ? KPAGEIDLE_SCAN_MARK : 0,
		  s->rec_max);
	/* EINTR comes only with a fatal signal: no resuming */
	if (s->ioctl(s->fd, &a)) {
		if (errno == EBUSY && mark)
			s->busy = 1;	/* another tracker marks */
		if (errno != ENXIO)
			return -1;
		*walk_end = end;	/* at or past max_pfn: nothing there */
		return 0;
	}
	nr = a.nr_records;
	if (!records_ok(s, &a, nr)) {
		errno = EIO;	/* not what the ABI says */
		return -1;
	}
	*walk_end = a.walk_end;
	*skipped = mark ? a.nr_skipped : 0;	/* counted when marking only */
	return (ssize_t)nr;
}
