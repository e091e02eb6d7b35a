#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`, guest side (busybox sh, root).  bench/run installs this as
# /usr/local/share/bench/run-guest.sh with the bench binaries and sources it
# from the job after setting:
#   BENCH_REPS      measured cycles per method (default 5)
#   BENCH_WAIT      seconds between mark and read (default 2)
#   BENCH_FILL      percent of MemTotal the workloads fill (default 65)
#   BENCH_TOUCH_S   seconds per touchloop run (default 4)
#   BENCH_DAEMON_S  seconds idletop -b runs undisturbed (default 30)
#   BENCH_PAIRS     touchloop pairs (idletop stopped, running) (default 4)
#   BENCH_SCAN_HOT  hot fraction of the scan-methods workload (default 0.9)
#   BENCH_PEER_*    the peers part: run-peers.sh
#   BENCH_ONLY      "flush": only the TLB flush part, on an idle guest;
#                   "folios": only the folio records part (run-folios.sh);
#                   "peers": only the peers part (run-peers.sh);
#                   "rmaplock": only the rmap lock part
#   BENCH_FLUSH_CALLS   flush cost: calls per mode per round (default 200)
#   BENCH_FLUSH_ROUNDS  flush cost: rounds of calls (default 10)
#   BENCH_FLUSH_PAIRS   flush cost: touchloop rounds per call size (default 3)
#   BENCH_FLUSH_CHUNKS  flush cost: call sizes in PFNs, 64pid = 64-PFN
#                       calls over touchloop's chunks only (default
#                       "64 512 4096 65536 64pid")
#   BENCH_FLUSH_TOUCH_S flush cost: seconds per touchloop run (default 3)
#   BENCH_FLUSH_TOUCH_MIB flush cost: touchloop's memory (default 4)
#   BENCH_FLUSH_TICK_MS flush cost: touchloop's ticker (default 20)
#   BENCH_RMAPLOCK_SHARERS rmap lock: processes mapping the file (default 500)
#   BENCH_RMAPLOCK_PAGES   rmap lock: pages of the file (default 64)
#   BENCH_RMAPLOCK_SECONDS rmap lock: seconds per mode and round (default 5)
#   BENCH_RMAPLOCK_ROUNDS  rmap lock: rounds (default 5)
#
# Output: lines "BENCH ...", "BENCHSTEP ...", "TOUCH ...", "BENCHINFO ...",
# "BENCHIDLE ...", "BENCHCYCLE ...", "FLUSHINFO ...", "FLUSHCALL ...",
# "FLUSHLOOP ..." that bench/report turns into the table and JSON, and
# "RMAPLOCK ...", "RMAPLOCKSUM ...", "RMAPLOCKINFO ..." (bench/run).
set -u
REPS=${BENCH_REPS:-5}
WAIT=${BENCH_WAIT:-2}
FILL=${BENCH_FILL:-65}
TOUCH_S=${BENCH_TOUCH_S:-4}
DAEMON_S=${BENCH_DAEMON_S:-30}
PAIRS=${BENCH_PAIRS:-4}
SCAN_HOT=${BENCH_SCAN_HOT:-0.9}
ONLY=${BENCH_ONLY:-}
FLUSH_CALLS=${BENCH_FLUSH_CALLS:-200}
FLUSH_ROUNDS=${BENCH_FLUSH_ROUNDS:-10}
FLUSH_PAIRS=${BENCH_FLUSH_PAIRS:-3}
FLUSH_CHUNKS=${BENCH_FLUSH_CHUNKS:-64 512 4096 65536 64pid}
FLUSH_TOUCH_S=${BENCH_FLUSH_TOUCH_S:-3}
FLUSH_TOUCH_MIB=${BENCH_FLUSH_TOUCH_MIB:-4}
FLUSH_TICK_MS=${BENCH_FLUSH_TICK_MS:-20}
RMAPLOCK_SHARERS=${BENCH_RMAPLOCK_SHARERS:-500}
RMAPLOCK_PAGES=${BENCH_RMAPLOCK_PAGES:-64}
RMAPLOCK_SECONDS=${BENCH_RMAPLOCK_SECONDS:-5}
RMAPLOCK_ROUNDS=${BENCH_RMAPLOCK_ROUNDS:-5}
INTERVAL=250	# wsgen: hot memory touched every 250 ms (several times per WAIT)
CG=/sys/fs/cgroup/bench
DIR=/mnt/scratch/bench

