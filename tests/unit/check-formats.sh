#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host check of idletop's real output over a fixture tree with hostile
# cgroup names: OpenMetrics through promtool, JSON through jq.
set -u
: "${IDLETOP:?}" "${MKFIXTURE:?}"
for tool in promtool:prometheus jq:jq; do
	command -v "${tool%%:*}" > /dev/null && continue
	echo "FAIL: ${tool%%:*} not found (Debian package ${tool#*:})"
	echo "0 passed, 1 failed"
	exit 1
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/idletop-fmt.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

"$MKFIXTURE" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }
run() { "$IDLETOP" --root "$dir/root" -b -n "$1" --period 0.05 --format "$2"; }

if run 1 openmetrics > "$dir/om" && promtool check metrics < "$dir/om" &&
   [ "$(tail -n1 "$dir/om")" = "# EOF" ]; then
	ok "openmetrics passes promtool check metrics"
else
	bad "openmetrics"; cat "$dir/om"
fi
if run 2 json > "$dir/json" && [ "$(wc -l < "$dir/json")" -eq 2 ] &&
   jq -e -s 'length == 2 and .[1].cycle == 2 and
	(.[0].cgroups | map(.path) | any(test("\n"))) and
	(.[0].cgroups[0].total.anon > 0)' "$dir/json" > /dev/null; then
	ok "json lines parse with jq"
else
	bad "json"; cat "$dir/json"
fi
if run 1 text > "$dir/text" && ! grep -q "$(printf '\033')" "$dir/text" &&
   [ "$(grep -c . "$dir/text")" -ge 8 ]; then
	ok "text has no raw escape bytes"
else
	bad "text"; cat -v "$dir/text"
fi
# stdout closed early: idletop must exit non-zero without a message
( "$IDLETOP" --root "$dir/root" -b -n 50 --period 0.01 --format text \
	2> "$dir/err"; echo $? > "$dir/rc" ) | head -c 10 > /dev/null
if [ "$(cat "$dir/rc")" != 0 ] && [ ! -s "$dir/err" ]; then
	ok "closed stdout: quiet exit $(cat "$dir/rc")"
else
	bad "closed stdout: rc $(cat "$dir/rc"), stderr: $(cat "$dir/err")"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
