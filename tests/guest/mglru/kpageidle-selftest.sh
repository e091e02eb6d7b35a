#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 600
#
# The whole /proc/kpageidle kselftest (kernel/10-kpageidle-selftest runs it
# with MGLRU off) again with the multi-gen LRU enabled, all components:
# the ABI, and the KPAGEIDLE_SCAN ioctl's agreement with read-then-write
# cycle after cycle, must not depend on which LRU the kernel runs.  Judged
# by its TAP output as there (kselftest_check in ../common).

. "$(dirname "$0")/lib"
. "$(dirname "$0")/../common"
mglru_setup
kselftest_run kpageidle
