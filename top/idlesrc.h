/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idlesrc.h - where idle page state comes from: one small interface over
 * /proc/kpageidle (u64 per PFN) and /sys/kernel/mm/page_idle/bitmap (one
 * bit per PFN in u64 words).  Two ways to run a cycle over a range:
 *
 *   read + write:  idlesrc_read(), then idlesrc_mark() with the caller's
 *                  choice of PFNs (two rmap walks per idle page);
 *   folio records: idlesrc_folios(), the KPAGEIDLE_SCAN ioctl of
 *                  /proc/kpageidle, when the kernel has it: test and
 *                  re-mark every user folio in one pass (one rmap walk
 *                  per folio), with its size, memcg, kind and idle state,
 *                  no kpageflags or kpagecgroup to read (idlesrc_folio.c).
 */
#ifndef IDLETOP_IDLESRC_H
#define IDLETOP_IDLESRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "config.h"
#include "kpageidle_abi.h"

/* Records per KPAGEIDLE_SCAN call (32 bytes each: 128 KiB). */
#define IDLESRC_FOLIO_RECS	4096

/* The KPAGEIDLE_SCAN call: 0, or -1 with errno (tests pass a fake). */
typedef int idlesrc_ioctl_fn(int fd, struct kpageidle_scan_arg *arg);

struct idlesrc {
	enum idlesrc_kind kind;
	int fd;
	char *path;
	char *root;		/* what the paths are under */
	size_t max_pfns;	/* largest range per call */
	uint64_t *buf;		/* scratch for one range */
	int folios;		/* 1: the scanner uses idlesrc_folios() */
	int busy;		/* 1: the kernel refused to mark (EBUSY) */
	int aging;		/* mglru: forced aging (scan_mglru.h) */
	struct kpageidle_folio *rec;	/* IDLESRC_FOLIO_RECS records */
	size_t rec_max;		/* records per call (tests lower it) */
	int probe_errno;	/* why the probe said no (0: not probed) */
	uint64_t stop_pfn;	/* where a failed idlesrc_mark() stopped */
	uint64_t lost_pfn;	/* first PFN not marked, or UINT64_MAX */
	idlesrc_ioctl_fn *ioctl;
};

#define IDLESRC_KPAGEIDLE_PATH	"proc/kpageidle"
#define IDLESRC_BITMAP_PATH	"sys/kernel/mm/page_idle/bitmap"
#define IDLESRC_LRU_GEN_PATH	"sys/kernel/mm/lru_gen/enabled"

/*
 * 1 when idle is overstated on this kernel: the multi-gen LRU is on (its
 * main switch, bit 0x0001 of lru_gen/enabled; the file is absent without
 * CONFIG_LRU_GEN) and the kernel lacks the idlemem series (no
 * /proc/kpageidle), whose patch 0001 makes MGLRU clear the idle flag of
 * the pages it finds accessed (docs/mglru.md).  A value that cannot be
 * parsed counts as on.  0 otherwise.  Paths under root.
 */
int idlesrc_mglru_unfixed(const char *root);

#define IDLESRC_DAMON_PATH	"sys/kernel/mm/damon/admin/kdamonds"
/*
 * 1 when a DAMON kdamond is on with a context of physical-address
 * operations (kdamonds/N/state "on", kdamonds/N/contexts/M/operations
 * "paddr"): DAMON then sets PG_idle on the pages it samples
 * (mm/damon/paddr.c), the flag idle tracking reads.  0 otherwise or
 * without DAMON's sysfs interface.  Paths under root.
 */
int idlesrc_damon_paddr(const char *root);

/*
 * Why the kernel refused to mark through /proc/kpageidle with EBUSY:
 * kernels that allow one idle page tracker at a time refuse a second
 * open file description that marks, and any marking while a DAMON
 * context runs.  The message names DAMON when a kdamond is on (its
 * number, pid and operations, paddr first), else the processes that
 * have /proc/kpageidle open (root/proc/PID/fd links, this process left
 * out), or says that none is visible from here.  Paths under root.
 */
void idlesrc_busy_error(const char *root, char *err, size_t errlen);

/*
 * Which security module confines this process, for a message: the
 * AppArmor profile (proc/self/attr/apparmor/current, or attr/current
 * without ':'), the SELinux context (attr/current with ':'), else the
 * LSMs that sys/kernel/security/lsm lists, else "AppArmor or SELinux".
 * Paths under root.  Writes a NUL-terminated string into buf.
 */
