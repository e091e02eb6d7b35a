#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run` end to end, as the README's first command is used: the guest
# boots with vm/demo's workloads and idletop full-screen on the console,
# here inside a host tmux at 120x40 (TERM=screen).  Expected once a cycle
# has run, in MiB (u u), the working sets vm/demo describes:
#   cache    resident ~96  idle ~88   (96M page cache, 8% read again)
#   service  resident ~64  idle ~16   (64M anon, 75% hot)
#   batch    resident ~48  idle ~16   (32M THP all hot, 16M shmem untouched)
# then q ends the run with status 0.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
S=idlemem-run-$$
dir=$(mktemp -d)
# a private tmux server: nothing of the user's own sessions is touched
tm() { tmux -L "$S" "$@"; }
trap 'tm kill-server 2> /dev/null; rm -rf "$dir"' EXIT

fail() {
	echo "FAIL: $*"
	echo "---- screen"
	cat "$dir/screen"
	exit 1
}
screen() { tm capture-pane -p -t "$S" > "$dir/screen" 2> /dev/null; }
# wait SECS ERE: until a screen line matches
wait_for() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ]; do
		screen
		grep -qE "$2" "$dir/screen" && return 0
		[ -e "$dir/rc" ] && fail "the run ended ($(cat "$dir/rc")) waiting for: $2"
		sleep 0.5
	done
	fail "not on screen within $1 s: $2"
}
# field NAME K: column K after NAME (1 resident, 4 idle), unit dropped
field() {
	awk -v n="$1" -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == n) {
		v = $(i + k); sub(/[KMGB]$/, "", v); print v; exit } }' "$dir/screen"
}
near() {
	[ -n "$1" ] && awk -v v="$1" -v w="$2" -v t="$3" \
		'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v ~ /^[0-9.]+$/ && d <= t) }'
}
demo_ok() {
	near "$(field cache 1)" 96 8 && near "$(field cache 4)" 88 8 &&
	near "$(field service 1)" 64 6 && near "$(field service 4)" 16 6 &&
	near "$(field batch 1)" 48 6 && near "$(field batch 4)" 16 6
}

# The recipe of `make run`, with this run's kernel and a finite timeout.
recipe=$(make -s -n -C "$top" run KNAME=x 2> /dev/null | grep -F 'vm/run')
echo "$recipe" | grep -qF -- '--interactive' && echo "$recipe" | grep -qF -- '--script vm/demo' ||
	{ echo "FAIL: make run no longer runs vm/run --interactive --script vm/demo: $recipe"; exit 1; }
tm new-session -d -s "$S" -x 120 -y 40 \
	"cd '$top' && TERM=screen vm/run --kernel '$IDLEMEM_BZIMAGE' --initrd '$IDLEMEM_INITRD' --interactive --timeout 300 --script vm/demo; echo \$? > '$dir/rc'" ||
	{ echo "FAIL: tmux new-session"; exit 1; }

wait_for 60 '^NAME +RESIDENT'
for name in cache service batch; do
	wait_for 30 " $name "
done
# At idletop's default --cpu 2 on the emulated CPU: the first window's
# CPU debt is waited out, then a priming pass and a cycle at the period
# (about 75 s in the runs of 2026-12-05 on a loaded 2-core host).
wait_for 180 '^cycle [0-9]+:'
tm send-keys -t "$S" u u
wait_for 10 'units: MiB'
end=$((SECONDS + 60))
until demo_ok; do
	[ $SECONDS -lt $end ] || fail "demo working sets not as vm/demo describes"
	sleep 2
	screen
done
for name in cache service batch; do
	echo "ok: $name resident $(field $name 1)M idle $(field $name 4)M"
done

tm send-keys -t "$S" q
end=$((SECONDS + 30))
while [ ! -e "$dir/rc" ] && [ $SECONDS -lt $end ]; do sleep 0.5; done
[ -e "$dir/rc" ] || fail "q: the run did not end within 30 s"
[ "$(cat "$dir/rc")" = 0 ] || fail "q: the run ended with status $(cat "$dir/rc"), not 0"
echo "ok: q ended the run with status 0"
exit 0
