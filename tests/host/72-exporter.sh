#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# idletop --listen over a mkfixture tree (no kernel): the index, /metrics
# in both formats (promtool checks the Prometheus one), 404 and 405, a
# scrape before the first cycle (idletop_report_available 0), a port in
# use and a bad address (clear errors, exit 1 and 2), and 20 clients that
# connect and never read while the scanner keeps its pace: 20 cycles of
# 0.2 s still take about 4.4 s (under 8).  About 6 s.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
for t in curl promtool; do
	command -v $t > /dev/null || { echo "FAIL: $t not found (vm/deps test)"; echo "0 passed, 1 failed"; exit 1; }
done
make -s -C "$top/top" idletop "$top/build/top/unit/mkfixture" > "$tmp/build.log" 2>&1 ||
	make -s -C "$top/top" check > "$tmp/build.log" 2>&1 || true
idletop=$top/top/idletop mkfixture=$top/build/top/unit/mkfixture
[ -x "$idletop" ] && [ -x "$mkfixture" ] || { echo "FAIL: build"; cat "$tmp/build.log"; exit 1; }
"$mkfixture" "$tmp/root" > /dev/null || { echo "FAIL: mkfixture"; exit 1; }

# start ARGS...: idletop --listen 127.0.0.1:0 in the background; sets
# $addr from its "serving http://ADDR/metrics" line
start() {
	"$idletop" --root "$tmp/root" --listen 127.0.0.1:0 "$@" 2> "$tmp/err" &
	pids+=($!)
	pid=$!
	addr=
	for _ in $(seq 50); do
		addr=$(sed -n 's|^idletop: serving http://\(.*\)/metrics$|\1|p' "$tmp/err")
		[ -n "$addr" ] && return 0
		sleep 0.1
	done
	cat "$tmp/err"
	return 1
}

start --period 30 || bad "idletop --listen did not start"
curl -sf "http://$addr/metrics" > "$tmp/early" &&
	grep -qx 'idletop_report_available 0' "$tmp/early" &&
	! grep -q 'cgroup=' "$tmp/early" &&
	ok "a scrape before the first cycle: idletop_report_available 0" ||
	{ bad "early scrape"; cat "$tmp/early"; }
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code "http://$addr/nope")" = 404 ] && ok "unknown path: 404" || bad "unknown path"
[ "$(code -X POST "http://$addr/metrics")" = 405 ] && ok "POST: 405" || bad "POST"
curl -sf "http://$addr/" | grep -q 'href="/metrics"' && ok "index page" || bad "index page"
# the same port again
"$idletop" --root "$tmp/root" --listen "$addr" > /dev/null 2> "$tmp/err2"
rc=$?
[ $rc = 1 ] && grep -q "Address already in use" "$tmp/err2" &&
	ok "port in use: exit 1, '$(cat "$tmp/err2")'" || { bad "port in use: exit $rc"; cat "$tmp/err2"; }
kill "$pid"
n=0
for a in 127.0.0.1:99999 localhost:9410 1.2.3:80 '[::1' 10.0.0.1:x; do
	"$idletop" --root "$tmp/root" --listen "$a" > /dev/null 2> "$tmp/err2"
	rc=$?
	[ $rc = 2 ] && grep -qF "invalid --listen '$a'" "$tmp/err2" && n=$((n + 1)) ||
		bad "--listen $a: exit $rc: $(cat "$tmp/err2")"
done
[ $n = 5 ] && ok "bad addresses: exit 2 naming the value"

# 20 cycles of 0.2 s while 20 clients connect, send a request and never
# read (each holds one of the 32 connections for up to 10 s), and others
# scrape; the first report comes after 2 periods, the last after about
# 4.4 s.  A scanner that waited on a stalled client would take 10 s.
t0=$(date +%s.%N)
start --period 0.2 --cpu 100 -n 20 || bad "idletop --listen -n 20 did not start"
for i in $(seq 20); do
	( exec 3<>"/dev/tcp/${addr%:*}/${addr##*:}" &&
	  printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n' >&3 && exec sleep 30 ) 2>/dev/null &
	pids+=($!)
done
for _ in $(seq 40); do
	curl -sf -m 5 "http://$addr/metrics" > "$tmp/prom" &&
		grep -qx 'idletop_report_available 1' "$tmp/prom" && break
	sleep 0.1
done
curl -sf -m 5 -H 'Accept: application/openmetrics-text; version=1.0.0' \
	-D "$tmp/hdr" "http://$addr/metrics" > "$tmp/om"
wait "$pid"
rc=$?
t=$(echo "$(date +%s.%N) - $t0" | bc)
[ $rc = 0 ] && [ "$(echo "$t < 8" | bc)" = 1 ] &&
	ok "20 cycles of 0.2 s with 20 stalled clients: ${t}s, exit 0" ||
	bad "20 cycles took ${t}s (exit $rc)"
grep -qx 'idletop_report_available 1' "$tmp/prom" && promtool check metrics < "$tmp/prom" &&
	ok "Prometheus text format passes promtool" || { bad "prometheus format"; cat "$tmp/prom" | head; }
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$tmp/hdr" &&
	[ "$(tail -n 1 "$tmp/om")" = "# EOF" ] && ok "OpenMetrics when asked" ||
	{ bad "openmetrics negotiation"; cat "$tmp/hdr"; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
