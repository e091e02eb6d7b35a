#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# idletop --listen over a mkfixture tree (no kernel): the index, /metrics
# in both formats (promtool checks the Prometheus one), 404 and 405, a
# scrape before the first cycle (idletop_report_available 0), a port in
# use and a bad address (clear errors, exit 1 and 2), 20 clients that
# connect and never read while the scanner keeps its pace (idletop's own
# length of each of 20 cycles of 0.2 s under 5 s, where a stalled client
# would hold one for 10); the Accept matrix, gzip,
# OpenMetrics through prometheus_client's strict parser, HEAD, keep-alive, /healthz (503, then 200, then the error named), the
# headers' deadline (5 s however steadily they trickle) and size; a
# scan error (the cgroup root taken away for a while) counted and
# survived; scrapes in a loop that --cpu 2 does not bill; and, for 12 s,
# 300 idle connections and 40 that send their headers a byte a second,
# from 127.0.0.2 and up and reconnecting whenever shut, while a scrape
# from 127.0.0.1 every half second must be answered within a second.  About 35 s; loopback only.
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
/usr/bin/python3 -c 'import prometheus_client' 2> /dev/null ||
	{ echo "FAIL: python3-prometheus-client not installed (vm/deps test)"; echo "0 passed, 1 failed"; exit 1; }
make -s -C "$top/top" idletop "$top/build/top/unit/mkfixture" > "$tmp/build.log" 2>&1 ||
	make -s -C "$top/top" check > "$tmp/build.log" 2>&1 || true
idletop=$top/top/idletop mkfixture=$top/build/top/unit/mkfixture
[ -x "$idletop" ] && [ -x "$mkfixture" ] || { echo "FAIL: build"; cat "$tmp/build.log"; exit 1; }
"$mkfixture" "$tmp/root" > /dev/null || { echo "FAIL: mkfixture"; exit 1; }

