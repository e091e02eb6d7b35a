/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan_range.h - inside the scanner: one slice of PFNs (scan_range.c),
 * called by scan_slice() in scan.c.
 */
#ifndef IDLETOP_SCAN_RANGE_H
#define IDLETOP_SCAN_RANGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "scan.h"

/*
 * Count one user page with its kpageflags-style flags f (kind,
 * unevictable; a THP tail's are its head's), memcg inode and idle state,
 * and update its age.  0, or -1 out of memory.
 */
int count_page(struct scanner *sc, uint64_t pfn, uint64_t f, uint64_t ino,
	       int idle);

/*
 * Read, count and re-mark [pfn, pfn + n): per PFN, or from the folio
 * records when the source has them (scan_folio_range()).  Returns the
 * PFNs done (more than n when a folio overruns the slice), or -1 with
 * err.
 */
ssize_t scan_range(struct scanner *sc, uint64_t pfn, size_t n, char *err,
		   size_t errlen);

#endif
