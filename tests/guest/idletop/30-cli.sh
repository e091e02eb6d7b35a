#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# idletop's command line in the guest: usage errors exit 2, a missing
# kernel file is a clear runtime error (exit 1), a closed stdout ends it
# quietly with a non-zero status.

set -u
fail=0
expect() {	# want_rc description command...
	want=$1 what=$2
	shift 2
	"$@" > out 2> err
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok: $what (exit $rc)"
	else
		echo "FAIL: $what: exit $rc, want $want"; cat err; fail=1
	fi
}
expect 0 "--version" idletop --version
expect 0 "--help" idletop --help
expect 2 "-n 0" idletop -b -n 0
expect 2 "-d -1" idletop -b -d -1
expect 2 "-d abc" idletop -b -d abc
expect 2 "--cpu 1e9" idletop -b --cpu 1e9
expect 2 "unknown option" idletop -b --no-such-option
expect 2 "bad format" idletop -b --format xml
expect 1 "missing kpageflags" idletop -b --root /nonexistent --cgroup /sys/fs/cgroup
grep -q kpageflags err || { echo "FAIL: message does not name kpageflags"; fail=1; }

if [ -e /proc/kpageidle ] || [ -e /sys/kernel/mm/page_idle/bitmap ]; then
	( idletop -b -d 0.2 --cpu 100 -n 100 2> err; echo $? > rc ) | head -c 1 > /dev/null
	# exit 1, quietly (idletop.1); 141 would be death by SIGPIPE
	if [ "$(cat rc)" -eq 1 ] && [ ! -s err ]; then
		echo "ok: closed stdout: quiet exit $(cat rc)"
	else
		echo "FAIL: closed stdout: exit $(cat rc)"; cat err; fail=1
	fi
fi
exit $fail
