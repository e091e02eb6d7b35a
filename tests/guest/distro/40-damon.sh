#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# A DAMON physical-address monitor running at the same time as idletop.
# DAMON's paddr operations use the same page flags (PG_idle, PG_young):
# each sample marks one page per region idle, setting PG_young where it
# clears an accessed bit, so idle tracking still sees those accesses;
# but a page cache page that no process maps is just marked idle, which
# hides a read() since idletop's mark.  And idletop's marks set PG_idle,
# which DAMON reads as "not accessed" (docs/admin-guide.md, caveats).
# idletop detects it (warning damon_paddr).  This test measures
# idletop's side: wsgen's known working sets (idletop/lib) with DAMON
# monitoring all of System RAM; idletop must warn, its numbers must stay
# within 2% of the truth, and DAMON must be running throughout.
# The kernel needs CONFIG_DAMON_PADDR and CONFIG_DAMON_SYSFS (not in
# Debian 12; vm/distro.config adds them).

set -u
CG=/sys/fs/cgroup/distro-damon
D=/sys/kernel/mm/damon/admin/kdamonds
[ -d $D ] || { echo "SKIP: no DAMON sysfs interface (CONFIG_DAMON_SYSFS=n)"; exit 77; }
[ -e /proc/kpageidle ] || { echo "SKIP: no /proc/kpageidle"; exit 77; }
[ -d /mnt/scratch ] || { echo "SKIP: no /mnt/scratch"; exit 77; }
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
check_truth damon om
[ $fail -eq 0 ] || { grep distro-damon om; exit 1; }
exit 0
