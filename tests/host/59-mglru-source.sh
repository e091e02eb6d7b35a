#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# The mglru source, end to end through the idletop binary, over a
# mkfixture tree (hostile cgroup names, one with a newline) turned into a
# stock kernel: no proc/kpageidle, no page_idle bitmap, MGLRU on and a
# sys/kernel/debug/lru_gen written here with different pages for every
# cgroup (a generation 20 s old and the youngest, at a 10 s period):
# - idletop with no source option takes mglru (-b -f json): source,
#   method, the mglru_approximate warning, and each cgroup's own pages
#   (matched by inode) as written, the newline name's too;
# - --mglru-aging is refused with another source (exit 2), --mark-wait
#   with this one (exit 1);
# - a malformed lru_gen: "FILE:LINE: what" on stderr, and batch mode
#   gives up after 5 failures in a row (exit 1).
# About 5 s.
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

R=$dir/root
"$top/build/top/unit/mkfixture" --stock --lru-gen 0x0007 "$R" > /dev/null ||
	{ echo "FAIL: mkfixture"; exit 1; }
rm -f "$R/sys/kernel/mm/page_idle/bitmap"
mkdir -p "$R/sys/kernel/debug"
cg=$R/sys/fs/cgroup
# every cgroup i (find's order): 16 (i + 1) anon pages 20 s old, i + 1
# file pages in the youngest generation; the expectations by inode
python3 - "$cg" "$R/sys/kernel/debug/lru_gen" "$dir/want" <<'EOF' ||
import os, sys
cg, out, want = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
dirs = [cg]
for d, subdirs, _ in os.walk(cg):
    dirs += [os.path.join(d, s) for s in sorted(subdirs)]
with open(out, 'wb') as f, open(want, 'w') as w:
    for i, d in enumerate(dirs):
        rel = d[len(cg):] or b'/'
        f.write(b'memcg %5d %s\n node     0\n' % (i + 1, rel))
        f.write(b' %10d %10d %10d %10d \n' % (1, 30000, 16 * (i + 1), 0))
        f.write(b' %10d %10d %10d %10d \n' % (2, 10000, 0, 0))
        f.write(b' %10d %10d %10d %10d \n' % (3, 0, 0, i + 1))
        w.write('%d %d %d\n' % (os.stat(d).st_ino, 16 * (i + 1), i + 1))
EOF
	{ echo "FAIL: writing lru_gen"; exit 1; }
echo "lru_gen: $(grep -c '^memcg' "$R/sys/kernel/debug/lru_gen") memcgs"

"$idletop" --root "$R" -b -n 1 -f json --period 10 > "$dir/out.json" \
	2> "$dir/err" || { cat "$dir/err"; bad "idletop -b (exit $?)"; }
python3 - "$dir/out.json" "$dir/want" <<'EOF' && ok "auto took mglru; every cgroup's pages and ages as written" || bad "the JSON report"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
want = {int(l.split()[0]): (int(l.split()[1]), int(l.split()[2]))
        for l in open(sys.argv[2])}
assert r['source'] == 'mglru' and r['method'] == 'generations', r['source']
assert [w['id'] for w in r['warnings']] == ['mglru_approximate'], r['warnings']
assert 'within 0.1% of resident' in r['warnings'][0]['message']
seen = 0
for c in r['cgroups']:
    if c['pseudo']:
        raise AssertionError('pages under (unknown)')
    anon, file = want[c['ino']]
    s = c['self']
    # 30 s old generation, the next 10 s: idle for 10 s, 1 cycle
    assert s['anon'] == anon * 4096 and s['idle_anon'] == anon * 4096, c
    assert s['file'] == file * 4096 and s['idle_file'] == 0, c
    seen += 1
assert seen == len(want), (seen, len(want))
print('  %d cgroups checked' % seen)
EOF
grep -qx 'memcg .* /new' "$R/sys/kernel/debug/lru_gen" ||
	bad "the fixture has no cgroup name with a newline"

"$idletop" --root "$R" -b -n 1 --source bitmap --mglru-aging \
	> /dev/null 2> "$dir/err"
rc=$?
[ $rc = 2 ] && grep -q 'mglru-aging is for --source mglru' "$dir/err" &&
	ok "--mglru-aging with --source bitmap: exit 2" ||
	bad "--mglru-aging with --source bitmap: exit $rc: $(cat "$dir/err")"
"$idletop" --root "$R" --mark-wait 1 > /dev/null 2> "$dir/err"
rc=$?
[ $rc = 1 ] && grep -q 'mark-wait marks pages idle' "$dir/err" &&
	ok "--mark-wait on the mglru source: exit 1" ||
	bad "--mark-wait on the mglru source: exit $rc: $(cat "$dir/err")"

printf 'memcg 1 /\n node 0\n 1 0 5\n' > "$R/sys/kernel/debug/lru_gen"
timeout 30 "$idletop" --root "$R" -b -n 1 --period 0.05 > /dev/null \
	2> "$dir/err"
rc=$?
want="$R/sys/kernel/debug/lru_gen:3: expected \" SEQ AGE_MS NR_ANON NR_FILE\""
if [ $rc = 1 ] && [ "$(grep -cF "$want" "$dir/err")" = 5 ] &&
	tail -n 1 "$dir/err" | grep -q 'giving up after 5 failures in a row'; then
	ok "a malformed lru_gen: FILE:LINE, 5 failures in a row, exit 1"
else
	bad "a malformed lru_gen: exit $rc"
	cat "$dir/err"
fi
exit $fail
