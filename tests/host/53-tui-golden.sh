#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# Golden screens, tig-style: idletop over a mkfixture tree (no kernel) in a
# host tmux at fixed sizes, keys and mouse reports sent, and the whole
# screen (or, for the mouse, the line it should change) compared with
# its golden, tests/host/golden/NAME.txt (measured screens once cycle 20
# is reached, every age bucket filled).  The fixture's cgroups have
# different shares of pages that never read idle, so resident, idle and
# the working set differ within every row and between rows.  Only what
# moves on its own is normalised (norm()): the numbers of header line 2
# (progress, time left, cycle, CPU %; the line cut at 36 characters,
# since the terminal cuts it at a place that moves with them), the
# progress in line 3 before the first report, the cycle's length in the
# idle-time title, the least age in cycles beside each idle-time bucket
# and the temp directory.  Every screen, as captured, and every golden
# must also pass screencheck (tests/unit/screencheck.c): no raw control,
# bidi or zero-width characters, no line wider than the terminal, every
# table cell aligned with its column's title; a golden cannot approve a
# misaligned column.
# Sizes: 80x24 and 64x20; locales: C.UTF-8 (tree lines, sparklines) and C
# (ASCII, non-ASCII bytes as \xNN).  After a deliberate change of a
# screen, `GOLDEN_UPDATE=NAME tests/host/53-tui-golden.sh` rewrites its
# golden with the actual screen (NAME,NAME...: several; all: every one);
# review the diff before committing it.
set -u
TMUX_PREFIX=idletop-golden
. "$(dirname "$0")/tmux-lib"	# top idletop mkfixture screencheck dir tm n S ...

"$mkfixture" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }

# start COLS ROWS LANG ARGS...: idletop in a fresh server
start() {
	local rows=$2 lang=$3
	cols=$1
	shift 3
	tm kill-server 2> /dev/null
	n=$((n + 1)) S=$TMUX_PREFIX-$$-$n
	tm new-session -d -x "$cols" -y "$rows" -s "$S" \
		"env LANG=$lang TERM=screen $idletop --root $dir/root $*; sleep 600" ||
		{ bad "tmux new-session"; return 1; }
}

norm() {
	sed -E "s|$dir|DIR|g" | LC_ALL=C.UTF-8 sed -E '2{s/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g; s/^(.{0,36}).*/\1/}
		s/(idle measuring(…|\.\.\.) )[0-9]+%/\1N%/
		s/(Idle time \(cycle )[0-9.]+[a-z]+\)/\1T)/
		s/(idle for >= .*\(>= )[0-9]+ cycles?\)/\1N cycles)/' | sed -E 's/ +$//'
}

capture() {
	tm capture-pane -p -t "$S" > "$dir/raw" && norm < "$dir/raw" > "$dir/actual"
}
has() { tm capture-pane -p -t "$S" | grep -qE "$1"; }	# not normalised

# Is NAME named in GOLDEN_UPDATE (a comma-separated list, or all)?
updating() {
	case ",${GOLDEN_UPDATE:-}," in
	*",$1,"* | *,all,*) return 0 ;;
	esac
	return 1
}

# screen NAME: the current screen must be golden/NAME.txt (after norm())
# and pass screencheck (as captured).
screen() {
	local name=$1 want=$top/tests/host/golden/$1.txt
	until_ok 5 eval 'capture; cmp -s "$want" "$dir/actual"'
	if ! "$screencheck" "$cols" "$dir/raw" > "$dir/props"; then
		echo "FAIL: $name: the screen breaks screencheck's properties:"
		sed "s|^$dir/raw|$name|" "$dir/props" | head -n 12
		sed 's/^/    /' "$dir/raw"
		fail=1
	fi
	if updating "$name"; then
		cp "$dir/actual" "$want" && echo "updated: $want"
	elif cmp -s "$want" "$dir/actual"; then
		ok "$name"
	else
		echo "FAIL: $name: screen differs (- expected, + actual):"
		diff -u "$want" "$dir/actual" | tail -n +3
		echo "if the change is deliberate:" \
			"GOLDEN_UPDATE=$name tests/host/53-tui-golden.sh"
		fail=1
	fi
}

# Every golden as kept must have screencheck's properties too: an edit by
# hand cannot approve a misaligned column either (COLS from NAME-COLSxROWS).
for g in "$top"/tests/host/golden/*.txt; do
	c=$(basename "$g" | sed -E 's/.*-([0-9]+)x[0-9]+-.*/\1/')
	"$screencheck" "$c" "$g" || { echo "FAIL: golden $g"; fail=1; }
done

# --- before the first report: 80x24, UTF-8 ---------------------------------
start 80 24 C.UTF-8 --period 600 --first-window 0
until_ok 10 has '^/ +6M'
screen before-report-80x24-utf8
quit

