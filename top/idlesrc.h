/* SPDX-License-Identifier: GPL-2.0 */
/*
 * idlesrc.h - where idle page state comes from: one small interface
 * (read a PFN range, mark a PFN range) over /proc/kpageidle (u64 per PFN)
 * and /sys/kernel/mm/page_idle/bitmap (one bit per PFN in u64 words).
 * A future kernel scan ioctl becomes a third kind here.
 */
#ifndef IDLETOP_IDLESRC_H
#define IDLETOP_IDLESRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum idlesrc_kind { IDLESRC_AUTO, IDLESRC_KPAGEIDLE, IDLESRC_BITMAP };

struct idlesrc {
	enum idlesrc_kind kind;
	int fd;
	char *path;
	size_t max_pfns;	/* largest range per call */
	uint64_t *buf;		/* scratch for one range */
};

#define IDLESRC_KPAGEIDLE_PATH	"proc/kpageidle"
#define IDLESRC_BITMAP_PATH	"sys/kernel/mm/page_idle/bitmap"

const char *idlesrc_kind_name(enum idlesrc_kind k);
int idlesrc_parse_kind(const char *s, enum idlesrc_kind *k);

/*
 * Open the source under root (auto: kpageidle, then bitmap). On failure
 * returns -1 and writes a message saying what is missing and how to get
 * it into err.
 */
int idlesrc_open(struct idlesrc *s, const char *root, enum idlesrc_kind want,
		 size_t max_pfns, char *err, size_t errlen);
void idlesrc_close(struct idlesrc *s);

/*
 * pfn must be a multiple of 64 and n <= max_pfns. idle[i] becomes 0 or 1
 * for pfn + i. Returns the number of PFNs read (short at the end of
 * memory) or -1 with errno set.
 */
ssize_t idlesrc_read(struct idlesrc *s, uint64_t pfn, size_t n, uint8_t *idle);
/* Mark every pfn + i with mark[i] != 0 idle. 0 or -1 with errno. */
int idlesrc_mark(struct idlesrc *s, uint64_t pfn, size_t n,
		 const uint8_t *mark);

#endif
