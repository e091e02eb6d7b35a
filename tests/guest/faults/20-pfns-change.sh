#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# idletop over a fixture --root (regular files for kpageflags, kpagecgroup
# and kpageidle, as in tests/unit) whose number of PFNs changes between
# cycles, as memory hotplug would make it (hotplug is not in the guest's
# config): more PFNs than at start, then fewer than at start.  idletop
# must keep reporting every cycle and exit 0, count the added PFNs in a
# cycle before the shrink (the engine recounts them at the end of each
# cycle, recount_pfns() in top/scan.c), and count only the PFNs left in
# its last cycle.

set -u
fail=0
R=$PWD/root
mkdir -p $R/proc/self cg/a
echo "30 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw" > $R/proc/self/mountinfo
ino=$(stat -c %i cg/a)

# u64s FILE COUNT VALUE: append COUNT native-endian copies of VALUE (< 2^32)
u64s() {
	v=$3 one=
	for k in 1 2 3 4; do
		one="$one\\$(printf %03o $((v & 255)))"
		v=$((v >> 8))
	done
	printf "$one\\0\\0\\0\\0" > one.bin
	cat one.bin one.bin one.bin one.bin one.bin one.bin one.bin one.bin > b8
	cat b8 b8 b8 b8 b8 b8 b8 b8 > b64
	cat b64 b64 b64 b64 b64 b64 b64 b64 > b512
	n=$2
	while [ "$n" -ge 512 ]; do cat b512 >> "$1"; n=$((n - 512)); done
	while [ "$n" -gt 0 ]; do cat one.bin >> "$1"; n=$((n - 1)); done
}
# pages FIRST COUNT: COUNT LRU (bit 5) anon (bit 12) pages charged to cg/a, idle
pages() {
	u64s $R/proc/kpageflags "$2" $(( (1 << 5) | (1 << 12) ))
	u64s $R/proc/kpagecgroup "$2" "$ino"
	u64s $R/proc/kpageidle "$2" 1
}
: > $R/proc/kpageflags; : > $R/proc/kpagecgroup; : > $R/proc/kpageidle
pages 0 8192
[ "$(stat -c %s $R/proc/kpageflags)" -eq 65536 ] || { echo "fixture: bad size"; exit 1; }

: > out
idletop -b -d 1 -n 6 --cpu 100 --root $R --cgroup "$PWD/cg" --format json > out 2> err &
pid=$!
n=0
while [ "$(wc -l < out)" -lt 2 ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
pages 8192 8192			# grows to 16384 PFNs
echo "grown to $(( $(stat -c %s $R/proc/kpageflags) / 8 )) PFNs after report $(wc -l < out)"
n=0
while [ "$(wc -l < out)" -lt 4 ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
for f in kpageflags kpagecgroup kpageidle; do
	dd if=$R/proc/$f of=$f.short bs=8 count=4096 2>/dev/null && cat $f.short > $R/proc/$f
done
echo "shrunk to $(( $(stat -c %s $R/proc/kpageflags) / 8 )) PFNs after report $(wc -l < out)"
wait $pid
rc=$?
lines=$(wc -l < out)
if [ $rc -eq 0 ] && [ "$lines" -eq 6 ] && [ ! -s err ]; then
	echo "ok: PFN count changed under idletop: 6 reports, exit 0"
else
	echo "FAIL: exit $rc, $lines reports (want 0, 6)"; cat err; fail=1
fi
# per report: cycle, PFNs scanned, /a's resident bytes
jq -c '[.cycle, .pfns, (.cgroups[] | select(.path == "/a") | .resident)]' out > per-cycle ||
	{ echo "FAIL: reports do not parse"; exit 1; }
cat per-cycle
grep -q ',16384,67108864]$' per-cycle ||
	{ echo "FAIL: no cycle counted the 8192 added PFNs (16384, 64 MiB for /a)"; fail=1; }
[ "$(tail -n 1 per-cycle | cut -d, -f2-)" = "4096,16777216]" ] ||
	{ echo "FAIL: the last cycle did not count only the 4096 PFNs left"; fail=1; }
exit $fail
