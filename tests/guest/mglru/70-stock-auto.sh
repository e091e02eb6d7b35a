#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 120
#
# On a kernel without idle page tracking (no /proc/kpageidle, no
# page_idle bitmap: every stock Debian kernel) but with the multi-gen LRU
# on, idletop with no options picks the mglru source, and within 20 s
#  - batch mode (-b -n 1) prints a report with every cgroup of the
#    hierarchy, the two workloads' with their resident memory, the source
#    and method, and the warning that the numbers are approximate;
#  - the interactive view (tmux, 120x40) shows the two workloads' rows,
#    "source mglru" and the APPROXIMATE line, and q leaves it (status 0).
# On the default kernel, which has the series, the test hides the two
# files: idletop runs with --root at a tree of symbolic links to / where
# proc/kpageidle and sys/kernel/mm/page_idle are left out.  On a kernel
# without them it runs idletop as it is, without --root.

set -u
. "$(dirname "$0")/lib"
command -v tmux > /dev/null || { echo "FAIL: no tmux in the guest"; exit 1; }
[ -w $lru_gen_enabled ] || skip "no $lru_gen_enabled (CONFIG_LRU_GEN=n)"
[ -e /sys/kernel/debug/lru_gen ] || skip "no /sys/kernel/debug/lru_gen"

saved=$(cat $lru_gen_enabled)
S=mgauto$$
pids=
cgs="mgauto-a mgauto-b"
cleanup() {
	tmux kill-session -t "$S" 2>/dev/null
	reap_workloads
	echo "$saved" > $lru_gen_enabled
}
trap cleanup EXIT
echo y > $lru_gen_enabled || exit 1

. "$(dirname "$0")/../common"	# wait_ready
for c in $cgs; do
	mkdir "/sys/fs/cgroup/$c" || exit 1
	wsgen --cgroup "/sys/fs/cgroup/$c" --anon 24M:0.5 --interval 200 \
		--ready "ready.$c" &
	pids="$pids $!"
	wait_ready "$!" "ready.$c" 60 "wsgen $c"
done

# the tree without the idle page tracking files
root=
if [ -e /proc/kpageidle ] || [ -e /sys/kernel/mm/page_idle ]; then
	R=$PWD/stock
	mkdir -p "$R/proc" "$R/sys/kernel/mm"
	for f in /proc/*; do
		[ "${f##*/}" = kpageidle ] || ln -s "$f" "$R/proc/${f##*/}"
	done
	for f in /sys/*; do
		[ "${f##*/}" = kernel ] || ln -s "$f" "$R/sys/${f##*/}"
	done
	for f in /sys/kernel/*; do
		[ "${f##*/}" = mm ] || ln -s "$f" "$R/sys/kernel/${f##*/}"
	done
	for f in /sys/kernel/mm/*; do
		[ "${f##*/}" = page_idle ] || ln -s "$f" "$R/sys/kernel/mm/${f##*/}"
	done
	[ ! -e "$R/proc/kpageidle" ] && [ ! -e "$R/sys/kernel/mm/page_idle" ] &&
		[ -e "$R/sys/kernel/debug/lru_gen" ] || { echo "FAIL: the tree"; exit 1; }
	root="--root $R"
	echo "idle page tracking hidden: idletop $root"
else
	echo "a kernel without idle page tracking: idletop as it is"
fi

fail=0
t0=$(date +%s)
# shellcheck disable=SC2086
timeout 20 idletop $root -b -n 1 > report.txt 2> err.txt
rc=$?
t1=$(date +%s)
echo "batch: exit $rc after $((t1 - t0)) s"
head -3 report.txt | cut -c1-200
[ $rc = 0 ] || { echo "FAIL: idletop -b -n 1 (exit $rc): $(cat err.txt)"; fail=1; }
grep -q '^idletop - cycle 1, .* source mglru (generations),' report.txt ||
	{ echo "FAIL: not the mglru source"; fail=1; }
grep -q '^WARNING: the numbers are approximate' report.txt ||
	{ echo "FAIL: no approximate warning"; fail=1; }
# every cgroup of the hierarchy has a row (name, then the path at the end)
n_cg=$(find /sys/fs/cgroup -mindepth 1 -type d | wc -l)
for d in $(find /sys/fs/cgroup -mindepth 1 -type d); do
	p=${d#/sys/fs/cgroup}
	grep -q " $p\$" report.txt || { echo "FAIL: no row for $p"; fail=1; }
done
echo "rows for all $n_cg cgroups below the root checked"
for c in $cgs; do
	res=$(awk -v p="/$c" '$NF == p { print $1 }' report.txt)
	case $res in
	2[0-9]M|3[0-9]M) echo "ok: /$c resident $res (24M of anon)" ;;
	*) echo "FAIL: /$c resident '$res', not about 24M"; fail=1 ;;
	esac
done

# the interactive view
t0=$(date +%s)
# shellcheck disable=SC2086
tmux new-session -d -s "$S" -x 120 -y 40 \
	"export TERM=screen XDG_CONFIG_HOME=$PWD/config; idletop $root; echo \$? > $PWD/rc" ||
	{ echo "FAIL: tmux"; exit 1; }
ok=0
while [ $(($(date +%s) - t0)) -le 20 ]; do
	tmux capture-pane -p -t "$S" > screen.txt 2>/dev/null
	# a report, not the tree alone: numbers in the IDLE column (the
	# fourth after the name) and in the header's idle
	if grep -q 'source mglru' screen.txt && grep -q 'APPROXIMATE' screen.txt &&
	   grep -qE ' idle [0-9.]+[KMGTB]+ \(' screen.txt &&
	   grep -qE 'mgauto-a +[0-9.]+[KMG] +[0-9.]+[KMG]? +[0-9.]+[KMGB] +[0-9.]+[KMGB]' screen.txt &&
	   grep -qE 'mgauto-b +[0-9.]+[KMG] +[0-9.]+[KMG]? +[0-9.]+[KMGB] +[0-9.]+[KMGB]' screen.txt; then
		ok=1
		break
	fi
	[ -e rc ] && break
	sleep 0.5
done
echo "TUI: $([ $ok = 1 ] && echo "complete after $(($(date +%s) - t0)) s" || echo "not complete")"
cat screen.txt
[ $ok = 1 ] || { echo "FAIL: the view did not show the mglru rows and APPROXIMATE within 20 s"; fail=1; }
tmux send-keys -t "$S" q
i=0
while [ ! -s rc ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat rc 2>/dev/null)" = 0 ] || { echo "FAIL: q: exit status '$(cat rc 2>/dev/null)'"; fail=1; }
exit $fail
