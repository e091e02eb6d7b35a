#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`, the folio records part, guest side.  Sourced by
# run-guest.sh (BENCH_ONLY=folios: this part alone) after its setup; uses
# its REPS, WAIT, CG, DIR, mem_kb, info, die.  Settings:
#   BENCH_FOLIO_REPS    idletop runs per source and scenario (default REPS)
#   BENCH_FOLIO_CGS     cgroups of the many-cgroup case (default 200; 2000
#                       adds about a minute: docs/performance.md, run G1)
#   BENCH_FOLIO_CG_PCT  percent of MemTotal they share (default 20)
#
# Scenarios, one after the other in this boot: the bench's mix at 65% of
# MemTotal (mix65), a THP-heavy mix at 65% (thp), the bench's mix at 10%
# (mix10), and FOLIO_CG_PCT% of MemTotal of tmpfs pages charged to 20
# cgroups (cg20) and to FOLIO_CGS cgroups (cgmany), written by cgfill
# (no process left in them).  Per scenario: one folioscan (records
# against LRU folios; its marks also start the steady state), then
# FOLIO_REPS rounds of `idletop -b -n 2 -d WAIT --cpu 100 -f json` with
# --source kpageidle-folios (the scan ioctl's records) and kpageidle-rw
# (read(2) and write(2) of /proc/kpageidle, read(2) of /proc/kpageflags
# and /proc/kpagecgroup), alternating (the order swapped per round; the
# ioctl's per-PFN bit output, the other arm before, no longer exists);
# the cost is cycle 2's cpu_seconds (the counted cycle after the first
# report: scan, accounting, the cgroup tree walk and the report of
# cycle 1), the memory benchrun's maxrss_kb.
#
# Output: "BENCHFC scen=S src=folios|rw cpu_seconds=C method=M
# cgroups=N maxrss_kb=K", "BENCHREC name=S ..." (folioscan), "BENCHFINFO
# scen=S ..." for bench/report-folios.
FOLIO_REPS=${BENCH_FOLIO_REPS:-$REPS}
FOLIO_CGS=${BENCH_FOLIO_CGS:-200}
FOLIO_CG_PCT=${BENCH_FOLIO_CG_PCT:-20}
FDIR=/mnt/cgfill
fpids=

fstop() {	# stop the workloads, remove their cgroups, free their memory
	for p in $fpids; do kill "$p" 2>/dev/null; done
	for p in $fpids; do wait "$p" 2>/dev/null; done
	fpids=
	for d in "$CG"/f-*/; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

fstart() {	# name wsgen-args...
	n=$1; shift
	mkdir -p "$CG/f-$n" || die "mkdir $CG/f-$n"
	rm -f "/tmp/fready.$n"
	wsgen --cgroup "$CG/f-$n" --dir "$DIR" --interval 250 \
		--ready "/tmp/fready.$n" "$@" > /dev/null &
	fpids="$fpids $!"
}

ready_wait() {	# FILE NAME: until wsgen NAME has written its --ready FILE
	i=0
	while [ ! -s "$1" ]; do
		i=$((i + 1))
		[ $i -gt 3000 ] && die "wsgen $2 not ready after 300 s"
		sleep 0.1
	done
}

fready() {	# names...: wait until populated
	for n in "$@"; do
		ready_wait "/tmp/fready.$n" "$n"
	done
}

fmix() {	# percent: the bench's mix at that share of MemTotal
	f=$(( mem_kb * $1 / 100 / 1024 ))
	fstart web --anon "$((f * 30 / 100))M:0.25" --shmem "$((f * 8 / 100))M:0.5"
	fstart db --file "$((f * 20 / 100))M:0.25" --mmap "$((f * 15 / 100))M:0.25"
	fstart batch --thp "$((f * 20 / 100))M:0.25"
	fstart cache --anon "$((f * 7 / 100))M:0.1"
	fready web db batch cache
}

fcycle() {	# scenario source
	rm -f /tmp/fc.json
	benchrun --name "fc-$1-$2" --out /tmp/fc.json -- idletop -b -n 2 \
		-d "$WAIT" --cpu 100 -f json --source "kpageidle-$2" > /tmp/fc.bench ||
		{ cat /tmp/fc.bench; die "idletop --source kpageidle-$2 failed"; }
	rss=$(sed -n 's/^BENCHSTEP .*maxrss_kb=\([0-9]*\).*/\1/p' /tmp/fc.bench)
	# The last report, read by jq: a report is one line, 1.2 KB per
	# cgroup, and busybox tail -n 1 gives at most the last 960 KiB of a
	# line, where busybox awk's sub(/.*"cpu_seconds":/) then finds no
	# match in time quadratic in the line (run G1's hang at 2,000
	# cgroups: docs/performance.md).
	jq -r -s --arg s "$1" --arg src "$2" --arg rss "$rss" 'last |
		"BENCHFC scen=\($s) src=\($src) cpu_seconds=\(.cpu_seconds)" +
		" method=\(.method) cgroups=\(.cgroups | length) maxrss_kb=\($rss)"' \
		/tmp/fc.json || die "idletop --source kpageidle-$2: no JSON report"
}

fmeasure() {	# scenario
	echo "--- folio records: $1"
	awk -v s="$1" '/^(MemTotal|MemFree|AnonPages|Cached|Shmem|AnonHugePages):/ {
		sub(/:$/, "", $1); l = l " " $1 "=" $2 }
		END { print "BENCHFINFO scen=" s l }' /proc/meminfo
	folioscan "$1" || die "folioscan failed"
	sleep "$WAIT"
	order="folios rw"
	r=1
	while [ $r -le "$FOLIO_REPS" ]; do
		for s in $order; do
			fcycle "$1" "$s"
		done
		set -- "$1" $order
		order="$3 $2"
		r=$((r + 1))
	done
}

fcgroups() {	# scenario count: FOLIO_CG_PCT% of MemTotal over count cgroups
	kib=$(( mem_kb * FOLIO_CG_PCT / 100 / $2 ))
	mkdir -p "$CG/f-$1" || die "mkdir $CG/f-$1"
	echo +memory > "$CG/f-$1/cgroup.subtree_control" || die "subtree_control"
	cgfill "$CG/f-$1" "$2" "$kib" "$FDIR" || die "cgfill $2"
	info "folio_cgroups scen=$1 count=$2 kib_each=$kib"
	fmeasure "$1"
	rm -f "$FDIR"/c*
	for d in "$CG/f-$1"/c*/; do rmdir "$d"; done
	rmdir "$CG/f-$1"
}

folio_phase() {
	idletop --source kpageidle-folios --mark-wait 0 > /dev/null ||
		die "no folio records: idletop --source kpageidle-folios fails"
	info "folio_reps=$FOLIO_REPS folio_cgs=$FOLIO_CGS folio_cg_pct=$FOLIO_CG_PCT"
	t0=$(date +%s)
	fmix 65
	fmeasure mix65
	fstop
	f=$(( mem_kb * 65 / 100 / 1024 ))
	fstart thp --thp "$((f * 85 / 100))M:0.25" --anon "$((f * 8 / 100))M:0.25" \
		--file "$((f * 7 / 100))M:0.25"
	fready thp
	fmeasure thp
	fstop
	fmix 10
	fmeasure mix10
	fstop
	mkdir -p "$FDIR" && mount -t tmpfs -o size=60% none "$FDIR" ||
		die "cannot mount tmpfs on $FDIR"
	fcgroups cg20 20
	fcgroups cgmany "$FOLIO_CGS"
	umount "$FDIR"
	info folio_done_s=$(( $(date +%s) - t0 ))
}
