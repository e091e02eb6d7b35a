#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 120
#
# idletop --listen on the patched kernel, scraped from inside the guest
# (busybox wget on 127.0.0.1): a scrape before the first cycle says so
# (idletop_report_available 0, /healthz 503), then (/healthz 200) a
# systemd-shaped service cgroup with wsgen shows up with its unit and
# slice in idletop_cgroup_info, --max-depth 2 leaves out the cgroup below
# it and the self series still sum to the root's resident bytes, an
# unknown path is a 404, and idletop stops by itself after -n cycles.
# The host side (a real Prometheus through a port forward) is
# tests/host/80-prometheus-e2e.sh.

set -u
. "$(dirname "$0")/../common"	# wait_ready
SL=/sys/fs/cgroup/system.slice
CG=$SL/g60.service
pid= ipid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	[ -n "$ipid" ] && kill "$ipid" 2>/dev/null && wait "$ipid" 2>/dev/null
	rmdir "$CG/deep" "$CG" "$SL" 2>/dev/null
}
trap cleanup EXIT

if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
ip link set lo up
mkdir -p "$CG" || exit 1
echo +memory > "$SL/cgroup.subtree_control"
echo +memory > "$CG/cgroup.subtree_control"
mkdir "$CG/deep" || exit 1
wsgen --cgroup "$CG/deep" --anon 16M:0.5 --interval 20 --ready ready &
pid=$!
wait_ready "$pid" ready 60 wsgen

fail=0
# a period of 6 s: the first report comes after a priming pass and the
# 5 s first window (with a period of 2 s, no window: after 4 s), so the
# first scrape has about 10 s to come before it on a loaded host
idletop --listen 127.0.0.1:9410 --period 6 --cpu 100 -n 3 --max-depth 2 2> err &
ipid=$!
i=0
until wget -q -O early http://127.0.0.1:9410/metrics 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 50 ] && { echo "FAIL: no answer on 127.0.0.1:9410"; cat err; exit 1; }
	sleep 0.1
done
grep -qx 'idletop_report_available 0' early && echo "ok: early scrape says no report yet" ||
	{ echo "FAIL: early scrape:"; cat early; fail=1; }
if wget -q -O /dev/null http://127.0.0.1:9410/healthz 2> werr; then
	echo "FAIL: /healthz is 200 before the first report"; fail=1
else
	grep -q 503 werr && echo "ok: /healthz before the first report is a 503" ||
		{ echo "FAIL: /healthz early: $(cat werr)"; fail=1; }
fi
i=0
while :; do
	wget -q -O m http://127.0.0.1:9410/metrics 2>/dev/null
	grep -qx 'idletop_report_available 1' m && break
	i=$((i + 1))
	[ $i -gt 600 ] && { echo "FAIL: no report after 60 s"; exit 1; }
	sleep 0.1
done
wget -q -O health http://127.0.0.1:9410/healthz 2>/dev/null && grep -q '^ok: ' health &&
	echo "ok: /healthz with a report: $(cat health)" ||
	{ echo "FAIL: /healthz with a report: $(cat health 2>/dev/null)"; fail=1; }
ws=$(grep -F 'idletop_working_set_bytes{cgroup="/system.slice/g60.service"} ' m |
	awk '{ print $2 }')
[ -n "$ws" ] && [ "$ws" -gt 0 ] && echo "ok: the service's working set: $ws" ||
	{ echo "FAIL: service series:"; grep g60 m; fail=1; }
grep -qxF 'idletop_cgroup_info{cgroup="/system.slice/g60.service",unit="g60.service",slice="system.slice"} 1' m &&
	echo "ok: the service's unit and slice in idletop_cgroup_info" ||
	{ echo "FAIL: info series:"; grep g60 m; fail=1; }
grep -q 'cgroup="/system.slice/g60.service/deep"' m &&
	{ echo "FAIL: --max-depth 2 shows depth 3"; fail=1; } || echo "ok: --max-depth 2"
sum() {	# the sum of the samples whose line starts with $1 (a label may hold a space)
	awk -v p="$1" 'index($0, p) == 1 { s += $NF } END { printf "%.0f\n", s }' m
}
self=$(sum 'idletop_self_resident_bytes{') root=$(sum 'idletop_resident_bytes{cgroup="/",')
[ "$self" = "$root" ] && [ "$root" -gt 0 ] &&
	echo "ok: under --max-depth 2 the self series sum to the root's resident: $root" ||
	{ echo "FAIL: self series sum to $self, the root's resident is $root"; fail=1; }
if wget -q -O /dev/null http://127.0.0.1:9410/nope 2> werr; then
	echo "FAIL: /nope answered"; fail=1
else
	grep -q 404 werr && echo "ok: /nope is a 404" || { echo "FAIL: /nope: $(cat werr)"; fail=1; }
fi
wait "$ipid"
rc=$?
ipid=
[ $rc = 0 ] && echo "ok: idletop stopped after -n 3" || { echo "FAIL: idletop exit $rc"; cat err; fail=1; }
exit $fail
