#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# With MGLRU on, anonymous pages written after being marked idle must read
# not idle after the MGLRU page table walker (aging) has cleared their
# accessed bits; untouched pages must still read idle.  Covers
# walk_pte_range().
# timeout: 120
. "$(dirname "$0")/lib"
mglru_setup
mglru_idle anon
