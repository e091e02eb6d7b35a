#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm/run returns the guest command's exit status (also with --tcg-single),
# passes arguments and every --append through, and a guest kernel panic
# fails the run at once (not at the timeout: exit 125, well before its
# 300 s), showing the panic.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
run() { "$top/vm/run" --kernel "$IDLEMEM_BZIMAGE" --initrd "$IDLEMEM_INITRD" "$@"; }

run -- sh -c 'exit 3' > /dev/null 2>&1
rc=$?
[ $rc -eq 3 ] || { echo "vm/run -- sh -c 'exit 3' exited $rc"; exit 1; }

out=$(run -- sh -c "printf '%s|' \"\$@\"" sh "a b" "it's" '$HOME' 2>&1)
echo "$out" | grep -qF "a b|it's|\$HOME|" || { echo "arguments not passed verbatim: $out"; exit 1; }

# single-threaded TCG (vm/test-distro's runs of stress/20) boots too
run --tcg-single -- sh -c 'exit 5' > /dev/null 2>&1
rc=$?
[ $rc -eq 5 ] || { echo "vm/run --tcg-single -- sh -c 'exit 5' exited $rc"; exit 1; }

out=$(run --append idlemem.a=1 --append "idlemem.b=2 idlemem.c=3" -- cat /proc/cmdline 2>&1)
echo "$out" | grep -q "idlemem.a=1 idlemem.b=2 idlemem.c=3" ||
	{ echo "--append given twice did not keep both: $out"; exit 1; }

start=$(date +%s)
out=$(run --timeout 300 -- sh -c 'echo c > /proc/sysrq-trigger' 2>&1)
rc=$?
secs=$(( $(date +%s) - start ))
[ $rc -eq 125 ] || { echo "a panic gave exit $rc, not 125"; exit 1; }
# the order, not a guess of a loaded host's boot time: ended by the panic,
# long before the timeout would have ended it
[ $secs -lt 150 ] || { echo "a panic took ${secs}s to end the run (timeout 300 s)"; exit 1; }
echo "$out" | grep -q 'the guest kernel panicked' || { echo "no panic report: $out"; exit 1; }
echo "$out" | grep -q 'Kernel panic - not syncing: sysrq triggered crash' || { echo "panic text not shown"; exit 1; }

out=$(run --timeout 5 -- sleep 60 2>&1)
rc=$?
[ $rc -eq 124 ] || { echo "a hang gave exit $rc, not 124"; exit 1; }
exit 0
