/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan_mglru.h - inside the scanner: the mglru source's cycles
 * (scan_mglru.c), which scan.c runs instead of PFN slices when the
 * source is IDLESRC_MGLRU.  No PFN is read and nothing is marked: a
 * cycle reads /sys/kernel/debug/lru_gen once (with --mglru-aging: reads
 * it for each lruvec's youngest generation, runs one aging step per
 * lruvec, then reads it again) and counts each generation's pages with
 * the age the generations give them.  No priming pass: the first report
 * comes after the first read, whose slices do not wait for the CPU
 * budget (the debt is waited out before the second cycle).
 *
 * Age of a generation g: an aging step moves the pages it finds accessed
 * into the youngest generation of the time, then makes a new youngest;
 * so g's pages were last found accessed by the step that made g + 1, and
 * not by the steps since: d = AGE_MS of g + 1 minus the youngest's, the
 * time from that step to the last one; in cycles, d / period rounded to
 * the nearest.  Pages of age >= 1 cycle are idle; those of the two
 * youngest generations never are (docs/mglru.md, "The mglru source").
 *
 * Each slice does a bounded amount: MGLRU_SLICE_BYTES of the file, or
 * MGLRU_SLICE_AGES aging commands and no more than --slice-ms of them
 * (at least one).  A malformed file or a failed read
 * drops the cycle (nothing of it is published) with the file and line.
 */
#ifndef IDLETOP_SCAN_MGLRU_H
#define IDLETOP_SCAN_MGLRU_H

#include <stddef.h>
#include "scan.h"

#define MGLRU_SLICE_BYTES	(64 * 1024)
#define MGLRU_SLICE_AGES	64

/*
 * 1 when want (auto or mglru) is to be served by the mglru source: mglru
 * asked for, or auto on a kernel with neither /proc/kpageidle nor the
 * page_idle bitmap (both ENOENT) but with MGLRU on.  Paths under root.
 */
int scan_mglru_wanted(const char *root, enum idlesrc_kind want);
/* Called by scan_open(): set up sc->mg.  0, or -1 with err. */
int scan_mglru_open(struct scanner *sc, const char *root, char *err,
		    size_t errlen);
void scan_mglru_close(struct scanner *sc);
/* scan_slice() for the mglru source (same return values). */
int scan_mglru_slice(struct scanner *sc, char *err, size_t errlen);
/* scan_restart() for it: a new cycle at once, at this period. */
void scan_mglru_restart(struct scanner *sc, double period);

#endif
