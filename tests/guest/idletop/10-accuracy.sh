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
M=1048576

if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
[ -d /mnt/scratch ] || { echo "SKIP: no /mnt/scratch"; exit 77; }

pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rmdir "$CG" 2>/dev/null
}
trap cleanup EXIT
mkdir "$CG" || exit 1

# Marking clears accessed bits without flushing TLBs (docs/kpageidle.md),
# so a toucher that stays on its own otherwise idle CPU can reuse cached
# translations and its hot pages read idle.  wsgen and idletop share CPU 0:
# every switch between them reloads CR3 and the hot set is seen.
pin="taskset -c 0"
# sizes in MiB and hot fractions; idle = size * (1 - hot)
$pin wsgen --cgroup "$CG" --dir /mnt/scratch --interval 20 --ready ready \
	--anon 64M:0.25 --thp 32M:0.5 --file 32M:0.5 --mmap 16M:0.25 \
	--shmem 32M:0.5 &
pid=$!
i=0
while [ ! -s ready ]; do
	i=$((i + 1))
	[ $i -gt 600 ] && { echo "wsgen not ready"; exit 1; }
	kill -0 "$pid" 2>/dev/null || { echo "wsgen died"; exit 1; }
	sleep 0.1
done
cat ready
grep AnonHugePages /proc/meminfo

get() {	# file metric kind
	grep -F "$2{cgroup=\"/idletop-acc\",kind=\"$3\",scope=\"self\"} " "$1" |
		awk '{ print $2 }'
}

fail=0
check() {	# what measured expected size (bytes)
	if awk -v m="$2" -v e="$3" -v s="$4" 'BEGIN {
		d = m - e; if (d < 0) d = -d; exit !(d <= 0.02 * s) }'; then
		echo "ok: $1: $2 vs $3 (size $4)"
	else
		echo "FAIL: $1: $2 vs $3: off by more than 2% of $4"
		fail=1
	fi
}

for src in kpageidle bitmap; do
	if ! $pin idletop --source "$src" --mark-wait 5 --format openmetrics \
	     > "om.$src"; then
		echo "FAIL: idletop --source $src"
		fail=1
		continue
	fi
	tail -n 1 "om.$src" | grep -qx "# EOF" || { echo "FAIL: no # EOF"; fail=1; }
	set -- anon 96 64  file 48 28  shmem 32 16
	while [ $# -ge 3 ]; do
		idle=$(get "om.$src" idletop_idle_bytes "$1")
		res=$(get "om.$src" idletop_resident_bytes "$1")
		check "$src $1 idle" "${idle:-0}" $(($3 * M)) $(($2 * M))
		check "$src $1 resident" "${res:-0}" $(($2 * M)) $(($2 * M))
		shift 3
	done
done

# both sources give the same answer
set -- anon 96  file 48  shmem 32
while [ $# -ge 2 ]; do
	a=$(get om.kpageidle idletop_idle_bytes "$1")
	b=$(get om.bitmap idletop_idle_bytes "$1")
	check "kpageidle vs bitmap $1" "${a:-0}" "${b:-0}" $(($2 * M))
	shift 2
done
[ $fail -eq 0 ] || { cat om.kpageidle | grep idletop-acc; exit 1; }
exit 0
