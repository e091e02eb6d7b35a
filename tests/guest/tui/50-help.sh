#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# h (and ?) opens the help generated from the key table: every action with
# its keys; Esc goes back to the tree; the hint line names keys too.
. "$(dirname "$0")/lib"

tui_start 100 40 -- --period 2 --cpu 50
tui_wait 10 '^NAME +RESIDENT'
tui_has '^h help +Enter zoom +i details' || tui_fail "no key hints"
tui_keys h
tui_wait 5 '^Keys'
# Expected lines (keys, then what they do):
for re in '^  Up k +move up' '^  Down j +move down' '^  PgUp \^B +page up' \
	'^  Home g +first row' '^  End G +last row' \
	'^  Enter Right +zoom into' '^  Left Backspace +zoom out' \
	'^  Space +collapse or expand' '^  i +details' \
	'^  s > +sort by the next' '^  < +sort by the previous' \
	'^  r +reverse' '^  F6 +sort menu' '^  \\ F4 +filter' \
	'^  / F3 +search' '^  n +next match' '^  F5 +flat view' \
	'^  F2 C +column chooser' '^  Esc +clear the filter' \
	'^  p Z +freeze' '^  d +set the refresh' '^  w +set the idle window' \
	'^  u +units' '^  Mouse +click' \
	'^  h \? F1 +this help' '^  q F10 \^C +quit'; do
	tui_has "$re" || tui_fail "help lacks /$re/"
done
# the columns, from the field registry, a page down
tui_keys NPage
tui_wait 5 '^  RESIDENT +user pages on the LRU'
tui_has '^  REFLT/s +workingset refaults' || tui_fail "no REFLT/s in the help"
tui_keys Home
tui_keys Escape
tui_wait 5 '^NAME +RESIDENT'
tui_keys '?'
tui_wait 5 '^Keys'
tui_keys '?'
tui_wait 5 '^NAME +RESIDENT'
tui_quit
