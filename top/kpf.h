/* SPDX-License-Identifier: GPL-2.0 */
/* kpf.h - /proc/kpageflags bits (include/uapi/linux/kernel-page-flags.h) */
#ifndef IDLETOP_KPF_H
#define IDLETOP_KPF_H

#include <stdint.h>

#define KPF_LRU			5
#define KPF_MMAP		11
#define KPF_ANON		12
#define KPF_SWAPBACKED		14
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_HUGE		17
#define KPF_UNEVICTABLE		18
#define KPF_NOPAGE		20
#define KPF_THP			22
#define KPF_IDLE		25

#define KPF_BIT(f, b)	(((f) >> (b)) & 1)

#endif
