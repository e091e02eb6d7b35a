#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host check of idletop's real output over a fixture tree with hostile
# cgroup names: OpenMetrics through promtool, JSON through jq, and that
# every format keeps distinct names distinct (mkfixture's "dup", "inv",
# "rtl" names: an escaping that is not injective merges them) with no
# bidi or zero-width character left raw.
set -u
: "${IDLETOP:?}" "${MKFIXTURE:?}"
for tool in promtool:prometheus jq:jq perl:perl; do
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

# promtool parses the Prometheus text format (0.0.4) and lints names;
# the OpenMetrics form must be the same samples plus UNIT lines and EOF.
if run 1 prometheus > "$dir/prom" && promtool check metrics < "$dir/prom" &&
   run 1 openmetrics > "$dir/om" && [ "$(tail -n1 "$dir/om")" = "# EOF" ] &&
   grep -q '^# UNIT idletop_resident_bytes bytes$' "$dir/om" &&
   grep -q '^# TYPE idletop_cpu_seconds counter$' "$dir/om" &&
   grep -q '^# TYPE idletop_cpu_seconds_total counter$' "$dir/prom" &&
   grep -v '^#' "$dir/prom" | sed 's/ [^ ]*$//' > "$dir/prom.s" &&
   grep -v '^#' "$dir/om" | sed 's/ [^ ]*$//' > "$dir/om.s" &&
   cmp -s "$dir/prom.s" "$dir/om.s"; then
	ok "prometheus passes promtool check metrics; openmetrics has its samples"
else
	bad "prometheus / openmetrics"; promtool check metrics < "$dir/prom"
	cat "$dir/om"
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
# Distinct names stay distinct.  The text form is the reference: its
# CGROUP column is last, after the first two spaces that follow the
# numbers (which hold no '/'), before its identity ("  [slice=x.slice]").  Decoded OpenMetrics labels must be exactly
# the text forms; JSON paths must be as many and all different.
sed -n 's|^[^/]*  /|/|p' "$dir/text" | sed 's/  \[[a-z_]*=[^]]*\]$//' |
	sort > "$dir/text.paths"
perl -ne 'while (/^idletop_resident_bytes\{cgroup="((?:[^"\\]|\\.)*)"/g) {
	(my $v = $1) =~ s/\\(.)/$1 eq "n" ? "\n" : $1/ge; print "$v\n" }' \
	"$dir/om" | sort -u > "$dir/om.paths"
n=$(jq -s '.[0].cgroups | length' "$dir/json")
if [ "$(sort -u "$dir/text.paths" | wc -l)" -eq "$n" ] && [ "$n" -ge 16 ] &&
   cmp -s "$dir/text.paths" "$dir/om.paths" &&
   jq -e -s '.[0].cgroups | map(.path) | length == (unique | length) and
	index("/inv\ufffdff") != null and index("/inv\ufffdfe") != null and
	index("/inv\ufffd\ufffdff") != null and index("/rtl\u202eabc") != null and
	index("/dup\u0001") != null and index("/dup\\x01") != null' \
	"$dir/json" > /dev/null; then
	ok "$n distinct names stay distinct in text, openmetrics and json"
else
	bad "distinct names merged ($n cgroups): text vs openmetrics:"
	diff "$dir/text.paths" "$dir/om.paths" | cat -v
	jq -c -s '.[0].cgroups | map(.path)' "$dir/json"
fi
hidden=$(printf '\342\200\256|\342\200\213|\342\201\246')
if ! grep -qE "$hidden" "$dir/text" "$dir/om" "$dir/json" &&
   grep -qF '/rtl\xe2\x80\xae''abc' "$dir/text" &&
   grep -qF '/zw\xe2\x80\x8b''sp' "$dir/text"; then
	ok "no raw bidi or zero-width character in any format"
else
	bad "raw bidi or zero-width characters:"
	grep -nE "$hidden" "$dir/text" "$dir/om" "$dir/json" | cat -v
fi
# stdout closed early: idletop must exit 1 without a message (idletop.1,
# EXIT STATUS; 141, death by SIGPIPE, is not that)
( "$IDLETOP" --root "$dir/root" -b -n 50 --period 0.01 --format text \
	2> "$dir/err"; echo $? > "$dir/rc" ) | head -c 10 > /dev/null
if [ "$(cat "$dir/rc")" = 1 ] && [ ! -s "$dir/err" ]; then
	ok "closed stdout: quiet exit $(cat "$dir/rc")"
else
	bad "closed stdout: rc $(cat "$dir/rc"), stderr: $(cat "$dir/err")"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
