#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# vm/build-kernel refuses a series whose patch does not apply, naming the
# patch and showing the failing hunk, and leaves no half-patched tree.
# The source is a stand-in tarball of one file (LINUX_SOURCE_TARBALL):
# what is checked does not depend on the tree, and no guest, kernel build
# or linux-source package is needed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/linux-source-6.1/mm"
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0' '#include <linux/init.h>' \
	'#include <linux/memblock.h>' > "$tmp/src/linux-source-6.1/mm/page_idle.c"
tar -C "$tmp/src" -cf "$tmp/linux-source-6.1.tar" linux-source-6.1 || exit 1
export LINUX_SOURCE_TARBALL=$tmp/linux-source-6.1.tar
mkdir -p "$tmp/repo/vm" "$tmp/repo/kernel-series"
cp "$top/vm/build-kernel" "$tmp/repo/vm/"
cp "$top/kernel-series/config" "$tmp/repo/kernel-series/"
cat > "$tmp/repo/kernel-series/0001-bogus-does-not-apply.patch" <<'PATCH'
--- a/mm/page_idle.c
+++ b/mm/page_idle.c
@@ -1,3 +1,3 @@
-// this line is not in mm/page_idle.c
+// neither is this one
 #include <linux/init.h>
 #include <linux/memblock.h>
PATCH
echo 0001-bogus-does-not-apply.patch > "$tmp/repo/kernel-series/series"
out=$("$tmp/repo/vm/build-kernel" --name bogus --no-build 2>&1)
rc=$?
[ $rc -ne 0 ] || { echo "build-kernel accepted a patch that does not apply"; exit 1; }
echo "$out" | grep -q 'patch 0001-bogus-does-not-apply.patch does not apply' ||
	{ echo "the patch is not named: $out"; exit 1; }
echo "$out" | grep -qF -- '-// this line is not in mm/page_idle.c' ||
	{ echo "the failing hunk is not shown: $out"; exit 1; }
[ ! -e "$tmp/repo/build/kernel/bogus/src" ] && [ ! -e "$tmp/repo/build/kernel/bogus/src.new" ] ||
	{ echo "a half-patched tree was left behind"; exit 1; }

# A series naming a missing file is refused too.
echo 0002-missing.patch >> "$tmp/repo/kernel-series/series"
out=$("$tmp/repo/vm/build-kernel" --name bogus --no-build 2>&1)
echo "$out" | grep -q 'names 0002-missing.patch, which does not exist' ||
	{ echo "missing patch not reported: $out"; exit 1; }
exit 0
