#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# Static analysis of top/ and tests/unit/, kept at zero findings:
#  - scan-build (Debian's clang-tools) --status-bugs over a fresh build
#    of idletop, the unit tests, mkfixture, screencheck and the fuzzer;
#  - cppcheck --enable=warning,portability,performance (style is left
#    out: taste, not defects).  A false positive is suppressed where it
#    is, with `cppcheck-suppress ID ; why` on the line before.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build/top-scan
fail=0
sb=$(command -v scan-build || command -v scan-build-14) ||
	{ echo "FAIL: scan-build not found (Debian package clang-tools)"; exit 1; }
command -v cppcheck > /dev/null ||
	{ echo "FAIL: cppcheck not found (Debian package cppcheck)"; exit 1; }

rm -rf "$b"	# scan-build analyses only what it sees compiled
mkdir -p "$b"
units=$(cd "$top/tests/unit" && ls test_*.c | sed "s|^|$b/unit/|; s|\.c$||")
if "$sb" --status-bugs -o "$b/report" make -s -C "$top/top" -j2 BUILD="$b" OUT="$b" \
	"$b/idletop" "$b/unit/mkfixture" "$b/unit/screencheck" "$b/unit/fuzz" \
	$units > "$b.log" 2>&1; then
	echo "ok: scan-build: no bugs"
else
	echo "FAIL: scan-build found bugs (or the build failed):"
	grep -E 'warning:|error:|bugs? found' "$b.log" | head -n 30
	fail=1
fi
if cppcheck --quiet --std=c11 --enable=warning,portability,performance \
	--inline-suppr --error-exitcode=1 -D_GNU_SOURCE -I "$top/top" \
	"$top"/top/*.c "$top"/tests/unit/*.c > "$b/cppcheck.log" 2>&1; then
	echo "ok: cppcheck: no findings"
else
	echo "FAIL: cppcheck:"
	head -n 30 "$b/cppcheck.log"
	fail=1
fi
exit $fail