# start ARGS...: idletop --listen 127.0.0.1:0 in the background; sets
# $addr from its "serving http://ADDR/metrics" line.  $tmp/err is emptied
# here, not only by the child's redirection: a child that runs late would
# leave the previous instance's line there for the loop to read.
start() {
	: > "$tmp/err"
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

# wait_report: up to 5 s for the first report of the idletop start() began
wait_report() {
	for _ in $(seq 50); do
		curl -sf "http://$addr/metrics" | grep -qx 'idletop_report_available 1' && return
		sleep 0.1
	done
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

# 20 cycles of 0.2 s while 20 clients (from 127.0.0.2 and .3) connect,
# send a request and never read (each holds a connection for up to
# 10 s), and others scrape.  A scanner that waited on a stalled client
# would have a cycle of 10 s: idletop's own length of each cycle (-b -f
# json beside --listen) must stay under half that, whatever the load
# (not the run's wall time: 4.4 s when idle, more on a loaded host).
start --period 0.2 --cpu 100 -n 20 -b -f json > "$tmp/cycles" ||
	bad "idletop --listen -n 20 did not start"
python3 - "${addr%:*}" "${addr##*:}" <<'PY' 2> /dev/null &
import socket, sys, time
conns = []
for i in range(20):     # 10 from each: under the 16 per address
    s = socket.socket()
    s.bind(("127.0.0.%d" % (2 + i % 2), 0))
    s.connect((sys.argv[1], int(sys.argv[2])))
    s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    conns.append(s)
time.sleep(30)
PY
pids+=($!)
for _ in $(seq 40); do
	curl -sf -m 5 "http://$addr/metrics" > "$tmp/prom" &&
		grep -qx 'idletop_report_available 1' "$tmp/prom" && break
	sleep 0.1
done
curl -sf -m 5 -H 'Accept: application/openmetrics-text; version=1.0.0' \
	-D "$tmp/hdr" "http://$addr/metrics" > "$tmp/om"
wait "$pid"
rc=$?
t=$(jq -s 'map(.cycle_seconds) | max' "$tmp/cycles" 2> /dev/null)
n=$(jq -s 'length' "$tmp/cycles" 2> /dev/null)
[ $rc = 0 ] && [ "${n:-0}" = 20 ] && [ "$(echo "${t:-99} < 5" | bc)" = 1 ] &&
	ok "20 cycles of 0.2 s with 20 stalled clients: the longest ${t}s, exit 0" ||
	bad "20 cycles with stalled clients: ${n:-no} reports, the longest ${t:-?}s (exit $rc)"
grep -qx 'idletop_report_available 1' "$tmp/prom" && promtool check metrics < "$tmp/prom" &&
	ok "Prometheus text format passes promtool" || { bad "prometheus format"; cat "$tmp/prom" | head; }
grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$tmp/hdr" &&
	[ "$(tail -n 1 "$tmp/om")" = "# EOF" ] && ok "OpenMetrics when asked" ||
	{ bad "openmetrics negotiation"; cat "$tmp/hdr"; }

# negotiation, gzip, HEAD, keep-alive, /healthz, the headers' deadline
# and size, a scan error survived
start --period 0.3 --cpu 100 || bad "idletop --listen did not start"
# one client sends its headers a byte every half second: shut down at
# the headers' deadline (5 s) though it never stalls for long; the
# headers take 71 s, so "shut before they were all sent" is the check
# (no upper bound on the time: a loaded host may be late to shut it)
python3 - "${addr%:*}" "${addr##*:}" > "$tmp/trickle" 2>&1 <<'PY' &
import socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
t0 = time.time()
how = "sent"
try:
    for c in b"GET /metrics HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: y\r\n" * 10:
        s.send(bytes([c]))
        s.settimeout(0.5)
        try:
            if s.recv(1) == b"":
                how = "shut"
                break
        except socket.timeout:
            pass
except OSError:
    how = "shut"
print("%s %.1f" % (how, time.time() - t0))
PY
tpid=$!
h=$(curl -s -w ' %{http_code}' "http://$addr/healthz" | tr -d '\n')
[ "${h##* }" = 503 ] && [[ $h == "not ready"* ]] &&
	ok "/healthz before the first report: 503, '${h% *}'" || bad "/healthz early: $h"
wait_report
h=$(curl -s -w ' %{http_code}' "http://$addr/healthz" | tr -d '\n')
[ "${h##* }" = 200 ] && [[ $h == "ok: "* ]] && ok "/healthz with a report: 200, '${h% *}'" ||
	bad "/healthz: $h"
# ACCEPT|what comes back (a Content-Type part, or 406)
n=0
while IFS='|' read -r acc want; do
	got=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' ${acc:+-H "Accept: $acc"} \
		"http://$addr/metrics")
	case $want in
	406) [ "${got%% *}" = 406 ] ;;
	*) [ "${got%% *}" = 200 ] && [[ $got == *"$want"* ]] ;;
	esac && n=$((n + 1)) || bad "Accept: $acc: got $got, want $want"
done <<'ACCEPTS'
|text/plain; version=0.0.4
*/*|text/plain; version=0.0.4
application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1|openmetrics-text; version=1.0.0
text/plain;version=0.0.4;q=1,application/openmetrics-text;q=0.1|text/plain; version=0.0.4
APPLICATION/OPENMETRICS-TEXT; VERSION=0.0.1|openmetrics-text; version=0.0.1
text/plain;q=0, */*|openmetrics-text; version=1.0.0
application/openmetrics-text;version=2.0.0|406
text/html|406
ACCEPTS
[ $n = 8 ] && ok "Accept: 8 cases, q-values, q=0, case, versions, 406"
curl -s -H 'Accept-Encoding: gzip' -D "$tmp/gzhdr" -o "$tmp/gz" "http://$addr/metrics"
curl -s -o "$tmp/plain" "http://$addr/metrics"
gunzip -c < "$tmp/gz" > "$tmp/gunz" 2> /dev/null
gsz=$(stat -c %s "$tmp/gz") psz=$(stat -c %s "$tmp/plain")
grep -qi '^content-encoding: gzip' "$tmp/gzhdr" && promtool check metrics < "$tmp/gunz" &&
	[ "$(grep -vc '^process_' "$tmp/gunz")" = "$(grep -vc '^process_' "$tmp/plain")" ] &&
	[ $((psz / gsz)) -ge 5 ] && ok "gzip: $psz B as $gsz B, promtool-clean" ||
	bad "gzip: $(cat "$tmp/gzhdr"), $gsz of $psz B"
curl -s --compressed -H 'Accept: application/openmetrics-text; version=1.0.0' \
	"http://$addr/metrics" > "$tmp/om"
