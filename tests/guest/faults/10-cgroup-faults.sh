#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 200
#
# idletop when the cgroup side is broken:
#  - no cgroup2 mount (a fake --root whose mountinfo has none) and a
#    cgroup v1-only system (mountinfo lists only v1 hierarchies): exit 1
#    and a message that says cgroup2 is missing and how to fix it;
#  - --cgroup pointing at nothing or at a regular file: exit 1, a message
#    naming it;
#  - memory.* files that cannot be read (mode 000, root without
#    CAP_DAC_OVERRIDE): the cgroup is still shown, its limits as null;
#  - cgroups created and removed (with processes and charged pages) while
#    idletop scans: every cycle is reported, exit 0.

set -u
if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
fail=0
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait
	for d in /sys/fs/cgroup/faults-churn/* /sys/fs/cgroup/faults-churn \
		 /sys/fs/cgroup/faults-noperm; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
}
trap cleanup EXIT

expect_err() {	# description pattern idletop-args...
	what=$1 pat=$2
	shift 2
	idletop "$@" > out 2> err
	rc=$?
	if [ $rc -eq 1 ] && grep -qiE "$pat" err && [ ! -s out ]; then
		echo "ok: $what: $(cat err)"
	else
		echo "FAIL: $what: exit $rc (want 1), stderr must match /$pat/:"
		cat err
		fail=1
	fi
}

# fake roots: only mountinfo differs; the kernel files are the real ones
mkroot() {
	mkdir -p "$1/proc/self" "$1/sys/kernel/mm/page_idle"
	for f in kpageflags kpagecgroup kpageidle; do
		[ -e /proc/$f ] && ln -s /proc/$f "$1/proc/$f"
	done
	[ -e /sys/kernel/mm/page_idle/bitmap ] &&
		ln -s /sys/kernel/mm/page_idle/bitmap "$1/sys/kernel/mm/page_idle/bitmap"
}
mkroot nocg
cat > nocg/proc/self/mountinfo <<'MI'
22 1 0:20 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
23 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime - sysfs sysfs rw
MI
expect_err "no cgroup2 mount" "cgroup2" -b -n 1 -d 1 --root "$PWD/nocg"
expect_err "no cgroup2 mount (interactive)" "cgroup2" --root "$PWD/nocg"

mkroot v1
cat > v1/proc/self/mountinfo <<'MI'
22 1 0:20 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
23 1 0:21 / /sys rw,nosuid,nodev,noexec,relatime - sysfs sysfs rw
24 23 0:22 / /sys/fs/cgroup ro,nosuid,nodev,noexec - tmpfs tmpfs ro,mode=755
25 24 0:23 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:9 - cgroup cgroup rw,memory
26 24 0:24 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:10 - cgroup cgroup rw,cpu,cpuacct
MI
expect_err "cgroup v1 only" "cgroup2" -b -n 1 -d 1 --root "$PWD/v1"

expect_err "--cgroup does not exist" "/nonexistent-cgroup" -b -n 1 -d 1 --cgroup /nonexistent-cgroup
touch plainfile
expect_err "--cgroup is a file" "plainfile" -b -n 1 -d 1 --cgroup "$PWD/plainfile"
expect_err "no mountinfo at all" "mountinfo" -b -n 1 -d 1 --root "$PWD/plainfile"

# --cgroup at a directory that is not a cgroup: taken as is (idletop.1),
# a tree of one root; the pages charged to real cgroups are
# reported under the pseudo cgroup "(unknown)"
mkdir notcg
idletop --mark-wait 0.2 --cgroup "$PWD/notcg" --format json > out 2> err
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < out)" -eq 1 ] &&
	jq -e '.cgroups[0].path == "/" and
		any(.cgroups[]; .path == "(unknown)" and .pseudo and .resident > 0)' out > /dev/null; then
	echo "ok: --cgroup at a plain directory: a root, the pages under (unknown)"
else
	echo "FAIL: --cgroup at a plain directory: exit $rc, $(head -c 200 err)"
	head -c 600 out; echo
	fail=1
fi

# unreadable memory.* files in a real cgroup
N=/sys/fs/cgroup/faults-noperm
mkdir $N || exit 1
sh -c 'echo $$ > "$0/cgroup.procs" && exec stress_mem -t 100 --anon 4' $N > /dev/null &
pids="$pids $!"
echo 64M > $N/memory.high
for f in memory.current memory.stat memory.low memory.high memory.max memory.pressure; do
	[ -e $N/$f ] && chmod 000 $N/$f
done
if fault_nocap cat $N/memory.current > /dev/null 2>&1; then
	echo "FAIL: mode 000 did not make memory.current unreadable"; fail=1
fi
fault_nocap idletop --mark-wait 1 --format json > out 2> err
rc=$?
line=$(grep -o '"path":"/faults-noperm"[^}]*}' out)
echo "faults-noperm: $line"
if [ $rc -ne 0 ]; then
	echo "FAIL: idletop with unreadable memory.* files: exit $rc"; cat err; fail=1
elif ! echo "$line" | grep -q '"memory":{"current":null,"low":null,"high":null,"max":null'; then
	echo "FAIL: unreadable memory.* files are not shown as null"; fail=1
else
	echo "ok: unreadable memory.* files: cgroup shown, limits null"
fi
for f in memory.current memory.stat memory.low memory.high memory.max memory.pressure; do
	[ -e $N/$f ] && chmod 644 $N/$f
done

# cgroups removed mid-scan
C=/sys/fs/cgroup/faults-churn
mkdir $C && echo +memory > $C/cgroup.subtree_control || exit 1
(
	end=$(( $(date +%s) + 40 ))
	i=0
	while [ "$(date +%s)" -lt $end ]; do
		i=$((i + 1))
		mkdir $C/g$i 2>/dev/null || continue
		mkdir $C/g$i/sub 2>/dev/null
		sh -c 'echo $$ > "$0/cgroup.procs" && exec stress_mem -t 0.3 --anon 2 --shmem 1' $C/g$i/sub > /dev/null
		rmdir $C/g$i/sub $C/g$i 2>/dev/null
	done
) &
pids="$pids $!"
idletop -b -d 1 -n 4 --cpu 100 --format json --slice-pfns 4096 > churn.json 2> err
rc=$?
lines=$(wc -l < churn.json)
if [ $rc -eq 0 ] && [ "$lines" -eq 4 ] && [ ! -s err ]; then
	echo "ok: cgroups removed mid-scan: 4 reports, exit 0" \
		"($(grep -o '"path":"/faults-churn/g[0-9]*"' churn.json | sort -u | wc -l) churned cgroups seen)"
else
	echo "FAIL: cgroups removed mid-scan: exit $rc, $lines reports"; cat err; fail=1
fi
exit $fail
