#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# bench/report over made-up guest consoles (no guest): the flush table
# against the call size (flush on: mark, off: bitmap and write; CPU-s
# per GiB of PFNs visited, per-CPU interrupt rates), and exit 1 on a log
# without results.
# About 1 s.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
report=$top/bench/report
M=1048576

# want NAME FILE REGEX: a line of FILE matches the extended REGEX
want() {
	if grep -Eq -- "$3" "$2"; then ok "$1"; else bad "$1: no line like /$3/ in:"; cat "$2"; fi
}

info="BENCHINFO mem_total_kb=2000000 cpus=2 cpus_online=0-1 kernel=6.1.192-idlemem"

# the flush against the call size
{
	echo "$info"
	echo "FLUSHINFO touch_mib=4 tick_ms=20"
	echo "FLUSHCALL mode=ipi round=1 calls=200 wall_us=40 cpu_us=40 tlb=200 cal=200 accessed=190"
	echo "FLUSHCALL mode=write round=1 calls=200 wall_us=6 cpu_us=6 tlb=0 cal=0 accessed=-1"
	for m in mark bitmap write test; do
		case $m in
		mark) c=0.5 cal=0,200 tlb=0,180 ops=50 ;;
		bitmap) c=0.25 cal=0,2 tlb=0,0 ops=100 ;;
		*) c=0.3 cal=0,2 tlb=0,0 ops=100 ;;
		esac
		echo "FLUSHLOOP mode=$m chunk=512 calls=1000 pfns=524288 seconds=2.000 tlb=${tlb#0,} cal=${cal#0,} targets=0 cpu_s=$c cal_cpu=$cal tlb_cpu=$tlb"
		echo "TOUCH run=flush-512-$m ops=1 seconds=3 ops_per_s=$ops cpu_s=3 ops_per_cpu_s=$ops"
	done
} > "$tmp/flush.log"
"$report" --json "$tmp/flush.json" "$tmp/flush.log" > "$tmp/flush.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "flush: exit 0" || { bad "flush: exit $rc"; cat "$tmp/flush.out"; }
want "flush: flush on (mark) at 512 PFNs per call" "$tmp/flush.out" \
	'^512 +mark +on +50 +0\.50x +0\.50x +0\.250 +500 +0,100 +0,90$'
want "flush: flush off (bitmap) at 512 PFNs per call" "$tmp/flush.out" \
	'^512 +bitmap +off +100 +1\.00x +1\.00x +0\.125 +500 +0,1 +0,0$'
want "flush: the ratios line" "$tmp/flush.out" \
	'^512-PFN calls: touchloop with the flushing ioctl / with bitmap marking 0\.50x, / write\(\) marking 0\.50x, / test only 0\.50x;$'
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); r = [x for x in d["flush_loops"] if x["scanner"] == "mark"][0]; assert r["cal_per_s"] == [0, 100], r' \
	"$tmp/flush.json" 2> "$tmp/err" && ok "flush: JSON flush_loops" ||
	{ bad "flush: JSON flush_loops"; cat "$tmp/err" "$tmp/flush.json"; }

# no results at all
echo "$info" > "$tmp/empty.log"
"$report" "$tmp/empty.log" > /dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && ok "no results: exit 1" || bad "no results: exit $rc, not 1"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
