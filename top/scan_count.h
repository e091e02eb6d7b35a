/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan_count.h - inside the scanner: counting one page (scan_count.c),
 * shared by the per-PFN path (scan_pfn.c) and the folio records path
 * (scan_folio.c), which never call each other.
 */
#ifndef IDLETOP_SCAN_COUNT_H
#define IDLETOP_SCAN_COUNT_H

#include <stdint.h>
#include "scan.h"

/*
 * Count one user page with its kpageflags-style flags f (kind,
 * unevictable; a THP tail's are its head's), memcg inode and idle state,
 * and update its age.  0, or -1 out of memory.
 */
int count_page(struct scanner *sc, uint64_t pfn, uint64_t f, uint64_t ino,
	       int idle);

#endif
