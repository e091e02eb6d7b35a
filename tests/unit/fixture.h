/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h - fake /proc and cgroup trees for idletop's unit tests.
 * Everything lives in a fresh temp dir; kpageflags, kpagecgroup,
 * kpageidle and the page_idle bitmap are regular files, so the engine's
 * marks (pwrite) can be inspected.
 */
#ifndef IDLETOP_FIXTURE_H
#define IDLETOP_FIXTURE_H

#include <stdint.h>

#define F(b) (1ULL << (b))

struct fixture {
	char *root;		/* the temp dir, used as --root */
	char *cgroot;		/* root/sys/fs/cgroup */
	uint64_t npfn;
	uint64_t *flags, *cg, *idle;	/* per PFN, written by fx_write_pages */
};

/*
 * Temp tree with npfn zeroed PFNs, mountinfo, a proc/meminfo that says
 * only SwapTotal (1 GiB: the node has swap) and an empty cgroup root.
 */
int fx_create(struct fixture *fx, uint64_t npfn);
/* The same in dir (created if missing); fx_destroy removes it. */
int fx_create_at(struct fixture *fx, const char *dir, uint64_t npfn);
void fx_destroy(struct fixture *fx);
/* mkdir a cgroup (rel like "/a/b"), write memory.* files; its st_ino. */
uint64_t fx_mkcg(struct fixture *fx, const char *rel);
uint64_t fx_ino(struct fixture *fx, const char *rel);
int fx_write(const char *dir, const char *name, const char *text);
/* Write the PFN arrays out; want_kpageidle/want_bitmap pick sources. */
int fx_write_pages(struct fixture *fx, int want_kpageidle, int want_bitmap);
/* What the engine left in the fake idle files. */
uint64_t fx_read_kpageidle(struct fixture *fx, uint64_t pfn);
int fx_read_bitmap(struct fixture *fx, uint64_t pfn);
/* Set n PFNs from pfn: flags, cgroup inode, idle. */
void fx_set(struct fixture *fx, uint64_t pfn, uint64_t n, uint64_t flags,
	    uint64_t ino, int idle);
/* A folio of n PFNs at pfn: head, then COMPOUND_TAIL PFNs of ino 0. */
void fx_folio(struct fixture *fx, uint64_t pfn, uint64_t n,
	      uint64_t kind_flags, uint64_t ino, int idle);
/* A THP of 512 PFNs at pfn: head flags+ino+idle, tails get tail_ino and tail_idle. */
void fx_thp(struct fixture *fx, uint64_t pfn, uint64_t kind_flags,
	    uint64_t ino, int idle, uint64_t tail_ino, int tail_idle);

/*
 * A fake KPAGEIDLE_SCAN for idlesrc_open(): fx_scan_fx's flags say which
 * PFNs are user folios and the idle words are read from, and the marks
 * written to, the fake /proc/kpageidle that fd is open on; max_pfn is
 * npfn.  It checks the arguments like the ABI says (any flag but
 * KPAGEIDLE_SCAN_MARK: EINVAL) and writes a record per user folio whose
 * head is in the range (head: LRU, not a tail; its size is the head and
 * the COMPOUND_TAIL PFNs after it; the head's cgroup, kind flags and idle
 * word), consecutive folios with equal cgroup and flags merged unless
 * fx_scan_nomerge; with KPAGEIDLE_SCAN_MARK heads are marked.  It counts
 * its calls in fx_scan_calls, the records written in fx_scan_records and
 * the calls whose walk_end was past their end in fx_scan_past_end.
 * fx_scan_errno != 0: every call fails with it (ENOTTY: a kernel without
 * the ioctl, EINVAL: another version of its ABI).
 */
struct kpageidle_scan_arg;
extern struct fixture *fx_scan_fx;
extern int fx_scan_calls, fx_scan_errno, fx_scan_nomerge;
extern uint64_t fx_scan_records, fx_scan_past_end;
int fx_scan_ioctl(int fd, struct kpageidle_scan_arg *arg);

#endif
