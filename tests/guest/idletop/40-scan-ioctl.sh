#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# The KPAGEIDLE_SCAN ioctl path of idletop (its folio records, method
# scan-folios) against the read + write path (docs/performance.md).  Our
# kernel series has the ioctl, so a /proc/kpageidle without it FAILS
# here: idletop must detect it (default source: "method" "scan-folios" in
# JSON; 70-folios.sh tests it on large folios) and --source
# kpageidle-folios must use it ("(scan-folios)" in the text header).
# --source kpageidle-scan, the ioctl's bitmap output that the series no
# longer has, is a usage error (exit 2) that points to kpageidle-folios.
# Then, for wsgen's known working sets, in the periodic mode (cycle 2
# counts what cycle 1's re-marks left idle: the ioctl's own marks for the
# scan path) and with --mark-wait: per kind, the idle and resident bytes
# of each path are within 2% of the ground truth and the two paths within
# 2% of each other.  The periodic scan path, which marks with the ioctl,
# reports the kernel's nr_skipped (idletop_scan_skipped_bytes); the
# read + write path and --mark-wait's counting pass do not.
#
# The scan path runs unpinned: it flushes the TLB entries its marks leave
# stale.  The read + write path does not (docs/kpageidle.md, TLBs), so for
# it wsgen and idletop share CPU 0 (rw_pin and $RWPIN from ./lib), where
# each switch between the two reloads CR3: the crutch, tagged "-pinned".
# Before it, the read + write path runs unpinned as deployed: idle may
# only be over-reported, by at most $STALE_MAX% of the size (./lib).

set -u
CG=/sys/fs/cgroup/idletop-scan
. "$(dirname "$0")/lib"

. "$(dirname "$0")/../common"
need_kpageidle
need_scratch

# --- detection ----------------------------------------------------------
if idletop --mark-wait 0 -f json > auto.json 2> auto.err; then
	if grep -q '"source":"kpageidle","method":"scan-folios"' auto.json; then
		echo "ok: default source uses the scan ioctl's folio records"
	else
		echo "FAIL: default source does not use the scan ioctl's records:"
		head -c 300 auto.json; echo
		fail=1
	fi
else
	echo "FAIL: idletop --mark-wait 0: $(cat auto.err)"
	fail=1
fi
if idletop --source kpageidle-folios --mark-wait 0 > scan.txt 2> scan.err; then
	head -n 1 scan.txt | grep -q 'source kpageidle (scan-folios),' &&
		echo "ok: --source kpageidle-folios: $(head -n 1 scan.txt)" ||
		{ echo "FAIL: text header: $(head -n 1 scan.txt)"; fail=1; }
else
	echo "FAIL: --source kpageidle-folios: $(cat scan.err)"
	fail=1
fi
idletop --source kpageidle-scan --mark-wait 0 > old.txt 2> old.err
rc=$?
if [ $rc -eq 2 ] && [ ! -s old.txt ] &&
	grep -q "use --source kpageidle-folios" old.err; then
	echo "ok: --source kpageidle-scan refused: $(head -n 1 old.err)"
else
	echo "FAIL: --source kpageidle-scan: exit $rc (want 2 and a pointer to kpageidle-folios): $(cat old.err)"
	fail=1
fi
idletop --source kpageidle-rw --mark-wait 0 > rw.txt 2>&1
head -n 1 rw.txt | grep -q 'source kpageidle (read-write),' ||
	{ echo "FAIL: --source kpageidle-rw: $(head -n 1 rw.txt)"; fail=1; }
[ $fail -eq 0 ] || exit 1

# --- the same numbers -----------------------------------------------------
wsgen_start

# the read + write path as deployed, unpinned: idle may be over-reported,
# never under (check_stale in ./lib)
if idletop --source kpageidle-rw --mark-wait 4 --format openmetrics -o om.mw-rw-unpinned 2> err.unpinned; then
	check_stale mw-rw-unpinned om.mw-rw-unpinned $STALE_MAX
else
	echo "FAIL: idletop --source kpageidle-rw (unpinned): $(cat err.unpinned)"
	fail=1
fi

# periodic: -o keeps the last report, cycle 2; --mark-wait: one; the
# read + write path pinned with wsgen (the crutch that makes it exact)
pin= sfx=
for p in folios rw; do
	[ $p = folios ] && want=scan-folios || { want=read-write; rw_pin; pin=$RWPIN; sfx=-pinned; }
	measure "b-$p$sfx" $want --source "kpageidle-$p" -b -n 2 -d 4 --cpu 100
	grep -qx "idletop_cycle 2" "om.b-$p$sfx" || { echo "FAIL: b-$p$sfx: not cycle 2"; fail=1; }
	measure "mw-$p$sfx" $want --source "kpageidle-$p" --mark-wait 4
done
compare b-folios om.b-folios b-rw-pinned om.b-rw-pinned
# what the kernel counted busy as it could not walk it (nr_skipped): a
# sample where idletop marks with the ioctl, none where it is not known
if grep -q '^idletop_scan_skipped_bytes [0-9]' om.b-folios; then
	echo "ok: b-folios: $(grep '^idletop_scan_skipped_bytes ' om.b-folios)"
else
	echo "FAIL: b-folios: no idletop_scan_skipped_bytes sample"
	fail=1
fi
for f in b-rw-pinned mw-folios; do
	! grep -q '^idletop_scan_skipped_bytes ' "om.$f" || {
		echo "FAIL: $f: a skipped_bytes sample where it is not known"
		fail=1
	}
done
compare mw-folios om.mw-folios mw-rw-pinned om.mw-rw-pinned
[ $fail -eq 0 ] || { grep idletop-scan om.b-folios om.b-rw-pinned; exit 1; }
exit 0
