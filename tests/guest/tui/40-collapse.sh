#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Space collapses / expands a subtree ("[+]" marks a collapsed one); - and +
# do one direction each.
. "$(dirname "$0")/lib"

cg_make tuic
cg_make tuic/kid-one
cg_make tuic/kid-two
tui_start 100 30 -- --period 2 --cpu 50
tui_keys '\' t u i c Enter
tui_wait 10 'kid-two'
tui_keys j Space		# collapse tuic
tui_wait 5 '- tuic \[\+\]'
tui_gone 5 'kid-one'
tui_keys Space		# expand
tui_wait 5 'kid-one'
tui_has 'tuic \[\+\]' && tui_fail "still marked collapsed"
tui_keys -		# collapse
tui_wait 5 'tuic \[\+\]'
tui_keys +		# expand
tui_wait 5 'kid-two'
tui_quit