# --- measured, frozen once the sparklines are full: 80x24, UTF-8 ------------
start 80 24 C.UTF-8 --period 0.2 --cpu 100 --idle-buckets 1,2,1h
until_ok 30 has '^cycle ([2-9][0-9]|[1-9][0-9]{2,}):'
tm send-keys -t "$S" Z
screen tree-80x24-utf8
# flat view (F5), sorted by name (F6, Home, Enter)
tm send-keys -t "$S" F5 F6 Home Enter
screen flat-by-name-80x24-utf8
# search /plain, details
tm send-keys -t "$S" F5 / p l a i n Enter i
screen detail-80x24-utf8
tm send-keys -t "$S" Escape F2
screen columns-80x24-utf8
# IDLE two places earlier (F7 [), REACC shown (End: the list scrolls to
# the last hidden entry; Space appends it), back to the tree
tm send-keys -t "$S" Home Down Down Down F7 '[' End Space
screen columns-moved-80x24-utf8
tm send-keys -t "$S" Escape
screen tree-moved-80x24-utf8
quit
until_ok 5 test -s "$XDG_CONFIG_HOME/idletop/idletoprc" ||
	bad "no rc file written on exit"

# --- 64 columns, C locale (ASCII), settings from the rc file -----------------
start 64 20 C --period 0.2 --cpu 100
until_ok 30 has '^cycle ([2-9][0-9]|[1-9][0-9]{2,}):'
tm send-keys -t "$S" Z
screen tree-64x20-ascii
quit
# before the first report, ASCII: "..." where a number will be
start 64 20 C --period 600 --first-window 0
until_ok 10 has '^/ +6M'
screen before-report-64x20-ascii
quit

# --- mouse (xterm X10 reports, as tmux passes them on), help, sort menu -----
# click X Y / wheel X Y: a button 1 press and release, a wheel-down press,
# at 0-based cell X, Y
xy() { printf '%x %x' $(($1 + 33)) $(($2 + 33)); }
click() { tm send-keys -t "$S" -H 1b 5b 4d 20 $(xy "$1" "$2") 1b 5b 4d 23 $(xy "$1" "$2"); }
wheel() { tm send-keys -t "$S" -H 1b 5b 4d 61 $(xy "$1" "$2"); }
start 80 24 C.UTF-8 --period 600 --first-window 0
until_ok 10 has '^/ +6M'
x=$(tm capture-pane -p -t "$S" | sed -n 5p | awk '{ print index($0, " FILE ") }')
click "$x" 4	# the FILE title (where the rc file's column order put it)
until_ok 5 eval "has '^/   \[sort: file,' && has '^NAME .* FILE\* '" &&
	ok "mouse: a click on a column title sorts by it" ||
	bad "mouse: a click on FILE did not sort by it"
click 5 8	# the third row below /: dup\x01 (equal sizes sort by name)
tm send-keys -t "$S" i
until_ok 5 has '^cgroup /dup\\x01$' &&
	ok "mouse: a click selects the row (i: /dup\\x01)" ||
	bad "mouse: a click on row 8 did not select /dup\\x01"
tm send-keys -t "$S" Escape
wheel 5 8	# three rows down: dup\\x01, esc\x1b[31mred, inv\xef\xbf\xbdff
tm send-keys -t "$S" i
until_ok 5 has '^cgroup /inv.ff$' &&
	ok "mouse: the wheel moves the selection three rows" ||
	bad "mouse: the wheel did not move the selection to /inv\xef\xbf\xbdff"
tm send-keys -t "$S" Escape F6
screen sort-menu-80x24-utf8
tm send-keys -t "$S" Escape h
screen help-80x24-utf8
quit

# --- a malformed rc file: ignored with a warning, left as it is ---------------
echo "sort=nonsense" >> "$XDG_CONFIG_HOME/idletop/idletoprc"
cp "$XDG_CONFIG_HOME/idletop/idletoprc" "$dir/rc.bad"
start 80 24 C.UTF-8 --period 600 --first-window 0
if until_ok 10 has 'idletop/idletoprc:[0-9]+: not a sortable field'; then
	ok "a malformed rc file: a warning naming the line"
else
	bad "a malformed rc file: no warning"
fi
quit
cmp -s "$dir/rc.bad" "$XDG_CONFIG_HOME/idletop/idletoprc" &&
	ok "a malformed rc file is left as it is" ||
	bad "the malformed rc file was overwritten"

# --- the filter takes UTF-8; Backspace erases a whole character -------------
XDG_CONFIG_HOME=$dir/fresh start 80 24 C.UTF-8 --period 600 --first-window 0
until_ok 10 has '^/ +6M'
tm send-keys -t "$S" F5 '\' c a f é é BSpace Enter
if until_ok 5 has 'filter: café\]' &&
   [ "$(tm capture-pane -p -t "$S" | sed -n '6,/^$/p' | sed '/^$/d' |
	cut -c1-12 | sed 's/ *$//' | tr '\n' '|')" = "/café ✓|" ]; then
	ok "filter: café typed (and a second é erased) shows /café ✓ alone"
else
	bad "filter: café did not show /café ✓ alone"
fi
quit
exit $fail
