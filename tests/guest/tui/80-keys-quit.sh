#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Keys are handled while a cycle is being measured (no blocking), u cycles
# units, p freezes the report, w sets the period, d the refresh, q exits 0,
# SIGTERM exits 0 too.  "While measured" is an order, not a time: with no
# first window the first report takes a priming pass and a cycle of 30 s,
# and the keys must have been answered before it (the poll loop, not the
# scan, waits); the waits themselves are generous for a loaded host.
. "$(dirname "$0")/lib"

tui_start 100 30 -- --period 30 --first-window 0
tui_wait 10 'measuring\.\.\. +[0-9]+%'
tui_keys h
tui_wait 10 '^Keys'
tui_keys Escape
tui_wait 10 '^NAME'
for u in KiB MiB GiB pages auto; do
	tui_keys u
	tui_wait 10 "units: $u\\]"
done
tui_has 'measuring\.\.\. +[0-9]+%' ||
	tui_fail "the first cycle ended before the keys were answered"
tui_keys p
tui_wait 10 '\[FROZEN\]'
tui_keys p
tui_gone 10 'FROZEN'
tui_keys w 5 Enter
tui_wait 10 'period 5\.0s'
tui_keys d 1 Enter
tui_wait 10 'refresh 1\.0s'
tui_quit
rm -f rc

tui_start 100 30 -- --period 2 --cpu 50
tui_wait 10 '^NAME'
pkill -TERM -x idletop 2>/dev/null || kill -TERM $(pidof idletop)
n=50
while [ $n -gt 0 ] && ! tui_exited; do sleep 0.1; n=$((n - 1)); done
[ "$(cat rc 2>/dev/null)" = 0 ] || tui_fail "SIGTERM: status $(cat rc 2>/dev/null)"
echo "ok: SIGTERM: exit 0"
