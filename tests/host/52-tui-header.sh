#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# The interactive idletop's header says what it shows, in a host tmux over
# mkfixture trees (no kernel needed):
# - a stock kernel's files (no /proc/kpageidle) with the multi-gen LRU on:
#   a red fifth line "IDLE OVERSTATED ... echo n > ...", the table one line
#   lower; MGLRU switched off: the line goes; with /proc/kpageidle: none;
# - p freezes the report ("[FROZEN: cycle N of period P, K newer]") while
#   measuring goes on, p again shows the newest cycle;
# - w 3 starts anew at 3 s ("new period", "[showing: cycle N of period
#   0.5s]") until a report of the new period comes;
# - in de_DE.UTF-8 (made with localedef under LOCPATH), whose decimal
#   point is a comma, d 2.5 is taken and shown as 2.5 (only LC_CTYPE is
#   the locale's), with UTF-8 tree lines and no "1,5M" in the header;
# - the cgroup tree moved away for a moment: the status line says why
#   and "retrying", the report stays on screen, and new cycles come once
#   the tree is back.
set -u
TMUX_PREFIX=idletop-hdr
. "$(dirname "$0")/tmux-lib"	# top idletop mkfixture dir tm n S ok bad fail

line() { tm capture-pane -p -t "$S" | sed -n "$1p"; }
on_line() { line "$1" | grep -qE "$2"; }
nowhere() { ! tm capture-pane -p -t "$S" | grep -qE "$1"; }

start() {	# root [env]: idletop at --period 0.5 in a fresh server
	tm kill-server 2> /dev/null
	n=$((n + 1)) S=$TMUX_PREFIX-$$-$n
	tm new-session -d -x 120 -y 24 -s "$S" \
		"env LANG=C.UTF-8 ${2:-} TERM=screen $idletop --root $1 --period 0.5 --cpu 100; sleep 600" ||
		{ bad "tmux new-session"; return 1; }
	until_ok 10 on_line 2 '^cycle [0-9]+:'
}

warn='^IDLE OVERSTATED: MGLRU on, no idlemem series: echo n > /sys/kernel/mm/lru_gen/enabled'
"$mkfixture" --stock --lru-gen 0x0007 "$dir/stock" || { echo "FAIL: mkfixture"; exit 1; }
"$mkfixture" --lru-gen 0x0007 "$dir/series" || { echo "FAIL: mkfixture"; exit 1; }

if start "$dir/stock" && on_line 5 "$warn" && on_line 6 '^NAME'; then
	ok "stock kernel, MGLRU on: the warning is header line 5, the table below"
else
	bad "stock kernel, MGLRU on: no warning line 5 above the table"
fi
echo 0x0000 > "$dir/stock/sys/kernel/mm/lru_gen/enabled"
if until_ok 10 nowhere 'IDLE OVERSTATED' && on_line 5 '^NAME'; then
	ok "MGLRU switched off: the warning goes within two reports"
else
	bad "MGLRU switched off: the warning stays"
fi
if start "$dir/series" && on_line 5 '^NAME' && nowhere 'OVERSTATED'; then
	ok "kernel with the series: no warning"
else
	bad "kernel with the series: a warning or no table"
fi

# p: frozen report, measuring goes on; p again: the newest
tm send-keys -t "$S" p
if until_ok 5 on_line 2 '\[FROZEN: cycle [0-9]+ of period 0.5s, [1-9][0-9]* newer\]'; then
	ok "p: $(line 2 | sed 's/.*\[FROZEN/[FROZEN/')"
else
	bad "p: no [FROZEN: ... newer] with measuring going on"
fi
shown=$(line 2 | sed -n 's/.*\[FROZEN: cycle \([0-9]*\) .*/\1/p')
tm send-keys -t "$S" p
if until_ok 3 nowhere 'FROZEN' && [ -n "$shown" ]; then
	ok "p again: thawed"
else
	bad "p again: still frozen"
fi

# w 3: the cycle in progress is dropped, the old report is labelled
tm send-keys -t "$S" w 3 Enter
if until_ok 3 on_line 2 '^new period: .* period 3\.0s .*\[showing: cycle [0-9]+ of period 0.5s\]'; then
	ok "w 3: $(line 2)"
else
	bad "w 3: no 'new period' with the old report labelled"
fi
if until_ok 12 on_line 2 '^cycle [0-9]+: .*period 3\.0s' && nowhere 'showing:'; then
	ok "w 3: a report of the new period, two periods later"
else
	bad "w 3: no report of the new period"
fi

# de_DE.UTF-8: a decimal comma in LC_NUMERIC, UTF-8 in LC_CTYPE
mkdir "$dir/locale"
if ! localedef -i de_DE -f UTF-8 "$dir/locale/de_DE.UTF-8" > "$dir/localedef.log" 2>&1; then
	bad "localedef -i de_DE -f UTF-8 (Debian package locales): $(tail -n 3 "$dir/localedef.log")"
elif [ "$(LOCPATH=$dir/locale LC_ALL=de_DE.UTF-8 locale decimal_point 2> /dev/null)" != , ]; then
	bad "the de_DE.UTF-8 made by localedef has no decimal comma"
elif start "$dir/series" "LOCPATH=$dir/locale LC_ALL=de_DE.UTF-8"; then
	tm send-keys -t "$S" d 2.5 Enter
	if until_ok 3 eval 'line 24 | grep -q "^refresh every 2\.5s "' &&
	   until_ok 3 on_line 2 'refresh 2\.5s' &&
	   tm capture-pane -p -t "$S" | grep -q '[├└]─' &&
	   ! tm capture-pane -p -t "$S" | sed -n 1,4p | grep -qE '[0-9],[0-9]'; then
		ok "de_DE.UTF-8: d 2.5 taken, $(line 24 | cut -c1-19), tree lines in UTF-8"
	else
		bad "de_DE.UTF-8: d 2.5 not shown as 2.5s, or no UTF-8 tree lines"
	fi
fi

# a failed refresh: the error on the status line, the report kept
cycle() { line 2 | sed -n 's/^cycle \([0-9]*\):.*/\1/p'; }
if start "$dir/series"; then
	cg=$dir/series/sys/fs/cgroup
	mv "$cg" "$cg.away"
	if until_ok 5 eval 'line 24 | grep -q "No such file or directory; retrying ([1-4] of 5)"' &&
	   on_line 5 '^NAME' && tm capture-pane -p -t "$S" | grep -q 'plain\.slice'; then
		ok "tree away: $(line 24 | sed 's/.*: //'), the report kept"
	else
		bad "tree away: no 'retrying' on the status line, or the report gone"
	fi
	c1=$(cycle)
	mv "$cg.away" "$cg"
	if until_ok 10 eval '[ "$(cycle)" -gt "${c1:-0}" ]'; then
		ok "tree back: cycle ${c1:-?} -> $(cycle)"
	else
		bad "tree back: no new cycle after cycle ${c1:-?}"
	fi
fi
exit $fail
