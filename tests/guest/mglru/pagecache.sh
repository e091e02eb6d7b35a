#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# With MGLRU on, page cache pages read with read() or written with write()
# after being marked idle must read not idle, untouched ones idle, also
# after forced aging.  Covers folio_mark_accessed().  Run on ext4
# (/mnt/scratch) and tmpfs (the test's cwd under /tmp); on ext4, write()
# clears the idle flag in __filemap_get_folio(FGP_WRITE) and never relied
# on folio_mark_accessed(), on tmpfs both read() and write() do.
# timeout: 180
. "$(dirname "$0")/lib"
. "$(dirname "$0")/../common"
need_scratch
mglru_setup
rc=0
echo "== ext4: /mnt/scratch"
mglru_idle file /mnt/scratch/mglru-idle.$$ || rc=1
rm -f /mnt/scratch/mglru-idle.$$
echo "== tmpfs: $(pwd)"
mglru_idle file ./mglru-idle.tmpfs || rc=1
rm -f ./mglru-idle.tmpfs
exit $rc
