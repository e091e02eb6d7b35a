#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# idletop -o FILE, as root in a shared directory, must not write through
# a planted symlink: not at the old predictable FILE.tmp, not at FILE.
# Each report reaches FILE whole (the temp file is renamed over it), with
# mode 0666 less the umask, and no temp file is left behind; a FILE that
# exists keeps its mode and group, and when the writer cannot give the
# group (as root: a run as nobody), the group gets only what others had;
# a directory that cannot be written is an error (exit 1), not a crash.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
make -s -C "$top/top" all "$top/build/top/unit/mkfixture" ||
	{ echo "FAIL: make -C top"; exit 1; }
idletop=${IDLETOP:-$top/top/idletop}	# IDLETOP=: another build
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok()  { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

"$top/build/top/unit/mkfixture" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }
mkdir "$dir/shared"
cd "$dir/shared" || exit 1
echo precious > "$dir/victim"
ln -s "$dir/victim" out.prom.tmp
run() {	# umask file
	(umask "$1" && "$idletop" --root "$dir/root" -b -n 2 --period 0.05 \
		-f openmetrics -o "$2")
}

run 022 out.prom || bad "idletop -o exited $?"
if [ "$(cat "$dir/victim")" = precious ]; then
	ok "a symlink planted at FILE.tmp is not followed"
else
	bad "the planted FILE.tmp symlink was followed: victim now holds $(head -c 60 "$dir/victim")"
fi
if [ -f out.prom ] && [ ! -L out.prom ] && [ "$(tail -n 1 out.prom)" = "# EOF" ] &&
   [ "$(grep -c '^# EOF' out.prom)" -eq 1 ]; then
	ok "FILE holds one whole report"
else
	bad "FILE is not one whole report"; ls -l; head -n 5 out.prom
fi
[ "$(stat -c %a out.prom)" = 644 ] && ok "mode 644 under umask 022" ||
	bad "mode $(stat -c %a out.prom) under umask 022"
left=$(ls -A | grep -vx -e out.prom -e out.prom.tmp)
[ -z "$left" ] && ok "no temp file left" || bad "left behind: $left"

# FILE itself a symlink: rename replaces the link, the target is untouched
ln -s "$dir/victim" link.prom
run 027 link.prom || bad "idletop -o link.prom exited $?"
if [ "$(cat "$dir/victim")" = precious ] && [ -f link.prom ] && [ ! -L link.prom ] &&
   [ "$(stat -c %a link.prom)" = 640 ]; then
	ok "a symlink at FILE is replaced, not written through (mode 640 under 027)"
else
	bad "FILE as a symlink: victim $(head -c 20 "$dir/victim"), $(ls -l link.prom)"
fi

# An existing FILE keeps its mode and group, whatever the umask: an
# admin's group read for a textfile collector survives each report.
# The group: nogroup as root, else a supplementary group of ours.
grp=$( [ "$(id -u)" = 0 ] && echo 65534 || id -G | tr ' ' '\n' | grep -vxm1 "$(id -g)")
if [ -n "$grp" ]; then
	chmod 0640 out.prom && chgrp "$grp" out.prom
	run 077 out.prom || bad "idletop -o over an existing FILE exited $?"
	got=$(stat -c '%a %g' out.prom)
	[ "$got" = "640 $grp" ] && ok "an existing FILE keeps mode 640 and group $grp (umask 077)" ||
		bad "an existing FILE (640, group $grp) became $got under umask 077"
else
	echo "skip: mode and group kept (no group to give without root)"
fi
# As nobody, over root's 0640 file: nobody cannot give root's group, and
# the group (now nogroup) gets others' bits (none), not root's group's.
if [ "$(id -u)" = 0 ]; then
	mkdir "$dir/nobody" && echo old > "$dir/nobody/out.prom" &&
		chmod 0640 "$dir/nobody/out.prom" && chown 65534:65534 "$dir/nobody" &&
		chmod -R a+rwX "$dir/root" &&	# the fixture, nobody's too
		chmod 0755 "$dir" || bad "setting up the nobody directory"
	(umask 022 && setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$idletop" --root "$dir/root" -b -n 2 --period 0.05 -f openmetrics \
		-o "$dir/nobody/out.prom") || bad "idletop -o as nobody exited $?"
	got=$(stat -c '%a %U:%G' "$dir/nobody/out.prom")
	[ "$got" = "600 nobody:nogroup" ] &&
		ok "a group that cannot be kept gets others' bits (root's 640: nobody's 600)" ||
		bad "root's 640 file, replaced by nobody, became $got"
else
	echo "skip: a group that cannot be kept (needs root for setpriv)"
fi

run 022 "$dir/missing/out.prom" 2> err
rc=$?
[ $rc -eq 1 ] && grep -q "idletop: .*missing" err && ok "a missing directory: exit 1 with a message" ||
	bad "a missing directory: exit $rc, stderr: $(cat err)"
exit $fail
