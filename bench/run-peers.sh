#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`, the peers part, guest side: idletop's scan ioctl, MGLRU
# forced aging and DAMON physical-address monitoring on the same
# workloads, one peer at a time (the kernel lets no kpageidle marker and
# DAMON context run together).  Sourced by run-guest.sh (BENCH_ONLY=peers:
# this part alone) after its setup; uses its WAIT, CG, DIR, mem_kb,
# info, die, ready_wait.  Settings:
#   BENCH_PEER_CYCLES  measured cycles per peer and scenario (default 5)
#   BENCH_PEER_FILL    percent of MemTotal the workload fills (default 50)
#   BENCH_PEER_SCENS   scenarios (default "mix anon anon-tlb")
#   BENCH_PEER_TICK_MS the ticker's period (default 10)
#   BENCH_PEER_DAMON_WARMUP  DAMON's aggregations before the measured
#                      ones, for its regions to adapt (default 10)
#
# Scenarios: wsgen in $CG/peers-SCENARIO (a new cgroup each: lru_gen
# lists a removed memcg that still holds pages under its old path),
# touching its hot part every 250 ms:
#   mix       anon 30% (25% hot), THP 15% (25%), file read with pread()
#             20% (25%), mmap'd file 20% (25%), shmem 15% (50%) of the fill
#   anon      anon 100% (25% hot)
#   anon-tlb  the same without the ticker (below)
# wsgen runs on CPU 1, the peers on CPU 0 (kdamond where the scheduler
# puts it).  MGLRU's aging and DAMON clear accessed bits without
# flushing TLBs: an access through a TLB entry cached before the clear
# sets no bit, and they miss it.  A hardware TLB keeps a few thousand
# entries, so a hot set larger than its reach is walked again on every
# pass; QEMU's software TLB grows to hold the whole hot set and is
# flushed only by an address-space switch (or an IPI).  So beside wsgen,
# on its CPU, a ticker (`peers tick MS`) sleeps MS ms in a loop: every
# wake-up switches address spaces and flushes QEMU's TLB, as a small
# hardware TLB would lose the entries.  anon-tlb leaves it out: the case
# of a hot set that stays in the TLB (on hardware: one within its reach),
# where only the ioctl, which flushes what it marks, sees the accesses.
PEER_CYCLES=${BENCH_PEER_CYCLES:-5}
PEER_FILL=${BENCH_PEER_FILL:-50}
PEER_SCENS=${BENCH_PEER_SCENS:-mix anon anon-tlb}
PEER_TICK_MS=${BENCH_PEER_TICK_MS:-10}
PEER_DAMON_WARMUP=${BENCH_PEER_DAMON_WARMUP:-10}
LRU_GEN=/sys/kernel/mm/lru_gen/enabled
ppid_=
ptick=

pstop() {
	for p in $ppid_ $ptick; do kill "$p" 2>/dev/null; done
	for p in $ppid_ $ptick; do wait "$p" 2>/dev/null; done
	ppid_=
	ptick=
	rmdir "$CG/peers-$scen" 2>/dev/null
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

pstart() {	# scenario
	f=$(( mem_kb * PEER_FILL / 100 / 1024 ))
	case $1 in
	mix) set -- --anon "$((f * 30 / 100))M:0.25" --thp "$((f * 15 / 100))M:0.25" \
		--file "$((f * 20 / 100))M:0.25" --mmap "$((f * 20 / 100))M:0.25" \
		--shmem "$((f * 15 / 100))M:0.5" ;;
	anon|anon-tlb) set -- --anon "${f}M:0.25" ;;
	*) die "unknown peers scenario '$1'" ;;
	esac
	mkdir -p "$CG/peers-$scen" || die "mkdir $CG/peers-$scen"
	rm -f /tmp/pready
	taskset 2 wsgen --cgroup "$CG/peers-$scen" --dir "$DIR" --interval 250 \
		--ready /tmp/pready "$@" > /dev/null &
	ppid_=$!
	ready_wait /tmp/pready peers
	if [ "$scen" = "${scen%-tlb}" ]; then
		taskset 2 peers tick "$PEER_TICK_MS" &
		ptick=$!
	fi
}

# PEERTRUTH from wsgen's "ready anon=B anon_hot=B file=B ..." line.
ptruth() {	# scenario
	awk -v s="$1" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		n = split("anon file mmap shmem thp", k, " ")
		for (i = 1; i <= n; i++) {
			size += v[k[i]]; idle += v[k[i]] - v[k[i] "_hot"]
			kinds = kinds (kinds != "" ? "," : "") k[i] ":" v[k[i]] ":" v[k[i]] - v[k[i] "_hot"]
		}
		printf "PEERTRUTH scen=%s size=%d idle=%d kinds=%s\n", s, size, idle, kinds
	}' /tmp/pready
}

peer_phase() {
	[ -e /sys/kernel/mm/damon/admin/kdamonds ] ||
		die "no DAMON sysfs interface (CONFIG_DAMON_SYSFS, CONFIG_DAMON_PADDR)"
	[ -e /sys/kernel/debug/lru_gen ] || die "no /sys/kernel/debug/lru_gen (CONFIG_LRU_GEN)"
	[ "$(nproc)" -ge 2 ] || die "the peers part needs two CPUs"
	was=$(cat $LRU_GEN) || die "no $LRU_GEN"
	info "peer_cycles=$PEER_CYCLES peer_fill=$PEER_FILL peer_wait=$WAIT peer_tick_ms=$PEER_TICK_MS peer_damon_warmup=$PEER_DAMON_WARMUP"
	t0=$(date +%s)
	for scen in $PEER_SCENS; do
		echo "--- peers: scenario $scen: populating"
		pstart "$scen"
		ptruth "$scen"
		echo "PEERSCEN scen=$scen ticker=$([ -n "$ptick" ] && echo "$PEER_TICK_MS" || echo 0)"
		for p in none ioctl mglru damon; do
			echo "--- peers: scenario $scen: $p, $PEER_CYCLES cycles of $WAIT s"
			[ $p = mglru ] && { echo y > $LRU_GEN || die "cannot enable MGLRU"; }
			set -- "$p" "$CG/peers-$scen" "$WAIT" "$PEER_CYCLES"
			[ $p = damon ] && set -- "$@" 5000 "$PEER_DAMON_WARMUP"
			taskset 1 peers "$@" > /tmp/peers.out
			rc=$?
			[ $p = mglru ] && echo "$was" > $LRU_GEN
			sed "s/^\(PEER[A-Z]*\) /\1 scen=$scen /" /tmp/peers.out
			[ $rc -eq 0 ] || echo "PEERSUM scen=$scen peer=$p failed=$rc"
		done
		pstop
	done
	info peer_done_s=$(( $(date +%s) - t0 ))
}
