#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# idletop --mark-wait against wsgen's known working sets: per kind (anon
# incl. THP, file incl. mmap'd file, shmem) the idle bytes idletop reports
# for the workload's cgroup are within 2% of the ground truth, and both
# idle sources (/proc/kpageidle, page_idle/bitmap) agree within 2%: the
# bitmap pinned with wsgen to CPU 0 (the crutch: exact), and unpinned, as
# deployed, where idle may only be over-reported, by at most $STALE_MAX%
# of the size (./lib).

set -u
CG=/sys/fs/cgroup/idletop-acc

if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
. "$(dirname "$0")/../common"
need_scratch

. "$(dirname "$0")/lib"
wsgen_start
grep AnonHugePages /proc/meminfo

# the bitmap as deployed, unpinned: stale TLB entries may hide accesses,
# so idle may be over-reported, never under (check_stale in ./lib)
if idletop --source bitmap --mark-wait 5 --format openmetrics > om.bitmap-unpinned; then
	check_stale bitmap-unpinned om.bitmap-unpinned $STALE_MAX
else
	echo "FAIL: idletop --source bitmap (unpinned)"
	fail=1
fi

# kpageidle: the scan ioctl, unpinned; bitmap: read + write on CPU 0 with
# wsgen (./lib), the crutch that makes it exact
for src in kpageidle bitmap; do
	pin= tag=$src
	[ "$src" = bitmap ] && { rw_pin; pin=$RWPIN; tag=bitmap-pinned; }
	if ! $pin idletop --source "$src" --mark-wait 5 --format openmetrics \
	     > "om.$tag"; then
		echo "FAIL: idletop --source $src ($tag)"
		fail=1
		continue
	fi
	tail -n 1 "om.$tag" | grep -qx "# EOF" || { echo "FAIL: no # EOF"; fail=1; }
	check_truth "$tag" "om.$tag"
done

# both sources give the same answer
compare kpageidle om.kpageidle bitmap-pinned om.bitmap-pinned
[ $fail -eq 0 ] || { grep idletop-acc om.kpageidle; exit 1; }
exit 0
