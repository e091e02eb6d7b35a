#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# bench/report over made-up guest consoles (no guest): the peers table
# (idle against the truth in % of the size, medians over cycles, DAMON's
# cycles without an aggregation left out of the medians but not of the
# interrupt rates, per-CPU CAL and TLB rates, CPU per GiB of RAM, idle
# by kind), the flush table against the call size (flush on: mark, off:
# bitmap and write; CPU-s per GiB of PFNs visited, per-CPU interrupt
# rates), a failed peer marked FAILED with exit 3 (which makes bench/run,
# i.e. make bench, fail), and exit 1 on a log without results; the scan
# methods table (idletop with the ioctl's folio records against read +
# write, an idletop run of another method flagged); the folio records
# table (bench/report-folios: records against read + write, no verdict
# for the targets set against the ioctl's bit output, exit 3 for a run
# of another method); the rmap lock table (bench/report-rmaplock); the
# programs bench/run builds build.  About 2 s.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
report=$top/bench/report
M=1048576

# exits NAME WANT OUT CMD...: CMD exits WANT, its output in OUT (shown
# when it does not)
exits() {
	local name=$1 want=$2 out=$3 rc
	shift 3
	"$@" > "$out" 2>&1
	rc=$?
	[ $rc -eq "$want" ] && ok "$name: exit $want" ||
		{ bad "$name: exit $rc, not $want"; cat "$out"; }
}

# want NAME FILE REGEX: a line of FILE matches the extended REGEX
want() {
	if grep -Eq -- "$3" "$2"; then ok "$1"; else bad "$1: no line like /$3/ in:"; cat "$2"; fi
}

# refute NAME FILE ERE: no line of FILE matches ERE
refute() {
	if grep -Eq -- "$3" "$2"; then bad "$1: a line like /$3/ in:"; cat "$2"; else ok "$1"; fi
}

# json_ok NAME FILE PYTHON: the assertion PYTHON holds of d, FILE's JSON
json_ok() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $3" "$2" \
		2> "$tmp/err" && ok "$1" || { bad "$1"; cat "$tmp/err" "$2"; }
}

info="BENCHINFO mem_total_kb=2000000 cpus=2 cpus_online=0-1 kernel=6.1.192-idlemem"
# anon: 1 GiB, 768 MiB idle; ioctl reads 768 and 770 MiB (median 769:
# +0.1% of the size), DAMON one cycle without an aggregation (ignored for
# idle and CPU) and two with, MGLRU by kind
peer() {	# peer cycle wall cpu idle busy cal tlb [extra]
	echo "PEER scen=anon peer=$1 cycle=$2 wall_s=$3 cpu_s=$4 idle=$5 busy=$6" \
		"resident=$((1024 * M)) idle_anon=${10:-$5} idle_file=${11:-0} idle_shmem=-1" \
		"cal=$7 tlb=$8 ${9:-}"
}
{
	echo "$info"
	echo "BENCHINFO peer_cycles=2 peer_fill=50 peer_wait=2 peer_tick_ms=10"
	echo "PEERTRUTH scen=anon size=$((1024 * M)) idle=$((768 * M)) kinds=anon:$((1024 * M)):$((768 * M)),file:0:0,mmap:0:0,shmem:0:0,thp:0:0"
	echo "PEERSCEN scen=anon ticker=10"
	peer none 1 2.0 0 -1 -1 2,4 0,0
	peer none 2 2.0 0 -1 -1 2,4 0,0
	echo "PEERSUM scen=anon peer=none cycles=2 ram_bytes=$((2048 * M)) monitored=$((2048 * M))"
	peer ioctl 1 2.0 0.2 $((768 * M)) $((256 * M)) 10,20 4,8
	peer ioctl 2 2.0 0.4 $((770 * M)) $((254 * M)) 30,40 4,8
	echo "PEERSUM scen=anon peer=ioctl cycles=2 ram_bytes=$((2048 * M)) monitored=$((2048 * M))"
	peer mglru 1 2.0 0.05 $((700 * M)) $((324 * M)) 1,1 0,0 "" $((600 * M)) $((100 * M))
	peer mglru 2 2.0 0.05 $((700 * M)) $((324 * M)) 1,1 0,0 "" $((600 * M)) $((100 * M))
	echo "PEERSUM scen=anon peer=mglru cycles=2 ram_bytes=$((2048 * M)) monitored=0"
	peer damon 1 2.0 0 -1 -1 6,2 0,0 aggr=0
	peer damon 2 2.0 0.1 $((512 * M)) $((512 * M)) 6,2 0,0 aggr=1
	peer damon 3 2.0 0.3 $((512 * M)) $((512 * M)) 6,2 0,0 aggr=1
	echo "PEERSUM scen=anon peer=damon cycles=3 ram_bytes=$((2048 * M)) monitored=$((2040 * M))"
} > "$tmp/peers.log"

