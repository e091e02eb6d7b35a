#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End to end: a real Prometheus (Debian's, started here, on 127.0.0.1
# only) scrapes idletop --listen in the guest through vm/run --forward
# (127.0.0.1:PORT on the host, QEMU user networking restricted to the
# forward) and evaluates dist/prometheus/idletop.rules.yml every 2 s.
# idletop runs with the packaged unit's ExecStart and the options of
# dist/default/idletop (the guest has no systemd), plus a JSON line and a
# 3 s period for the test.
# The guest runs a systemd-like service and a Kubernetes-like container
# (cgroupfs paths as the systemd driver makes them) with wsgen, and
# idletop -b -f json prints each cycle's JSON on the console.  Checked:
#  - Prometheus' HTTP API gives, at one evaluation time, the cycle number
#    and, for that cycle, the working set, resident, idle and idle-age
#    bytes of three cgroups equal to idletop's JSON of the same cycle;
#  - the identity labels (unit, pod_uid, qos_class, container_id,
#    container_runtime) arrive in idletop_cgroup_info and join;
#  - every rule evaluates (health ok), and every PromQL expression of
#    dist/grafana/idletop.json returns at least one series (its variables
#    as tests/host/grafana-lib sets them), except those that need
#    kube-state-metrics (kube_*), which the guest does not run.  The
#    service has a memory.high and the pod a memory.max, so that the
#    dashboard's limit queries have data.
# Bounded: the guest's idletop stops after 12 cycles of 3 s, vm/run has a
# 300 s timeout, the test gives up after 240 s; Prometheus and the VM are
# killed by PID on exit.  About 60 s (TCG).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
vm_pid= prom_pid=
cleanup() {
	[ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null
	[ -n "$vm_pid" ] && kill "$vm_pid" 2>/dev/null && wait "$vm_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }
. "$(dirname "$0")/grafana-lib"	# grafana_exprs
for t in prometheus curl jq; do
	command -v $t > /dev/null || { bad "$t not found (vm/deps test)"; finish; }
done

# A free port on the host's loopback: free when looked at, not when
# bound, since another process may take it in between.  QEMU and
# Prometheus say so when their bind fails; each is then started again on
# another port (start_vm, start_prom: at most 3 times each).
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 20000))
		ss -Htln "sport = :$p" | grep -q . || { echo $p; return; }
	done
}

