#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# DAMON and idletop, one idle page tracker at a time.  DAMON's paddr
# operations use the same page flags (PG_idle, PG_young): each sample
# marks one page per region idle (damon_ptep_mkold(), damon_pmdp_mkold()
# in mm/damon/ops-common.c), and idletop's marks set PG_idle, which DAMON
# reads as "not accessed" (docs/admin-guide.md, caveats).  The series
# lets one of them mark at a time: marking through /proc/kpageidle fails
# with EBUSY while a DAMON context runs, and a kdamond does not start
# while an open file description of /proc/kpageidle marks.  Both ways:
#  1. DAMON paddr on over the largest System RAM range: idletop (the scan
#     ioctl's folio records, by default and forced, and write(2) marking)
#     exits 1 with a message naming DAMON, the kdamond and its pid, and
#     leaves DAMON running;
#  2. DAMON off, idletop -b running (its first report printed: it has
#     marked): `echo on > state` fails with EBUSY and the kdamond stays
#     off; idletop stopped, the same `echo on` starts it (the control).
# The kernel needs CONFIG_DAMON_PADDR and CONFIG_DAMON_SYSFS (not in
# Debian 12; vm/distro.config and kernel-series/config add them).

set -u
D=/sys/kernel/mm/damon/admin/kdamonds
[ -d $D ] || { echo "SKIP: no DAMON sysfs interface (CONFIG_DAMON_SYSFS=n)"; exit 77; }
. "$(dirname "$0")/../common"
need_kpageidle
fail=0
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
ipid=
cleanup() {
	[ -n "$ipid" ] && kill "$ipid" 2>/dev/null && wait "$ipid"
	echo off > $D/0/state 2>/dev/null
	echo 0 > $D/nr_kdamonds 2>/dev/null
}
trap cleanup EXIT
echo on > $D/0/state || { echo "FAIL: DAMON does not start"; exit 1; }
pid=$(cat $D/0/pid)
echo "DAMON paddr on $1-$2, kdamond pid $pid"
[ "$pid" -gt 0 ] || { echo "FAIL: no kdamond"; exit 1; }

# 1. idletop refuses to run beside DAMON, and says why
want="busy: DAMON is running (kdamond 0, pid $pid, paddr operations)"
for src in auto kpageidle-folios kpageidle-rw; do
	idletop --source $src --mark-wait 1 --format openmetrics > om 2> err
	rc=$?
	if [ $rc -eq 1 ] && grep -qF "$want" err &&
		grep -qF "echo off > $D/0/state" err; then
		echo "ok: --source $src beside DAMON: exit 1, $(cat err)"
	else
		echo "FAIL: --source $src beside DAMON: exit $rc (want 1 and \"$want\")"
		sed 's/^/  stderr: /' err
		grep idletop_warning om | sed 's/^/  /'
		fail=1
	fi
done
[ "$(cat $D/0/state)" = on ] || { echo "FAIL: DAMON stopped"; fail=1; }
echo "kdamond CPU time (utime stime, ticks): $(cut -d' ' -f14,15 /proc/$pid/stat)"
echo off > $D/0/state || { echo "FAIL: DAMON does not stop"; exit 1; }
until [ "$(cat $D/0/state)" = off ]; do sleep 0.1; done

# 2. DAMON refuses to start while idletop marks
idletop -b --period 1 --cpu 100 -f json > rep 2> ierr &
ipid=$!
i=0
until [ -s rep ]; do	# the first report: it has marked every page
	kill -0 $ipid 2>/dev/null ||
		{ echo "FAIL: idletop -b ended: $(cat ierr)"; exit 1; }
	i=$((i + 1))
	[ $i -gt 600 ] && { echo "FAIL: no report from idletop -b in 60 s"; exit 1; }
	sleep 0.1
done
if echo on 2> derr > $D/0/state; then
	echo "FAIL: DAMON starts while idletop has /proc/kpageidle open for marking"
	fail=1
elif grep -qi busy derr && [ "$(cat $D/0/state)" = off ]; then
	echo "ok: DAMON refused while idletop marks: $(cat derr)"
else
	echo "FAIL: DAMON refused, but not with EBUSY, or its state is $(cat $D/0/state): $(cat derr)"
	fail=1
fi
kill -0 $ipid 2>/dev/null || { echo "FAIL: idletop -b ended: $(cat ierr)"; fail=1; }
kill $ipid
wait $ipid
ipid=
echo on > $D/0/state ||
	{ echo "FAIL: DAMON does not start after idletop ended (the control)"; exit 1; }
echo "ok: DAMON starts once idletop has ended (kdamond pid $(cat $D/0/pid))"
exit $fail
