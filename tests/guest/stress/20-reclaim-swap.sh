#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 110
#
# Idle page scanners and idletop racing with reclaim: a cgroup whose
# memory.high / memory.max are below its workload's size, with swap (a swap
# file on /mnt/scratch, else zram), MADV_PAGEOUT, file and shmem pages, and
# MGLRU switched on and off (/sys/kernel/mm/lru_gen/enabled) meanwhile.
# The workloads checksum their data at the end; swapoff must bring every
# swapped page back.
# One tracker marks /proc/kpageidle at a time (EBUSY for the others):
# idletop does; stress_scan reads it and marks through the bitmap (-R).

. "$(dirname "$0")/lib"
. "$(dirname "$0")/../common"
CG=/sys/fs/cgroup/stress-reclaim
swap_on stress 96 || { echo "FAIL: cannot set up swap (file on /mnt/scratch or zram)"; exit 1; }
echo "swap: $swap"
stress_restore="$swap_off; $stress_restore"

mkdir $CG || exit 1
stress_restore="rmdir $CG 2>/dev/null; $stress_restore"
echo 32M > $CG/memory.high
echo 48M > $CG/memory.max
if [ -w /sys/kernel/mm/lru_gen/enabled ]; then
	set_knob /sys/kernel/mm/lru_gen/enabled n
	mglru="echo y > /sys/kernel/mm/lru_gen/enabled; sleep 0.7;
		echo n > /sys/kernel/mm/lru_gen/enabled; sleep 0.5"
else
	echo "no MGLRU in this kernel: not toggled"
	mglru="sleep 1"
fi

storm
in_cg() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' $CG "$@"; }
worker mem1 in_cg stress_mem -t "$STRESS_SECONDS" --anon 40 --shmem 8 --file /mnt/scratch/stress-reclaim.dat:16 --pageout --forks
worker mem2 in_cg stress_mem -t "$STRESS_SECONDS" --anon 16 --thp --pageout
worker scan stress_scan -t "$STRESS_SECONDS" -j 2 -p 20 -R
worker idletop idletop_runs -b --period 2 -n 3 --cpu 50 --format json
loop mglru sh -c "$mglru"
loop sample sh -c "cat $CG/memory.swap.current; sleep 0.5"
finish
rc=$?

swapmax=$(sort -n loop-sample.log | tail -n 1)
echo "memory.events: $(tr '\n' ' ' < $CG/memory.events)"
echo "pgsteal $(memstat $CG pgsteal), memory.swap.current up to $swapmax"
if [ "${swapmax:-0}" -eq 0 ]; then
	echo "FAIL: nothing of $CG was swapped out"
	rc=1
fi
echo $$ > "${IDLEMEM_TEST_CG:-/sys/fs/cgroup}/cgroup.procs"
if ! swapoff $swap; then
	echo "FAIL: swapoff $swap"
	rc=1
fi
rm -f /mnt/scratch/stress-reclaim.dat
exit $rc
