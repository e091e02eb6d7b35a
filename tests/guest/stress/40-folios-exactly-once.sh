#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 110
#
# Every user folio is reported exactly once, whole, by each scan of
# KPAGEIDLE_SCAN (in its struct kpageidle_folio records), while the
# memory around it is allocated, freed, split and moved: the scan steps
# over free buddy blocks and compound pages by an order it reads without
# the zone lock, and must not step over a folio that lives there.
# folios_once pins 256 small pages and
# 4 THPs (mlock()ed; vm.compact_unevictable_allowed is 0 meanwhile, so
# compaction leaves them in place), scans the whole of memory again and
# again through /proc/kpageidle, 64 records per call, and checks that
# each pinned PFN is in exactly one record, each THP in one, and the
# records in order without overlaps; a scan during which a pinned page
# moved anyway does not count (more than half moved fails).  Around it,
# on every CPU: slab churn (files and directories made and removed on
# tmpfs, find over /sys, drop_caches), THP faults, splits, COW and exits
# (stress_mem), page cache written, read and dropped on /mnt/scratch,
# compaction (compact_memory every second), khugepaged every 10 ms.
# Needs /proc/kpageidle with the KPAGEIDLE_SCAN ioctl (a /proc/kpageidle
# without it fails, and so does an idlemem kernel without
# /proc/kpageidle), /mnt/scratch and vm.compact_unevictable_allowed.
# Takes the storm (idlemem.stress_seconds, default 30 s) and a few
# seconds more.

. "$(dirname "$0")/lib"
. "$(dirname "$0")/../common"
need_kpageidle
need_scratch
set_knob /proc/sys/vm/compact_unevictable_allowed 0 ||
	{ echo "FAIL: cannot set vm.compact_unevictable_allowed"; exit 1; }
THP=/sys/kernel/mm/transparent_hugepage
if [ -d $THP ]; then
	set_knob $THP/enabled madvise
	set_knob $THP/defrag madvise
	set_knob $THP/khugepaged/scan_sleep_millisecs 10
	set_knob $THP/khugepaged/alloc_sleep_millisecs 10
	set_knob $THP/khugepaged/pages_to_scan 4096
else
	echo "no transparent hugepages: small pages only"
fi
stress_restore="rm -rf slab.* /mnt/scratch/once.*; $stress_restore"

# Slab objects made and freed: dentries, inodes, tmpfs files.
slab_churn() {
	mkdir "slab.$1" || return
	i=0
	while [ "$i" -lt 100 ]; do
		mkdir "slab.$1/d$i" && echo "$i" > "slab.$1/d$i/f" && : > "slab.$1/f$i"
		i=$((i + 1))
	done
	rm -rf "slab.$1" && echo round
}

# Page cache: a file written, read back and removed.
cache_churn() {
	dd if=/dev/zero of="/mnt/scratch/once.$1" bs=64k count=256 2> /dev/null
	cat "/mnt/scratch/once.$1" > /dev/null
	rm -f "/mnt/scratch/once.$1" && echo round
}

storm
worker once folios_once -t "$STRESS_SECONDS"
worker mem1 stress_mem -t "$STRESS_SECONDS" --anon 48 --thp --forks
worker mem2 stress_mem -t "$STRESS_SECONDS" --anon 24 --thp --shmem 8 --forks
loop slab1 slab_churn 1
loop slab2 slab_churn 2
loop sysfs find /sys -name nothing
loop cache1 cache_churn 1
loop cache2 cache_churn 2
loop drop sh -c 'echo 3 > /proc/sys/vm/drop_caches && echo round; sleep 2'
loop compact sh -c 'echo 1 > /proc/sys/vm/compact_memory && echo round; sleep 1'
loop sample sh -c "grep AnonHugePages /proc/meminfo; sleep 1"
finish
rc=$?

grep -E '^(folios_once|VIOLATION|scan [0-9]+: )' once.log | head -n 30
rounds() { grep -c '^round$' "loop-$1.log"; }
echo "churn rounds: slab $(rounds slab1)+$(rounds slab2), page cache" \
	"$(rounds cache1)+$(rounds cache2), drop_caches $(rounds drop)," \
	"compact_memory $(rounds compact)"
echo "AnonHugePages up to $(awk '{ print $2 }' loop-sample.log | sort -n | tail -n 1) kB"
exit $rc
