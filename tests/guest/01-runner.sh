# SPDX-License-Identifier: GPL-2.0
#
# The runner itself: it passes, skips, fails and times out tests as
# documented, names them, and its summary and exit status follow.
# timeout: 60
set -e
runner=/tests/guest/runner
d=$PWD/suite
mkdir -p "$d/sub"
cp "$runner" "$d/runner"
echo 'exit 0' > "$d/a-pass.sh"
printf 'echo "SKIP: no widget"\nexit 77\n' > "$d/b-skip.sh"
printf 'echo "expected 4, got 5"\nexit 1\n' > "$d/c-fail.sh"
printf '# timeout: 2\nsleep 30\n' > "$d/sub/d-hang.sh"
echo 'not a test' > "$d/e-notes.txt"

set +e
sh "$d/runner" > out.txt 2>&1
rc=$?
set -e
cat out.txt

expect() {	# expect LINE: the output has this exact line
	grep -qxF "$1" out.txt || { echo "missing line: $1"; exit 1; }
}
grep -q '^PASS a-pass (' out.txt || { echo "a-pass did not pass"; exit 1; }
expect "SKIP b-skip: no widget"
grep -q '^FAIL c-fail: exit status 1 (' out.txt || { echo "c-fail not failed"; exit 1; }
grep -qxF "expected 4, got 5" out.txt || { echo "c-fail's output not shown"; exit 1; }
# the runner scales timeouts on a slow (debug) kernel: idlemem.timeout_scale
scale=$(sed -n 's/.*idlemem\.timeout_scale=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
grep -q "^FAIL sub/d-hang: timed out after $((2 * ${scale:-1}))s (" out.txt ||
	{ echo "d-hang not timed out"; exit 1; }
[ "$(tail -n 1 out.txt)" = "1 passed, 2 failed, 1 skipped" ] || { echo "bad summary"; exit 1; }
[ $rc -ne 0 ] || { echo "runner exited 0 despite failures"; exit 1; }
! grep -q notes out.txt || { echo "a non-.sh file was run"; exit 1; }

# A filter selects by name; an all-passing run exits 0.
sh "$d/runner" pass > out2.txt 2>&1 || { cat out2.txt; echo "filtered run failed"; exit 1; }
[ "$(tail -n 1 out2.txt)" = "1 passed, 0 failed" ] || { cat out2.txt; exit 1; }

# A filter that matches nothing is an error that says so (a typo in
# TESTS= must not look like a green run).
if sh "$d/runner" no-such-test > out3.txt 2>&1; then
	cat out3.txt; echo "a run of no test exited 0"; exit 1
fi
grep -qxF "no guest test matches: no-such-test" out3.txt || { cat out3.txt; exit 1; }
[ "$(tail -n 1 out3.txt)" = "0 passed, 0 failed" ] || { cat out3.txt; exit 1; }
