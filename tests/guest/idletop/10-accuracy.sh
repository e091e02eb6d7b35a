#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# idletop --mark-wait against wsgen's known working sets: per kind (anon
# incl. THP, file incl. mmap'd file, shmem) the idle bytes idletop reports
# for the workload's cgroup are within 2% of the ground truth, and both
# idle sources (/proc/kpageidle, page_idle/bitmap) agree within 2%.

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

# kpageidle: the scan ioctl, unpinned; bitmap: read + write on CPU 0 with
# wsgen (./lib)
for src in kpageidle bitmap; do
	pin=
	[ "$src" = bitmap ] && { rw_pin; pin=$RWPIN; }
	if ! $pin idletop --source "$src" --mark-wait 5 --format openmetrics \
	     > "om.$src"; then
		echo "FAIL: idletop --source $src"
		fail=1
		continue
	fi
	tail -n 1 "om.$src" | grep -qx "# EOF" || { echo "FAIL: no # EOF"; fail=1; }
	check_truth "$src" "om.$src"
done

# both sources give the same answer
compare kpageidle om.kpageidle bitmap om.bitmap
[ $fail -eq 0 ] || { grep idletop-acc om.kpageidle; exit 1; }
exit 0
