#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# Idle is overstated on a kernel without the series (no /proc/kpageidle,
# so the page_idle bitmap) with the multi-gen LRU on (docs/mglru.md):
# idletop must say so, with the fix, in every output and the TUI header,
# and only then.  Over this kernel's real files:
#
# - a --root of symlinks to them without /proc/kpageidle, as on a stock
#   kernel: MGLRU on (echo y) warns, off (echo n) does not, and switching
#   it while idletop runs shows up in the next reports;
# - the real root: a warning only where /proc/kpageidle is missing (a
#   kernel built without the series); with it (patch 0001 included) none,
#   --source bitmap too.
#
# The unit test tests/unit/test_mglru.c covers the same logic over fixture
# trees; this one checks it against the kernel's own lru_gen/enabled.
# Both branches of the real root passed (2026-12-04): the default kernel,
# and a stock one, every patch left out (SERIES_EXCLUDE with all of them
# makes a directory name too long, so by hand: vm/build-kernel --name
# stock --exclude P... for each P of kernel-series/series, vm/mkinitramfs
# --kernel-name stock, tests/run --guest-only --kernel ... -- 50-mglru).
# The stock branch is not part of any automatic run; on an idlemem kernel
# it fails.
# A kernel with /proc/kpageidle but without patch 0001 (SERIES_EXCLUDE=
# 0001-...) is not told apart: the files say "the series", the series
# always carries 0001 first.

set -u
en=/sys/kernel/mm/lru_gen/enabled
bitmap=/sys/kernel/mm/page_idle/bitmap
[ -w $en ] || { echo "SKIP: no $en (CONFIG_LRU_GEN=n)"; exit 77; }
[ -w $bitmap ] || { echo "SKIP: no page_idle bitmap"; exit 77; }
. "$(dirname "$0")/../tui/lib"	# tui_*; sets an EXIT trap we extend

saved=$(cat $en)
restore() {
	tui_cleanup
	echo "$saved" > $en
}
trap restore EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# A stock kernel's view: the same files, /proc/kpageidle left out.
r=$PWD/stock
mkdir -p $r/proc $r/sys/kernel/mm/page_idle $r/sys/kernel/mm/lru_gen $r/sys/fs
ln -s /proc/kpageflags /proc/kpagecgroup /proc/meminfo $r/proc/
ln -s /proc/self $r/proc/self
ln -s /proc/sys $r/proc/sys
ln -s $bitmap $r/sys/kernel/mm/page_idle/bitmap
ln -s $en $r/sys/kernel/mm/lru_gen/enabled
ln -s /sys/fs/cgroup $r/sys/fs/cgroup

run() {	# tag root extra-args: one report in each format
	idletop -b -n 1 --period 1 --cpu 100 --root "$2" $3 > "$1.txt" &&
	idletop -b -n 1 --period 1 --cpu 100 --root "$2" $3 -f json \
		> "$1.json" &&
	idletop -b -n 1 --period 1 --cpu 100 --root "$2" $3 \
		-f openmetrics > "$1.prom" || no "$1: idletop failed"
}

expect() {	# tag 1|0 source
	head -1 "$1.txt" | grep -q "source $3 " ||
		no "$1: not source $3: $(head -1 "$1.txt")"
	if [ "$2" = 1 ]; then
		grep -q '^WARNING: idle is overstated.*echo n > /sys/kernel/mm/lru_gen/enabled' "$1.txt" ||
			no "$1: no WARNING line in text"
		grep -q '"warnings":\[{"id":"mglru_unfixed","message":"idle is overstated' "$1.json" ||
			no "$1: no warning in JSON"
	else
		! grep -q WARNING "$1.txt" || no "$1: a WARNING in text"
		grep -q '"warnings":\[\],' "$1.json" || no "$1: JSON warnings not empty"
	fi
	grep -qx "idletop_warning{warning=\"mglru_unfixed\"} $2" "$1.prom" ||
		no "$1: not idletop_warning $2: $(grep '^idletop_warning' "$1.prom")"
	[ $fail = 0 ] && echo "ok: $1: warning $2"
}

echo y > $en
echo "MGLRU: $saved -> $(cat $en)"
run stock-on "$r" ""
expect stock-on 1 bitmap
echo n > $en
echo "MGLRU: $(cat $en)"
run stock-off "$r" ""
expect stock-off 0 bitmap

echo y > $en
if [ -e /proc/kpageidle ]; then
	run series-on / ""
	expect series-on 0 kpageidle
	run series-bitmap / "--source bitmap"
	expect series-bitmap 0 bitmap
else
	# only a kernel without the series gets here
	case $(uname -r) in
	*-idlemem) echo "FAIL: no /proc/kpageidle on the idlemem kernel $(uname -r)"; exit 1 ;;
	esac
	run nokpi-on / ""
	expect nokpi-on 1 bitmap
fi

# The TUI: the header line appears and goes with the switch.
tui_start 120 24 -- --root "$r" --period 1 --cpu 100
tui_wait 10 '^IDLE OVERSTATED: MGLRU on, no idlemem series: echo n > /sys/kernel/mm/lru_gen/enabled'
echo n > $en
tui_gone 15 'IDLE OVERSTATED'
tui_wait 5 '^NAME'
tui_quit
echo "ok: TUI header line with MGLRU on, gone when switched off"
exit $fail
