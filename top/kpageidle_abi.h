/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kpageidle_abi.h - the KPAGEIDLE_SCAN ioctl of /proc/kpageidle, a copy
 * of include/uapi/linux/kpageidle.h from the kernel series (like the
 * copies in tools/include/uapi), so that idletop builds against any
 * installed kernel headers.  When the system has the header, it is used
 * instead and this copy defines nothing.
 */
#ifndef IDLETOP_KPAGEIDLE_ABI_H
#define IDLETOP_KPAGEIDLE_ABI_H

#if defined(__has_include)
#if __has_include(<linux/kpageidle.h>)
#include <linux/kpageidle.h>
#endif
#endif

#if !defined(KPAGEIDLE_SCAN) && !defined(_LINUX_KPAGEIDLE_H) && \
	!defined(_UAPI_LINUX_KPAGEIDLE_H)
#include <linux/ioctl.h>
#include <linux/types.h>

/* Flags for struct kpageidle_scan_arg.flags */
#define KPAGEIDLE_SCAN_MARK	(1ULL << 0)	/* re-mark each user page idle after testing it */
#define KPAGEIDLE_SCAN_FLAGS	KPAGEIDLE_SCAN_MARK	/* all valid flags */

struct kpageidle_scan_arg {
	__u64 size;	/* in: sizeof(struct kpageidle_scan_arg) */
	__u64 flags;	/* in: KPAGEIDLE_SCAN_* */
	__u64 start;	/* in: first PFN, a multiple of 64 */
	__u64 end;	/* in: PFN to stop before (exclusive), >= start */
	__u64 walk_end;	/* out: first PFN not scanned */
	__u64 vec;	/* in: user address of the output bitmap (u64 words) */
	__u64 vec_len;	/* in: length of vec in u64 words */
};

#define KPAGEIDLE_SCAN	_IOWR(0xB8, 0x01, struct kpageidle_scan_arg)
#endif

#endif
