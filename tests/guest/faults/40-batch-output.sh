#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 200
#
# idletop -b when its output goes wrong: stdout closed (>&-), a reader
# that goes away (| head -c 10: EPIPE), a full disk (/dev/full), an -o
# file in a directory that does not exist.  Each ends idletop with status
# 1 (never a signal or a crash); EPIPE quietly, the others with a message.

set -u
if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
fail=0
A="-b -d 0.5 --cpu 100 -n 20"
check() {	# what rc want-stderr(quiet|message)
	if [ "$2" -ne 1 ]; then
		echo "FAIL: $1: exit $2, want 1"; cat err; fail=1
	elif [ "$3" = quiet ] && [ -s err ]; then
		echo "FAIL: $1: not quiet: $(cat err)"; fail=1
	elif [ "$3" = message ] && [ ! -s err ]; then
		echo "FAIL: $1: no message"; fail=1
	else
		echo "ok: $1: exit $2 ${3}${4:+: $4}"
	fi
}

for fmt in text json openmetrics; do
	idletop $A --format $fmt >&- 2> err
	check "stdout closed, $fmt" $? message "$(cat err)"

	( idletop $A --format $fmt 2> err; echo $? > rc ) | head -c 10 > head.out
	check "| head -c 10, $fmt" "$(cat rc)" quiet
	[ "$(wc -c < head.out)" -eq 10 ] || { echo "FAIL: head got $(wc -c < head.out) bytes"; fail=1; }
done

# the guest mounts devtmpfs (vm/init): /dev/full is always there
if [ -c /dev/full ]; then
	idletop $A > /dev/full 2> err
	check "stdout is /dev/full" $? message "$(cat err)"
else
	echo "FAIL: no /dev/full: the full-disk case not run"
	fail=1
fi
idletop $A -o "$PWD/no/such/dir/out.prom" --format openmetrics > out 2> err
check "-o in a missing directory" $? message "$(cat err)"
exit $fail
