#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Resize redraws at the new size; below 60x10 a message instead of the
# table; back to a usable size the table returns.
. "$(dirname "$0")/lib"

tui_start 100 30 -- --period 2 --cpu 50
tui_wait 10 '^NAME +RESIDENT\*? +ANON +FILE +IDLE +IDLE% +WORKSET +HIGH\* +CURRENT +TREND'
tmux resize-window -t "$TUI_S" -x 140 -y 40
tui_wait 5 '^NAME +RESIDENT.* HIGH/MAX +%LIMIT +PSI10 +REFLT/s +TREND'	# all columns
lines() { [ "$(wc -l < screen.txt)" -ge 40 ] && tui_has '^h help'; }
tui_until 5 lines
# narrow: fewer columns, but a readable table
tmux resize-window -t "$TUI_S" -x 64 -y 12
tui_wait 5 '^NAME +RESIDENT\*? +IDLE +IDLE%'
tui_has 'HIGH/MAX' && tui_fail "HIGH/MAX should not fit in 64 columns"
# too small
tmux resize-window -t "$TUI_S" -x 50 -y 8
tui_wait 5 '^Terminal too small: 50x8'
tui_has 'NAME' && tui_fail "table drawn in a too small terminal"
tmux resize-window -t "$TUI_S" -x 100 -y 30
tui_wait 5 '^NAME +RESIDENT\*? +ANON'
tui_gone 5 'too small'
tui_quit
