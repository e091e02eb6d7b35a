#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# Run the /proc/kpageidle kselftest (tools/testing/selftests/vm/kpageidle.c
# from the patched tree, installed as kpageidle_test) and judge it by its
# TAP output (kselftest_check in ../common): every sub-test's result is in
# this test's log (kept by tests/run in build/guest-logs/), any FAIL fails,
# and so does a SKIP of a sub-test on ../kselftest-must-run.

. "$(dirname "$0")/../common"
if ! command -v kpageidle_test >/dev/null 2>&1; then
	echo "kpageidle_test is not installed" >&2
	exit 1
fi

ipi_trace_start
KPAGEIDLE_TEST_DIR=/mnt/scratch kpageidle_test > tap.txt 2>&1
rc=$?
cat tap.txt
ipi_trace_report tap.txt
echo "---- kpageidle_test exited $rc"
kselftest_check tap.txt "$rc"
