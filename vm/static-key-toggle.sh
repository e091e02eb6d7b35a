#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Does this emulator run a kernel that patches static keys?  A guest script
# (vm/run --script vm/static-key-toggle.sh) that flips the lru_gen_enabled()
# static key 400 times while shells fork and fault pages, which runs the
# key's branch in folio_add_lru() and folio_mark_accessed().  It does not
# use /proc/kpageidle.  It prints "survived" and exits 0, or the guest
# oopses ("Oops: int3").
#
# With CONFIG_JUMP_LABEL, each flip rewrites the branch with text_poke_bp():
# an int3 first, then the rest, then the first byte, with every CPU made to
# serialize in between, and poke_int3_handler() handles an int3 hit while
# that runs.  On QEMU 7.2 with multi-threaded TCG (one host thread per vCPU,
# the default) a vCPU executed the int3 after the patching had ended, so no
# handler claimed it: 4 of 4 boots oopsed within 3 s with Debian's 6.12
# configuration and the series, 3 of 3 with the tinyconfig 6.12 kernel plus
# CONFIG_JUMP_LABEL and no patch at all; with -accel tcg,thread=single
# (vm/run --tcg-single) 9 of 9 boots of the two kernels survived
# (docs/admin-guide.md 1.2).
[ -w /sys/kernel/mm/lru_gen/enabled ] || {
	echo "no /sys/kernel/mm/lru_gen/enabled: CONFIG_LRU_GEN is off"
	exit 2
}
old=$(cat /sys/kernel/mm/lru_gen/enabled)
(
	i=0
	while [ $i -lt 200 ]; do
		echo n > /sys/kernel/mm/lru_gen/enabled
		echo y > /sys/kernel/mm/lru_gen/enabled
		i=$((i + 1))
	done
) &
flipper=$!
j=0
while [ $j -lt 400 ]; do
	sh -c 'x=$(seq 1 200); : "${#x}"'
	j=$((j + 1))
done
wait $flipper
echo "$old" > /sys/kernel/mm/lru_gen/enabled 2>/dev/null || true
echo survived
