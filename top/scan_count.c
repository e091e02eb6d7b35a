// SPDX-License-Identifier: GPL-2.0
/*
 * scan_count.c - one page into its cgroup's counters and its idle age
 * (scan_count.h): what both paths of a slice, per PFN (scan_pfn.c) and
 * by folio records (scan_folio.c), count with.
 */
#include "kpf.h"
#include "scan_count.h"

static enum page_kind kind_of(uint64_t f)
{
	if (KPF_BIT(f, KPF_ANON))
		return PK_ANON;
	if (KPF_BIT(f, KPF_SWAPBACKED))
		return PK_SHMEM;
	return PK_FILE;
}

static struct cg_pages *pages_of(struct scanner *sc, uint64_t ino)
{
	if (!sc->last_pages || ino != sc->last_ino) {
		sc->last_pages = acct_get(&sc->cur, ino);
		sc->last_ino = ino;
	}
	return sc->last_pages;
}

int count_page(struct scanner *sc, uint64_t pfn, uint64_t f, uint64_t ino,
	       int idle)
{
	struct cg_pages *p;
	enum page_kind k = kind_of(f);
	uint8_t *age = &sc->age[pfn];
	int b;

	if (sc->priming)
		return 0;	/* nothing was marked yet */
	p = pages_of(sc, ino);
	if (!p)
		return -1;
	if (KPF_BIT(f, KPF_UNEVICTABLE) || !idle) {
		if (*age && !KPF_BIT(f, KPF_UNEVICTABLE))
			p->reaccess[age_bucket(*age)]++;	/* promoted */
		*age = 0;
	} else if (*age < 255) {
		(*age)++;
	}
	p->resident[k]++;
	if (KPF_BIT(f, KPF_UNEVICTABLE)) {
		p->unevictable++;
		return 0;
	}
	if (!*age)
		return 0;
	p->idle[k]++;
	b = age_bucket(*age);
	p->age[b]++;
	if (sc->tmap[*age])
		p->idle_t[sc->tmap[*age] - 1]++;
	if (*age >= sc->cfg.ws_cycles)
		p->ws_idle[k]++;
	return 0;
}
