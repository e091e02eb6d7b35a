#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Zoom in (Enter) and out (Left, Backspace) with a breadcrumb; filter (/,
# Esc) keeps ancestors and descendants of matching names.
. "$(dirname "$0")/lib"

cg_make tuiz
cg_make tuiz/inner-x
cg_make tuiz/inner-y
tui_start 100 30 -- --period 2 --cpu 50
tui_wait 10 '(\|-|`-) tuiz'

# / tuiz Enter: the filter shows /, tuiz and its children
tui_keys '\' t u i z Enter
tui_wait 5 'filter: tuiz\]'
tui_wait 5 'inner-x'
tui_has '^(\|-|`-) tuiz' || tui_fail "filter lost tuiz"
# select tuiz (second row) and zoom in: breadcrumb "/ > tuiz"
tui_keys j Enter
tui_wait 5 '^/ > tuiz '
tui_has '^/tuiz ' || tui_fail "zoom root row is not /tuiz"
tui_has '^\|- inner-x' || tui_fail "no inner-x under the zoom root"
tui_has '^`- inner-y' || tui_fail "no inner-y under the zoom root"
# zoom into a child, then out twice (Left, then Backspace)
tui_keys j Enter
tui_wait 5 '^/ > tuiz > inner-x '
tui_keys Left
tui_wait 5 '^/ > tuiz '
tui_keys BSpace
tui_wait 5 '^/ +\[sort'
# Esc clears the filter
tui_keys Escape
tui_gone 5 'filter:'
tui_quit
