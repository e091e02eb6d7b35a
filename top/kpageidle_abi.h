/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kpageidle_abi.h - the KPAGEIDLE_SCAN ioctl of /proc/kpageidle, a copy of
 * include/uapi/linux/kpageidle.h from the kernel series (like the copies
 * in tools/include/uapi), so that idletop builds against any installed
 * kernel headers.  When the installed headers have <linux/kpageidle.h>,
 * it is used instead and this copy defines nothing.  The ioctl's code is
 * the series' own (0xBB, not an upstream assignment): a kernel without
 * the series answers it with ENOTTY, and idletop falls back to the files.
 */
#ifndef IDLETOP_KPAGEIDLE_ABI_H
#define IDLETOP_KPAGEIDLE_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#if defined(__has_include)
#if __has_include(<linux/kpageidle.h>)
#include <linux/kpageidle.h>
#endif
#endif

#ifndef KPAGEIDLE_SCAN
#define KPAGEIDLE_IOCTL_MAGIC	0xBB

/* Flags for struct kpageidle_scan_arg.flags; any other bit: EINVAL */
#define KPAGEIDLE_SCAN_MARK	(1ULL << 0)	/* re-mark each user folio idle after its test */
#define KPAGEIDLE_SCAN_CGROUP	(1ULL << 1)	/* only the folios of cgroup_id's memcg */
#define KPAGEIDLE_SCAN_SUBTREE	(1ULL << 2)	/* and of its descendants */

struct kpageidle_scan_arg {
	__u64 size;		/* in: sizeof(struct kpageidle_scan_arg) */
	__u64 flags;		/* in: KPAGEIDLE_SCAN_* */
	__u64 start;		/* in: first PFN (any PFN) */
	__u64 end;		/* in: PFN to stop before (exclusive), >= start */
	__u64 walk_end;		/* out: where to resume; may pass end (folios are whole) */
	__u64 vec;		/* in: user address of struct kpageidle_folio[vec_len] */
	__u64 vec_len;		/* in: records vec has room for */
	__u64 nr_skipped;	/* out, marking: not idle only as ptes were not walked */
	__u64 nr_records;	/* out: records written to vec (always written) */
	__u64 cgroup_id;	/* in: with KPAGEIDLE_SCAN_CGROUP, a cgroup v2 id; else zero */
};

/*
 * One record of KPAGEIDLE_SCAN: a user folio whose head PFN is in the
 * walked range, or a run of consecutive folios with the same cgroup and
 * flags.  PFNs no record covers are no user memory.
 */
struct kpageidle_folio {
	__u64 pfn;		/* first PFN of the run */
	__u64 nr_pages;		/* PFNs in the run */
	__u64 cgroup_id;	/* memcg's cgroup id (64-bit: as /proc/kpagecgroup), 0: none */
	__u32 flags;		/* KPAGEIDLE_FOLIO_* */
	__u32 reserved;		/* 0 */
};

#define KPAGEIDLE_FOLIO_IDLE		(1U << 0)	/* not accessed since marked */
#define KPAGEIDLE_FOLIO_ANON		(1U << 1)	/* folio_test_anon() (KSM too) */
#define KPAGEIDLE_FOLIO_SWAPBACKED	(1U << 2)	/* anon, shmem, tmpfs */
#define KPAGEIDLE_FOLIO_UNEVICTABLE	(1U << 3)

#define KPAGEIDLE_SCAN_ARG_SIZE_VER0	80

#define KPAGEIDLE_SCAN \
	_IOWR(KPAGEIDLE_IOCTL_MAGIC, 0x01, struct kpageidle_scan_arg)
#endif

#endif