exits peers 0 "$tmp/peers.out" "$report" --mem 2G --json "$tmp/peers.json" "$tmp/peers.log"
want "peers: ioctl row (median idle, error, CPU per GiB of RAM, per-CPU rates)" "$tmp/peers.out" \
	'^anon +ioctl +2 +769 +768 +\+0\.1% +255 +0\.3000 +0\.1500 +0\.3000 +10,15 +2,4$'
want "peers: none row (the workload alone)" "$tmp/peers.out" '^anon +none +2 +- +768 +- +- +- +- +- +1,2 +0,0$'
want "peers: DAMON row (cycles without an aggregation out of the medians)" "$tmp/peers.out" \
	'^anon +damon +2 +512 +768 +-25\.0% +512 +0\.2000 +0\.1000 +0\.2000 +3,1 +0,0$'
want "peers: MGLRU row" "$tmp/peers.out" '^anon +mglru +2 +700 +768 +-6\.6% +324 +0\.0500 '
want "peers: JSON" "$tmp/peers.json" '"scenario":"anon","peer":"ioctl","ticker_ms":10,"cycles":2,"idle_bytes":8\.06355e\+08'
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/peers.json" 2> "$tmp/err" &&
	ok "peers: the JSON parses" || { bad "peers: the JSON does not parse"; cat "$tmp/err" "$tmp/peers.json"; }

# mixed kinds: idle by kind, truth beside each peer's
{
	echo "$info"
	echo "BENCHINFO peer_cycles=1 peer_fill=50 peer_wait=2 peer_tick_ms=10"
	echo "PEERTRUTH scen=mix size=$((400 * M)) idle=$((300 * M)) kinds=anon:$((100 * M)):$((75 * M)),file:$((100 * M)):$((75 * M)),mmap:$((100 * M)):$((75 * M)),shmem:$((50 * M)):$((25 * M)),thp:$((50 * M)):$((50 * M))"
	echo "PEERSCEN scen=mix ticker=0"
	echo "PEER scen=mix peer=ioctl cycle=1 wall_s=2 cpu_s=0.1 idle=$((300 * M)) busy=$((100 * M)) resident=$((400 * M)) idle_anon=$((125 * M)) idle_file=$((150 * M)) idle_shmem=$((25 * M)) cal=1,1 tlb=0,0"
	echo "PEERSUM scen=mix peer=ioctl cycles=1 ram_bytes=$((2048 * M)) monitored=$((2048 * M))"
} > "$tmp/mix.log"
"$report" "$tmp/mix.log" > "$tmp/mix.out" 2>&1
want "peers: idle by kind, truth (anon + THP, file + mmap, shmem) and ioctl" "$tmp/mix.out" \
	'mix, idle MiB by kind: truth anon 125 file 150 shmem 25; ioctl anon 125 file 150 shmem 25; damon: no kinds'
