#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /proc/kpageidle (and the files idletop reads with it) are root-only:
# mode 0600 root, and an unprivileged user (nobody, via sec_runas)
# gets EACCES reading or writing them.  idletop run as nobody fails with a
# non-zero status and says it needs root / CAP_SYS_ADMIN, in batch and in
# interactive mode.

set -u
fail=0
. "$(dirname "$0")/../common"
need_kpageidle
as_nobody() { sec_runas 65534 65534 "$@"; }

check_mode() {	# file mode
	got=$(stat -c '%a %u %g' "$1")
	if [ "$got" = "$2 0 0" ]; then
		echo "ok: $1 is $got"
	else
		echo "FAIL: $1 is '$got', want '$2 0 0'"; fail=1
	fi
}
check_mode /proc/kpageidle 600
check_mode /proc/kpageflags 400
[ -e /proc/kpagecgroup ] && check_mode /proc/kpagecgroup 400
[ -e /sys/kernel/mm/page_idle/bitmap ] && check_mode /sys/kernel/mm/page_idle/bitmap 600

[ "$(as_nobody id -u)" = 65534 ] || { echo "FAIL: sec_runas cannot become nobody"; exit 1; }

denied() {	# what command...: must fail with "Permission denied" (EACCES)
	what=$1
	shift
	if as_nobody sh -c "$*" > out 2>&1; then
		echo "FAIL: nobody can $what"; fail=1
	elif grep -q "Permission denied" out; then
		echo "ok: nobody cannot $what: $(head -n 1 out)"
	else
		echo "FAIL: nobody cannot $what, but not EACCES: $(cat out)"; fail=1
	fi
}
denied "read /proc/kpageidle" "dd if=/proc/kpageidle of=/dev/null bs=8 count=1"
denied "write /proc/kpageidle" "printf '\\001\\0\\0\\0\\0\\0\\0\\0' | dd of=/proc/kpageidle bs=8 count=1"
denied "read /proc/kpagecgroup" "dd if=/proc/kpagecgroup of=/dev/null bs=8 count=1"
denied "read the page_idle bitmap" "dd if=/sys/kernel/mm/page_idle/bitmap of=/dev/null bs=8 count=1"

# idletop without the privilege: a clear message, non-zero status
for mode in "-b -n 1 -d 1" "--mark-wait 1" ""; do
	as_nobody idletop $mode < /dev/null > out 2> err
	rc=$?
	if [ $rc -ne 0 ] && grep -qiE "root|CAP_SYS_ADMIN" err; then
		echo "ok: idletop $mode as nobody: exit $rc: $(cat err)"
	else
		echo "FAIL: idletop $mode as nobody: exit $rc, stderr:"; cat err
		fail=1
	fi
	if [ -s out ] && [ -n "$mode" ]; then
		echo "FAIL: idletop $mode as nobody printed a report"; fail=1
	fi
done
exit $fail
