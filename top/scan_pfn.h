/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan_pfn.h - inside the scanner: a slice by the per-PFN path
 * (scan_pfn.c), which scan_slice() in scan.c takes when the source has
 * no folio records (else scan_folio.h's).
 */
#ifndef IDLETOP_SCAN_PFN_H
#define IDLETOP_SCAN_PFN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "scan.h"

/*
 * Read, count and re-mark [pfn, pfn + n) per PFN: kpageflags,
 * kpagecgroup and the idle source (/proc/kpageidle or page_idle/bitmap,
 * read + write).  Returns the PFNs done, or -1 with err.
 */
ssize_t scan_pfn_range(struct scanner *sc, uint64_t pfn, size_t n, char *err,
		       size_t errlen);

#endif
