#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 300
#
# Run the page_idle kselftest (tools/testing/selftests/vm/page_idle.c from
# the patched tree, installed as page_idle_test): the fixes 0001-0005 and
# the MGLRU feed 0006 through /sys/kernel/mm/page_idle/bitmap, the
# multi-gen LRU enabled by the test where it needs it.  Judged by its TAP
# output like 10-kpageidle-selftest (kselftest_check in ../common), with
# the sub-tests of ../page_idle-must-run required to run and pass.

. "$(dirname "$0")/../common"
need_scratch
kselftest_run page_idle page_idle-must-run