want "peers: scenario without the ticker says so" "$tmp/mix.out" 'mix: ticker none'

# a failed peer: FAILED on its row, exit 3; one that failed before its
# first cycle has dashes for figures
{
	cat "$tmp/peers.log"
	echo "PEERSUM scen=anon peer=mglru failed=1"
	echo "PEERTRUTH scen=anon-tlb size=$((1024 * M)) idle=$((768 * M)) kinds=anon:$((1024 * M)):$((768 * M)),file:0:0,mmap:0:0,shmem:0:0,thp:0:0"
	echo "PEERSUM scen=anon-tlb peer=mglru failed=1"
} > "$tmp/fail.log"
"$report" "$tmp/fail.log" > "$tmp/fail.out" 2> "$tmp/fail.err"
rc=$?
[ $rc -eq 3 ] && ok "peers: a failed peer exits 3" || bad "peers: a failed peer exits $rc, not 3"
want "peers: the failed row says FAILED" "$tmp/fail.out" '^anon +mglru .*\(FAILED\)$'
want "peers: stderr names the failed run" "$tmp/fail.err" 'runs FAILED.*peers anon mglru'
want "peers: a peer without a cycle has no figures" "$tmp/fail.out" \
	'^anon-tlb +mglru +0 +- +768 +- +- +- +- +- +- +-  \(FAILED\)$'

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
exits flush 0 "$tmp/flush.out" "$report" --json "$tmp/flush.json" "$tmp/flush.log"
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
exits "no results" 1 "$tmp/empty.out" "$report" "$tmp/empty.log"

# the scan methods: raw cycles against the ioctl, idletop with its folio
# records against read + write; an idletop run that fell back to another
# method says so
scanlog() {	# method of the active idletop-folios run
	echo "$info"
	echo "BENCHINFO pfns=524288"
	echo "BENCH name=floor user=0.000000 sys=0.500000 wall=0.500000 rc=0"
	for wl in idle active; do
		echo "BENCH name=scan-$wl-ioctl user=0.000000 sys=0.150000 wall=0.150000 rc=0"
		echo "BENCHIDLE name=scan-$wl-ioctl pfns=524288 idle=262144"
		echo "BENCH name=scan-$wl-rw user=0.000000 sys=0.300000 wall=0.300000 rc=0"
		echo "BENCHIDLE name=scan-$wl-rw pfns=524288 idle=262144"
		echo "BENCH name=scan-$wl-bitmap user=0.000000 sys=0.450000 wall=0.450000 rc=0"
		echo "BENCHIDLE name=scan-$wl-bitmap pfns=524288 idle=262144"
		echo "BENCHCYCLE name=idletop-$wl-folios cpu_seconds=0.2 method=$([ $wl = idle ] && echo scan-folios || echo "$1")"
		echo "BENCHCYCLE name=idletop-$wl-rw cpu_seconds=0.5 method=read-write"
	done
}
scanlog scan-folios > "$tmp/scan.log"
exits "scan methods" 0 "$tmp/scan.out" "$report" --json "$tmp/scan.json" "$tmp/scan.log"
want "scan methods: raw ioctl row" "$tmp/scan.out" \
	'^idle +raw ioctl +0\.150 +0\.000 +0\.150 +286 +1024 MiB +1\.00x$'
want "scan methods: raw read + write against the ioctl" "$tmp/scan.out" \
	'^idle +raw kpageidle r\+w +0\.300 .* 2\.00x$'
want "scan methods: idletop with folio records" "$tmp/scan.out" \
	'^idle +idletop kpageidle-folios +0\.200 +- +- +381 +- +1\.00x$'
want "scan methods: idletop read + write against the records" "$tmp/scan.out" \
	'^idle +idletop kpageidle-rw +0\.500 +- +- +954 +- +2\.50x$'
