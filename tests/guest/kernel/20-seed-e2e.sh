#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# The 2015 idle memory tracking use case end to end: per-cgroup idle page
# counts from /proc/kpageidle + /proc/kpagecgroup + /proc/kpageflags for an
# anonymous and a page cache workload (see tests/guest/bin/seed_e2e.c),
# twice: pinned to CPU 0 (the seed's contract, where read + write marking
# is exact), then unpinned as the seed's script ran, where stale TLB
# entries may only over-count idle, by at most the pages touched after the
# mark (docs/kpageidle.md, TLBs).
# seed_e2e prints "SKIP: reason" and exits 77 itself when it cannot run.

. "$(dirname "$0")/../common"
need_scratch
seed_e2e /mnt/scratch
rc=$?
[ $rc -eq 0 ] || { echo "pinned run: exit $rc"; exit $rc; }
seed_e2e --unpinned /mnt/scratch
rc=$?
[ $rc -eq 0 ] || echo "unpinned run: exit $rc"
exit $rc
