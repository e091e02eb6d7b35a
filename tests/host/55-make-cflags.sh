#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# top/Makefile takes the user's CFLAGS, CPPFLAGS and LDFLAGS without
# losing its own (-D_GNU_SOURCE -std=gnu11 -Wall -Wextra -Werror), as
# dpkg-buildflags and sanitizer builds need, and rebuilds everything when
# they change: a sanitizer build followed by a plain one in the same
# BUILD must give a plain idletop and unit tests that link.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok()  { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
m() { make -s -C "$top/top" -j2 BUILD="$tmp" OUT="$tmp" "$@" > "$tmp/log" 2>&1; }
asan() { ldd "$tmp/idletop" | grep -q libasan; }

if m CFLAGS="-O0 -fsanitize=address,undefined" "$tmp/idletop" "$tmp/unit/test_fmt" &&
   asan && "$tmp/idletop" --version > /dev/null && "$tmp/unit/test_fmt" > /dev/null 2>&1; then
	ok "make CFLAGS=\"-O0 -fsanitize=address,undefined\" builds and runs"
else
	bad "make CFLAGS=-fsanitize=...:"; tail -n 20 "$tmp/log"
fi
if m CFLAGS=-O0 "$tmp/idletop" "$tmp/unit/test_fmt" && ! asan &&
   "$tmp/unit/test_fmt" > /dev/null 2>&1; then
	ok "new CFLAGS, same BUILD: everything rebuilt"
else
	bad "the plain build after the sanitizer one:"; tail -n 20 "$tmp/log"
fi
if ! command -v dpkg-buildflags > /dev/null; then
	bad "dpkg-buildflags not found (dpkg-dev, vm/deps test): its flags not tried"
elif m CFLAGS="$(dpkg-buildflags --get CFLAGS)" CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
     LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" "$tmp/idletop" &&
   "$tmp/idletop" --version > /dev/null; then
	ok "dpkg-buildflags' CFLAGS, CPPFLAGS and LDFLAGS"
else
	bad "dpkg-buildflags:"; tail -n 20 "$tmp/log"
fi
exit $fail
