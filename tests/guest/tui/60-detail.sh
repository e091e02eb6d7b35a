#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 180
# i opens the detail view of the selected cgroup: idle-age histogram with
# "idle for >= N" labels from the cycle length, memory.stat, limits and
# the suggested memory.low/high, and the processes with their RSS.
. "$(dirname "$0")/lib"

cg_workload tuid --anon 32M:0.5 --interval 50
echo 512M > /sys/fs/cgroup/tuid/memory.high
pid=${tui_pids%% *}
tui_start 100 40 -- --period 2 --cpu 50
tui_keys '\' t u i d Enter
tui_wait 10 '- tuid '
tui_wait 60 '^cycle [0-9]+:'
tui_keys j i
tui_wait 5 '^cgroup /tuid$'
# Expected sections
tui_wait 10 '^  idle for >= [0-9.]+s \( 1 cycle\)  \[[#.]+\]'
tui_has '^  idle for >= [0-9.hms]+ \(16 cycles\)' || tui_fail "no 16-cycle bucket"
tui_has '^memory.stat$' || tui_fail "no memory.stat"
tui_has '^  anon [0-9.]+M' || tui_fail "no anon in memory.stat"
tui_has '^  memory.low 0B  memory.high 512M  memory.max max' || tui_fail "limits"
tui_has '^  suggested: memory.low [0-9.]+M  memory.high [0-9.]+M' ||
	tui_fail "no suggestions"
tui_has '^Processes of the subtree \(1\)' || tui_fail "process count"
tui_has "^ +$pid +[0-9.]+M  wsgen\$" || tui_fail "no wsgen $pid with its RSS"
# Expected after a cycle: about half (16M) idle for >= 1 cycle
half() {
	v=$(awk '/\( 1 cycle\)/ { v = $NF; sub(/M$/, "", v); print v }' screen.txt)
	near "$v" 16 4
}
tui_until 30 half
echo "ok: idle for >= 1 cycle: ${v}M of 32M"
tui_keys Escape
tui_wait 5 '^NAME +RESIDENT'
tui_quit
