#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 180
#
# KSM-merged pages (Debian's config has CONFIG_KSM=y, tinyconfig not):
# memhold makes two regions of 256 identical pages each in a cgroup,
# KSM merges each into one page; one is loaded every 50 ms, the other
# never.  After marking, /proc/kpageidle and the scan ioctl read the cold
# KSM page idle and the hot one busy, /proc/kpagecgroup charges both to
# the cgroup, and idletop counts them once (8 KiB, not 2 MiB) for it.

set -u
. "$(dirname "$0")/../common"
CG=/sys/fs/cgroup/distro-ksm
KSM=/sys/kernel/mm/ksm
[ -w $KSM/run ] || { echo "SKIP: no KSM in this kernel (CONFIG_KSM=n)"; exit 77; }
need_kpageidle

fail=0
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	echo 2 > $KSM/run	# unmerge everything, stop
	rmdir "$CG" 2>/dev/null
}
trap cleanup EXIT
echo 0 > $KSM/sleep_millisecs 2>/dev/null || echo 1 > $KSM/sleep_millisecs
echo 1000 > $KSM/pages_to_scan
echo 1 > $KSM/run
mkdir "$CG" || exit 1
memhold --cgroup "$CG" ksm 256 ready &
pid=$!
wait_ready $pid ready 70 memhold
cat ready
set -- $(sed 's/ready hot=\([0-9]*\) cold=\([0-9]*\)/\1 \2/' ready)
hot=$1 cold=$2
# stop KSM: its scans must not be what reads the pages
echo 0 > $KSM/run
ino=$(stat -c %i "$CG")
echo "pages_shared=$(cat $KSM/pages_shared) pages_sharing=$(cat $KSM/pages_sharing) cgroup ino $ino"

expect() {	# what line field value
	case " $2 " in
	*" $3=$4 "*) echo "ok: $1: $3=$4" ;;
	*) echo "FAIL: $1: want $3=$4 in: $2"; fail=1 ;;
	esac
}

# /proc/kpageidle: mark, wait, read
pfnstate mark "$hot" "$cold" || exit 1
sleep 2
h=$(pfnstate get "$hot") && c=$(pfnstate get "$cold") || exit 1
echo "$h"; echo "$c"
expect "hot KSM page" "$h" ksm 1
expect "cold KSM page" "$c" ksm 1
expect "hot KSM page via /proc/kpageidle" "$h" idle 0
expect "cold KSM page via /proc/kpageidle" "$c" idle 1
expect "hot KSM page's memcg" "$h" cgroup "$ino"
expect "cold KSM page's memcg" "$c" cgroup "$ino"

# the scan ioctl: a first call marks, the second reads
pfnstate scan "$hot" "$cold" > /dev/null || exit 1
sleep 2
s=$(pfnstate scan "$hot" "$cold") || exit 1
expect "hot KSM page via the scan ioctl" "$(echo "$s" | head -n 1)" idle 0
expect "cold KSM page via the scan ioctl" "$(echo "$s" | tail -n 1)" idle 1

# idletop: the merged pages count once for the cgroup
idletop --mark-wait 3 --format openmetrics > om || { echo "FAIL: idletop"; exit 1; }
res=$(grep -F "idletop_self_resident_bytes{cgroup=\"/distro-ksm\",kind=\"anon\"} " om | awk '{ print $2 }')
idle=$(grep -F "idletop_self_idle_bytes{cgroup=\"/distro-ksm\",kind=\"anon\"} " om | awk '{ print $2 }')
echo "idletop: anon resident ${res:-none} idle ${idle:-none} for /distro-ksm"
# the truth: memory.stat's anon (each KSM page charged once, plus
# memhold's own), and of it the hot KSM page is never idle
stat=$(awk '$1 == "anon" { print $2 }' $CG/memory.stat)
echo "memory.stat anon ${stat:-none}"
if [ -z "$res" ] || [ "$res" -lt 8192 ] || [ "$res" -lt $((stat - 65536)) ] ||
	[ "$res" -gt $((stat + 65536)) ]; then
	echo "FAIL: idletop's anon resident bytes are not memory.stat's anon (within 64 KiB)"
	fail=1
fi
[ -n "$idle" ] && [ "$idle" -ge 4096 ] ||
	{ echo "FAIL: idletop does not count the cold KSM page idle"; fail=1; }
[ -n "$idle" ] && [ -n "$res" ] && [ "$idle" -le $((res - 4096)) ] ||
	{ echo "FAIL: idletop counts the hot KSM page idle too"; fail=1; }
exit $fail