info() { echo "BENCHINFO $*"; }
die() { echo "bench: $*" >&2; exit 1; }

pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	for d in "$CG"/*/; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
	rmdir "$CG" 2>/dev/null
}
trap cleanup EXIT

[ -e /proc/kpageidle ] || die "no /proc/kpageidle"
[ -e /sys/kernel/mm/page_idle/bitmap ] || die "no page_idle/bitmap"
mkdir -p "$DIR" "$CG" || die "mkdir"
echo +memory > "$CG/cgroup.subtree_control" || die "subtree_control"

mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
info mem_total_kb=$mem_kb cpus=$(nproc) cpus_online=$(cat /sys/devices/system/cpu/online) kernel=$(uname -r)
# Sizes in MiB, shares of the fill: web anon 30% + shmem 8%, db file 20% +
# mmap 15%, batch THP 20%, cache anon 7%.
fill=$(( mem_kb * FILL / 100 / 1024 ))
# The measurement order of one repetition, first method moved to the end,
# so that no method always runs right after the same one.
rotate() { set -- $order; first=$1; shift; order="$* $first"; }

sz() { echo "$(( fill * $1 / 100 ))M"; }

# The TLB flush at the end of every KPAGEIDLE_SCAN_MARK call,
# on a guest without the workloads.  (1) Per call: scanbench flush-calls,
# pinned to CPU 0, over one 64-PFN chunk holding a THP of a process
# spinning on CPU 1 (every call flushes CPU 1 with an IPI), of a process
# asleep on CPU 0 (nothing to interrupt), the same rmap walk by write()
# (no flush) and a chunk without user pages; the modes rotate per round.
# (2) Cost to a workload and interrupts against the call size: touchloop
# on CPU 1 (FLUSH_TOUCH_MIB, small enough to stay in a hardware TLB)
# while scanbench cycles over all PFNs on CPU 0 in calls of 64, 512,
# 4 Ki and 64 Ki PFNs (FLUSH_CHUNKS), marking with the ioctl (mark: a
# flush per call), through page_idle/bitmap (bitmap: the same walks and
# accessed bits cleared by mainline's page_idle.c, no flush: the flush
# off), by write() to /proc/kpageidle (write: the same, no flush) or
# testing only (test); the four alternate, rotating per round; and in
# 64-PFN calls over only the chunks that hold touchloop's pages (64pid:
# every marking call flushes touchloop's CPU, back to back, the worst
# case).
# touchloop runs with a ticker (a process on CPU 1 that sleeps
# FLUSH_TICK_MS in a loop): QEMU TCG resizes its software TLB only when
# the TLB is flushed, so without other flushes the baselines would keep a
# TLB too small for touchloop and run several times slower than the
# flushing scanner's run (docs/performance.md).
flushphase() {
	if [ "$(nproc)" -lt 2 ]; then
		info flush=skipped_one_cpu
		return
	fi
	echo "FLUSHINFO touch_mib=$FLUSH_TOUCH_MIB tick_ms=$FLUSH_TICK_MS"
	echo "--- flush cost: $FLUSH_CALLS calls per mode, $FLUSH_ROUNDS rounds"
	scanbench flush-calls "$FLUSH_CALLS" "$FLUSH_ROUNDS" ||
		die "scanbench flush-calls failed"
	for chunk in $FLUSH_CHUNKS; do
		order="mark bitmap write test"
		r=1
		while [ $r -le "$FLUSH_PAIRS" ]; do
			echo "--- flush cost: touchloop on CPU 1, scanner on CPU 0, $chunk-PFN calls, round $r: $order"
			for m in $order; do
				if [ $chunk = 64pid ]; then
					taskset 2 touchloop "$FLUSH_TOUCH_MIB" \
						"$FLUSH_TOUCH_S" "$FLUSH_TICK_MS" 1 > /tmp/touch.out &
					tp=$!
					sleep 0.5
					taskset 1 scanbench loop "$m" 600 64 $tp > /tmp/loop.out &
					sp=$!
				else
					taskset 1 scanbench loop "$m" 600 "$chunk" > /tmp/loop.out &
					sp=$!
					sleep 0.5
					taskset 2 touchloop "$FLUSH_TOUCH_MIB" \
						"$FLUSH_TOUCH_S" "$FLUSH_TICK_MS" > /tmp/touch.out &
					tp=$!
				fi
				wait $tp || die "touchloop failed"
				kill -TERM $sp
				wait $sp || die "scanbench loop $m $chunk failed"
				sed "s/^TOUCH /TOUCH run=flush-$chunk-$m /" /tmp/touch.out
				sed "s/^FLUSHLOOP /FLUSHLOOP round=$r /" /tmp/loop.out
			done
			rotate
			r=$((r + 1))
		done
	done
}
# The rmap lock: an rmap walk holds a file's i_mmap_rwsem for read while
# it visits every mapping of the page, and mmap()/munmap() of the file
# wait for it.  rmaplock times mmap+munmap pairs of a file that
# RMAPLOCK_SHARERS processes map, on CPU 0, while a scanner on CPU 1 marks
# the file's pages with the scan ioctl (filtered by the cgroup the file
# is charged to), through page_idle/bitmap (mainline: the same walks) or
# not at all; before the workloads start.
rmaplockphase() {
	if [ "$(nproc)" -lt 2 ]; then
		info rmaplock=skipped_one_cpu
		return
	fi
	echo "--- rmap lock: $RMAPLOCK_SHARERS sharers, $RMAPLOCK_PAGES pages, $RMAPLOCK_ROUNDS rounds"
	rmaplock "$RMAPLOCK_SHARERS" "$RMAPLOCK_PAGES" "$RMAPLOCK_SECONDS" \
		"$RMAPLOCK_ROUNDS" "$CG/rmaplock" || die "rmaplock failed"
	rmdir "$CG/rmaplock" 2>/dev/null
}
if [ "$ONLY" = rmaplock ]; then
	t0=$(date +%s)
	rmaplockphase
	info done_s=$(( $(date +%s) - t0 ))
	exit 0
fi
if [ "$ONLY" = flush ]; then
	t0=$(date +%s)
	flushphase
	info done_s=$(( $(date +%s) - t0 ))
	exit 0
fi
# The folio records: idletop's cycle with and without them.
. /usr/local/share/bench/run-folios.sh
if [ "$ONLY" = folios ]; then
	folio_phase
	exit 0
fi
# The peers: the scan ioctl, MGLRU's aging and DAMON on the same workloads.
. /usr/local/share/bench/run-peers.sh
if [ "$ONLY" = peers ]; then
	peer_phase
	exit 0
fi

start() {	# name wsgen-args...
	n=$1; shift
	mkdir -p "$CG/$n" || die "mkdir $CG/$n"
	wsgen --cgroup "$CG/$n" --dir "$DIR" --interval $INTERVAL \
		--ready "/tmp/ready.$n" "$@" > /dev/null &
	pids="$pids $!"
}
t0=$(date +%s)
rmaplockphase
start web --anon "$(sz 30):0.25" --shmem "$(sz 8):0.5"
start db --file "$(sz 20):0.25" --mmap "$(sz 15):0.25"
start batch --thp "$(sz 20):0.25"
start cache --anon "$(sz 7):0.1"
for n in web db batch cache; do
	ready_wait "/tmp/ready.$n" "$n"
	info "workload=$n $(cat "/tmp/ready.$n")"
done
info populate_s=$(( $(date +%s) - t0 ))
awk '/^(MemTotal|MemFree|Cached|AnonPages|Shmem|AnonHugePages):/ {
	printf "BENCHINFO meminfo %s %d\n", $1, $2 }' /proc/meminfo
echo "--- idletop --mark-wait $WAIT (sanity: what is being scanned)"
idletop --mark-wait "$WAIT" || die "idletop failed"

# One full cycle per method: mark, WAIT seconds of workload activity, read
# (and aggregate, where the method does).  Methods rotate per repetition.
# idletop-slice1s is idletop-kpageidle with --slice-ms 1000: full 64 Ki-PFN
# slices, to show what the 10 ms slices cost under TCG.  idletop-kpageidle
# and -slice1s force read + write (kpageidle-rw), as before the scan
# ioctl; idletop-folios is the same cycle with the KPAGEIDLE_SCAN ioctl
# (its folio records, no kpageflags or kpagecgroup read).
cycle() {	# method
	case $1 in
	floor) benchrun --name floor -- scanbench floor-mark :: \
		@sleep "$WAIT" :: scanbench floor-read ;;
	idletop-kpageidle) benchrun --name "$1" --subtract "$WAIT" -- \
		idletop --source kpageidle-rw --mark-wait "$WAIT" -f json ;;
	idletop-slice1s) benchrun --name "$1" --subtract "$WAIT" -- \
		idletop --source kpageidle-rw --mark-wait "$WAIT" -f json \
		--slice-ms 1000 ;;
	idletop-folios) benchrun --name "$1" --subtract "$WAIT" -- \
		idletop --source kpageidle-folios --mark-wait "$WAIT" -f json ;;
	idletop-bitmap) benchrun --name "$1" --subtract "$WAIT" -- \
		idletop --source bitmap --mark-wait "$WAIT" -f json ;;
	seed8) benchrun --name seed8 -- scanbench seed-mark :: \
		@sleep "$WAIT" :: scanbench seed-read ;;
	page-types) benchrun --name page-types -- page-types -i -N :: \
		@sleep "$WAIT" :: page-types -C ;;
	esac
}
methods="floor idletop-kpageidle idletop-slice1s idletop-bitmap idletop-folios seed8 page-types"
echo "--- warm-up cycle (not counted)"
cycle floor 2>&1 | sed -n 's/^scanbench floor-read: \([0-9]*\) pfns$/BENCHINFO pfns=\1/p'
r=1
order=$methods
while [ $r -le "$REPS" ]; do
	echo "--- repetition $r: $order"
	for m in $order; do
		cycle "$m" 2>&1 | grep -v '^scanbench '
	done
	rotate
	r=$((r + 1))
done

# Overhead.  (1) idletop -b as a daemon, undisturbed for DAEMON_S seconds:
# its CPU share (rusage / wall) and VmHWM/VmRSS, at the default settings and
# unpaced (--cpu 100 --period 5, whose JSON gives the cost of a continuous
# cycle).  (2) a random-touch workload's throughput with idletop running and
# stopped (SIGSTOP), alternating in pairs so that drift cancels out, and a
# control pair with a sleeping process in idletop's place.
touch_mib=$(( mem_kb / 1024 / 16 ))
touchrun() {	# label
	touchloop "$touch_mib" "$TOUCH_S" | sed "s/^TOUCH /TOUCH run=$1 /"
}
daemon() {	# label idletop-args...
	l=$1; shift
	benchrun --name "$l" --kill-after "$DAEMON_S" --out "/tmp/$l.json" \
		-- idletop -b -f json "$@"
	# jq, not awk's sub(/.*"field":/): quadratic in a line without the
	# field (run-folios.sh, fcycle)
	jq -r --arg l "$l" '"BENCHCYCLE name=\($l) cycle_seconds=" +
		"\(.cycle_seconds) cpu_seconds=\(.cpu_seconds)"' "/tmp/$l.json" ||
		die "$l: no JSON report"
}
slowdown() {	# label command...
	l=$1; shift
	"$@" &
	ip=$!
	sleep 2
	i=1
	while [ $i -le "$PAIRS" ]; do
		kill -STOP $ip
		touchrun "$l-off"
		kill -CONT $ip
		touchrun "$l-on"
		i=$((i + 1))
	done
	kill $ip
	wait $ip
}
echo "--- overhead: idletop as a daemon"
daemon daemon-default
daemon daemon-cpu100 --cpu 100 --period 5
echo "--- overhead: touchloop with idletop running / stopped"
# The control stops and continues a process that only sleeps: its
# "slowdown" is the noise of the measurement (TCG's softmmu TLB makes a
# random-touch loop's speed depend on the guest's context switches).
slowdown touch-control sleep 100000
slowdown touch-default idletop -b -f json -o /tmp/touch-default.json
slowdown touch-cpu100 idletop -b -f json -o /tmp/touch-cpu100.json --cpu 100 --period 5

# Scan methods: CPU of one steady-state cycle of the idle state
# alone (test every page, mark it idle again; the previous cycle's marks,
# whichever method made them, are what it tests) with the KPAGEIDLE_SCAN
# ioctl (its folio records), with read() + write() of /proc/kpageidle and
# of the bitmap, and of a full idletop cycle with --source
# kpageidle-folios / kpageidle-rw.
# One workload (the fill, 90% hot) replaces the four: frozen
# (cgroup.freeze) it is mostly idle, nothing touched between cycles;
# thawed, 90% of it is touched every 250 ms (several times per cycle),
# mostly active.  The workload and the scanners share CPU 0 (taskset 1):
# marking clears accessed bits without flushing TLBs, and a workload alone
# on the other CPU would touch its pages through cached TLB entries
# unseen, so "active" would read idle (docs/kpageidle.md, TLBs).
echo "--- scan methods: stopping the workloads, starting one for this part"
for p in $pids; do kill "$p" 2>/dev/null; done
for p in $pids; do wait "$p" 2>/dev/null; done
pids=
for n in web db batch cache; do rmdir "$CG/$n" 2>/dev/null; done
sync
echo 3 > /proc/sys/vm/drop_caches
rm -f /tmp/ready.scan
PIN="taskset 1"
$PIN true 2>/dev/null || PIN=
mkdir -p "$CG/scan" || die "mkdir $CG/scan"
$PIN wsgen --cgroup "$CG/scan" --dir "$DIR" --interval $INTERVAL \
	--ready /tmp/ready.scan --anon "$(sz 40):$SCAN_HOT" \
	--thp "$(sz 20):$SCAN_HOT" --file "$(sz 25):$SCAN_HOT" \
	--shmem "$(sz 15):$SCAN_HOT" > /dev/null &
pids="$pids $!"
ready_wait /tmp/ready.scan scan
info "workload=scan $(cat /tmp/ready.scan)"
scancycle() {	# workload method
	$PIN benchrun --name "scan-$1-$2" -- scanbench "cycle-$2" 2>&1 |
		sed -n "s/^scanbench cycle-$2: \([0-9]*\) pfns, \([0-9]*\) idle\$/BENCHIDLE name=scan-$1-$2 pfns=\1 idle=\2/p; /^BENCH/p"
}
scanphase() {	# workload
	wl=$1
	sleep "$WAIT"
	$PIN scanbench cycle-rw 2> /dev/null	# warm-up: the first cycle after the change
	order="ioctl rw bitmap"
	r=1
	while [ $r -le "$REPS" ]; do
		echo "--- scan methods, mostly $wl, repetition $r: $order"
		for m in $order; do
			sleep "$WAIT"
			scancycle "$wl" "$m"
		done
		rotate
		r=$((r + 1))
	done
	# idletop: one counted cycle per run (after its own priming pass),
	# the two sources alternating, so that drift hits both alike
	order="folios rw"
	r=1
	while [ $r -le "$REPS" ]; do
		echo "--- scan methods, mostly $wl, idletop repetition $r: $order"
		for s in $order; do
			l=idletop-$wl-$s
			rm -f "/tmp/$l.json"
			$PIN benchrun --name "$l" --out "/tmp/$l.json" -- idletop -b \
				-n 1 -d "$WAIT" --cpu 100 -f json --source "kpageidle-$s" |
				sed 's/^BENCH /BENCHRUN /'
			jq -r --arg l "$l" '"BENCHCYCLE name=\($l) " +
				"cpu_seconds=\(.cpu_seconds) method=\(.method)"' \
				"/tmp/$l.json" || die "$l: no JSON report"
		done
		set -- $order
		order="$2 $1"
		r=$((r + 1))
	done
}
echo 1 > "$CG/scan/cgroup.freeze" || die "cannot freeze $CG/scan"
i=0
until grep -qx "frozen 1" "$CG/scan/cgroup.events"; do
	i=$((i + 1))
	[ $i -gt 300 ] && die "$CG/scan not frozen after 30 s"
	sleep 0.1
done
scanphase idle
echo 0 > "$CG/scan/cgroup.freeze" || die "cannot thaw $CG/scan"
scanphase active
echo "--- flush cost: stopping the workload"
for p in $pids; do kill "$p" 2>/dev/null; done
for p in $pids; do wait "$p" 2>/dev/null; done
pids=
rmdir "$CG/scan" 2>/dev/null
peer_phase
folio_phase
flushphase
info done_s=$(( $(date +%s) - t0 ))
exit 0