uid=0a1b2c3d-4e5f-6789-abcd-ef0123456789
uids=0a1b2c3d_4e5f_6789_abcd_ef0123456789
cid=4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c
svc=/system.slice/e2e.service
pod=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$uids.slice
ctr=$pod/cri-containerd-$cid.scope
# The exporter as the package's unit starts it: the ExecStart of
# dist/systemd/idletop-exporter.service with dist/default/idletop's
# values (the listen address the guest's NIC's), then what this test adds:
# a JSON line a cycle, 3 s cycles (a later --period wins), 12 of them.
. "$top/dist/default/idletop"
unit_cmd=$(sed -n 's/^ExecStart=//p' "$top/dist/systemd/idletop-exporter.service")
unit_cmd=${unit_cmd//'${IDLETOP_LISTEN}'/10.0.2.15:9410}
unit_cmd=${unit_cmd//'$IDLETOP_OPTS'/$IDLETOP_OPTS}
case $unit_cmd in
/usr/bin/idletop\ --listen\ 10.0.2.15:9410\ *) ;;
*) bad "unexpected ExecStart in the unit: $unit_cmd"; finish ;;
esac
unit_cmd=${unit_cmd#/usr/bin/}
cat > "$tmp/job" <<EOF
set -u
cg=/sys/fs/cgroup
mkdir -p \$cg$svc \$cg$ctr
for d in /system.slice /kubepods.slice /kubepods.slice/kubepods-burstable.slice $pod; do
	echo +memory > \$cg\$d/cgroup.subtree_control
done
echo 256M > \$cg$svc/memory.high
echo 512M > \$cg$pod/memory.max
echo 512M > \$cg$ctr/memory.max
wsgen --cgroup \$cg$svc --anon 48M:0.25 --ready /tmp/r1 > /dev/null &
wsgen --cgroup \$cg$ctr --anon 32M:0.5 --file 16M:0 --dir /tmp --ready /tmp/r2 > /dev/null &
for i in \$(seq 100); do [ -s /tmp/r1 ] && [ -s /tmp/r2 ] && break; sleep 0.1; done
echo E2E-READY
$unit_cmd -b -f json --period 3 --cpu 100 -n 12 \\
	--idle-buckets 3,6,12,60
echo E2E-DONE rc=\$?
EOF
# start_vm: the guest, forwarding 127.0.0.1:$hp to idletop's port, until
# QEMU had its port (a failed bind ends it at once) or 3 were taken.
start_vm() {
	local try
	for try in 1 2 3; do
		hp=$(free_port)
		"$top/vm/run" --kernel "$IDLEMEM_BZIMAGE" --initrd "$IDLEMEM_INITRD" --timeout 300 \
			--forward "$hp:9410" --log "$tmp/console" --script "$tmp/job" \
			> /dev/null 2> "$tmp/vm.err" &
		vm_pid=$!
		until grep -qs 'E2E-READY' "$tmp/console"; do
			kill -0 "$vm_pid" 2>/dev/null || break
			sleep 0.5
		done
		grep -q 'Could not set up host forwarding rule' "$tmp/vm.err" || return 0
		wait "$vm_pid"
		echo "port $hp was taken before QEMU bound it (try $try)"
	done
}
# start_prom: Prometheus on 127.0.0.1:$pp scraping 127.0.0.1:$hp, until
# it is ready or failed for another reason than its port being taken.
start_prom() {
	local try
	for try in 1 2 3; do
		pp=$(free_port)
		[ "$pp" != "$hp" ] || continue
		cat > "$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 2s
  scrape_timeout: 2s
  evaluation_interval: 2s
rule_files:
  - $top/dist/prometheus/idletop.rules.yml
scrape_configs:
  - job_name: idletop
    static_configs:
      - targets: ['127.0.0.1:$hp']
EOF
		prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
			--web.listen-address="127.0.0.1:$pp" --log.level=warn > "$tmp/prom.log" 2>&1 &
		prom_pid=$!
		for _ in $(seq 60); do
			curl -sf -m 2 "http://127.0.0.1:$pp/-/ready" > /dev/null && return 0
			kill -0 "$prom_pid" 2>/dev/null || break
			sleep 0.5
		done
		grep -qi 'address already in use' "$tmp/prom.log" || return 0
		wait "$prom_pid"
		prom_pid=
		echo "port $pp was taken before Prometheus bound it (try $try)"
	done
}
start_vm
start_prom
api="http://127.0.0.1:$pp/api/v1"

# q PROMQL [TIME]: the result vector as JSON
q() { curl -sf -m 5 "$api/query" --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} | jq -c '.data.result'; }
val() { q "$1" "${2:-}" | jq -r '.[0].value[1] // empty'; }

# Wait for cycle 6 in Prometheus: rates have samples, idle ages >= 12 s.
deadline=$((SECONDS + 240))
cycle=
while [ $SECONDS -lt $deadline ]; do
	kill -0 "$vm_pid" 2>/dev/null || break
	cycle=$(val 'idletop_cycle{job="idletop"}')
	[ -n "$cycle" ] && [ "$cycle" -ge 6 ] && break
	sleep 2
done
if [ -z "$cycle" ] || [ "$cycle" -lt 6 ]; then
	bad "Prometheus did not get idletop's cycle 6 (last: '${cycle:-none}')"
	curl -s -m 5 "$api/targets" | jq -c '.data.activeTargets[] | {health, lastError}'
	tr -d '\r' < "$tmp/console" | grep -v '^{"idletop"' | tail -n 20
	finish
fi
ok "Prometheus scrapes idletop in the guest through 127.0.0.1:$hp (cycle $cycle)"
ss -Htln "sport = :$hp" | awk '{ print $4 }' | grep -qvE '^127\.0\.0\.1:' &&
	bad "the forward listens outside loopback: $(ss -Htln "sport = :$hp")" ||
	ok "the forward listens on 127.0.0.1 only"

# One evaluation time, one scrape: the cycle and its numbers.
t=$(echo "$(date +%s) - 1" | bc)
n=$(val 'idletop_cycle{job="idletop"}' "$t")
for _ in $(seq 20); do
	grep -q "^{\"idletop\":\"[^\"]*\",\"cycle\":$n," <(tr -d '\r' < "$tmp/console") && break
	sleep 0.5
