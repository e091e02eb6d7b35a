#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# The parser fuzzer (tests/unit/fuzz.c) under ASan and UBSan: every file
# idletop parses (memory.stat, memory.max & co, memory.pressure,
# mountinfo, cgroup.procs, /proc/PID/status, lru_gen/enabled, and the
# kernel files of any length through the engine), seed 1 and a fixed
# number of inputs per target (below): the same inputs on every host, so
# what is covered does not depend on the host's speed, only how long it
# takes (about 10 s of CPU here).  A target without a count fails.
# A longer run by hand, with a new seed each time:
#   make -C top BUILD=$PWD/build/top-san OUT=$PWD/build/top-san \
#	CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all" fuzz
#   build/top-san/unit/fuzz -s $RANDOM -t 3600
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build/top-san
log=$top/build/fuzz.log
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# the file-based targets write their inputs: on tmpfs, 40 times as many
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
san="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
mkdir -p "$b"
make -s -C "$top/top" -j2 BUILD="$b" OUT="$b" CFLAGS="$san" fuzz > "$log" 2>&1 ||
	{ echo "FAIL: make fuzz"; cat "$log"; exit 1; }
# inputs per target, from what 10 s gave each on this 2-core host under
# load (2026-12-06), halved
declare -A inputs=([memory.stat]=240000 [memory.max]=870000
	[memory.pressure]=460000 [memory.events]=520000 [mountinfo]=400000
	[cgroup.procs]=6700 [status]=8400 [lru_gen]=19000 [kpage]=6400
	[cgroup-path]=60000 [listen]=420000 [accept]=120000
	[lru_gen-debugfs]=1800000)
names=$("$b/unit/fuzz" -s 1 -n 1 2>> "$log" | sed -n 's/^ok \(.*\): 1 inputs$/\1/p')
[ -n "$names" ] || { echo "FAIL: fuzz -n 1 lists no target ($log)"; exit 1; }
fail=0
for t in $names; do
	n=${inputs[$t]:-}
	[ -n "$n" ] || { echo "FAIL: target $t has no input count in $0"; fail=1; continue; }
	"$b/unit/fuzz" -s 1 -t 1e9 -n "$n" "$t" >> "$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
		echo "FAIL: fuzz $t exited $rc ($log)"
		grep -E '^FAIL|^fuzz:|ERROR|runtime error|SUMMARY|^    #[0-9]' "$log" | head -n 40
		exit 1
	fi
	grep -qx "ok $t: $n inputs" "$log" ||
		{ echo "FAIL: $t did not run its $n inputs ($log)"; fail=1; continue; }
	echo "ok $t: $n inputs"
done
exit $fail
