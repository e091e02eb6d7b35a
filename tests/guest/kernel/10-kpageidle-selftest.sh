#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# Run the /proc/kpageidle kselftest (tools/testing/selftests/vm/kpageidle.c
# from the patched tree, installed as kpageidle_test).  Pass iff it exits 0;
# exit 4 (KSFT_SKIP: no /proc/kpageidle, or not root) is a SKIP.

if ! command -v kpageidle_test >/dev/null 2>&1; then
	echo "kpageidle_test is not installed" >&2
	exit 1
fi

KPAGEIDLE_TEST_DIR=/mnt/scratch kpageidle_test
rc=$?
if [ "$rc" -eq 4 ]; then
	echo "SKIP: kpageidle_test skipped every test"
	exit 77
fi
exit "$rc"
