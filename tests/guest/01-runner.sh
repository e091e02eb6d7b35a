# SPDX-License-Identifier: GPL-2.0
# timeout: 120
#
# The runner itself: it passes, skips, fails and times out tests as
# documented, names them, and its summary and exit status follow; a skip
# off the kernel kind's expected-skip list fails; a timeout kills the
# whole test (its cgroup and the cgroups it made); the global knobs a test
# leaves changed are put back; a report in the kernel log fails the test
# that was running and names the test before it as a suspect; each
# test's output is printed between markers with idlemem.logs=console; a
# kselftest's FAIL line names its failed sub-tests; a report in the
# kernel log of the boot fails the run as "boot".
set -e
runner=/tests/guest/runner
d=$PWD/suite
mkdir -p "$d/sub" "$d/expected-skips"
cp "$runner" "$d/runner"
thp=/sys/kernel/mm/transparent_hugepage/enabled
thp_was=$(sed 's/.*\[\(.*\)\].*/\1/' $thp)
case $thp_was in never) thp_other=madvise ;; *) thp_other=never ;; esac
cat > "$d/expected-skips/selftest" <<'LIST'
# the test's own list
b-skip no widget
g-wrong-reason no gadget
h-listed-passes whatever
LIST
echo 'exit 0' > "$d/a-pass.sh"
printf 'echo "SKIP: no widget"\nexit 77\n' > "$d/b-skip.sh"
printf 'echo "expected 4, got 5"\nexit 1\n' > "$d/c-fail.sh"
# d-hang leaves a process in its own cgroup and one in a cgroup it made
cat > "$d/sub/d-hang.sh" <<TEST
# timeout: 2
sleep 300 &
echo \$! > $PWD/hang.pid
mkdir /sys/fs/cgroup/runner-selftest-made
sh -c 'echo \$\$ > /sys/fs/cgroup/runner-selftest-made/cgroup.procs && echo \$\$ > $PWD/made.pid && exec sleep 300' &
sleep 30
TEST
printf 'echo "SKIP: no widget either"\nexit 77\n' > "$d/f-unlisted.sh"
printf 'echo "SKIP: no widget"\nexit 77\n' > "$d/g-wrong-reason.sh"
echo 'exit 0' > "$d/h-listed-passes.sh"
echo "echo $thp_other > $thp" > "$d/i-knob.sh"
# a kernel log line the runner takes for a splat (written through
# /dev/kmsg: no kernel bug needed)
printf 'echo "WARNING: runner selftest splat" > /dev/kmsg\nexit 0\n' > "$d/j-splat.sh"
# a kselftest as kselftest_check reports it: two failed sub-tests
printf 'echo "subtest one: PASS"\necho "subtest two: FAIL"\necho "subtest three: FAIL no result line"\nexit 1\n' > "$d/k-subtests.sh"
echo 'not a test' > "$d/e-notes.txt"

boot_sum=$(md5sum < /tmp/dmesg-boot.log)
run() {	# run OUT ARGS...: the copy with its own list, logs and boot log
	_out=$1
	shift
	IDLEMEM_KIND=selftest IDLEMEM_LOGS=console RUNNER_LOGS=$PWD/logs \
		RUNNER_BOOTLOG=$PWD/boot.log sh "$d/runner" "$@" > "$_out" 2>&1
}

set +e
run out.txt
rc=$?
set -e
cat out.txt

expect() {	# expect LINE: the output has this exact line
	grep -qxF "$1" out.txt || { echo "missing line: $1"; exit 1; }
}
grep -q '^PASS a-pass (' out.txt || { echo "a-pass did not pass"; exit 1; }
expect "SKIP b-skip: no widget"
grep -q '^FAIL c-fail: exit status 1 (' out.txt || { echo "c-fail not failed"; exit 1; }
expect "    expected 4, got 5"
# the runner scales timeouts on a slow (debug) kernel: idlemem.timeout_scale
scale=$(sed -n 's/.*idlemem\.timeout_scale=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
grep -q "^FAIL sub/d-hang: timed out after $((2 * ${scale:-1}))s (" out.txt ||
	{ echo "d-hang not timed out"; exit 1; }
alive() { _st=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null); [ -n "$_st" ] && [ "$_st" != Z ]; }
for p in hang made; do
	[ -s $p.pid ] || { echo "d-hang did not start its $p process"; exit 1; }
	! alive "$(cat $p.pid)" || { echo "d-hang's $p process survived its timeout"; exit 1; }
done
[ ! -d /sys/fs/cgroup/runner-selftest-made ] || { echo "d-hang's cgroup survived"; exit 1; }
grep -q "^FAIL f-unlisted: skipped, not on the expected-skip list of kernel kind 'selftest': no widget either (" out.txt ||
	{ echo "an unlisted skip did not fail"; exit 1; }
grep -q "^FAIL g-wrong-reason: skipped, not on the expected-skip list of kernel kind 'selftest': no widget (" out.txt ||
	{ echo "a listed test skipping for another reason did not fail"; exit 1; }