void idlesrc_lsm(const char *root, char *buf, size_t len);

const char *idlesrc_kind_name(enum idlesrc_kind k);
int idlesrc_parse_kind(const char *s, enum idlesrc_kind *k);
/*
 * "scan-folios" or "read-write": how an open source runs a cycle; for
 * mglru "forced-aging" or "generations".
 */
const char *idlesrc_method(const struct idlesrc *s);

/*
 * Open the source under root (auto: kpageidle, then bitmap) and, for
 * kpageidle, probe the scan ioctl through ioctl_fn (NULL: ioctl(2);
 * idlesrc_open_folios()). On failure returns -1 and writes a message
 * saying what is missing and how to get it into err.  A probe (it marks
 * an empty range) refused with EBUSY fails with s->busy set: the kernel
 * has another tracker marking.
 */
int idlesrc_open(struct idlesrc *s, const char *root, enum idlesrc_kind want,
		 size_t max_pfns, idlesrc_ioctl_fn *ioctl_fn,
		 char *err, size_t errlen);
void idlesrc_close(struct idlesrc *s);
/*
 * idlesrc_open()'s message for open(2)'s errno e under the effective uid
 * euid: EACCES for root names the security module (idlesrc_lsm()).
 */
void idlesrc_open_error(const char *root, enum idlesrc_kind want, int e,
			uid_t euid, char *err, size_t errlen);


/*
 * pfn must be a multiple of 64 and n <= max_pfns. idle[i] becomes 0 or 1
 * for pfn + i. Returns the number of PFNs read (short at the end of
 * memory) or -1 with errno set.
 */
ssize_t idlesrc_read(struct idlesrc *s, uint64_t pfn, size_t n, uint8_t *idle);
/*
 * Mark every pfn + i with mark[i] != 0 idle. 0, or -1 with errno and
 * s->stop_pfn (EBUSY from /proc/kpageidle also sets s->busy); a write
 * the kernel stopped short (max_pfn) is fine when nothing was to be
 * marked beyond, else errno is EIO and s->lost_pfn the first PFN whose
 * mark was lost.
 */
int idlesrc_mark(struct idlesrc *s, uint64_t pfn, size_t n,
		 const uint8_t *mark);
/*
 * Why the last `what` ("read", "mark", "scan") failed, from errno (and
 * for a mark, where it stopped), into err; with s->busy, who holds the
 * right to mark (idlesrc_busy_error()).
 */
void idlesrc_error(const struct idlesrc *s, const char *what, char *err,
		   size_t errlen);
/*
 * idlesrc_folio.c.  For an open /proc/kpageidle: probe the KPAGEIDLE_SCAN
 * ioctl (an empty marking call; ENOTTY: a kernel without it, EINVAL:
 * another version of its ABI) and set s->folios, or leave it 0 for read +
 * write (s->probe_errno says why).  0, or -1 with a message when want is
 * IDLESRC_KPAGEIDLE_FOLIOS and the ioctl is not usable (or out of
 * memory), or when the kernel refused the probe with EBUSY (s->busy).
 */
int idlesrc_open_folios(struct idlesrc *s, enum idlesrc_kind want,
			char *err, size_t errlen);
/*
 * Only with s->folios: one KPAGEIDLE_SCAN call from pfn (any PFN)
 * to end, with KPAGEIDLE_SCAN_MARK if mark, into s->rec (at most
 * s->rec_max records).  Returns the number of records, checked against
 * the ABI (sorted, not overlapping, heads in [pfn, end), covered by
 * *walk_end), with *walk_end the PFN to resume at: > pfn, and past end
 * when the kernel stepped over a folio or a free block that ends there.
 * Past the kernel's max_pfn: 0 records, *walk_end = end.  *skipped is
 * the call's nr_skipped when it marked (pages reported not idle only
 * because their page tables could not be walked: a folio or rmap lock
 * was contended), else 0: a test-only call does not count them.  -1
 * with errno (EIO: the kernel broke the ABI).
 */
ssize_t idlesrc_folios(struct idlesrc *s, uint64_t pfn, uint64_t end, int mark,
		       uint64_t *walk_end, uint64_t *skipped);

#endif
