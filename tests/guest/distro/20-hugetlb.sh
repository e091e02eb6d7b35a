#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 180
#
# hugetlbfs pages are never counted (Debian has CONFIG_HUGETLBFS=y): 16
# huge pages (32 MiB) written once and left alone in a cgroup.  Marked
# idle through /proc/kpageidle and through the scan ioctl, every one of
# their PFNs still reads 0 (they are not on an LRU list: idle tracking
# does not cover them), and idletop's resident bytes for the cgroup
# leave them out.

set -u
. "$(dirname "$0")/../common"
CG=/sys/fs/cgroup/distro-hugetlb
NR=/proc/sys/vm/nr_hugepages
[ -w $NR ] || { echo "SKIP: no hugetlbfs in this kernel (CONFIG_HUGETLBFS=n)"; exit 77; }
need_kpageidle

fail=0
pid=
old=$(cat $NR)
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	echo "$old" > $NR
	rmdir "$CG" 2>/dev/null
}
trap cleanup EXIT
echo 16 > $NR
[ "$(cat $NR)" -ge 16 ] || { echo "FAIL: only $(cat $NR) huge pages could be reserved"; exit 1; }
mkdir "$CG" || exit 1
memhold --cgroup "$CG" hugetlb 32 ready &
pid=$!
wait_ready $pid ready 30 memhold
heads=$(sed 's/^ready pfns=//; s/,/ /g' ready)
set -- $heads
[ $# -eq 16 ] || { echo "FAIL: want 16 huge pages: $(cat ready)"; exit 1; }
# every PFN of the first huge page, the heads of the others
pfns=$heads
first=$1
j=1
while [ $j -lt 512 ]; do pfns="$pfns $((first + j))"; j=$((j + 1)); done

pfnstate mark $pfns || exit 1
sleep 1
pfnstate get $pfns > get.txt || exit 1
head -n 1 get.txt
grep -q ' huge=1$' get.txt || { echo "FAIL: kpageflags shows no HUGE page"; fail=1; }
n=$(grep -c ' idle=1 ' get.txt)
[ "$n" -eq 0 ] && echo "ok: /proc/kpageidle: no hugetlb PFN reads idle" ||
	{ echo "FAIL: $n hugetlb PFNs read idle via /proc/kpageidle"; grep ' idle=1 ' get.txt | head; fail=1; }

pfnstate scan $heads > /dev/null || exit 1
sleep 1
n=$(pfnstate scan $heads | grep -c ' idle=1$')
[ "$n" -eq 0 ] && echo "ok: scan ioctl: no hugetlb head reads idle" ||
	{ echo "FAIL: $n hugetlb heads read idle via the scan ioctl"; fail=1; }

idletop --mark-wait 2 --format openmetrics > om || { echo "FAIL: idletop"; exit 1; }
res=$(grep -F 'idletop_self_resident_bytes{cgroup="/distro-hugetlb",' om |
	awk '{ s += $2 } END { print s + 0 }')
idle=$(grep -F 'idletop_self_idle_bytes{cgroup="/distro-hugetlb",' om |
	awk '{ s += $2 } END { print s + 0 }')
echo "idletop: /distro-hugetlb resident $res idle $idle bytes (the huge pages: $((32 << 20)))"
[ "$res" -lt $((4 << 20)) ] ||
	{ echo "FAIL: idletop counts the hugetlb pages as resident"; fail=1; }
[ "$idle" -lt $((4 << 20)) ] ||
	{ echo "FAIL: idletop counts the hugetlb pages as idle"; fail=1; }
exit $fail
