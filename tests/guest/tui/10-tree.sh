#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# The tree and its numbers for workloads with known idle memory.
#   tui-cold: wsgen 64M anon, 25% hot  -> resident ~64M, idle ~48M (75%)
#   tui-hot:  wsgen 32M anon, all hot  -> resident ~32M, idle ~0 (0%)
# Before the first cycle the screen says "measuring... N%"; with u u the
# sizes are in MiB ("48.0M"); tree lines are ASCII with LANG unset.
. "$(dirname "$0")/lib"

cg_workload tui-cold --anon 64M:0.25 --interval 50
cg_workload tui-hot --anon 32M:1 --interval 50
tui_start 100 30 -- --period 2 --cpu 50

# Expected at once: "measuring... NN%" in the header, "..." for idle.
tui_wait 10 'measuring\.\.\. +[0-9]+%'
tui_wait 10 '^(\|-|`-) tui-cold '
# Expected after two periods: "cycle N:" and numbers.
tui_wait 60 '^cycle [0-9]+:'
tui_keys u u
tui_wait 5 'units: MiB'

cold_ok() {
	r=$(tui_field tui-cold 1) i=$(tui_field tui-cold 4) p=$(tui_field tui-cold 5)
	near "$r" 64 8 && near "$i" 48 6 && near "$p" 75 8
}
hot_ok() {
	r=$(tui_field tui-hot 1) i=$(tui_field tui-hot 4) p=$(tui_field tui-hot 5)
	near "$r" 32 6 && near "$i" 0 3 && near "$p" 0 8
}
tui_until 60 cold_ok
echo "ok: tui-cold resident $r idle $i ($p%)"
tui_until 30 hot_ok
echo "ok: tui-hot resident $r idle $i ($p%)"
# Expected colours of the IDLE% cells (TERM=screen): 50% idle or more is
# blue (cold), under 10% red (hot); the selected row (/) keeps its own.
colors_ok() { tui_sgr tui-cold 34 && tui_sgr tui-hot 31; }
tui_until 20 colors_ok
sel=$(grep -E "^$ESC\\[42m/ " screen.esc) || tui_fail "no selected root row (green)"
case $sel in
*"[31m"* | *"[34m"*) tui_fail "the selected row has an IDLE% colour" ;;
esac
echo "ok: IDLE% colours: tui-cold blue, tui-hot red"
# sorted by resident, largest first: tui-cold above tui-hot
awk '/ tui-cold /{ c = NR } / tui-hot /{ h = NR } END { exit !(c && h && c < h) }' \
	screen.txt || tui_fail "tui-cold not above tui-hot"
# the root row and the memory summary
tui_has '^/ +[0-9.]+M' || tui_fail "no root row"
tui_has '^Mem total [0-9.]+M +resident [0-9.]+M +idle [0-9.]+M' ||
	tui_fail "no memory summary"
tui_quit
