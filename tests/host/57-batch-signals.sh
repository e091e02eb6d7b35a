#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# SIGTERM ends a batch idletop that waits between slices at once, however
# it lands: `idletop -b --period 3600` over a mkfixture tree (no kernel),
# killed RUNS times (default 100) at a random moment after its handlers
# are in place, must exit 0 within 2 s each time; a signal that came
# between the loop's check of the stop flag and its wait used to be slept
# through (up to an hour).  The same for --mark-wait 3600 (exit 1:
# stopped before its report).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
make -s -C "$top/top" all "$top/build/top/unit/mkfixture" ||
	{ echo "FAIL: make -C top"; exit 1; }
idletop=${IDLETOP:-$top/top/idletop}	# IDLETOP=: another build
runs=${RUNS:-100}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok()  { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

"$top/build/top/unit/mkfixture" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }

# idletop (not yet the shell forked to exec it) catches SIGTERM (15):
# bit 14 of SigCgt in /proc/PID/status
caught() {
	local mask
	mask=$(awk '/^Name:/ { name = $2 } /^SigCgt:/ { mask = $2 }
		END { if (name == "idletop") print mask }' "/proc/$1/status" 2> /dev/null)
	[ -n "$mask" ] && (( (0x$mask >> 14) & 1 ))
}

# term WANT ARGS...: start idletop ARGS, SIGTERM it, check the exit
term() {
	local want=$1 pid i rc
	shift
	"$idletop" --root "$dir/root" "$@" > /dev/null 2> "$dir/err" &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		caught "$pid" && break
		sleep 0.01
	done
	sleep "0.0$((RANDOM % 10))$((RANDOM % 10))"
	kill -TERM "$pid"
	for ((i = 0; i < 20; i++)); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2> /dev/null; then
		kill -KILL "$pid"
		wait "$pid"
		echo "still running 2 s after SIGTERM"
		return 1
	fi
	wait "$pid"
	rc=$?
	[ "$rc" -eq "$want" ] && return 0
	echo "exit $rc (want $want): $(cat "$dir/err")"
	return 1
}

check() {	# RUNS WANT ARGS...
	local n=$1 i why
	shift
	for ((i = 1; i <= n; i++)); do
		why=$(term "$@") && continue
		bad "SIGTERM to idletop ${*:2}, run $i of $n: $why"
		return
	done
	ok "SIGTERM ends idletop ${*:2} at once, $n of $n runs"
}

check "$runs" 0 -b --period 3600
check $((runs / 10)) 1 --mark-wait 3600
exit $fail
