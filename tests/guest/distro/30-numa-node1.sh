#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# Pages on the second NUMA node are counted for the right cgroup: wsgen's
# known working sets (idletop/lib) in a cgroup whose parent has
# cpuset.mems=1, so that all of its anon, file and shmem pages come from
# node 1 (checked in memory.numa_stat).  idletop's idle and resident
# bytes per kind for the cgroup are within 2% of the truth.  Needs a
# guest with two nodes (vm/run --numa 2, as `make test-distro` boots).

set -u
P=/sys/fs/cgroup/distro-node1
CG=$P/ws
[ -d /sys/devices/system/node/node1 ] ||
	{ echo "SKIP: one NUMA node (boot with vm/run --numa 2)"; exit 77; }
grep -qw cpuset /sys/fs/cgroup/cgroup.controllers ||
	{ echo "SKIP: no cpuset controller (CONFIG_CPUSETS=n)"; exit 77; }
. "$(dirname "$0")/../common"
need_kpageidle
need_scratch

. "$(dirname "$0")/../idletop/lib"
# idletop names the cgroup by its path below the root
get() {	# file metric kind
	grep -F "$2{cgroup=\"${CG#/sys/fs/cgroup}\",kind=\"$3\"} " "$1" |
		awk '{ print $2 }'
}

echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control || exit 1
mkdir "$P" || exit 1
echo "+memory +cpuset" > "$P/cgroup.subtree_control" || exit 1
echo 1 > "$P/cpuset.mems" || exit 1
wsgen_start
trap 'wsgen_cleanup; rmdir "$P"; echo -cpuset > /sys/fs/cgroup/cgroup.subtree_control' EXIT

# where the pages are: N0= and N1= bytes per item of memory.numa_stat
grep -E '^(anon|file|shmem) ' "$CG/memory.numa_stat"
for kind in anon file; do
	set -- $(sed -n "s/^$kind N0=\([0-9]*\) N1=\([0-9]*\).*/\1 \2/p" "$CG/memory.numa_stat")
	[ $# -eq 2 ] || { echo "FAIL: no '$kind N0= N1=' in memory.numa_stat"; exit 1; }
	[ "$1" -lt $((($1 + $2) / 20)) ] && [ "$2" -gt 0 ] ||
		{ echo "FAIL: $kind is not on node 1 (N0=$1 N1=$2)"; exit 1; }
done

idletop --mark-wait 5 --format openmetrics > om || { echo "FAIL: idletop"; exit 1; }
check_truth node1 om
[ $fail -eq 0 ] || { grep -F "${CG#/sys/fs/cgroup}\"" om; exit 1; }
exit 0