done
tr -d '\r' < "$tmp/console" | grep "^{\"idletop\":\"[^\"]*\",\"cycle\":$n," | head -n 1 > "$tmp/cycle.json"
[ -s "$tmp/cycle.json" ] || { bad "no JSON of cycle $n on the console"; finish; }
same=0 diff=0
for path in / "$svc" "$ctr"; do
	j() { jq -r --arg p "$path" ".cgroups[] | select(.path == \$p) | $1" "$tmp/cycle.json"; }
	for pair in "working_set|idletop_working_set_bytes{cgroup=\"$path\"}" \
		"resident|sum(idletop_resident_bytes{cgroup=\"$path\"})" \
		"idle|sum(idletop_idle_bytes{cgroup=\"$path\"})" \
		"idle_for[1]|idletop_idle_age_bytes{cgroup=\"$path\",min_seconds=\"6\"}" \
		"idle_for[2]|idletop_idle_age_bytes{cgroup=\"$path\",min_seconds=\"12\"}"; do
		a=$(j ".${pair%%|*}") b=$(val "${pair#*|}" "$t")
		if [ -n "$a" ] && [ "$a" = "$b" ]; then
			same=$((same + 1))
		else
			diff=$((diff + 1))
			echo "  $path ${pair%%|*}: JSON '$a', Prometheus '$b'"
		fi
	done
done
[ $diff = 0 ] && ok "cycle $n: $same values in Prometheus equal idletop's JSON" ||
	bad "cycle $n: $diff values differ from idletop's JSON"
[ "$(j '.resident' | head -c 1)" != 0 ] || bad "the container's resident is 0"

labels=$(q "idletop_working_set_bytes * on (instance, job, cgroup) group_left (pod_uid, qos_class, container_id, container_runtime, unit) idletop_cgroup_info{cgroup=\"$ctr\"}" "$t" |
	jq -c '.[0].metric')
echo "$labels" | jq -e --arg u "$uid" --arg c "$cid" '.pod_uid == $u and
	.qos_class == "burstable" and .container_id == $c and
	.container_runtime == "containerd" and .unit == null' \
	> /dev/null && ok "identity of the container, joined from idletop_cgroup_info" ||
	bad "container labels: $labels"
[ "$(q "idletop_cgroup_info{cgroup=\"$svc\"}" "$t" | jq -r '.[0].metric.unit')" = e2e.service ] &&
	ok "unit label of the service" || bad "service labels"
[ "$(q "count(idletop_working_set_bytes{unit!=\"\"})" "$t")" = "[]" ] &&
	ok "no identity labels on value series" || bad "value series carry identity labels"

curl -sf -m 5 "$api/rules" > "$tmp/rules.json"
nr=$(jq '[.data.groups[].rules[]] | length' "$tmp/rules.json")
bad_rules=$(jq -r '.data.groups[].rules[] | select(.health != "ok" or
	.lastEvaluation == "0001-01-01T00:00:00Z") | "\(.name): \(.health) \(.lastError // "")"' "$tmp/rules.json")
[ "$nr" -ge 10 ] && [ -z "$bad_rules" ] && ok "$nr rules evaluate (health ok)" ||
	bad "rules: $nr, not ok: $bad_rules"

empty=0 total=0
while read -r e; do
	total=$((total + 1))
	r=$(q "$e")
	if [ -z "$r" ] || [ "$r" = "[]" ]; then
		empty=$((empty + 1))
		echo "  no series: $e"
	fi
done < <(grafana_exprs "$top/dist/grafana/idletop.json" | grep -v 'kube_')
[ $total -gt 0 ] && [ $empty = 0 ] && ok "all $total dashboard expressions return series" ||
	bad "$empty of $total dashboard expressions return nothing"

# The guest stops by itself after 12 cycles.
wait "$vm_pid"
rc=$?
vm_pid=
tr -d '\r' < "$tmp/console" | grep -q '^E2E-DONE rc=0' && [ $rc = 0 ] &&
	ok "idletop in the guest ended after 12 cycles, vm/run exit 0" ||
	{ bad "guest: vm/run exit $rc"; tr -d '\r' < "$tmp/console" | grep -v '^{"idletop"' | tail -n 15; }
finish
