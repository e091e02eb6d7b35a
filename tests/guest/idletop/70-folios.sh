#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 420
#
# The scan ioctl's folio records (KPAGEIDLE_SCAN) in idletop, against
# large folios: XFS page cache (read back by readahead, in folios of 4 to
# 32 pages on 6.1) and PMD THPs.  Our series has the ioctl, so idletop
# must use its records by default ("scan-folios"); then for both paths
# (scan-folios, read-write), periodic (cycle 2) and one-shot
# (--mark-wait), idle and resident bytes per kind are within 2% of
# wsgen's ground truth, and read-write within 2% of scan-folios.
# folioshape checks first that the memory under test is made of large
# folios and THPs (a head-only count would be off by up to 32x and 512x
# for them).  The XFS disk is /dev/vdb (vm/run).

set -u
CG=/sys/fs/cgroup/idletop-folios
XFS=/mnt/xfs
. "$(dirname "$0")/lib"
. "$(dirname "$0")/../common"
# kind size_MiB idle_MiB: anon = anon 16M:0.25 + thp 64M:0.5, file = XFS
# file 64M:0.5 (pread) + XFS mmap 32M:0.25, shmem 16M:0.5
truth="anon 80 44  file 96 56  shmem 16 8"

need_kpageidle
[ -b /dev/vdb ] || { echo "FAIL: no /dev/vdb: vm/run attaches the XFS disk there"; exit 1; }
mkdir -p "$XFS"
mount -t xfs /dev/vdb "$XFS" || { echo "FAIL: cannot mount /dev/vdb (XFS)"; exit 1; }
cleanup() {
	wsgen_cleanup
	umount "$XFS"
}
trap cleanup EXIT

# --- detection ----------------------------------------------------------
if idletop --mark-wait 0 -f json > auto.json 2> auto.err; then
	grep -q '"source":"kpageidle","method":"scan-folios"' auto.json &&
		echo "ok: the default is the folio records" ||
		{ echo "FAIL: default not scan-folios: $(head -c 200 auto.json)"; fail=1; }
else
	echo "FAIL: idletop --mark-wait 0: $(cat auto.err)"
	fail=1
fi
if idletop --source kpageidle-folios --mark-wait 0 > f.txt 2> f.err; then
	head -n 1 f.txt | grep -q 'source kpageidle (scan-folios),' ||
		{ echo "FAIL: text header: $(head -n 1 f.txt)"; fail=1; }
else
	echo "FAIL: --source kpageidle-folios: $(cat f.err)"
	fail=1
fi
[ $fail -eq 0 ] || exit 1

# --- the workload -------------------------------------------------------
mkdir "$CG" || exit 1
wsgen --cgroup "$CG" --dir "$XFS" --reread --interval 20 --ready ready \
	--anon 16M:0.25 --thp 64M:0.5 --file 64M:0.5 --mmap 32M:0.25 \
	--shmem 16M:0.5 &
wsgen_pid=$!
wait_ready $wsgen_pid ready 90 wsgen
cat ready
shape=$(folioshape "$CG") || { echo "FAIL: folioshape"; exit 1; }
echo "folios of $CG (PFNs): $shape"
val() { echo "$shape" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# file + mmap: 24576 PFNs, THP 16384: most must be large
[ "$(val large_file)" -ge 12288 ] ||
	{ echo "FAIL: XFS page cache not in large folios: $shape"; exit 1; }
[ "$(val pmd_anon)" -ge 8192 ] ||
	{ echo "FAIL: too few PMD THPs: $shape"; exit 1; }

# periodic: -o keeps the last report, cycle 2; --mark-wait: one.  The
# read + write path last: it pins wsgen to CPU 0 (./lib: rw_pin).
pin=
for p in folios rw; do
	case $p in
	folios) want=scan-folios ;;
	rw) want=read-write; rw_pin; pin=$RWPIN ;;
	esac
	measure "b-$p" $want --source "kpageidle-$p" -b -n 2 -d 4 --cpu 100
	grep -qx "idletop_cycle 2" "om.b-$p" || { echo "FAIL: b-$p: not cycle 2"; fail=1; }
	measure "mw-$p" $want --source "kpageidle-$p" --mark-wait 4
done
compare b-folios om.b-folios b-rw om.b-rw
compare mw-folios om.mw-folios mw-rw om.mw-rw
[ $fail -eq 0 ] || { grep "${CG##*/}" om.b-folios om.mw-folios; exit 1; }
exit 0
