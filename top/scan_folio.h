/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan_folio.h - the scanner's side of the folio records (scan_folio.c):
 * with the KPAGEIDLE_SCAN ioctl a range is one pass, the ioctl's records
 * alone (no /proc/kpageflags, no /proc/kpagecgroup), counted per PFN by
 * count_page() (scan_count.h), as the per-PFN path (scan_pfn.h) counts.
 */
#ifndef IDLETOP_SCAN_FOLIO_H
#define IDLETOP_SCAN_FOLIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "scan.h"

/*
 * Test, count and (unless sc->no_mark) re-mark [pfn, pfn + n) from the
 * folio records: calls until the range is done, each resuming at the
 * last one's walk_end.  Returns the PFNs done, which is more than n when
 * the last folio ends past pfn + n (the next slice starts there; never
 * past sc->nr_pfns), or -1 with err.
 */
ssize_t scan_folio_range(struct scanner *sc, uint64_t pfn, size_t n,
			 char *err, size_t errlen);

#endif
