#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# dist/prometheus: the rules pass promtool check rules and their unit tests
# (promtool test rules idletop.rules.test.yml); dist/grafana/idletop.json
# is valid JSON whose every PromQL expression parses (put in a rules file,
# $instance as ".+", for promtool check rules) and names only metrics
# idletop exports or the rules record.  About 1 s.  The end-to-end test
# (80-prometheus-e2e.sh) evaluates all of it against a real idletop.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
rules=$top/dist/prometheus/idletop.rules.yml
dash=$top/dist/grafana/idletop.json

command -v promtool > /dev/null || { echo "FAIL: promtool not found (Debian package prometheus)"; echo "0 passed, 1 failed"; exit 1; }
promtool check rules "$rules" > "$tmp/out" 2>&1 && ok "promtool check rules" ||
	{ bad "promtool check rules"; cat "$tmp/out"; }
(cd "$top/dist/prometheus" && promtool test rules idletop.rules.test.yml) > "$tmp/out" 2>&1 &&
	ok "promtool test rules" || { bad "promtool test rules"; cat "$tmp/out"; }

if jq -e '.panels | length > 0' "$dash" > /dev/null 2>&1; then
	ok "dashboard is JSON with $(jq '.panels | length' "$dash") panels"
else
	bad "dashboard JSON"
fi
jq -r '.panels[].targets[].expr' "$dash" | sed 's/\$instance/.+/g' > "$tmp/exprs"
{
	echo "groups:"
	echo "  - name: dashboard"
	echo "    rules:"
	n=0
	while read -r e; do
		n=$((n + 1))
		printf '      - record: dashboard:expr%d\n        expr: %s\n' "$n" \
			"$(printf '%s' "$e" | jq -R .)"
	done < "$tmp/exprs"
} > "$tmp/dash.rules.yml"
if [ -s "$tmp/exprs" ] && promtool check rules "$tmp/dash.rules.yml" > "$tmp/out" 2>&1; then
	ok "$(wc -l < "$tmp/exprs") dashboard expressions parse"
else
	bad "dashboard expressions"; cat "$tmp/out"
fi
# every metric a query names: exported by idletop (its man page lists
# them all) or recorded by the rules
known=$( { grep -o '^\.B[R]* idletop_[a-z_]*' "$top/docs/idletop.1" | awk '{ print $2 }'
	   grep -o 'idletop_[a-z_]*_total\|idletop_[a-z_]*' "$top/docs/idletop.1"
	   grep -o 'record: [a-z_:0-9]*' "$rules" | awk '{ print $2 }'; } | sort -u)
unknown=$(cat "$tmp/exprs" "$rules" | grep -o '[a-z_:]*idletop_[a-z_:0-9]*' | sort -u |
	while read -r m; do echo "$known" | grep -qxF "$m" || echo "$m"; done)
[ -z "$unknown" ] && ok "every metric named is exported or recorded" ||
	bad "unknown metrics: $unknown"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
