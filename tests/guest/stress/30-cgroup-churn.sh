#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 110
#
# Idle page scanners and idletop racing with cgroup churn: cgroups are
# created, charged with anon, tmpfs and page cache pages, emptied and
# removed while their pages stay (offline memcgs), and with truncation of
# mapped files (stress_mem truncates its shared file and memfd mappings
# under itself).  At least 3 cgroups must have churned, no churn step
# failed, at the end every surviving file matches its reference,
# and at a quiet moment every inode /proc/kpagecgroup reports belongs to
# a live cgroup (removed ones report their closest online ancestor).
# One tracker marks /proc/kpageidle at a time (EBUSY for the others):
# idletop does; stress_scan reads it and marks through the bitmap (-R).

. "$(dirname "$0")/lib"
. "$(dirname "$0")/../common"
need_scratch
P=/sys/fs/cgroup/stress-churn
mkdir $P || exit 1
echo +memory > $P/cgroup.subtree_control || exit 1
stress_restore="rm -rf /dev/shm/churn.* /mnt/scratch/churn.*; rmdir $P/* $P 2>/dev/null; $stress_restore"
dd if=/dev/urandom of=ref bs=64k count=8 2>/dev/null || exit 1

# One churn step: a cgroup is made, charged and removed.
churn_one() {
	n=$(( $(cat churn.n 2>/dev/null || echo 0) + 1 ))
	echo $n > churn.n
	cg=$P/c$n
	mkdir "$cg" || return
	sh -c 'echo $$ > "$0/cgroup.procs" || exit 1
		cp ref /dev/shm/churn.$1
		cp ref /mnt/scratch/churn.$1
		stress_mem -t 0.5 --anon 4 --forks > /dev/null ||
			echo "stress_mem in $0 failed"' "$cg" $n
	i=0
	while ! rmdir "$cg" 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	[ -d "$cg" ] && echo "cannot remove $cg"
	# drop some files: their pages were charged to a dead cgroup
	case $((n % 3)) in 0) rm -f /dev/shm/churn.$((n - 1)) /mnt/scratch/churn.$((n - 2)) ;; esac
}

storm
in_cg() { d=$P/$1; shift; mkdir $d && sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' $d "$@"; }
worker mem in_cg trunc stress_mem -t "$STRESS_SECONDS" --file /mnt/scratch/churn.trunc:16 --shmem 16 --forks
worker scan stress_scan -t "$STRESS_SECONDS" -j 2 -p 20 -R
worker idletop idletop_runs -b --period 2 -n 3 --cpu 50 --format openmetrics
loop churn churn_one
finish
rc=$?
grep -h . loop-churn.log | head -n 5
churned=$(cat churn.n 2>/dev/null || echo 0)
echo "churned $churned cgroups"
# the churn itself must have happened, each step whole
if [ "$churned" -lt 3 ]; then
	echo "FAIL: only $churned cgroups churned in $STRESS_SECONDS s"
	rc=1
fi
if grep -q 'failed\|cannot remove' loop-churn.log; then
	echo "FAIL: churn steps failed:"
	grep 'failed\|cannot remove' loop-churn.log | head -n 5
	rc=1
fi

for f in /dev/shm/churn.[0-9]* /mnt/scratch/churn.[0-9]*; do
	[ -e "$f" ] || continue
	cmp -s ref "$f" || { echo "FAIL: $f differs from its reference"; rc=1; }
done

# quiet moment: drop what is left of the workers' cgroups, then check
echo $$ > "${IDLEMEM_TEST_CG:-/sys/fs/cgroup}/cgroup.procs"
rmdir $P/* 2>/dev/null
# rmdir returns before the kernel takes the memcg offline (that runs from
# a workqueue once the css's references drain), and until then kpagecgroup
# may still name it; so a removed cgroup may show up for a moment, but not
# for 10 s.
stale_inodes() {
	live=$(find /sys/fs/cgroup -type d -exec stat -c %i {} + | sort -u)
	for ino in $(stress_scan -u); do
		echo "$live" | grep -qx "$ino" || echo "$ino"
	done
}
i=0
while stale=$(stale_inodes) && [ -n "$stale" ] && [ $i -lt 20 ]; do
	sleep 0.5; i=$((i + 1))
done
for ino in $stale; do echo "kpagecgroup reports inode $ino: no such cgroup"; done
[ -z "$stale" ] || { echo "FAIL: /proc/kpagecgroup reports removed cgroups after 10 s"; rc=1; }
[ $i -eq 0 ] || echo "removed cgroups went offline after $i x 0.5 s"
exit $rc
