#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 180
# Sort order: by resident (default, largest first), r reverses, < and >
# (and s) pick the column; the header names it and marks it with *.
. "$(dirname "$0")/lib"

cg_make tuis
echo +memory > /sys/fs/cgroup/tuis/cgroup.subtree_control
cg_workload tuis/aa-small --anon 8M:1
cg_workload tuis/zz-big --anon 40M:1
tui_start 100 30 -- --period 2 --cpu 50
tui_wait 10 '(\|-|`-) tuis'
tui_keys '\' t u i s Enter
tui_wait 5 'zz-big'

above() {	# above A B: row A is above row B
	awk -v a="$1" -v b="$2" '$0 ~ a { x = NR } $0 ~ b { y = NR }
		END { exit !(x && y && x < y) }' screen.txt
}
# Expected: sort: resident; zz-big (40M) above aa-small (8M)
tui_wait 5 'sort: resident,'
tui_has 'RESIDENT\*' || tui_fail "no * on RESIDENT"
tui_until 30 above '- zz-big ' '- aa-small '
# r: reversed, aa-small above zz-big
tui_keys r
tui_wait 5 'sort: resident rev,'
tui_until 5 above '- aa-small ' '- zz-big '
# r again, then < : sort by name (ascending): aa-small first
tui_keys r '<'
tui_wait 5 'sort: name,'
tui_has 'NAME\*' || tui_fail "no * on NAME"
tui_until 5 above '- aa-small ' '- zz-big '
# > twice (and s): resident, anon, file
tui_keys '>' '>'
tui_wait 5 'sort: anon,'
tui_until 30 above '- zz-big ' '- aa-small '
tui_keys s
tui_wait 5 'sort: file,'
tui_quit
