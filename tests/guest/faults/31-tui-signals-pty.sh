#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# timeout: 150
#
# The checks of 30-tui-signals without tmux: idletop's interactive view
# on a pty of fault_pty's own (tests/guest/bin/fault_pty.c) survives a SIGWINCH storm
# with resizes and quits on q with 0; after SIGTERM, SIGINT and a typed
# ^C it exits by itself and leaves the termios modes, the alternate screen
# and the cursor as they were.

set -u
if [ ! -e /proc/kpageidle ] && [ ! -e /sys/kernel/mm/page_idle/bitmap ]; then
	echo "SKIP: no idle page tracking in this kernel"
	exit 77
fi
fail=0
for mode in winch term int ctrlc; do
	fault_pty $mode idletop -d 2 --cpu 50 2> err.$mode
	rc=$?
	# "the interactive view needs a terminal" on a pty is a failure
	[ $rc -eq 0 ] || { fail=1; echo "FAIL: $mode: exit $rc (stderr: $(cat err.$mode))"; }
done
exit $fail
