#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# With MGLRU on, mapped file pages accessed after being marked idle must read
# not idle after eviction's rmap walk found a young neighbour and
# lru_gen_look_around() cleared their accessed bits; untouched pages still
# resident must read idle.  Eviction is forced through
# /sys/kernel/debug/lru_gen ('-' command, file pages only).  Covers
# lru_gen_look_around().
# timeout: 120
. "$(dirname "$0")/lib"
. "$(dirname "$0")/../common"
need_scratch
fab=/sys/kernel/debug/fault_around_bytes
[ -w $fab ] || skip "no $fab"
mglru_setup
# fault in one page at a time, or the test cannot map pages apart
fab_saved=$(cat $fab)
echo 4096 > $fab || exit 2
rc=0
mglru_idle lookaround /mnt/scratch/mglru-lookaround.$$ || rc=$?
echo "$fab_saved" > $fab
rm -f /mnt/scratch/mglru-lookaround.$$
exit $rc
