#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Does idletop's cost grow linearly with the number of cgroups?  A guest
# job: 250, 500, 1,000 then 2,000 cgroups, each holding 16 KiB of tmpfs,
# and for each count the time to read memory.stat of all of them, all
# eight memory.* files idletop reads, and one idletop -b -n 1 (a priming
# pass, one counted cycle, three tree walks, the JSON of every cgroup).
#   vm/run --kernel build/kernel/default/obj/arch/x86/boot/bzImage \
#          --initrd build/initramfs-default.cpio.gz --script bench/cgroups.sh
# About 4 minutes under TCG; figures in docs/performance.md.
b=/sys/fs/cgroup/bench-cgroups
mkdir -p "$b" /mnt/cgbench || exit 1
echo +memory > "$b/cgroup.subtree_control" || exit 1
mount -t tmpfs none /mnt/cgbench || exit 1
have=0
eight="for f in current low high max stat pressure events swap.current; do
	cat $b/c*/memory.\$f; done > /dev/null"
for n in 250 500 1000 2000; do
	while [ $have -lt $n ]; do
		mkdir "$b/c$have" || exit 1
		sh -c "echo \$\$ > $b/c$have/cgroup.procs &&
		       dd if=/dev/zero of=/mnt/cgbench/f$have bs=16k count=1 2> /dev/null" ||
			exit 1
		have=$((have + 1))
	done
	echo "== $n cgroups"
	echo "-- memory.stat of each"
	time cat "$b"/c*/memory.stat > /dev/null || exit 1
	echo "-- the eight memory.* files of each (after an unmeasured pass)"
	sh -c "$eight" || exit 1
	time sh -c "$eight" || exit 1
	echo "-- idletop -b -n 1 --period 0.5 --cpu 100 -f json"
	time idletop -b -n 1 --period 0.5 --first-window 0 --cpu 100 -f json \
		> /tmp/cgbench.json || exit 1
	echo "   $(grep -o '"path":' /tmp/cgbench.json | wc -l) cgroups in the report"
done
