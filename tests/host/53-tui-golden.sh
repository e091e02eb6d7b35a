#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# Golden screens, tig-style: idletop over a mkfixture tree (no kernel) in a
# host tmux at fixed sizes, keys and mouse reports sent, and the whole
# screen (or, for the mouse, the line it should change) compared with
# the expected text that follows each step here (measured screens once
# cycle 20 is reached, every age bucket filled).  Only what moves on its
# own is normalised (norm()): the numbers of header line 2 (progress, time
# left, cycle, CPU %; the line cut at 36 characters, since the terminal
# cuts it at a place that moves with them), the progress in line 3 before
# the first report, the cycle's length in the idle-time title, the least
# age in cycles beside each idle-time bucket and the temp directory.
# Sizes: 80x24 and 64x20; locales: C.UTF-8 (tree lines, sparklines) and C
# (ASCII, non-ASCII bytes as \xNN).  GOLDEN_UPDATE=DIR writes every actual
# screen to DIR/NAME.txt to paste here after a deliberate change.
set -u
TMUX_PREFIX=idletop-golden
. "$(dirname "$0")/tmux-lib"	# top idletop mkfixture dir tm n S ok bad fail

"$mkfixture" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }

# start COLS ROWS LANG ARGS...: idletop in a fresh server
start() {
	local cols=$1 rows=$2 lang=$3
	shift 3
	tm kill-server 2> /dev/null
	n=$((n + 1)) S=$TMUX_PREFIX-$$-$n
	tm new-session -d -x "$cols" -y "$rows" -s "$S" \
		"env LANG=$lang TERM=screen $idletop --root $dir/root $*; sleep 600" ||
		{ bad "tmux new-session"; return 1; }
}

norm() {
	sed -E "s|$dir|DIR|g" | LC_ALL=C.UTF-8 sed -E '2{s/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g; s/^(.{0,36}).*/\1/}
		s/(idle measuring(…|\.\.\.) )[0-9]+%/\1N%/
		s/(Idle time \(cycle )[0-9.]+[a-z]+\)/\1T)/
		s/(idle for >= .*\(>= )[0-9]+ cycles?\)/\1N cycles)/' | sed -E 's/ +$//'
}

capture() { tm capture-pane -p -t "$S" | norm > "$dir/actual"; }
has() { tm capture-pane -p -t "$S" | grep -qE "$1"; }	# not normalised

# screen NAME: the current screen must be stdin (after norm()).
screen() {
	local name=$1
	cat > "$dir/want"
	until_ok 5 eval 'capture; cmp -s "$dir/want" "$dir/actual"'
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		mkdir -p "$GOLDEN_UPDATE" && cp "$dir/actual" "$GOLDEN_UPDATE/$name.txt"
	fi
	if cmp -s "$dir/want" "$dir/actual"; then
		ok "$name"
	else
		echo "FAIL: $name: screen differs (- expected, + actual):"
		diff -u "$dir/want" "$dir/actual" | tail -n +3
		fail=1
	fi
}

