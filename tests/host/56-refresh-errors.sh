#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# Long runs survive a failed refresh, over a mkfixture tree (no kernel)
# whose cgroup2 directory is moved away for a while (the tree cannot be
# read: ENOENT):
# - idletop -b -f json --period 0.2 says "retrying" on stderr, goes on,
#   and its later reports carry "errors":{"scan":0,"tree":N}, N >= 1;
# - with the directory gone for good it gives up after 5 failures in a
#   row (exit 1, "giving up");
# - idletop --listen keeps serving the last report while it fails, with
#   idletop_scan_errors_total counting at once, and publishes new
#   cycles once the tree is back.
# About 10 s.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
make -s -C "$top/top" all "$top/build/top/unit/mkfixture" ||
	{ echo "FAIL: make -C top"; exit 1; }
idletop=${IDLETOP:-$top/top/idletop}	# IDLETOP=: another build
command -v curl > /dev/null || { echo "FAIL: curl not found (vm/deps test)"; exit 1; }
dir=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2> /dev/null
	wait 2> /dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fail=0
ok()  { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

"$top/build/top/unit/mkfixture" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }
cg=$dir/root/sys/fs/cgroup
hide() { mv "$cg" "$cg.away"; }
back() { mv "$cg.away" "$cg"; }
until_grep() {	# SECS PATTERN FILE
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		grep -qE "$2" "$3" 2> /dev/null && return 0
		sleep 0.1
	done
	return 1
}

# -b: the tree away for 0.7 s after the second report
A=(--root "$dir/root" --period 0.2 --cpu 100)
"$idletop" "${A[@]}" -b -f json -n 12 > "$dir/out" 2> "$dir/err" &
pid=$!
until_grep 10 '"cycle":2,' "$dir/out" && hide && sleep 0.7 && back
wait "$pid"
rc=$? pid=
last=$(tail -n 1 "$dir/out")
if [ "$rc" -eq 0 ] && grep -q 'retrying in' "$dir/err" &&
   [ "$(wc -l < "$dir/out")" -eq 12 ] &&
   echo "$last" | grep -qE '"errors":\{"scan":0,"tree":[1-9][0-9]*\}'; then
	ok "-b: $(grep -c 'retrying in' "$dir/err") failed refreshes retried, 12 reports, the last with $(echo "$last" | grep -oE '"errors":\{[^}]*\}')"
else
	bad "-b with the tree away for 0.7 s: exit $rc, $(wc -l < "$dir/out") reports"
	cat "$dir/err"
	echo "$last" | cut -c1-300
fi

# -b: the tree away for good.  The old output goes first: the background
# job's redirection may come after until_grep's first look, which would
# find the last run's "cycle":1 and hide the tree before idletop starts.
rm -f "$dir/out"
"$idletop" "${A[@]}" -b -f json > "$dir/out" 2> "$dir/err" &
pid=$!
until_grep 10 '"cycle":1,' "$dir/out" && hide
for ((i = 0; i < 150; i++)); do
	kill -0 "$pid" 2> /dev/null || break
	sleep 0.1
done
if kill -0 "$pid" 2> /dev/null; then
	bad "-b with the tree gone for good: still running after 15 s"
	kill "$pid"
	wait "$pid"
	pid=
else
	wait "$pid"
	rc=$? pid=
	if [ "$rc" -eq 1 ] && grep -q 'giving up after 5 failures in a row' "$dir/err" &&
	   [ "$(grep -c 'retrying in' "$dir/err")" -eq 4 ]; then
		ok "-b with the tree gone: 4 retries, then exit 1: $(tail -n 1 "$dir/err")"
	else
		bad "-b with the tree gone: exit $rc"
		cat "$dir/err"
	fi
fi
back

# --listen: the last report stays served, the errors counted at once
"$idletop" "${A[@]}" --listen 127.0.0.1:0 2> "$dir/err" &
pid=$!
until_grep 5 '^idletop: serving' "$dir/err"
addr=$(sed -n 's|^idletop: serving http://\(.*\)/metrics$|\1|p' "$dir/err")
scrape() { curl -sf "http://$addr/metrics" > "$dir/m"; }
cycle() { scrape && sed -n 's/^idletop_cycle \([0-9]*\)$/\1/p' "$dir/m"; }
for ((i = 0; i < 50; i++)); do
	c0=$(cycle)
	[ -n "$c0" ] && [ "$c0" -ge 2 ] && break
	sleep 0.1
done
hide
for ((i = 0; i < 30; i++)); do
	scrape && grep -qE '^idletop_scan_errors_total [1-9]' "$dir/m" && break
	sleep 0.1
done
if grep -qE '^idletop_scan_errors_total [1-9]' "$dir/m" &&
   grep -qx 'idletop_report_available 1' "$dir/m" &&
   grep -q 'cgroup="/' "$dir/m"; then
	ok "--listen: the last report served, $(grep '^idletop_scan_errors_total' "$dir/m")"
else
	bad "--listen with the tree away: no error counted, or no report served"
	grep '^idletop_' "$dir/m" | grep -v cgroup= | head -n 20
fi
c1=$(sed -n 's/^idletop_cycle \([0-9]*\)$/\1/p' "$dir/m")
back
for ((i = 0; i < 50; i++)); do
	c2=$(cycle)
	[ -n "$c2" ] && [ -n "$c1" ] && [ "$c2" -gt "$c1" ] && break
	sleep 0.1
done
if [ -n "$c2" ] && [ -n "$c1" ] && [ "$c2" -gt "$c1" ] && kill -0 "$pid"; then
	ok "--listen: the tree back, cycle $c1 -> $c2 published"
else
	bad "--listen: no new cycle after the tree came back (cycle ${c1:-?} -> ${c2:-?})"
	cat "$dir/err"
fi
exit $fail
