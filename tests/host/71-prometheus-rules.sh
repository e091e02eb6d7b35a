#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# dist/prometheus: the rules pass promtool check rules and their unit tests
# (promtool test rules idletop.rules.test.yml); dist/grafana/idletop.json
# is valid JSON whose every PromQL expression parses (put in a rules file,
# variables as grafana-lib gives them, for promtool check rules).  Every
# idletop metric that the rules, the dashboard, the prose docs (docs/*.md,
# README.md) and the man page name is in a real exposition (idletop -b and
# idletop --listen over a mkfixture tree, Prometheus and OpenMetrics:
# family names, with and without _total) or recorded by the rules; a name
# ending in "_" before "*" is a prefix of one.  About 3 s.  The end-to-end test
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
. "$(dirname "$0")/grafana-lib"	# grafana_exprs

for t in promtool curl jq; do
	command -v $t > /dev/null || { echo "FAIL: $t not found (vm/deps test)"; echo "0 passed, 1 failed"; exit 1; }
done
promtool check rules "$rules" > "$tmp/out" 2>&1 && ok "promtool check rules" ||
	{ bad "promtool check rules"; cat "$tmp/out"; }
(cd "$top/dist/prometheus" && promtool test rules idletop.rules.test.yml) > "$tmp/out" 2>&1 &&
	ok "promtool test rules" || { bad "promtool test rules"; cat "$tmp/out"; }

if jq -e '.panels | length > 0' "$dash" > /dev/null 2>&1; then
	ok "dashboard is JSON with $(jq '.panels | length' "$dash") panels"
else
	bad "dashboard JSON"
fi
grafana_exprs "$dash" > "$tmp/exprs"
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
# the names idletop exports: a real exposition over a fixture tree
make -s -C "$top/top" idletop "$top/build/top/unit/mkfixture" > "$tmp/build.log" 2>&1 ||
	make -s -C "$top/top" check > "$tmp/build.log" 2>&1 || true
idletop=$top/top/idletop mkfixture=$top/build/top/unit/mkfixture
if [ -x "$idletop" ] && [ -x "$mkfixture" ] && "$mkfixture" "$tmp/root" > /dev/null &&
   "$idletop" --root "$tmp/root" -b -n 2 --period 1 -f prometheus > "$tmp/prom" &&
   "$idletop" --root "$tmp/root" -b -n 2 --period 1 -f openmetrics > "$tmp/om"; then
	ok "idletop -b over a mkfixture tree: $(grep -c '^idletop_' "$tmp/prom") samples"
else
	bad "idletop -b over a mkfixture tree"; cat "$tmp/build.log"
fi
# and --listen's, which adds the exporter's own metrics
pid=
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; rm -rf "$tmp"' EXIT
"$idletop" --root "$tmp/root" --listen 127.0.0.1:0 --period 1 2> "$tmp/err" &
pid=$!
addr=
for _ in $(seq 100); do
	addr=$(sed -n 's|^idletop: serving http://\(.*\)/metrics$|\1|p' "$tmp/err")
	[ -n "$addr" ] && curl -sf "http://$addr/metrics" | grep -qx 'idletop_report_available 1' && break
	sleep 0.1
done
if [ -n "$addr" ] && curl -sf "http://$addr/metrics" > "$tmp/listen.prom" &&
   curl -sf -H 'Accept: application/openmetrics-text' "http://$addr/metrics" > "$tmp/listen.om" &&
   grep -qx 'idletop_report_available 1' "$tmp/listen.prom"; then
	ok "idletop --listen over the tree: $(grep -c '^idletop_' "$tmp/listen.prom") samples"
else
	bad "idletop --listen over the tree"; cat "$tmp/err"
fi
kill "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
pid=
known=$( { sed -n 's/^\(idletop_[a-z0-9_]*\)[{ ].*/\1/p' "$tmp/prom" "$tmp/om" \
		"$tmp/listen.prom" "$tmp/listen.om"
	   sed -n 's/^# TYPE \(idletop_[a-z0-9_]*\) .*/\1/p' "$tmp/prom" "$tmp/om" \
		"$tmp/listen.prom" "$tmp/listen.om"
	   grep -o 'record: [a-z_:0-9]*' "$rules" | awk '{ print $2 }'; } | sort -u)
# check WHAT FILE...: every idletop name in the files is known
check() {
	local what=$1 unknown
	shift
	unknown=$(grep -oh '[a-z_:]*idletop_[a-z][a-z_:0-9]*\*\?' "$@" | sort -u |
		while read -r m; do
			case $m in
			*_\*) echo "$known" | grep -q "^${m%\*}" || echo "$m" ;;
			*\*) echo "$known" | grep -qxF "${m%\*}" || echo "$m" ;;
			*) echo "$known" | grep -qxF "$m" || echo "$m" ;;
			esac
		done)
	[ -z "$unknown" ] && ok "every metric $what names is exported or recorded" ||
		bad "$what names unknown metrics: $(echo $unknown)"
}
check "the rules" "$rules"
check "the dashboard" "$tmp/exprs"
check "the prose docs" "$top"/docs/*.md "$top/README.md"
check "the man page" "$top/docs/idletop.1"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
