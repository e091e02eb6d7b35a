/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kpageidle_abi.h - the KPAGEIDLE_SCAN ioctl of /proc/kpageidle, a copy of
 * its part of include/uapi/linux/fs.h from the kernel series (like the
 * copies in tools/include/uapi), so that idletop builds against any
 * installed kernel headers.  When the installed <linux/fs.h> has the
 * ioctl, it is used instead and this copy defines nothing of it; the
 * per-folio output (KPAGEIDLE_SCAN_FOLIOS) is tested for apart, as a
 * header may have the ioctl without it.  KPAGEIDLE_NR_RECORDS(arg) names
 * the count of records either way (reserved[0] in such a header).
 */
#ifndef IDLETOP_KPAGEIDLE_ABI_H
#define IDLETOP_KPAGEIDLE_ABI_H

#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#ifndef KPAGEIDLE_SCAN
#ifndef PROCFS_IOCTL_MAGIC
#define PROCFS_IOCTL_MAGIC	'f'
#endif

/* Flags for struct kpageidle_scan_arg.flags */
#define KPAGEIDLE_SCAN_MARK	(1ULL << 0)	/* re-mark each user page idle after testing it */
#define KPAGEIDLE_SCAN_FOLIOS	(1ULL << 1)	/* vec holds struct kpageidle_folio records */
#define KPAGEIDLE_SCAN_CGROUP	(1ULL << 2)	/* only the folios of cgroup_id's memcg */
#define KPAGEIDLE_SCAN_SUBTREE	(1ULL << 3)	/* and of its descendants */

struct kpageidle_scan_arg {
	__u64 size;		/* in: sizeof(struct kpageidle_scan_arg) */
	__u64 flags;		/* in: KPAGEIDLE_SCAN_* */
	__u64 start;		/* in: first PFN (a multiple of 64 without FOLIOS) */
	__u64 end;		/* in: PFN to stop before (exclusive), >= start */
	__u64 walk_end;		/* out: where to resume (FOLIOS: may be > end) */
	__u64 vec;		/* in: user address of the output (records or u64 words) */
	__u64 vec_len;		/* in: length of vec in records (FOLIOS) or u64 words */
	__u64 nr_skipped;	/* out, marking: not idle only as ptes were not walked */
	__u64 nr_records;	/* out: records written (FOLIOS); in: zero */
	__u64 cgroup_id;	/* in: with KPAGEIDLE_SCAN_CGROUP, a cgroup v2 id; else zero */
};

#define KPAGEIDLE_SCAN_ARG_SIZE_VER0	80

#define KPAGEIDLE_SCAN	_IOWR(PROCFS_IOCTL_MAGIC, 18, struct kpageidle_scan_arg)
#define KPAGEIDLE_NR_RECORDS(a)	((a)->nr_records)
#endif

#ifndef KPAGEIDLE_SCAN_FOLIOS
/* an installed header with the ioctl but before the per-folio output */
#define KPAGEIDLE_SCAN_FOLIOS	(1ULL << 1)
#define KPAGEIDLE_NR_RECORDS(a)	((a)->reserved[0])
#endif

#ifndef KPAGEIDLE_FOLIO_IDLE
/*
 * One record of KPAGEIDLE_SCAN_FOLIOS: a folio whose head PFN is in the
 * walked range, or a run of consecutive folios with the same cgroup and
 * flags.  PFNs no record covers are no user memory.
 */
struct kpageidle_folio {
	__u64 pfn;		/* first PFN of the run */
	__u64 nr_pages;		/* PFNs in the run */
	__u64 cgroup;		/* memcg's cgroup inode (as /proc/kpagecgroup), 0: none */
	__u32 flags;		/* KPAGEIDLE_FOLIO_* */
	__u32 reserved;		/* 0 */
};

#define KPAGEIDLE_FOLIO_IDLE		(1U << 0)	/* not accessed since marked */
#define KPAGEIDLE_FOLIO_ANON		(1U << 1)	/* folio_test_anon() (KSM too) */
#define KPAGEIDLE_FOLIO_SWAPBACKED	(1U << 2)	/* anon, shmem, tmpfs */
#define KPAGEIDLE_FOLIO_UNEVICTABLE	(1U << 3)
#endif

#ifndef KPAGEIDLE_NR_RECORDS
#define KPAGEIDLE_NR_RECORDS(a)	((a)->nr_records)
#endif

#endif