grep -q '^PASS h-listed-passes (' out.txt || { echo "h-listed-passes did not pass"; exit 1; }
expect "note: h-listed-passes passed; it is on the expected-skip list of kernel kind 'selftest'"
grep -q '^PASS i-knob (' out.txt || { echo "i-knob did not pass"; exit 1; }
[ "$(sed 's/.*\[\(.*\)\].*/\1/' $thp)" = "$thp_was" ] || { echo "THP left at $(cat $thp)"; exit 1; }
grep -q "^FAIL j-splat: kernel log reports a problem, logged while it ran (asynchronous work left by the previous test, i-knob, would report here too: " out.txt ||
	{ echo "j-splat's kernel log line did not fail it, naming i-knob"; exit 1; }
grep -q '^    .*WARNING: runner selftest splat$' out.txt ||
	{ echo "j-splat's kernel log line is not shown"; exit 1; }
# a kselftest's FAIL line names its failed sub-tests
grep -q '^FAIL k-subtests: exit status 1, failed sub-tests: two three (' out.txt ||
	{ echo "k-subtests' FAIL line does not name the failed sub-tests"; exit 1; }
grep -qxF "runner: i-knob left $thp at $thp_other, restored $thp_was" logs/i-knob.log ||
	{ echo "the restore is not in i-knob's log"; exit 1; }
# each test's output between markers, after its result
sed -n '/^IDLEMEM_LOG_BEGIN c-fail$/,/^IDLEMEM_LOG_END c-fail$/p' out.txt | grep -qxF '| expected 4, got 5' ||
	{ echo "c-fail's output is not between markers"; exit 1; }
# the last lines: every skipped test, then the summary
[ "$(tail -n 3 out.txt)" = "skipped (expected on kernel kind 'selftest'):
  b-skip: no widget
3 passed, 6 failed, 1 skipped" ] || { echo "bad summary"; exit 1; }
[ $rc -ne 0 ] || { echo "runner exited 0 despite failures"; exit 1; }
! grep -q notes out.txt || { echo "a non-.sh file was run"; exit 1; }
# the copy kept its kernel log in RUNNER_BOOTLOG, not over the suite's
[ -e boot.log ] || { echo "no boot log at RUNNER_BOOTLOG"; exit 1; }
[ "$(md5sum < /tmp/dmesg-boot.log)" = "$boot_sum" ] || { echo "/tmp/dmesg-boot.log overwritten"; exit 1; }

# A filter selects by name; an all-passing run exits 0.
run out2.txt pass || { cat out2.txt; echo "filtered run failed"; exit 1; }
[ "$(tail -n 1 out2.txt)" = "2 passed, 0 failed" ] || { cat out2.txt; exit 1; }

# A filter that matches nothing is an error that says so (a typo in
# TESTS= must not look like a green run).
if run out3.txt no-such-test; then
	cat out3.txt; echo "a run of no test exited 0"; exit 1
fi
grep -qxF "no guest test matches: no-such-test" out3.txt || { cat out3.txt; exit 1; }
[ "$(tail -n 1 out3.txt)" = "0 passed, 0 failed" ] || { cat out3.txt; exit 1; }

# "!TEXT" leaves out every test whose name contains TEXT: beside a
# pattern that selects it, and alone (every other test runs).
run out5.txt pass '!h-listed' || { cat out5.txt; echo "run with an exclusion failed"; exit 1; }
grep -q '^PASS a-pass (' out5.txt || { cat out5.txt; echo "a-pass did not run beside !h-listed"; exit 1; }
! grep -q 'h-listed-passes' out5.txt || { cat out5.txt; echo "!h-listed did not leave it out"; exit 1; }
[ "$(tail -n 1 out5.txt)" = "1 passed, 0 failed" ] || { cat out5.txt; exit 1; }
run out6.txt '!sub/' '!c-' '!f-' '!g-' '!i-' '!j-' '!k-' ||
	{ cat out6.txt; echo "run of exclusions alone failed"; exit 1; }
[ "$(tail -n 1 out6.txt)" = "2 passed, 0 failed, 1 skipped" ] || { cat out6.txt; exit 1; }
grep -q '^PASS h-listed-passes (' out6.txt || { cat out6.txt; echo "exclusions alone did not run the rest"; exit 1; }

# A report in the kernel log before the first test fails the run as
# "boot", shown, even when every test passes.
echo "WARNING: runner selftest boot splat" > /dev/kmsg
if run out4.txt pass; then
	cat out4.txt; echo "a report in the boot's kernel log did not fail the run"; exit 1
fi
grep -qxF "FAIL boot: the kernel log of the boot reports a problem" out4.txt ||
	{ cat out4.txt; echo "no FAIL boot line"; exit 1; }
grep -q '^    .*WARNING: runner selftest boot splat$' out4.txt ||
	{ cat out4.txt; echo "the boot's report is not shown"; exit 1; }
[ "$(tail -n 1 out4.txt)" = "2 passed, 1 failed" ] || { cat out4.txt; exit 1; }
