#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Cgroup names are attacker-controlled (a delegated subtree): names with
# terminal escape sequences (OSC "ESC ] 0 ; pwned BEL" that retitles a
# terminal, "ESC [ 2 J" that clears it), a newline, a quote and a
# backslash must come out inert in idletop's text, JSON and OpenMetrics
# output: no raw control byte at all (only the line feeds of the format),
# and each in its documented escaped form (docs/idletop-engine.md).

set -u
. "$(dirname "$0")/../common"	# json_ok
if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
R=/sys/fs/cgroup/hostile
osc=$(printf 'osc\033]0;pwned\007x')
cls=$(printf 'cls\033[2Jx')
nl=$(printf 'new\nline')
if mkdir "/sys/fs/cgroup/$nl" 2>/dev/null; then
	rmdir "/sys/fs/cgroup/$nl"
	echo "note: cgroupfs accepted a newline in a name"
fi
qb='quote"back\slash'
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait
	for n in "$osc" "$cls" "$qb"; do rmdir "$R/$n" 2>/dev/null; done
	rmdir "$R" 2>/dev/null
}
trap cleanup EXIT
mkdir "$R" || exit 1
echo +memory > "$R/cgroup.subtree_control"
for n in "$osc" "$cls" "$qb"; do
	mkdir "$R/$n" || { echo "FAIL: mkdir"; exit 1; }
	# a process with some memory, so the cgroup has pages to show
	sh -c 'echo $$ > "$0/cgroup.procs" && exec stress_mem -t 60 --anon 2' "$R/$n" > /dev/null &
	pids="$pids $!"
done
# until each holds its 2 MiB (stress_mem's own pages on top), 20 s at most
for n in "$osc" "$cls" "$qb"; do
	i=0
	while [ "$(cat "$R/$n/memory.current")" -lt 2097152 ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && { echo "FAIL: no 2 MiB charged in $R/$n after 20 s"; exit 1; }
		sleep 0.1
	done
done
# the same names, and the newline one, in a plain tree for --cgroup
mkdir -p "fake/hostile/$osc" "fake/hostile/$cls" "fake/hostile/$qb" "fake/hostile/$nl"

fail=0
# controls(FILE): bytes other than printable ASCII, UTF-8 bytes and \n
controls() { tr -d '\n\040-\176\200-\377' < "$1" | wc -c; }
has() {	# file fixed-string what
	if grep -qF -- "$2" "$1"; then
		echo "ok: $3"
	else
		echo "FAIL: $3: '$2' not in $1"; fail=1
	fi
}

for fmt in text json openmetrics; do
	idletop --mark-wait 1 --format $fmt > out.$fmt 2> err.$fmt
	rc=$?
	idletop --mark-wait 0.2 --format $fmt --cgroup "$PWD/fake" >> out.$fmt 2>> err.$fmt
	rc=$((rc + $?))
	[ $rc -eq 0 ] || { echo "FAIL: idletop --format $fmt: exit $rc"; cat err.$fmt; fail=1; }
	c=$(controls out.$fmt)
	if [ "$c" -ne 0 ]; then
		echo "FAIL: $fmt output has $c raw control bytes:"
		tr -d '\n\040-\176\200-\377' < out.$fmt | od -An -c | head
		fail=1
	else
		echo "ok: $fmt: no raw control bytes"
	fi
done

has out.text '/hostile/osc\x1b]0;pwned\x07x' "text: OSC name as \\x1b...\\x07"
has out.text '/hostile/cls\x1b[2Jx' "text: ESC[2J name"
has out.text '/hostile/new\x0aline' "text: newline as \\x0a"
has out.text '/hostile/quote"back\\slash' "text: backslash doubled"

has out.json '"path":"/hostile/osc\u001b]0;pwned\u0007x"' "json: OSC name as \\u001b...\\u0007"
has out.json '"path":"/hostile/cls\u001b[2Jx"' "json: ESC[2J name"
has out.json '"path":"/hostile/new\nline"' "json: newline as \\n"
has out.json '"path":"/hostile/quote\"back\\slash"' "json: quote and backslash escaped"
[ "$(wc -l < out.json)" -eq 2 ] || { echo "FAIL: json: not one line per report"; fail=1; }
# JSON syntax by a real parser (jq, in the initramfs): each line an
# object whose paths decode back to the names made above
[ -s out.json ] && jq -s -e 'all(.[]; type == "object")' out.json > /dev/null &&
	jq -r '.. | objects | select(has("path")) | .path' out.json > paths.txt &&
	grep -qxF "/hostile/$qb" paths.txt && grep -qxF "/hostile/$osc" paths.txt &&
	grep -qxF "/hostile/$cls" paths.txt &&
	echo "ok: json parses" || { echo "FAIL: json does not parse or decode"; fail=1; }

has out.openmetrics 'cgroup="/hostile/osc\\x1b]0;pwned\\x07x"' "openmetrics: OSC name as \\\\x1b"
has out.openmetrics 'cgroup="/hostile/cls\\x1b[2Jx"' "openmetrics: ESC[2J name"
# the label is the text form, escaped again: \ -> \\\\, newline -> \\x0a
has out.openmetrics 'cgroup="/hostile/new\\x0aline"' "openmetrics: newline as \\\\x0a"
has out.openmetrics 'cgroup="/hostile/quote\"back\\\\slash"' "openmetrics: quote, backslash doubled twice"
# every line is a comment or `name{labels} value`
bad=$(grep -v '^#' out.openmetrics | grep -cvE '^[a-z_]+(\{.*\})? [-0-9.eE+a-zA-Z]+$')
[ "$bad" -eq 0 ] || { echo "FAIL: openmetrics: $bad malformed lines"; fail=1; }
tail -n 1 out.openmetrics | grep -qx '# EOF' || { echo "FAIL: openmetrics: no # EOF"; fail=1; }
exit $fail
