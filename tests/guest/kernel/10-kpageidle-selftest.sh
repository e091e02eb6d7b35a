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
kselftest_run kpageidle
