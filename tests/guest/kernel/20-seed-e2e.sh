#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# The 2015 idle memory tracking use case end to end: per-cgroup idle page
# counts from /proc/kpageidle + /proc/kpagecgroup + /proc/kpageflags for an
# anonymous and a page cache workload (see tests/guest/bin/seed_e2e.c).
# seed_e2e prints "SKIP: reason" and exits 77 itself when it cannot run.

. "$(dirname "$0")/../common"
need_scratch
exec seed_e2e /mnt/scratch
