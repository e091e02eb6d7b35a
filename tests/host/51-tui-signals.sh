#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# The interactive idletop, in a host tmux over a mkfixture tree (no
# kernel needed), killed by each signal that ends it, leaves the terminal
# as it found it: the same `stty -a`, the alternate screen left, the
# cursor shown, the keypad mode and mouse reports off (TERM=screen, and
# xterm-256color once, whose terminfo has XM).  SIGINT and SIGTERM exit
# 0; the others (SIGSEGV, SIGABRT, ...) must end idletop by that same signal
# (exit status 128+N: raised again with the default action, so a core
# dump is still written); SIGHUP ignored at start (nohup) stays
# ignored.  Before the signals: the tree's rows of bidi
# and zero-width names are escaped and as wide as every other row.
set -u
TMUX_PREFIX=idletop-sig
. "$(dirname "$0")/tmux-lib"	# top idletop mkfixture dir tm n S ok bad fail

"$top/build/top/unit/mkfixture" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }
cat > "$dir/pane.sh" <<EOF
ulimit -c 0
stty -a > "$dir/before"
[ -e "$dir/nohup" ] && trap '' HUP	# as nohup(1) starts it
sh -c 'echo \$\$ > "$dir/pid"; exec "$idletop" --root "$dir/root" --period 0.5'
echo \$? > "$dir/rc"
stty -a > "$dir/after"
exec sleep 600
EOF

term=screen
on_screen() { tm capture-pane -p -t "$S" | grep -q "$1"; }
# alternate screen, cursor, keypad, mouse reports (standard, any mode)
flags() {
	tm display -p -t "$S" '#{alternate_on} #{cursor_flag} #{keypad_cursor_flag} #{mouse_standard_flag} #{mouse_any_flag}'
}

# start(): idletop in a fresh session, shown and measuring (zw's IDLE%:
# half of its pages never read idle in mkfixture); 1 on failure
start() {
	tm kill-server 2> /dev/null
	n=$((n + 1)) S=$TMUX_PREFIX-$$-$n
	rm -f "$dir/pid" "$dir/rc" "$dir/before" "$dir/after"
	tm new-session -d -x 110 -y 30 -s "$S" \
		"env LANG=C.UTF-8 TERM=$term bash $dir/pane.sh" || return 1
	until_ok 10 on_screen 'zw.*  50\.0  ' && [ -s "$dir/pid" ]
}

if start; then
	tm capture-pane -p -t "$S" > "$dir/screen"
	hidden=$(printf '\342\200\256|\342\200\213|\342\201\246')
	rows=$(grep -E 'plain.slice|rtl|zw|dup' "$dir/screen" |
		perl -CSD -ne 'chomp; print length($_), "\n"' | sort -u | wc -l)
	if ! grep -qE "$hidden" "$dir/screen" && [ "$rows" -eq 1 ] &&
	   grep -qF 'rtl\xe2\x80\xaeabc' "$dir/screen"; then
		ok "bidi and zero-width names escaped, their rows aligned"
	else
		bad "bidi/zero-width names on screen ($rows row widths):"
		cat -v "$dir/screen"
	fi
else
	bad "idletop did not start in tmux"; tm capture-pane -p -t "$S"
fi

# kill idletop (shown in a fresh session) with SIG$1, check the terminal
check_signal() {
	local sig=$1 what="SIG$1" want rc
	[ "$term" = screen ] || what="$what (TERM=$term)"
	if ! start; then
		bad "$what: idletop did not start"
		return
	fi
	[ "$(flags)" = "1 0 1 1 1" ] || bad "$what: before: alternate/cursor/keypad/mouse $(flags)"
	kill -s "$sig" "$(cat "$dir/pid")"
	if ! until_ok 10 test -s "$dir/after"; then
		bad "$what: idletop did not end"
		return
	fi
	want=$((128 + $(kill -l "$sig")))
	case $sig in INT|TERM) want=0 ;; esac
	rc=$(cat "$dir/rc")
	if cmp -s "$dir/before" "$dir/after" && [ "$(flags)" = "0 1 0 0 0" ] &&
	   [ "$rc" -eq "$want" ]; then
		ok "$what: terminal restored, exit $rc"
	else
		bad "$what: exit $rc (want $want), alternate/cursor/keypad/mouse $(flags) (want 0 1 0 0 0)"
		diff "$dir/before" "$dir/after"
	fi
}

for sig in INT TERM HUP QUIT SEGV ABRT BUS FPE ILL USR1; do
	check_signal "$sig"
done
# xterm's terminfo has the XM string that mouse reports are turned
# off with; screen's has not (the fallback, above)
term=xterm-256color
check_signal SEGV
term=screen
# ignored at start (nohup): SIGHUP stays ignored, idletop runs on
touch "$dir/nohup"
if start; then
	kill -s HUP "$(cat "$dir/pid")"
	# a key answered after the signal: idletop has run its loop since
	# (and would have ended there, had it handled SIGHUP), no timing
	tm send-keys -t "$S" '?'
	until_ok 10 on_screen '^Keys'
	if [ ! -e "$dir/rc" ] && [ "$(flags)" = "1 0 1 1 1" ] && on_screen '^Keys'; then
		ok "SIGHUP ignored at start (nohup) stays ignored"
	else
		bad "SIGHUP ignored at start ended idletop: exit $(cat "$dir/rc" 2> /dev/null)"
	fi
	kill -s TERM "$(cat "$dir/pid")"
	until_ok 10 test -s "$dir/after" || bad "nohup: SIGTERM did not end idletop"
else
	bad "nohup: idletop did not start"
fi
rm -f "$dir/nohup"
exit $fail
