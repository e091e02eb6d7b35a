#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# make -C top check-layers (part of make check) passes on the tree and
# fails on each kind of wrong-way edge planted in a copy of top/: a
# screen including a scanner header, directly and through ui.h; a model
# header reaching the tree reader's; a printer calling the tree reader
# through a prototype of its own (no include to see); a screen reading
# a file itself; the scanner's two paths of a slice using each other; a
# new file that belongs to no layer.  Each failure must name the file and
# the edge.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok()  { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

fresh() {
	rm -rf "$tmp/top" && mkdir "$tmp/top" &&
	cp -p "$top"/top/*.[ch] "$top/top/Makefile" "$top/top/check-layers.sh" \
		"$tmp/top/"
}
layers() {
	make -s -C "$tmp/top" -j2 BUILD="$tmp/build" CFLAGS=-O0 \
		check-layers > "$tmp/log" 2>&1
}

# plant WHAT EXPECTED: layers fail, and say EXPECTED (a fixed string)
plant() {
	if layers; then
		bad "$1: check-layers passed"; cat "$tmp/log"
	elif ! grep -qF -- "$2" "$tmp/log"; then
		bad "$1: no '$2' in:"; cat "$tmp/log"
	else
		ok "$1: $2"
	fi
}

fresh
if layers && grep -q '^check-layers: ok' "$tmp/log"; then
	ok "the tree keeps its layers"
else
	bad "check-layers fails on the tree:"; cat "$tmp/log"
fi

fresh
sed -i 's/^#include "ui.h"$/#include "scan.h"\n&/' "$tmp/top/ui_help.c"
plant "screen includes scan.h" "ui_help.c (screen) reaches scan.h (scanner)"

fresh
sed -i 's/^#include "fields.h"$/#include "cgroup.h"\n&/' "$tmp/top/ui.h"
plant "ui.h includes cgroup.h" "ui_tree.c (screen) reaches cgroup.h (kernel)"

fresh
sed -i 's/^#include "cgdata.h"$/#include "acct.h"\n&/' "$tmp/top/stats.h"
plant "stats.h includes acct.h" "stats.h (model) reaches acct.h (scanner)"

fresh
cat >> "$tmp/top/batch_text.c" <<'EOF'

long cg_tree_find(const void *t, uint64_t ino);
long batch_planted(const void *t);
long batch_planted(const void *t)
{
	return cg_tree_find(t, 1);
}
EOF
plant "printer calls the tree reader" \
	"batch_text.c (output) uses cg_tree_find of cgroup.c (kernel)"

fresh
cat >> "$tmp/top/ui_detail.c" <<'EOF'

char *read_text_file(const char *path, size_t *len);
char *detail_planted(void);
char *detail_planted(void)
{
	return read_text_file("/proc/meminfo", NULL);
}
EOF
plant "screen reads a file" \
	"ui_detail.c (screen) uses read_text_file of util.c (kernel)"

fresh
sed -i 's/^#include "scan_folio.h"$/&\n#include "scan_pfn.h"/' "$tmp/top/scan_folio.c"
plant "the folio path includes the per-PFN one" \
	"scan_folio.c (scanner) reaches scan_pfn.h (scanner)"

fresh
cat >> "$tmp/top/scan_pfn.c" <<'EOF'

ssize_t scan_folio_range(struct scanner *sc, uint64_t pfn, size_t n,
			 char *err, size_t errlen);
ssize_t pfn_planted(struct scanner *sc);
ssize_t pfn_planted(struct scanner *sc)
{
	return scan_folio_range(sc, 0, 1, NULL, 0);
}
EOF
plant "the per-PFN path calls the folio one" \
	"scan_pfn.c (scanner) uses scan_folio_range of scan_folio.c (scanner)"

fresh
printf '// SPDX-License-Identifier: GPL-2.0\nint planted;\n' > "$tmp/top/planted.c"
plant "a file in no layer" "planted.c is in no layer"

exit $fail
