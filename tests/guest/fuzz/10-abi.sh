#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 90
#
# ABI fuzz of /proc/kpageidle, /proc/kpagecgroup, /proc/kpageflags and
# /sys/kernel/mm/page_idle/bitmap (tests/guest/bin/fuzz_abi.c): random
# offsets (unaligned, around the end, huge, negative), sizes (0, 1, 7, 8,
# 4100, the whole file, 2^62), lseek (SEEK_END, negative), valid, partial
# and invalid buffers, 4 threads plus shared descriptors; every call must
# return the documented byte count or errno.  FUZZ_SEED=N replays a seed.
# Then a burst of concurrent kpageidle readers and writers over the same
# PFNs, with workloads faulting and exiting meanwhile.

set -u
. "$(dirname "$0")/../common"
need_kpageidle
fail=0
fuzz_abi -t 25 -j 4 ${FUZZ_SEED:+-s "$FUZZ_SEED"} || fail=1

stress_mem -t 15 --anon 16 --thp --shmem 4 --forks > mem.log 2>&1 &
mem=$!
stress_scan -t 15 -j 3 -p 0 || fail=1
wait $mem || { echo "FAIL: workload"; cat mem.log; fail=1; }
tail -n 1 mem.log
exit $fail
