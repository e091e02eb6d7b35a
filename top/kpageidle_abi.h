/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kpageidle_abi.h - the KPAGEIDLE_SCAN ioctl of /proc/kpageidle, a copy of
 * its part of include/uapi/linux/fs.h from the kernel series (like the
 * copies in tools/include/uapi), so that idletop builds against any
 * installed kernel headers.  When the installed <linux/fs.h> has the
 * ioctl, it is used instead and this copy defines nothing.
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

struct kpageidle_scan_arg {
	__u64 size;		/* in: sizeof(struct kpageidle_scan_arg) */
	__u64 flags;		/* in: KPAGEIDLE_SCAN_* */
	__u64 start;		/* in: first PFN, a multiple of 64 */
	__u64 end;		/* in: PFN to stop before (exclusive), >= start */
	__u64 walk_end;		/* out: first PFN not scanned */
	__u64 vec;		/* in: user address of the output bitmap (u64 words) */
	__u64 vec_len;		/* in: length of vec in u64 words */
	__u64 nr_skipped;	/* out, marking: not idle only as ptes were not walked */
	__u64 reserved[2];	/* in: zero */
};

#define KPAGEIDLE_SCAN_ARG_SIZE_VER0	80

#define KPAGEIDLE_SCAN	_IOWR(PROCFS_IOCTL_MAGIC, 18, struct kpageidle_scan_arg)
#endif

#endif
