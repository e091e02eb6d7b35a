#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# The Debian package (make deb, dist/build-deb): dpkg-buildpackage -us -uc
# -b builds it in build/deb/, lintian finds no warning or error, and it
# holds the binary, the man page, idletop-exporter.service installed by
# dh_installsystemd (disabled: the postinst never enables it on a fresh
# install), /etc/default/idletop as a conffile and dist/'s rules,
# dashboard, manifests and AppArmor profile as examples; the binary it
# ships runs and exits 2 on a usage error, the unit does not retry that
# exit status, is skipped on kernels without idle page tracking, and
# passes systemd-analyze verify (its absence fails).  Costs about 30 s of CPU
# (the build with dpkg-buildflags, lintian), 40 s to 2 min of wall time.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }
done_() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

for t in dpkg-buildpackage dh lintian; do
	command -v $t > /dev/null ||
		{ bad "$t not found: run 'vm/deps deb'"; done_; }
done
if deb=$("$top/dist/build-deb" --lintian 2> "$tmp/err" | tail -n 1) &&
   [ -f "$deb" ]; then
	ok "dpkg-buildpackage -us -uc -b and lintian --fail-on warning,error: ${deb#"$top"/}"
else
	bad "build-deb --lintian"; cat "$tmp/err"; done_
fi

dpkg-deb -c "$deb" | awk '{ print $1 " " $6 }' > "$tmp/list"
# dh_installsystemd puts units in /lib or /usr/lib (DEP17), as debhelper
# decides
unitpath=$(grep -o '\./\(usr/\)\?lib/systemd/system/idletop-exporter\.service$' "$tmp/list")
[ -n "$unitpath" ] && ok "contains $unitpath" || bad "missing: idletop-exporter.service"
ex=./usr/share/doc/idletop/examples
for want in "-rwxr-xr-x ./usr/bin/idletop" \
	"-rw-r--r-- ./usr/share/man/man1/idletop.1.gz" \
	"-rw-r--r-- ./etc/default/idletop" \
	"-rw-r--r-- ./usr/share/doc/idletop/copyright" \
	"-rw-r--r-- $ex/prometheus/idletop.rules.yml" \
	"-rw-r--r-- $ex/prometheus/idletop.rules.test.yml" \
	"-rw-r--r-- $ex/grafana/idletop.json" \
	"-rw-r--r-- $ex/kubernetes/idletop-daemonset.yaml" \
	"-rw-r--r-- $ex/kubernetes/idletop-podmonitor.yaml" \
	"-rw-r--r-- $ex/apparmor/idletop"; do
	grep -qxF -- "$want" "$tmp/list" && ok "contains ${want#* }" ||
		bad "missing: $want"
done
# every file of dist/ that an admin uses is an example
for f in "$top"/dist/prometheus/* "$top"/dist/grafana/* \
	"$top"/dist/kubernetes/* "$top"/dist/apparmor/*; do
	rel=${f#"$top"/dist/}
	grep -qxF -- "-rw-r--r-- $ex/$rel" "$tmp/list" || bad "dist/$rel is not in $ex"
done
dpkg-deb -e "$deb" "$tmp/ctl"
grep -qx /etc/default/idletop "$tmp/ctl/conffiles" &&
	ok "/etc/default/idletop is a conffile" || bad "conffiles: $(cat "$tmp/ctl/conffiles")"
# enable only when it was enabled before (an upgrade), never on install
if ! grep -v 'was-enabled' "$tmp/ctl/postinst" | grep -q '^[[:space:]]*deb-systemd-helper enable' ||
   grep -B2 'deb-systemd-helper enable' "$tmp/ctl/postinst" | grep -q was-enabled; then
	ok "postinst does not enable the unit on a fresh install"
else
	bad "postinst enables the unit:"; cat "$tmp/ctl/postinst"
fi
dpkg-deb -f "$deb" Depends | grep -q libmicrohttpd &&
	ok "Depends: $(dpkg-deb -f "$deb" Depends)" || bad "no libmicrohttpd in Depends"

dpkg-deb -x "$deb" "$tmp/root"
"$tmp/root/usr/bin/idletop" --version | grep -q '^idletop ' &&
	"$tmp/root/usr/bin/idletop" --help | grep -q -- '--listen' &&
	ok "the packaged idletop runs and has --listen" || bad "packaged idletop"
"$tmp/root/usr/bin/idletop" --no-such-option > /dev/null 2>&1
rc=$?
unit=$tmp/root/${unitpath#./}
[ "$rc" = 2 ] && grep -qx 'RestartPreventExitStatus=2' "$unit" &&
	grep -qx 'Restart=on-failure' "$unit" &&
	ok "a usage error exits 2, which the unit does not retry" ||
	bad "usage error: exit $rc; unit: $(grep '^Restart' "$unit" | tr '\n' ' ')"
# the unit's conditions are the files idletop opens (idlesrc.h)
conds=$(sed -n 's/^ConditionPathExists=|\//\//p' "$unit" | sort | tr '\n' ' ')
srcs=$(sed -n 's/^#define IDLESRC_\(KPAGEIDLE\|BITMAP\)_PATH\t"\(.*\)"$/\/\2/p' \
	"$top/top/idlesrc.h" | sort | tr '\n' ' ')
[ -n "$conds" ] && [ "$conds" = "$srcs" ] &&
	ok "skipped without idle page tracking: ConditionPathExists=| $conds" ||
	bad "conditions '$conds', idle sources '$srcs'"
grep -qx 'StartLimitBurst=[0-9]*' "$unit" && grep -qx 'StartLimitIntervalSec=.*' "$unit" &&
	ok "other failures are retried a bounded number of times" || bad "no start limit"
grep -q '^ExecStart=/usr/bin/idletop --listen ${IDLETOP_LISTEN} $IDLETOP_OPTS$' "$unit" &&
	grep -q '^EnvironmentFile=-/etc/default/idletop$' "$unit" &&
	grep -q '^IDLETOP_LISTEN=127.0.0.1:' "$tmp/root/etc/default/idletop" &&
	ok "unit runs idletop --listen from /etc/default/idletop (127.0.0.1)" ||
	bad "unit or default file"
if ! command -v systemd-analyze > /dev/null; then
	bad "systemd-analyze not found (systemd, vm/deps deb): the unit not verified"
else
	# verify resolves ExecStart= on the host: point it at the packaged binary
	sed "s|/usr/bin/idletop|$tmp/root/usr/bin/idletop|" "$unit" > "$tmp/idletop-exporter.service"
	if systemd-analyze verify --man=no "$tmp/idletop-exporter.service" \
		> "$tmp/verify" 2>&1 && ! grep -qi 'unknown\|invalid\|warn' "$tmp/verify"; then
		ok "systemd-analyze verify"
	else
		bad "systemd-analyze verify:"; cat "$tmp/verify"
	fi
fi
done_
