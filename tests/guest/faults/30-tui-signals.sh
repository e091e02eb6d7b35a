#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 150
#
# The interactive view (in tmux) under signals:
#  - a storm of SIGWINCH, with real size changes (tmux resize-window) in
#    between: idletop survives, still quits on q with status 0;
#  - SIGTERM, SIGINT (kill) and ^C typed on the terminal: idletop ends by
#    itself (not killed by the signal) and leaves the terminal as it found
#    it: the alternate screen left, the cursor visible, the same stty
#    modes as before it started.

set -u
command -v tmux > /dev/null || { echo "SKIP: no tmux in the guest"; exit 77; }
if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
T="tmux -L tui-signals-$$"
fail=0
trap '$T kill-server 2>/dev/null' EXIT
D=$PWD

# start NAME: idletop in a tmux session, between two stty -a snapshots
start() {
	rm -f $D/$1.*
	if ! $T new-session -d -s $1 -x 100 -y 30 \
		"unset LANG LC_ALL LC_CTYPE; export TERM=screen; stty -a > $D/$1.before; idletop -d 2 --cpu 50 2> $D/$1.err; echo \$? > $D/$1.rc; stty -a > $D/$1.after; sleep 600" \
		2> $D/tmux.err; then
		cat $D/tmux.err
		# vm/mkinitramfs always installs C.UTF-8, which tmux needs
		echo "FAIL: tmux new-session"
		exit 1
	fi
	n=0
	pid=
	while [ $n -lt 200 ]; do
		pid=$(pidof idletop)
		[ -n "$pid" ] && [ "$($T display -p -t $1 '#{alternate_on}')" = 1 ] && break
		[ -s $D/$1.rc ] && break
		sleep 0.1
		n=$((n + 1))
	done
	if [ -z "$pid" ] || [ -s $D/$1.rc ]; then
		# "the interactive view needs a terminal" on tmux's pty is
		# idletop's bug, not the guest's
		echo "FAIL: $1: idletop did not start: $(cat $D/$1.err 2>/dev/null)"
		$T capture-pane -p -t $1
		exit 1
	fi
	drawn $1 "start"
}

# drawn NAME WHEN: idletop has drawn its table (a line starting NAME) in
# session NAME, within 20 s; fails the test otherwise.
drawn() {
	n=0
	until $T capture-pane -p -t $1 2>/dev/null | grep -q '^NAME'; do
		n=$((n + 1))
		if [ $n -gt 200 ]; then
			echo "FAIL: $1: no table drawn 20 s after $2"
			$T capture-pane -p -t $1
			exit 1
		fi
		sleep 0.1
	done
}

# finish NAME HOW: idletop must have ended by itself; terminal restored.
finish() {
	n=0
	while [ ! -s $D/$1.after ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	if [ ! -s $D/$1.after ]; then
		echo "FAIL: $1: idletop still running 10 s after $2"
		kill -KILL $pid 2>/dev/null
		fail=1
		return
	fi
	rc=$(cat $D/$1.rc)
	alt=$($T display -p -t $1 '#{alternate_on}')
	cur=$($T display -p -t $1 '#{cursor_flag}')
	# rows/columns may differ after resizes; the modes must not
	strip() { sed 's/rows [0-9]*;//; s/columns [0-9]*;//' "$1"; }
	if [ "$rc" -ge 128 ] || { [ "$2" = q ] && [ "$rc" -ne 0 ]; }; then
		echo "FAIL: $1: exit status $rc after $2"; cat $D/$1.err; fail=1
	elif [ "$alt" != 0 ]; then
		echo "FAIL: $1: alternate screen still on after $2"; fail=1
	elif [ "$cur" != 1 ]; then
		echo "FAIL: $1: cursor left invisible after $2"; fail=1
	elif [ "$(strip $D/$1.before)" != "$(strip $D/$1.after)" ]; then
		echo "FAIL: $1: terminal modes not restored after $2:"
		diff $D/$1.before $D/$1.after
		fail=1
	else
		echo "ok: $1: $2: exit $rc, terminal restored"
	fi
	[ -s $D/$1.err ] && { echo "$1: stderr: $(cat $D/$1.err)"; }
	$T kill-session -t $1
}

start winch
i=0
while [ $i -lt 300 ]; do
	kill -WINCH $pid 2>/dev/null || break
	i=$((i + 1))
	[ $((i % 25)) -eq 0 ] && $T resize-window -t winch -x $((40 + i % 90)) -y $((8 + i % 40))
done
if kill -0 $pid 2>/dev/null; then
	echo "ok: idletop survived $i SIGWINCHs"
else
	echo "FAIL: idletop died during the SIGWINCH storm (after $i)"; fail=1
fi
$T resize-window -t winch -x 100 -y 30
drawn winch "the storm"
$T send-keys -t winch q
finish winch q

start term
kill -TERM $pid
finish term SIGTERM

start int
kill -INT $pid
finish int SIGINT

start ctrlc
$T send-keys -t ctrlc C-c
finish ctrlc "^C"
exit $fail