fams=$(/usr/bin/python3 - "$tmp/om" <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
print(len(list(text_string_to_metric_families(open(sys.argv[1]).read()))))
PY
)
[ "${fams:-0}" -gt 20 ] && grep -q '^process_cpu_seconds_total ' "$tmp/om" &&
	ok "OpenMetrics (gzip'ed) parses with prometheus_client's OpenMetrics parser: $fams families" ||
	bad "OpenMetrics parser: ${fams:-failed}"
h=$(curl -sI -w '%{http_code}' -o "$tmp/headhdr" "http://$addr/metrics")
[ "$h" = 200 ] && grep -qi '^content-length: [1-9]' "$tmp/headhdr" && ok "HEAD: 200 with a length" ||
	bad "HEAD: $h"
curl -sv -o /dev/null -o /dev/null "http://$addr/metrics" "http://$addr/healthz" 2> "$tmp/ka"
grep -q 'Re-using existing connection' "$tmp/ka" && ! grep -qi '^< connection: close' "$tmp/ka" &&
	ok "keep-alive: two requests on one connection" || { bad "keep-alive"; grep '^[<*]' "$tmp/ka"; }
grep -q '^process_start_time_seconds ' "$tmp/plain" && grep -q '^process_open_fds [1-9]' "$tmp/plain" &&
	grep -q '^process_resident_memory_bytes [1-9]' "$tmp/plain" &&
	grep -q '^process_cpu_seconds_total ' "$tmp/plain" && ok "process_* metrics" || bad "process_*"
