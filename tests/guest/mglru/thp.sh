#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# With MGLRU on, anonymous THPs written after being marked idle must read
# not idle after MGLRU aging has cleared their PMD accessed bits; untouched
# THPs must still read idle.  Covers walk_pmd_range_locked().
# timeout: 120
. "$(dirname "$0")/lib"
thp=/sys/kernel/mm/transparent_hugepage/enabled
[ -r $thp ] || skip "no THP"
mglru_setup
mglru_idle thp