want "scan methods: the ratios line" "$tmp/scan.out" \
	'^mostly idle: read\+write / ioctl 2\.00x, bitmap / ioctl 3\.00x, idletop rw / folios 2\.50x \(target >= 1\.8x: met\)$'
refute "scan methods: no row for the bit output's idletop source" \
	"$tmp/scan.out" 'kpageidle-scan|scan-ioctl'
json_ok "scan methods: JSON" "$tmp/scan.json" \
	'assert d["scan_ratios"]["idle_idletop_rw_over_folios"] == 2.5, d["scan_ratios"]'
scanlog read-write > "$tmp/scan2.log"
"$report" "$tmp/scan2.log" > "$tmp/scan2.out" 2>&1
want "scan methods: idletop that ran read + write for folios is flagged" "$tmp/scan2.out" \
	'^active +idletop kpageidle-folios .*\(NOT the ioctl: read-write\)$'

# the folio records part: idletop with the records against read + write
foliolog() {	# method of the thp scenario's rw runs
	echo "$info"
	echo "BENCHFINFO scen=mix65 MemTotal=2000000 MemFree=600000"
	echo "BENCHREC name=mix65 records=1500 calls=9 covered=337920 idle=200000 folios=270000 pfns=524288 cpu_s=1.5"
	echo "BENCHFINFO scen=thp MemTotal=2000000 MemFree=600000"
	echo "BENCHREC name=thp records=400 calls=9 covered=337920 idle=200000 folios=56000 pfns=524288 cpu_s=0.2"
	echo "BENCHFINFO scen=mix10 MemTotal=2000000 MemFree=1700000"
	echo "BENCHREC name=mix10 records=400 calls=9 covered=56320 idle=20000 folios=46000 pfns=524288 cpu_s=0.1"
	for r in 1 2 3; do
		echo "BENCHFC scen=mix65 src=folios cpu_seconds=1.$r method=scan-folios cgroups=6 maxrss_kb=1900"
		echo "BENCHFC scen=mix65 src=rw cpu_seconds=2.$r method=read-write cgroups=6 maxrss_kb=2300"
		echo "BENCHFC scen=thp src=folios cpu_seconds=0.2 method=scan-folios cgroups=3 maxrss_kb=1400"
		echo "BENCHFC scen=thp src=rw cpu_seconds=1.6 method=$1 cgroups=3 maxrss_kb=2300"
		echo "BENCHFC scen=mix10 src=folios cpu_seconds=0.22 method=scan-folios cgroups=6 maxrss_kb=1400"
		echo "BENCHFC scen=mix10 src=rw cpu_seconds=0.8 method=read-write cgroups=6 maxrss_kb=2300"
	done
}
foliolog read-write > "$tmp/folios.log"
exits folios 0 "$tmp/folios.out" "$top/bench/report-folios" --mem 2G --json "$tmp/folios.json" "$tmp/folios.log"
want "folios: the header names read + write" "$tmp/folios.out" \
	'^scenario +user MiB +cgroups +r\+w s +folios s +f/rw +records +LRU folios +rec/fol +calls +maxrss KiB r/f$'
want "folios: the mix row" "$tmp/folios.out" \
	'^mix65 +1320 +6 +2\.200 +1\.200 +0\.55x +1500 +270000 +0\.006 +9 +2300/1900 *$'
want "folios: the 10%/65% target, against the records alone" "$tmp/folios.out" \
	'^targets: 10% used / 65% used with folios 0\.18x \(<= 0\.33x: met; with read \+ write 0\.36x\);$'
want "folios: no verdict against read + write" "$tmp/folios.out" \
	'^  mix folios/rw 0\.55x, THP-heavy 0\.12x: no verdict'
refute "folios: the mix and THP targets get no verdict" \
	"$tmp/folios.out" 'mix folios/rw.*(met|NOT)'
json_ok "folios: JSON" "$tmp/folios.json" \
	's = d["scenarios"][0]; assert s["rw_cpu_s"] == 2.2 and s["folios_over_rw"] > 0.5, s'