big=$(head -c 20000 /dev/zero | tr '\0' a)
[ "$(code -H "X-Big: $big" "http://$addr/metrics")" = 431 ] &&
	[ "$(code "http://$addr/metrics")" = 200 ] &&
	ok "20 KB of request headers: 431 (16 KiB per connection), then 200" || bad "big headers"
wait "$tpid"
read -r how t < "$tmp/trickle"
[ "$how" = shut ] && [ "$(echo "${t:-0} >= 4.5" | bc)" = 1 ] &&
	ok "headers a byte every 0.5 s: shut after ${t}s, before they were sent (the deadline is 5 s)" ||
	bad "trickling headers: $(cat "$tmp/trickle")"
mv "$tmp/root/sys/fs/cgroup" "$tmp/root/sys/fs/cgroup.away"
e=0
for _ in $(seq 50); do
	e=$(curl -s "http://$addr/metrics" | sed -n 's/^idletop_scan_errors_total //p')
	[ "${e:-0}" -ge 2 ] && break
	sleep 0.1
done
h=$(curl -s "http://$addr/healthz" | tr -d '\n')
curl -s "http://$addr/metrics" | grep -qx 'idletop_report_available 1' &&
	[ "${e:-0}" -ge 2 ] && kill -0 "$pid" && [[ $h == *"last error: cgroup root"* ]] &&
	ok "scan errors counted ($e), the last report still served, /healthz: '$h'" ||
	bad "scan error: errors ${e:-none}, /healthz '$h'"
mv "$tmp/root/sys/fs/cgroup.away" "$tmp/root/sys/fs/cgroup"
c0=$(curl -s "http://$addr/metrics" | sed -n 's/^idletop_cycle //p')
for _ in $(seq 50); do
	h=$(curl -s "http://$addr/healthz" | tr -d '\n')
	c=$(curl -s "http://$addr/metrics" | sed -n 's/^idletop_cycle //p')
	[ "${c:-0}" -gt "${c0:-0}" ] && [[ $h == "ok: "* ]] && [[ $h != *"last error"* ]] && break
	sleep 0.1
done
[ "${c:-0}" -gt "${c0:-0}" ] && [[ $h != *"last error"* ]] &&
	ok "after the error: new reports (cycle $c0 -> $c), /healthz '$h'" || bad "no recovery: $h"
kill "$pid"

# --cpu 2 and two clients scraping as fast as they can for 4 s: the HTTP
# thread's CPU (process_cpu_seconds_total) is not the scanner's
# (idletop_cpu_seconds_total), so cycles keep their 0.5 s: 9 in 4.5 s,
# at least 4 on a loaded host; billed, the budget (2%) would stretch a
# cycle by 50 times the scrapes' CPU seconds: none or one
start --period 0.5 --cpu 2 || bad "idletop --listen did not start"
wait_report
c0=$(curl -s "http://$addr/metrics" | sed -n 's/^idletop_cycle //p')
for _ in 1 2; do
	timeout 4 curl -s "http://$addr/metrics?[1-1000000]" > /dev/null &
	pids+=($!)
done
sleep 4.5
curl -s "http://$addr/metrics" > "$tmp/m"
c=$(sed -n 's/^idletop_cycle //p' "$tmp/m")
cpu=$(sed -n 's/^idletop_cpu_seconds_total //p' "$tmp/m")
pcpu=$(sed -n 's/^process_cpu_seconds_total //p' "$tmp/m")
[ $((c - c0)) -ge 4 ] && grep -qx 'idletop_cycle_cpu_bound 0' "$tmp/m" &&
	[ "$(echo "$pcpu > 10 * $cpu" | bc)" = 1 ] &&
	ok "scrapes in a loop at --cpu 2: $((c - c0)) cycles of 0.5 s in 4.5 s, not cpu-bound (process CPU ${pcpu}s, the scanner's ${cpu}s)" ||
	bad "scrapes at --cpu 2: cycles $c0 -> $c, process CPU $pcpu s, the scanner's $cpu s"
kill "$pid"

# Slots: 300 idle and 40 slow-header clients from 127.0.0.2 and up (15
# or 14 per address, under the 16 per address) reconnect a second after
# each shutdown for 12 s; a scrape from 127.0.0.1 every half second must
# be answered within a second.
start --period 1 --cpu 100 || bad "idletop --listen did not start"
wait_report
python3 - "${addr%:*}" "${addr##*:}" > "$tmp/flood" 2>&1 <<'PY' &
import select, socket, sys, time
host, port = sys.argv[1], int(sys.argv[2])
req = b"GET /metrics HTTP/1.1\r\nHost: x\r\nUser-Agent: slow\r\n\r\n"
socks = {}      # socket -> [source, slow, bytes sent, next byte due]
waiting = []    # (when, source, slow): reconnect after a second
def dial(src, slow):
    s = socket.socket()
    s.bind((src, 0))
    s.setblocking(False)
    try:
        s.connect((host, port))
    except BlockingIOError:
        pass
    socks[s] = [src, slow, 0, time.time() + 1]
for i in range(300):
    dial("127.0.0.%d" % (2 + i // 15), False)
for i in range(40):
    dial("127.0.0.%d" % (30 + i // 14), True)
end, shut = time.time() + 12, 0
while time.time() < end:
    r, _, _ = select.select(list(socks), [], [], 0.1)
    now = time.time()
    for s in r:
        try:
            data = s.recv(4096)
        except OSError:
            data = b""
        if not data:
            src, slow = socks.pop(s)[:2]
            s.close()
            shut += 1
            waiting.append((now + 1, src, slow))
    for s, st in list(socks.items()):
        if st[1] and st[3] <= now and st[2] < len(req) - 1:
            try:
                s.send(req[st[2]:st[2] + 1])
                st[2] += 1
            except OSError:
                pass
            st[3] = now + 1
    while waiting and waiting[0][0] <= now:
        dial(*waiting.pop(0)[1:])
print("open at the end: %d, shut and reconnected: %d" % (len(socks), shut))
PY
fpid=$!
pids+=($fpid)
sleep 1
slow=0 n=0 worst=0
while kill -0 "$fpid" 2> /dev/null; do
	t=$(curl -s -m 5 -o "$tmp/m" -w '%{http_code} %{time_total}' "http://$addr/metrics")
	n=$((n + 1))
	if [ "${t%% *}" != 200 ] || [ "$(echo "${t##* } >= 1" | bc)" = 1 ] ||
	   ! grep -q '^idletop_report_available 1' "$tmp/m"; then
		slow=$((slow + 1))
		echo "  scrape $n: $t"
	fi
	[ "$(echo "${t##* } > $worst" | bc)" = 1 ] && worst=${t##* }
	sleep 0.5
done
closed=$(sed -n 's/^idletop_http_slow_closed_total //p' "$tmp/m")
[ $n -ge 15 ] && [ $slow = 0 ] && [ "${closed:-0}" -gt 0 ] &&
	ok "$n scrapes among 340 idle and slow clients, all 200 within 1 s (worst ${worst}s; $closed slow connections shut; $(tail -n 1 "$tmp/flood"))" ||
	{ bad "$slow of $n scrapes failed or took 1 s or more (worst ${worst}s, $closed shut)"; cat "$tmp/flood"; }
kill -0 "$pid" && ok "idletop still running" || bad "idletop died"
kill "$pid"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
