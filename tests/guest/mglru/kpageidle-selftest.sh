#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# The whole /proc/kpageidle kselftest (kernel/10-kpageidle-selftest runs it
# with MGLRU off) again with the multi-gen LRU enabled, all components:
# the ABI, and the KPAGEIDLE_SCAN ioctl's agreement with read-then-write
# cycle after cycle, must not depend on which LRU the kernel runs.

. "$(dirname "$0")/lib"
mglru_setup
command -v kpageidle_test >/dev/null 2>&1 || { echo "kpageidle_test is not installed"; exit 1; }
KPAGEIDLE_TEST_DIR=/mnt/scratch kpageidle_test
rc=$?
[ "$rc" -ne 4 ] || skip "kpageidle_test skipped every test"
exit "$rc"
