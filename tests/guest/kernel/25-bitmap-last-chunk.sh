#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 60
#
# The end of /sys/kernel/mm/page_idle/bitmap.  When max_pfn is not a
# multiple of 64 (the 1 GiB guest: the firmware keeps the top pages of the
# first GiB) the chunk cut short by max_pfn must be read and written like
# any other: reading the file to EOF gives ceil(max_pfn / 64) words, and
# writing the last word consumes it (upstream 6.1 returned 0 for it:
# readers never saw those PFNs, and writers saw a short write after
# marking them).  The debug smoke boots with mem=1023M, where max_pfn is a
# multiple of 64: the same checks hold there, with no partial chunk.  A
# boot without mem= must have a partial chunk: should QEMU's memory map
# ever end on a multiple of 64 PFNs, this fails instead of testing 0002's
# case no more.  Memory hot-added above it (distro/50-hotplug's DIMM,
# onlined movable and later offlined) moves max_pfn to the end of the
# DIMM, a multiple of 64: then there is no partial chunk either.

BM=/sys/kernel/mm/page_idle/bitmap
[ -e $BM ] || { echo "SKIP: no $BM"; exit 77; }

# max_pfn: one past the last byte of System RAM in /proc/iomem
end=$(grep ' : System RAM$' /proc/iomem | tail -n 1 | sed 's/^ *[0-9a-f]*-\([0-9a-f]*\) .*/\1/')
[ -n "$end" ] || { echo "no System RAM in /proc/iomem"; exit 1; }
max_pfn=$(( (0x$end + 1) / 4096 ))
tail=$((max_pfn % 64))
printf 'max_pfn 0x%x, %d PFNs in the last chunk\n' $max_pfn $tail
words=$(( (max_pfn + 63) / 64 ))
# Whether the block that holds the last PFN was hot-added: bound to an
# ACPI memory device (firmware_node: QEMU describes only its DIMMs so),
# movable, or offline (boot memory here is none of these).
hot_added_top() {
	m=/sys/devices/system/memory
	[ -r $m/block_size_bytes ] || return 1
	b=$m/memory$(( (max_pfn - 1) / (0x$(cat $m/block_size_bytes) / 4096) ))
	[ -d "$b" ] || return 1
	[ -e "$b/firmware_node" ] || [ "$(cat "$b/state")" = offline ] ||
		grep -qx Movable "$b/valid_zones"
}
if [ $tail -eq 0 ] && hot_added_top; then
	echo "the last PFN is in hot-added memory: no partial chunk to test"
elif [ $tail -eq 0 ] && ! grep -qE '(^| )mem=' /proc/cmdline; then
	echo "FAIL: max_pfn is a multiple of 64 without mem=: the partial chunk is untested"
	exit 1
fi

got=$(dd if=$BM bs=4096 2>/dev/null | wc -c)
echo "read to EOF: $got bytes, expected $((words * 8))"
[ "$got" -eq $((words * 8)) ] || { echo "FAIL: the last chunk is not read"; exit 1; }

# one word of ones at the last chunk (busybox printf knows octal escapes)
printf '\377\377\377\377\377\377\377\377' > ones
out=$(dd if=ones of=$BM bs=8 seek=$((words - 1)) count=1 conv=notrunc 2>&1)
echo "write of the last word: $out"
echo "$out" | grep -q '^1+0 records out' || { echo "FAIL: the last chunk is not consumed"; exit 1; }

# and past it: EOF for reads, ENXIO for writes
got=$(dd if=$BM bs=8 skip=$words count=1 2>/dev/null | wc -c)
[ "$got" -eq 0 ] || { echo "FAIL: $got bytes read past max_pfn"; exit 1; }
if dd if=ones of=$BM bs=8 seek=$words count=1 conv=notrunc 2>err; then
	echo "FAIL: a write past max_pfn succeeded"; exit 1
fi
grep -qi 'no such device or address' err || { echo "FAIL: not ENXIO:"; cat err; exit 1; }
echo ok