foliolog scan-folios > "$tmp/folios2.log"
"$top/bench/report-folios" "$tmp/folios2.log" > "$tmp/folios2.out" 2> "$tmp/folios2.err"
rc=$?
[ $rc -eq 3 ] && ok "folios: an rw run of another method exits 3" ||
	{ bad "folios: an rw run of another method exits $rc, not 3"; cat "$tmp/folios2.out" "$tmp/folios2.err"; }
want "folios: the row says so" "$tmp/folios2.out" '^thp .*\(rw ran as scan-folios\)$'
exits "folios: no results" 1 "$tmp/folios-empty.out" "$top/bench/report-folios" "$tmp/empty.log"

# the rmap lock part: bench/report-rmaplock's table, exit 1 without it
{
	echo "RMAPLOCKINFO sharers=500 pages=64 pfn_lo=7040 pfn_hi=524234 words=3 ioctl_pages=87 seconds=5.0 rounds=5"
	echo "RMAPLOCK round=1 mode=none ops=240765 p50_us=16.9 p99_us=44.8 max_us=9456.6 passes=0 pass_cpu_ms=0.00 pages=0"
	echo "RMAPLOCKSUM mode=none p50_us=14.1 p99_us=37.1 max_us=4927.1 p99_x=1.00 max_x=1.00 walk_us=0.0"
	echo "RMAPLOCKSUM mode=ioctl p50_us=14.2 p99_us=61.9 max_us=5086.8 p99_x=1.67 max_x=1.03 walk_us=103.8"
} | sed 's/$/\r/' > "$tmp/rmaplock.log"
exits rmaplock 0 "$tmp/rmaplock.out" "$top/bench/report-rmaplock" "$tmp/rmaplock.log"
want "rmaplock: the setting" "$tmp/rmaplock.out" \
	'^rmap lock: mmap\+munmap of one page of a 64-page file that 500 processes map,$'
want "rmaplock: no scanner, no CPU column" "$tmp/rmaplock.out" \
	'^none +14\.1 +37\.1 +4927\.1 +1\.00 +1\.00 +-$'
want "rmaplock: the ioctl row" "$tmp/rmaplock.out" \
	'^ioctl +14\.2 +61\.9 +5086\.8 +1\.67 +1\.03 +103\.8$'
[ "$(grep -c '^scanner ' "$tmp/rmaplock.out")" = 1 ] && ok "rmaplock: one header" ||
	{ bad "rmaplock: not one header line"; cat "$tmp/rmaplock.out"; }
exits "rmaplock: no results" 1 "$tmp/rmaplock-empty.out" \
	"$top/bench/report-rmaplock" "$tmp/empty.log"

# the bench programs build as bench/run builds them (nothing else does),
# and rmaplock refuses bad arguments with its usage
progs=$(sed -n 's/^for p in \(.*\); do$/\1/p' "$top/bench/run")
[ -n "$progs" ] || bad "no list of programs in bench/run"
for n in $progs; do
	p=$top/bench/$n.c
	if gcc -O2 -g0 -Wall -Wextra -Werror -static -I"$top/top" -o "$tmp/$n" "$p" \
		2> "$tmp/$n.err"; then
		ok "bench/$n.c builds"
	else
		bad "bench/$n.c does not build"; cat "$tmp/$n.err"
	fi
done
if [ -x "$tmp/rmaplock" ]; then
	"$tmp/rmaplock" 500 64 5 > /dev/null 2> "$tmp/usage.err"
	rc=$?
	[ $rc -eq 2 ] && grep -q '^usage: rmaplock SHARERS PAGES SECONDS ROUNDS CGROUP_DIR' "$tmp/usage.err" &&
		ok "rmaplock: usage, exit 2" || { bad "rmaplock: bad arguments gave exit $rc"; cat "$tmp/usage.err"; }
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
