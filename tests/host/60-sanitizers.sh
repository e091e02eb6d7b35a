#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# idletop and its unit tests built with -fsanitize=address,undefined
# (LeakSanitizer on, as ASan has it on Linux) into build/top-san, then
# `make check` there: every cmocka test, mkfixture and check-formats.sh
# with the sanitized idletop, and the -o test of 50-idletop-output.sh.
# Any sanitizer report fails: UBSan and ASan stop at the first error
# (-fno-sanitize-recover, halt_on_error), and the log is searched for a
# report in case a child's exit status was lost.  This is also the test
# that `make CFLAGS=...` builds (top/Makefile keeps its own flags).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build/top-san
log=$b.log
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=
san="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
mkdir -p "$b"
{
	make -s -C "$top/top" -j2 BUILD="$b" OUT="$b" CFLAGS="$san" check &&
	IDLETOP=$b/idletop bash "$top/tests/host/50-idletop-output.sh"
} > "$log" 2>&1
rc=$?
reports=$(grep -cE 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: [A-Za-z]*Sanitizer' "$log")
if [ $rc -ne 0 ] || [ "$reports" -ne 0 ]; then
	echo "FAIL: sanitizer build and tests: exit $rc, $reports sanitizer report lines ($log)"
	grep -E '^FAIL|FAILED|ERROR|runtime error|SUMMARY|^    #[0-9]' "$log" | head -n 40
	exit 1
fi
echo "ok: $(grep -c '^\[       OK \]' "$log") cmocka tests, check-formats and -o clean under ASan, UBSan, LSan"
