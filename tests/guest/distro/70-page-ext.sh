#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 120
#
# page_ext (Debian's config has CONFIG_PAGE_EXTENSION=y; tinyconfig not)
# is where a 32-bit kernel keeps PG_idle and PG_young: page_idle_ops is a
# page_ext client only without CONFIG_64BIT (mm/page_ext.c,
# include/linux/page_idle.h).  On amd64 they are bits of page->flags, so
# idle tracking neither needs nor allocates page_ext, and hot-added memory
# (50-hotplug) gets its idle bits with its struct pages.  This checks it
# on the running kernel: a 64-bit kernel with page_ext built in, no
# "allocated N bytes of page_ext" in the boot's log (which must still
# have its first line) (Debian enables no client: PAGE_OWNER and PAGE_TABLE_CHECK are off),
# and marks through /proc/kpageidle over all memory read back idle: at
# least half of the 16 MiB of page cache the test writes first and then
# leaves alone (a few may still wait in a per-CPU LRU batch, unmarkable;
# how much else is user memory depends on the tests before it).  (It
# used to compare /proc/kpageidle with KPF_IDLE of
# /proc/kpageflags right after the read that set that same PG_idle: both
# read page_is_idle(), with page_ext or without, so that proved nothing.)

set -u
zcat /proc/config.gz 2>/dev/null | grep -qx CONFIG_PAGE_EXTENSION=y ||
	{ echo "SKIP: no page_ext in this kernel (CONFIG_PAGE_EXTENSION=n)"; exit 77; }
. "$(dirname "$0")/../common"
need_kpageidle
zcat /proc/config.gz | grep -qx CONFIG_64BIT=y ||
	{ echo "FAIL: a 32-bit kernel keeps PG_idle in page_ext; this test is for 64-bit"; exit 1; }

# tests/guest/runner keeps the boot's messages there before it clears
# the ring buffer
boot=/tmp/dmesg-boot.log
[ -r $boot ] || { dmesg > boot.log; boot=boot.log; }
grep -q 'Linux version' $boot ||
	{ echo "SKIP: the boot log's start is gone from the ring buffer"; exit 77; }
if grep 'bytes of page_ext' $boot; then
	echo "FAIL: page_ext was allocated; which client needs it?"
	zcat /proc/config.gz | grep -E '^CONFIG_(PAGE_OWNER|PAGE_TABLE_CHECK)='
	exit 1
fi
echo "ok: no page_ext allocated"

# 16 MiB of page cache of our own, written and then left alone
need_scratch
f=/mnt/scratch/page-ext.dat
trap 'rm -f $f' EXIT
dd if=/dev/urandom of=$f bs=1M count=16 2> /dev/null || exit 1
sync
# every node's PFNs, marked, then read through /proc/kpageidle
lo=$(awk '/start_pfn/ { print $2; exit }' /proc/zoneinfo)
hi=$(awk '$1 == "spanned" { s = $2 }
	$1 == "start_pfn:" { if ($2 + s > e) e = $2 + s }
	END { print e + 0 }' /proc/zoneinfo)
lo=$(( (lo + 63) / 64 * 64 ))
[ "$hi" -gt "$lo" ] || { echo "FAIL: no PFN range in /proc/zoneinfo"; exit 1; }
echo "PFNs [$lo, $hi)"
pfnstate markrange "$lo" "$hi" || exit 1
sleep 2
r=$(pfnstate count "$lo" "$hi") || exit 1
set -- $(echo "$r" | tr '=' ' ')
echo "$r"
[ "$2" -ge 2048 ] || { echo "FAIL: only $2 idle PFNs after marking, 4096 written"; exit 1; }
echo "ok: $2 PFNs read idle after marking (4096 written by the test)"
