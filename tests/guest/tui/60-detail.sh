#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 180
# i opens the detail view of the selected cgroup: the bytes idle for at
# least each --idle-buckets time (with the least age in cycles beside it,
# "not reached yet" past the run so far), memory.stat, limits and the
# suggested memory.low/high, and the processes with their RSS.
. "$(dirname "$0")/lib"

cg_workload tuid --anon 32M:0.5 --interval 50
echo 512M > /sys/fs/cgroup/tuid/memory.high
pid=${tui_pids%% *}
tui_start 100 40 -- --period 2 --cpu 50 --idle-buckets 1.5,4,1h
tui_keys '\' t u i d Enter
tui_wait 10 '- tuid '
tui_wait 60 '^cycle [0-9]+:'
tui_keys j i
tui_wait 5 '^cgroup /tuid$'
# Expected sections
tui_wait 10 '^  idle for >= 1\.5s +\[[#.]+\]  [0-9.]+[KMG]?B?  \(>= 1 cycle\)$'
tui_has '^  idle for >= 1h00m +not reached yet$' || tui_fail "1h bucket: not 'not reached yet'"
tui_has '^memory.stat$' || tui_fail "no memory.stat"
tui_has '^  anon [0-9.]+M' || tui_fail "no anon in memory.stat"
tui_has '^  memory.low 0B  memory.high 512M  memory.max max' || tui_fail "limits"
tui_has '^  suggested: memory.low [0-9.]+M  memory.high [0-9.]+M' ||
	tui_fail "no suggestions"
tui_has '^Processes of the subtree \(1\)' || tui_fail "process count"
tui_has "^ +$pid +[0-9.]+M  wsgen\$" || tui_fail "no wsgen $pid with its RSS"
# Expected after a cycle: half (16M) idle for >= 1.5 s (one cycle of 2 s),
# within 1M: the screen shows whole MiB at this size (16M was measured)
half() {
	v=$(awk '/idle for >= 1\.5s/ { v = $(NF - 3); sub(/M$/, "", v); print v }' screen.txt)
	near "$v" 16 1
}
tui_until 30 half
echo "ok: idle for >= 1.5s: ${v}M of 32M"
tui_keys Escape
tui_wait 5 '^NAME +RESIDENT'
tui_quit
