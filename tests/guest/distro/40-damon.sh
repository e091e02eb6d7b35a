#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# A DAMON physical-address monitor running at the same time as idletop.
# DAMON's paddr operations use the same page flags (PG_idle, PG_young):
# each sample marks one page per region idle (damon_ptep_mkold(),
# damon_pmdp_mkold() in mm/damon/ops-common.c); an accessed bit it clears
# is kept only in PG_young, for reclaim, which idle tracking does not
# read, and a page cache page that no process maps is just marked idle,
# which hides a read() since idletop's mark.  And idletop's marks set
# PG_idle, which DAMON reads as "not accessed" (docs/admin-guide.md,
# caveats).  So DAMON can make idletop report more idle than there is,
# never less, and by how much depends on its sampling; idletop detects
# it (warning damon_paddr).  With wsgen's known working sets
# (idletop/lib) and DAMON monitoring all of System RAM: idletop must
# warn, resident bytes stay within 2% of the truth, idle bytes are not
# below the truth by more than 2% nor above it by more than 10% of the
# size (the hot part is touched every interval, so only the last touches
# before idletop's read can be lost to a DAMON sample; one run on the
# features kernel read 69.5 MB of anon idle for 67.1 MB: 2.4% of the size
# over), and DAMON runs throughout.
# The kernel needs CONFIG_DAMON_PADDR and CONFIG_DAMON_SYSFS (not in
# Debian 12; vm/distro.config adds them).

set -u
CG=/sys/fs/cgroup/distro-damon
D=/sys/kernel/mm/damon/admin/kdamonds
[ -d $D ] || { echo "SKIP: no DAMON sysfs interface (CONFIG_DAMON_SYSFS=n)"; exit 77; }
. "$(dirname "$0")/../common"
need_kpageidle
need_scratch
# the largest System RAM range (bytes)
best=0
for r in $(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1-\2/p' /proc/iomem); do
	s=$((0x${r%-*})) e=$((0x${r#*-} + 1))
	[ $((e - s)) -gt $best ] && { best=$((e - s)); range="$s $e"; }
done
[ $best -gt 0 ] || { echo "FAIL: no System RAM in /proc/iomem"; exit 1; }
set -- $range
echo 1 > $D/nr_kdamonds || exit 1
echo 1 > $D/0/contexts/nr_contexts || exit 1
C=$D/0/contexts/0
echo paddr > $C/operations ||
	{ echo "SKIP: DAMON without paddr operations (CONFIG_DAMON_PADDR=n)"; exit 77; }
echo 1 > $C/targets/nr_targets || exit 1
echo 1 > $C/targets/0/regions/nr_regions || exit 1
echo "$1" > $C/targets/0/regions/0/start || exit 1
echo "$2" > $C/targets/0/regions/0/end || exit 1
echo on > $D/0/state || { echo "FAIL: DAMON does not start"; exit 1; }
damon_off() {
	echo off > $D/0/state 2>/dev/null
	echo 0 > $D/nr_kdamonds 2>/dev/null
}
pid=$(cat $D/0/pid)
echo "DAMON paddr on $1-$2, kdamond pid $pid"
[ "$pid" -gt 0 ] || { damon_off; echo "FAIL: no kdamond"; exit 1; }

. "$(dirname "$0")/../idletop/lib"
wsgen_start
trap 'wsgen_cleanup; damon_off' EXIT
idletop --mark-wait 5 --format openmetrics > om || { echo "FAIL: idletop"; exit 1; }
[ "$(cat $D/0/state)" = on ] || { echo "FAIL: DAMON stopped during the test"; fail=1; }
echo "kdamond CPU time (utime stime, ticks): $(cut -d' ' -f14,15 /proc/$pid/stat)"
grep -qx 'idletop_warning{warning="damon_paddr"} 1' om &&
	echo "ok: idletop warns: damon_paddr" ||
	{ echo "FAIL: idletop does not warn about DAMON: $(grep idletop_warning om)"; fail=1; }
set -- $truth
while [ $# -ge 3 ]; do
	size=$(($2 * M)) want=$(($3 * M))
	res=$(get om idletop_self_resident_bytes "$1")
	idle=$(get om idletop_self_idle_bytes "$1")
	check "damon $1 resident" "$res" $size $size
	if [ -n "$idle" ] && [ "$idle" -ge $((want - size / 50)) ] &&
		[ "$idle" -le $((want + size / 10)) ]; then
		echo "ok: damon $1 idle: $idle for $want (size $size): $(((idle - want) * 100 / size))% of the size over"
	else
		echo "FAIL: damon $1 idle: ${idle:-none} for $want: below by more than 2% of $size, or above by more than 10%"
		fail=1
	fi
	shift 3
done
[ $fail -eq 0 ] || { grep distro-damon om; exit 1; }
exit 0
