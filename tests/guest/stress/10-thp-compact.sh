#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 110
#
# Idle page scanners (stress_scan on /proc/kpageidle and the bitmap, and
# idletop -b) racing with THP collapse (khugepaged scanning every 10 ms)
# and split (partial MADV_DONTNEED, COW after fork), compaction (writes to
# /proc/sys/vm/compact_memory) and processes faulting memory and exiting.
# stress_mem checksums its data at the end; THPs must really have been
# made by faults (memory.stat of the test's cgroup: the guest kernel has no
# /proc/vmstat event counters) and khugepaged must have scanned during the
# storm (full_scans grew).  Its collapses are printed, not required: the
# workers fault THPs directly, so khugepaged finds a range to collapse only
# where a fault fell back to small pages.
# One tracker marks /proc/kpageidle at a time (EBUSY for the others):
# idletop does; stress_scan reads it and marks through the bitmap (-R).

. "$(dirname "$0")/lib"
THP=/sys/kernel/mm/transparent_hugepage
[ -d $THP ] || skip "no transparent hugepages"
set_knob $THP/enabled madvise
set_knob $THP/defrag madvise
set_knob $THP/khugepaged/scan_sleep_millisecs 10
set_knob $THP/khugepaged/alloc_sleep_millisecs 10
set_knob $THP/khugepaged/pages_to_scan 4096
CG=/sys/fs/cgroup/stress-thp
collapsed0=$(cat $THP/khugepaged/pages_collapsed)
scans0=$(cat $THP/khugepaged/full_scans)
mkdir $CG || exit 1
stress_restore="rmdir $CG 2>/dev/null; $stress_restore"


storm
in_cg() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' $CG "$@"; }
worker mem1 in_cg stress_mem -t "$STRESS_SECONDS" --anon 48 --thp --forks
worker mem2 stress_mem -t "$STRESS_SECONDS" --anon 24 --thp --shmem 8 --forks
worker scan stress_scan -t "$STRESS_SECONDS" -j 2 -p 20 -R
worker idletop idletop_runs -b --period 2 -n 3 --cpu 50
loop compact sh -c 'echo 1 > /proc/sys/vm/compact_memory; sleep 1'
loop sample sh -c "grep AnonHugePages /proc/meminfo; sleep 1"
finish
rc=$?

fault=$(memstat $CG thp_fault_alloc)
collapse=$(memstat $CG thp_collapse_alloc)
echo "in $CG: thp_fault_alloc $fault, thp_collapse_alloc $collapse;" \
	"AnonHugePages up to $(awk '{ print $2 }' loop-sample.log | sort -n | tail -n 1) kB"
if [ "${fault:-0}" -eq 0 ]; then
	echo "FAIL: the storm made no THP"
	rc=1
fi
scans=$(( $(cat $THP/khugepaged/full_scans) - scans0 ))
echo "khugepaged: pages_collapsed +$(( $(cat $THP/khugepaged/pages_collapsed) - collapsed0 )), full_scans +$scans"
if [ "$scans" -le 0 ]; then
	echo "FAIL: khugepaged did not scan during the storm"
	rc=1
fi
exit $rc