# --- before the first report: 80x24, UTF-8 ---------------------------------
start 80 24 C.UTF-8 --period 600 --first-window 0
until_ok 10 has '^/ +6M'
screen before-report-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
measuring… N%, Nm left period Nm ref
Mem total ?  resident 6M  idle measuring… N%
/   [sort: resident, units: auto]
NAME                       RESIDENT*    FILE     IDLE  IDLE%  WORKSET  TREND
/                                 6M      1M      …      …        …
├─ bad\xff\xfe utf8 \xc2\x        6M      1M      …      …        …
├─ café ✓                         6M      1M      …      …        …
├─ dup\x01                        6M      1M      …      …        …
├─ dup\\x01                       6M      1M      …      …        …
├─ esc\x1b[31mred                 6M      1M      …      …        …
├─ inv�ff                         6M      1M      …      …        …
├─ inv\xfe                        6M      1M      …      …        …
├─ inv\xff                        6M      1M      …      …        …
├─ new\x0aline                    6M      1M      …      …        …
├─ plain.slice                    6M      1M      …      …        …
│  └─ with space                  6M      1M      …      …        …
├─ quote"back\\slash              6M      1M      …      …        …
├─ rtl\xe2\x80\xaeabc             6M      1M      …      …        …
├─ rtl\xe2\x81\xa6iso             6M      1M      …      …        …
└─ zw\xe2\x80\x8bsp               6M      1M      …      …        …


h help  Enter zoom  i details  s sort  \ filter  F5 flat  u units  p freeze  q
EOF
quit

# --- measured, frozen once the sparklines are full: 80x24, UTF-8 ------------
start 80 24 C.UTF-8 --period 0.2 --cpu 100 --idle-buckets 1,2,1h
until_ok 30 has '^cycle ([2-9][0-9]|[1-9][0-9]{2,}):'
tm send-keys -t "$S" Z
screen tree-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
cycle N: N%, Ns left period Ns [FROZ
Mem total ?  resident 60M  idle 60M (100.0%)  working set 0B
/   [sort: resident, units: auto]
NAME                       RESIDENT*    FILE     IDLE  IDLE%  WORKSET  TREND
/                                60M     15M      60M  100.0       0B  ████████
├─ plain.slice                    8M      2M       8M  100.0       0B  ████████
│  └─ with space                  4M      1M       4M  100.0       0B  ████████
├─ bad\xff\xfe utf8 \xc2\x        4M      1M       4M  100.0       0B  ████████
├─ café ✓                         4M      1M       4M  100.0       0B  ████████
├─ dup\x01                        4M      1M       4M  100.0       0B  ████████
├─ dup\\x01                       4M      1M       4M  100.0       0B  ████████
├─ esc\x1b[31mred                 4M      1M       4M  100.0       0B  ████████
├─ inv�ff                         4M      1M       4M  100.0       0B  ████████
├─ inv\xfe                        4M      1M       4M  100.0       0B  ████████
├─ inv\xff                        4M      1M       4M  100.0       0B  ████████
├─ new\x0aline                    4M      1M       4M  100.0       0B  ████████
├─ quote"back\\slash              4M      1M       4M  100.0       0B  ████████
├─ rtl\xe2\x80\xaeabc             4M      1M       4M  100.0       0B  ████████
├─ rtl\xe2\x81\xa6iso             4M      1M       4M  100.0       0B  ████████
└─ zw\xe2\x80\x8bsp               4M      1M       4M  100.0       0B  ████████


h help  Enter zoom  i details  s sort  \ filter  F5 flat  u units  p freeze  q
EOF
# flat view (F5), sorted by name (F6, Home, Enter)
tm send-keys -t "$S" F5 F6 Home Enter
screen flat-by-name-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
cycle N: N%, Ns left period Ns [FROZ
Mem total ?  resident 60M  idle 60M (100.0%)  working set 0B
/   [flat, sort: name, units: auto]
PATH*                       RESIDENT    FILE     IDLE  IDLE%  WORKSET  TREND
/                                60M     15M      60M  100.0       0B  ████████
/bad\xff\xfe utf8 \xc2\x85        4M      1M       4M  100.0       0B  ████████
/café ✓                           4M      1M       4M  100.0       0B  ████████
/dup\x01                          4M      1M       4M  100.0       0B  ████████
/dup\\x01                         4M      1M       4M  100.0       0B  ████████
/esc\x1b[31mred                   4M      1M       4M  100.0       0B  ████████
/inv�ff                           4M      1M       4M  100.0       0B  ████████
/inv\xfe                          4M      1M       4M  100.0       0B  ████████
/inv\xff                          4M      1M       4M  100.0       0B  ████████
/new\x0aline                      4M      1M       4M  100.0       0B  ████████
/plain.slice                      8M      2M       8M  100.0       0B  ████████
/plain.slice/with space           4M      1M       4M  100.0       0B  ████████
/quote"back\\slash                4M      1M       4M  100.0       0B  ████████
/rtl\xe2\x80\xaeabc               4M      1M       4M  100.0       0B  ████████
/rtl\xe2\x81\xa6iso               4M      1M       4M  100.0       0B  ████████
/zw\xe2\x80\x8bsp                 4M      1M       4M  100.0       0B  ████████


h help  Enter zoom  i details  s sort  \ filter  F5 flat  u units  p freeze  q
EOF
# search /plain, details
tm send-keys -t "$S" F5 / p l a i n Enter i
screen detail-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
cycle N: N%, Ns left period Ns [FROZ
Mem total ?  resident 60M  idle 60M (100.0%)  working set 0B
/   [sort: name, units: auto]
cgroup /plain.slice
  resident 8M  (anon 6M, file 2M, shmem 0B)  idle 8M (100.0%)  working set 0B
  memory.current 8M (0.8% of the limit)  PSI some avg10 1.5%  refaults/s 0.0  sw

Idle time (cycle T)
  idle for >= 1.0s   [####################]  8M  (>= N cycles)
  idle for >= 2.0s   [####################]  8M  (>= N cycles)
  idle for >= 1h00m  not reached yet

memory.stat
  anon 4M  file 2M  shmem 1M  file_mapped 4K  unevictable 0B
  active_anon 0B  inactive_anon 0B  active_file 0B  inactive_file 0B
  anon_thp 0B  file_thp 0B  shmem_thp 0B  memory.current 8M
  pressure some 1.50/0.25/0.00  full 0.50/0.00/0.00 (avg10/60/300 %)

Limits
  memory.low 0B  memory.high max  memory.max 1G
  suggested: none for the root and slices

h help  Esc back  u units  p freeze  q quit
EOF
tm send-keys -t "$S" Escape F2
screen columns-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
cycle N: N%, Ns left period Ns [FROZ
Mem total ?  resident 60M  idle 60M (100.0%)  working set 0B
/   [sort: name, units: auto]
Columns: Space shows/hides, F7 [ F8 ] move, Esc or F2 back (saved on exit; --fie
 [x] RESIDENT  resident     user pages on the LRU (before the first cycle: memor
 [x] ANON      anon         anonymous pages
 [x] FILE      file         page cache pages, shmem apart
 [x] IDLE      idle         pages not accessed for at least one cycle
 [x] IDLE%     idle_pct     IDLE of RESIDENT, % ("-": nothing resident)
 [x] WORKSET   working_set  resident minus pages idle for >= --ws-cycles cycles
 [x] HIGH*     sugg_high    suggested memory.high: working set+headroom+kernel
 [x] CURRENT   current      memory.current
 [x] HIGH/MAX  high_max     memory.high / memory.max
 [x] %LIMIT    limit_pct    memory.current of the lower of memory.high and memor
 [x] PSI10     psi          memory.pressure some avg10, %
 [x] REFLT/s   refaults     workingset refaults (anon + file) per second, betwee
 [x] TREND     trend        IDLE% over the last cycles
 [ ] SHMEM     shmem        shmem and tmpfs pages
 [ ] LOW*      sugg_low     suggested memory.low: the working set
 [ ] LOW       low          memory.low
 [ ] HIGH      high         memory.high
 [ ] MAX       max          memory.max
h help  Esc back  u units  p freeze  q quit
EOF
# IDLE two places earlier (F7 [), REACC shown (End: the list scrolls to
# the last hidden entry; Space appends it), back to the tree
tm send-keys -t "$S" Home Down Down Down F7 '[' End Space
screen columns-moved-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
cycle N: N%, Ns left period Ns [FROZ
Mem total ?  resident 60M  idle 60M (100.0%)  working set 0B
/   [sort: name, units: auto]
Columns: Space shows/hides, F7 [ F8 ] move, Esc or F2 back (saved on exit; --fie
 [x] IDLE%     idle_pct     IDLE of RESIDENT, % ("-": nothing resident)
 [x] WORKSET   working_set  resident minus pages idle for >= --ws-cycles cycles
 [x] HIGH*     sugg_high    suggested memory.high: working set+headroom+kernel
 [x] CURRENT   current      memory.current
 [x] HIGH/MAX  high_max     memory.high / memory.max
 [x] %LIMIT    limit_pct    memory.current of the lower of memory.high and memor
 [x] PSI10     psi          memory.pressure some avg10, %
 [x] REFLT/s   refaults     workingset refaults (anon + file) per second, betwee
 [x] TREND     trend        IDLE% over the last cycles
 [x] FLOOR*    sugg_floor   without swap: anon+shmem, the floor of sugg_high
 [ ] SHMEM     shmem        shmem and tmpfs pages
 [ ] LOW*      sugg_low     suggested memory.low: the working set
 [ ] LOW       low          memory.low
 [ ] HIGH      high         memory.high
 [ ] MAX       max          memory.max
 [ ] SWAP      swap         memory.swap.current
 [ ] REACC     reaccess     found accessed this cycle after >= 1 idle cycle
 [ ] KERNEL    kernel       memory.current minus resident (kernel memory)
h help  Esc back  u units  p freeze  q quit
EOF
tm send-keys -t "$S" Escape
screen tree-moved-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
cycle N: N%, Ns left period Ns [FROZ
Mem total ?  resident 60M  idle 60M (100.0%)  working set 0B
/   [sort: name, units: auto]
NAME*                       RESIDENT     IDLE    FILE  IDLE%  WORKSET  TREND
/                                60M      60M     15M  100.0       0B  ████████
├─ bad\xff\xfe utf8 \xc2\x        4M       4M      1M  100.0       0B  ████████
├─ café ✓                         4M       4M      1M  100.0       0B  ████████
├─ dup\x01                        4M       4M      1M  100.0       0B  ████████
├─ dup\\x01                       4M       4M      1M  100.0       0B  ████████
├─ esc\x1b[31mred                 4M       4M      1M  100.0       0B  ████████
├─ inv�ff                         4M       4M      1M  100.0       0B  ████████
├─ inv\xfe                        4M       4M      1M  100.0       0B  ████████
├─ inv\xff                        4M       4M      1M  100.0       0B  ████████
├─ new\x0aline                    4M       4M      1M  100.0       0B  ████████
├─ plain.slice                    8M       8M      2M  100.0       0B  ████████
│  └─ with space                  4M       4M      1M  100.0       0B  ████████
├─ quote"back\\slash              4M       4M      1M  100.0       0B  ████████
├─ rtl\xe2\x80\xaeabc             4M       4M      1M  100.0       0B  ████████
├─ rtl\xe2\x81\xa6iso             4M       4M      1M  100.0       0B  ████████
└─ zw\xe2\x80\x8bsp               4M       4M      1M  100.0       0B  ████████


h help  Enter zoom  i details  s sort  \ filter  F5 flat  u units  p freeze  q
EOF
quit
until_ok 5 test -s "$XDG_CONFIG_HOME/idletop/idletoprc" ||
	bad "no rc file written on exit"

# --- 64 columns, C locale (ASCII), settings from the rc file -----------------
start 64 20 C --period 0.2 --cpu 100
until_ok 30 has '^cycle ([2-9][0-9]|[1-9][0-9]{2,}):'
tm send-keys -t "$S" Z
screen tree-64x20-ascii <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
cycle N: N%, Ns left period Ns [FROZ
Mem total ?  resident 60M  idle 60M (100.0%)  working set 0B
/   [sort: name, units: auto]
NAME*                         RESIDENT     IDLE  IDLE%  WORKSET
/                                  60M      60M  100.0       0B
|- bad\xff\xfe utf8 \xc2\x85        4M       4M  100.0       0B
|- caf\xc3\xa9 \xe2\x9c\x93         4M       4M  100.0       0B
|- dup\x01                          4M       4M  100.0       0B
|- dup\\x01                         4M       4M  100.0       0B
|- esc\x1b[31mred                   4M       4M  100.0       0B
|- inv\xef\xbf\xbdff                4M       4M  100.0       0B
|- inv\xfe                          4M       4M  100.0       0B
|- inv\xff                          4M       4M  100.0       0B
|- new\x0aline                      4M       4M  100.0       0B
|- plain.slice                      8M       8M  100.0       0B
|  `- with space                    4M       4M  100.0       0B
|- quote"back\\slash                4M       4M  100.0       0B
|- rtl\xe2\x80\xaeabc               4M       4M  100.0       0B
h help  Enter zoom  i details  s sort  \ filter  F5 flat  u uni
EOF
quit

# --- mouse (xterm X10 reports, as tmux passes them on), help, sort menu -----
# click X Y / wheel X Y: a button 1 press and release, a wheel-down press,
# at 0-based cell X, Y
xy() { printf '%x %x' $(($1 + 33)) $(($2 + 33)); }
click() { tm send-keys -t "$S" -H 1b 5b 4d 20 $(xy "$1" "$2") 1b 5b 4d 23 $(xy "$1" "$2"); }
wheel() { tm send-keys -t "$S" -H 1b 5b 4d 61 $(xy "$1" "$2"); }
start 80 24 C.UTF-8 --period 600 --first-window 0
until_ok 10 has '^/ +6M'
x=$(tm capture-pane -p -t "$S" | sed -n 5p | awk '{ print index($0, " FILE ") }')
click "$x" 4	# the FILE title (where the rc file's column order put it)
until_ok 5 eval "has '^/   \[sort: file,' && has '^NAME .* FILE\* '" &&
	ok "mouse: a click on a column title sorts by it" ||
	bad "mouse: a click on FILE did not sort by it"
click 5 8	# the third row below /: dup\x01 (equal sizes sort by name)
tm send-keys -t "$S" i
until_ok 5 has '^cgroup /dup\\x01$' &&
	ok "mouse: a click selects the row (i: /dup\\x01)" ||
	bad "mouse: a click on row 8 did not select /dup\\x01"
tm send-keys -t "$S" Escape
wheel 5 8	# three rows down: dup\\x01, esc\x1b[31mred, inv\xef\xbf\xbdff
tm send-keys -t "$S" i
until_ok 5 has '^cgroup /inv.ff$' &&
	ok "mouse: the wheel moves the selection three rows" ||
	bad "mouse: the wheel did not move the selection to /inv\xef\xbf\xbdff"
tm send-keys -t "$S" Escape F6
screen sort-menu-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
measuring… N%, Nm left period Nm ref
Mem total ?  resident 6M  idle measuring… N%
/   [sort: file, units: auto]
Sort by: Enter picks, Esc or F6 back
   NAME      the cgroup (flat view: its path)
   RESIDENT  user pages on the LRU (before the first cycle: memory.stat anon+fil
   ANON      anonymous pages
 * FILE      page cache pages, shmem apart
   SHMEM     shmem and tmpfs pages
   IDLE      pages not accessed for at least one cycle
   IDLE%     IDLE of RESIDENT, % ("-": nothing resident)
   WORKSET   resident minus pages idle for >= --ws-cycles cycles
   LOW*      suggested memory.low: the working set
   HIGH*     suggested memory.high: working set+headroom+kernel
   CURRENT   memory.current
   LOW       memory.low
   HIGH      memory.high
   MAX       memory.max
   HIGH/MAX  memory.high / memory.max
   %LIMIT    memory.current of the lower of memory.high and memory.max, %
   PSI10     memory.pressure some avg10, %
   REFLT/s   workingset refaults (anon + file) per second, between two refreshes
h help  Esc back  u units  p freeze  q quit
EOF
tm send-keys -t "$S" Escape h
screen help-80x24-utf8 <<'EOF'
idletop 0.1   host ?   kernel ?   source kpageidle (read-write)
measuring… N%, Nm left period Nm ref
Mem total ?  resident 6M  idle measuring… N%
/   [sort: file, units: auto]
Keys
  Up k                       move up / scroll up
  Down j                     move down / scroll down
  PgUp ^B                    page up
  PgDn ^F                    page down
  Home g                     first row
  End G                      last row
  Enter Right                zoom into the selected cgroup (it becomes the root)
  Left Backspace             zoom out to the parent cgroup
  Space                      collapse or expand the subtree; chooser: show or hi
  +                          expand the selected subtree
  -                          collapse the selected subtree
  i                          details: idle time, reaccess, memory.stat, limits,
  s >                        sort by the next column
  <                          sort by the previous column
  r                          reverse the sort order
  F6                         sort menu: pick the sort column
  \ F4                       filter cgroups by name (case-insensitive)
  / F3                       search: select the next cgroup whose name matches
Esc back  u units  p freeze  q quit
EOF
quit

# --- a malformed rc file: ignored with a warning, left as it is ---------------
echo "sort=nonsense" >> "$XDG_CONFIG_HOME/idletop/idletoprc"
cp "$XDG_CONFIG_HOME/idletop/idletoprc" "$dir/rc.bad"
start 80 24 C.UTF-8 --period 600 --first-window 0
if until_ok 10 has 'idletop/idletoprc:[0-9]+: not a sortable field'; then
	ok "a malformed rc file: a warning naming the line"
else
	bad "a malformed rc file: no warning"
fi
quit
cmp -s "$dir/rc.bad" "$XDG_CONFIG_HOME/idletop/idletoprc" &&
	ok "a malformed rc file is left as it is" ||
	bad "the malformed rc file was overwritten"

# --- the filter takes UTF-8; Backspace erases a whole character -------------
XDG_CONFIG_HOME=$dir/fresh start 80 24 C.UTF-8 --period 600 --first-window 0
until_ok 10 has '^/ +6M'
tm send-keys -t "$S" F5 '\' c a f é é BSpace Enter
if until_ok 5 has 'filter: café\]' &&
   [ "$(tm capture-pane -p -t "$S" | sed -n '6,/^$/p' | sed '/^$/d' |
	cut -c1-12 | sed 's/ *$//' | tr '\n' '|')" = "/café ✓|" ]; then
	ok "filter: café typed (and a second é erased) shows /café ✓ alone"
else
	bad "filter: café did not show /café ✓ alone"
fi
quit
exit $fail
