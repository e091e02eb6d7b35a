// SPDX-License-Identifier: GPL-2.0
/*
 * scan_pfn.c - the per-PFN path of a slice (scan_pfn.h): kpageflags,
 * kpagecgroup and the idle file read per PFN, THP tails counted with
 * their head (count_page(), scan_count.c), marks written back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "kpf.h"
#include "scan_count.h"
#include "scan_pfn.h"
#include "util.h"

/*
 * One PFN. THP tails take flags, cgroup and idle state from their head
 * (tails may say cgroup 0 and are not on the LRU themselves); the head
 * carries over slice boundaries in sc->thp.  mark[] is what the kernel
 * marks itself with KPAGEIDLE_SCAN_MARK (LRU pages, unevictable ones
 * too, no tails), so that this path and the folio records count the
 * same.
 */
static int visit_pfn(struct scanner *sc, uint64_t pfn, size_t i)
{
	uint64_t f = sc->kflags[i], ino = sc->kcg[i];
	int idle = sc->idle[i];

	sc->mark[i] = 0;
	if (KPF_BIT(f, KPF_COMPOUND_TAIL) && sc->thp.active) {
		f = sc->thp.flags;
		ino = sc->thp.ino;
		idle = sc->thp.idle;
	} else {
		sc->thp.active = KPF_BIT(f, KPF_COMPOUND_HEAD) &&
				 !KPF_BIT(f, KPF_HUGE);
		if (sc->thp.active) {
			sc->thp.flags = f;
			sc->thp.ino = ino;
			sc->thp.idle = (uint8_t)idle;
		}
		if (!KPF_BIT(f, KPF_NOPAGE) && KPF_BIT(f, KPF_LRU) &&
		    !sc->no_mark)
			sc->mark[i] = 1;
	}
	if (KPF_BIT(f, KPF_NOPAGE) || KPF_BIT(f, KPF_HUGE) ||
	    !KPF_BIT(f, KPF_LRU)) {
		sc->age[pfn] = 0;
		return 0;
	}
	return count_page(sc, pfn, f, ino, idle);
}

static ssize_t read_u64s(int fd, uint64_t *buf, uint64_t pfn, size_t n)
{
	ssize_t r;

	if (fd < 0) {
		memset(buf, 0, n * 8);
		return (ssize_t)n;
	}
	r = pread_full(fd, buf, n * 8, (off_t)(pfn * 8));
	if (r < 0)
		return -1;
	memset((char *)buf + r, 0, n * 8 - (size_t)r);
	return r / 8;
}

static int src_error(struct scanner *sc, const char *what, char *err,
		     size_t errlen)
{
	idlesrc_error(&sc->src, what, err, errlen);
	return -1;
}

/*
 * The idle state of [pfn, pfn+n) into sc->idle (none while priming),
 * read here; the marks are written after counting.
 */
static int get_idle(struct scanner *sc, uint64_t pfn, size_t n, char *err,
		    size_t errlen)
{
	ssize_t r = 0;

	if (!sc->priming)
		r = idlesrc_read(&sc->src, pfn, n, sc->idle);
	if (r < 0)
		return src_error(sc, "read", err, errlen);
	memset(sc->idle + r, 0, n - (size_t)r);
	return 0;
}

ssize_t scan_pfn_range(struct scanner *sc, uint64_t pfn, size_t n, char *err,
		       size_t errlen)
{
	ssize_t got;
	size_t i;

	got = read_u64s(sc->flags_fd, sc->kflags, pfn, n);
	if (got < 0) {
		snprintf(err, errlen, "read kpageflags: %s", strerror(errno));
		return -1;
	}
	n = (size_t)got;
	/* the priming pass only marks: no need for owners or idle state */
	if (read_u64s(sc->priming ? -1 : sc->cgroup_fd, sc->kcg, pfn, n) < 0) {
		snprintf(err, errlen, "read kpagecgroup: %s", strerror(errno));
		return -1;
	}
	if (get_idle(sc, pfn, n, err, errlen))
		return -1;
	for (i = 0; i < n; i++)
		if (visit_pfn(sc, pfn + i, i)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	if (!sc->no_mark && idlesrc_mark(&sc->src, pfn, n, sc->mark))
		return src_error(sc, "mark", err, errlen);
	return (ssize_t)n;
}
