#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# uid 0 without CAP_SYS_ADMIN (a container's root without a user
# namespace) cannot open /proc/kpageidle: EPERM on open for reading and
# for writing, so it gets neither a cross-tenant access side channel nor
# a way to reset everyone's accessed bits.  A descriptor opened by a
# privileged process keeps working when handed to such a process (the
# check is on the opener).  idletop says what it needs.  The bitmap and
# /proc/kpageflags keep their upstream rules (mode only).

set -u
fail=0
. "$(dirname "$0")/../common"
need_kpageidle

refused() {	# what command...: must fail with EPERM
	what=$1
	shift
	if sec_noadmin sh -c "$*" > out 2>&1; then
		echo "FAIL: root without CAP_SYS_ADMIN can $what"; fail=1
	elif grep -q "Operation not permitted" out; then
		echo "ok: root without CAP_SYS_ADMIN cannot $what: $(head -n 1 out)"
	else
		echo "FAIL: cannot $what, but not EPERM: $(cat out)"; fail=1
	fi
}
refused "read /proc/kpageidle" "dd if=/proc/kpageidle of=/dev/null bs=8 count=1"
refused "write /proc/kpageidle" "printf '\\001\\0\\0\\0\\0\\0\\0\\0' | dd of=/proc/kpageidle bs=8 count=1"

# control: the same helper leaves root its other powers
if sec_noadmin dd if=/proc/kpageflags of=/dev/null bs=8 count=1 2> out; then
	echo "ok: root without CAP_SYS_ADMIN still reads /proc/kpageflags"
else
	echo "FAIL: sec_noadmin broke more than CAP_SYS_ADMIN: $(cat out)"; fail=1
fi

# a descriptor opened with the capability works without it
if sec_noadmin dd of=/dev/null bs=8 count=64 < /proc/kpageidle 2> out; then
	echo "ok: a privileged descriptor works after the capability is gone"
else
	echo "FAIL: the privileged descriptor was refused: $(cat out)"; fail=1
fi

# idletop: a clear message naming the capability, non-zero status
sec_noadmin idletop -b -n 1 -d 1 --source kpageidle < /dev/null > out 2> err
rc=$?
if [ $rc -ne 0 ] && grep -q "CAP_SYS_ADMIN" err; then
	echo "ok: idletop without CAP_SYS_ADMIN: exit $rc: $(cat err)"
else
	echo "FAIL: idletop without CAP_SYS_ADMIN: exit $rc, stderr:"; cat err
	fail=1
fi
exit $fail
