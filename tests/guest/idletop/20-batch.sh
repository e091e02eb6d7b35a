#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# idletop -b in its periodic mode: JSON Lines (one valid object per cycle,
# checked with a small awk JSON checker), OpenMetrics written atomically
# with -o, idle ages in seconds (--idle-buckets) growing with the cycles.
#
# --cpu 100: this test is about the output, not the pacing (test_pace.c
# and `make bench` cover the budget).  At the default 2% a cycle stretches
# to 50 times its CPU time: ~8 s here, minutes on the KASAN kernel.
#
# wsgen and idletop are not pinned: the default path, the scan ioctl,
# flushes the TLB entries its marks leave stale.  Before it did (CI: all
# 32 MiB idle at cycle 2, 3 wrong runs in 10 unpinned) they had to share
# CPU 0.

set -u
CG=/sys/fs/cgroup/idletop-batch
. "$(dirname "$0")/lib"	# M

if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi

pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rmdir "$CG" 2>/dev/null
}
trap cleanup EXIT
mkdir "$CG" || exit 1
wsgen --cgroup "$CG" --anon 32M:0.5 --interval 20 --ready ready &
pid=$!
i=0
while [ ! -s ready ]; do
	i=$((i + 1))
	[ $i -gt 600 ] && { echo "wsgen not ready"; exit 1; }
	sleep 0.1
done

# JSON syntax by a real parser (jq, in the initramfs): one object per
# line, at least one line.
json_ok() {
	[ -s "$1" ] || { echo "bad JSON: no lines"; return 1; }
	_n=0
	while IFS= read -r _l; do
		_n=$((_n + 1))
		printf '%s\n' "$_l" | jq -e 'type == "object"' > /dev/null 2>jq.err ||
			{ echo "bad JSON line $_n: $(cat jq.err)"; return 1; }
	done < "$1"
}

fail=0
idletop -b -n 2 -d 3 --cpu 100 --format json > out.json || { echo "FAIL: idletop json"; fail=1; }
[ "$(wc -l < out.json)" -eq 2 ] || { echo "FAIL: want 2 lines"; fail=1; }
json_ok out.json || fail=1
grep -q '"path":"/idletop-batch"' out.json || { echo "FAIL: cgroup missing"; fail=1; }
sed -n 2p out.json | grep -q '^{"idletop":"[^"]*","cycle":2,' ||
	{ echo "FAIL: second line is not cycle 2"; fail=1; }

idletop -b -n 2 -d 3 --cpu 100 --idle-buckets 4,100 --format openmetrics \
	-o metrics.prom ||
	{ echo "FAIL: idletop openmetrics"; fail=1; }
[ ! -e metrics.prom.tmp ] || { echo "FAIL: temp file left"; fail=1; }
tail -n 1 metrics.prom | grep -qx "# EOF" || { echo "FAIL: no # EOF"; fail=1; }
grep -qx "idletop_cycle 2" metrics.prom || { echo "FAIL: not cycle 2"; fail=1; }
# cold half (16 MiB) idle for 2 cycles (about 6 s) at cycle 2; none for 100 s
age2=$(grep -F 'idletop_idle_age_bytes{cgroup="/idletop-batch",min_seconds="4"} ' \
	metrics.prom | awk '{ print $2 }')
age100=$(grep -F 'idletop_idle_age_bytes{cgroup="/idletop-batch",min_seconds="100"} ' \
	metrics.prom | awk '{ print $2 }')
[ "$age100" = 0 ] || { echo "FAIL: idle >= 100 s: '$age100', want 0"; fail=1; }
if awk -v a="${age2:-0}" -v m=$M 'BEGIN { d = a - 16 * m; if (d < 0) d = -d;
	exit !(d <= 0.02 * 32 * m) }'; then
	echo "ok: idle >= 4 s (2 cycles): $age2"
else
	echo "FAIL: idle >= 4 s (2 cycles): ${age2:-none}, want ~16 MiB"
	grep idletop-batch metrics.prom
	fail=1
fi
exit $fail
