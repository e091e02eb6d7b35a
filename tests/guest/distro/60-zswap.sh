#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 180
#
# zswap (Debian's config has CONFIG_ZSWAP=y, off at boot; tinyconfig
# none): what a cgroup's reclaim compressed into the zswap pool is not
# resident, and the pool's pages (zbud, kernel memory charged to the
# cgroup, on no LRU) are not the cgroup's pages to scan.  memhold keeps
# 64 MiB of anon, a quarter hot, in a cgroup; with zswap on in front of a
# swap device, memory.reclaim pushes 32 MiB out.  Then memory.stat's
# zswpout and zswapped show the pages went to zswap, idletop's resident
# anon for the cgroup is memory.stat's anon (within 2% of 64 MiB), not
# anon + zswapped, and its idle anon is that minus the 16 MiB memhold
# keeps hot: pages loaded back from zswap are in use, the cold ones still
# resident idle.

set -u
. "$(dirname "$0")/../common"
CG=/sys/fs/cgroup/distro-zswap
Z=/sys/module/zswap/parameters
M=1048576
[ -w $Z/enabled ] || { echo "SKIP: no zswap in this kernel (CONFIG_ZSWAP=n)"; exit 77; }
need_kpageidle

fail=0
pid= swap_off=: was=$(cat $Z/enabled)
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rmdir "$CG" 2>/dev/null
	eval "$swap_off"
	echo "$was" > $Z/enabled
}
trap cleanup EXIT
swap_on zswap 96 || { echo "FAIL: cannot set up swap (file on /mnt/scratch or zram)"; exit 1; }
echo Y > $Z/enabled || exit 1
echo "swap $swap; zswap: $(cat $Z/compressor) in $(cat $Z/zpool)"

mkdir "$CG" || exit 1
memhold --cgroup "$CG" anon 64 0.25 0 ready &
pid=$!
wait_ready $pid ready 60 memhold
cat ready
echo 32M > "$CG/memory.reclaim" || echo "memory.reclaim fell short"
sleep 1

mstat() { awk -v k="$1" '$1 == k { print $2 }' "$CG/memory.stat"; }
echo "memory.stat: anon $(mstat anon) zswap $(mstat zswap) zswapped $(mstat zswapped)" \
	"zswpout $(mstat zswpout) zswpin $(mstat zswpin)"
[ "$(mstat zswpout)" -gt 0 ] && [ "$(mstat zswapped)" -gt 0 ] ||
	{ echo "FAIL: nothing of $CG went to zswap"; exit 1; }
[ "$(mstat zswap)" -gt 0 ] ||
	{ echo "FAIL: the zswap pool holds nothing for $CG (same-filled pages?)"; exit 1; }

idletop --mark-wait 5 --format openmetrics > om || { echo "FAIL: idletop"; exit 1; }
anon=$(mstat anon)
get() { grep -F "$1{cgroup=\"/distro-zswap\",kind=\"anon\"} " om | awk '{ print $2 }'; }
res=$(get idletop_self_resident_bytes) idle=$(get idletop_self_idle_bytes)
echo "idletop: anon resident ${res:-none} idle ${idle:-none}; memory.stat anon $anon"
near() {	# what measured expected
	if awk -v m="$2" -v e="$3" -v s=$((64 * M)) 'BEGIN {
		d = m - e; if (d < 0) d = -d; exit !(d <= 0.02 * s) }'; then
		echo "ok: $1: $2 vs $3"
	else
		echo "FAIL: $1: $2 vs $3: off by more than 2% of 64 MiB"
		fail=1
	fi
}
[ -n "$res" ] && [ -n "$idle" ] || { echo "FAIL: no anon line for /distro-zswap"; exit 1; }
near "resident anon is memory.stat's anon" "$res" "$anon"
[ "$anon" -lt $((56 * M)) ] || { echo "FAIL: reclaim left $anon bytes of 64 MiB"; fail=1; }
near "idle anon is the resident cold part" "$idle" $((res - 16 * M))
exit $fail
