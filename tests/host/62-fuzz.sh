#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# The parser fuzzer (tests/unit/fuzz.c) under ASan and UBSan: every file
# idletop parses (memory.stat, memory.max & co, memory.pressure,
# mountinfo, cgroup.procs, /proc/PID/status, lru_gen/enabled, and the
# kernel files of any length through the engine), a fixed seed,
# FUZZ_SECONDS (10) in all.
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
"$b/unit/fuzz" -s 1 -t "${FUZZ_SECONDS:-10}" >> "$log" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
	echo "FAIL: fuzz exited $rc ($log)"
	grep -E '^FAIL|^fuzz:|ERROR|runtime error|SUMMARY|^    #[0-9]' "$log" | head -n 40
	exit 1
fi
grep -E '^ok ' "$log"
