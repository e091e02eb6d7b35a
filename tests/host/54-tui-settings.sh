#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# The settings file ($XDG_CONFIG_HOME/idletop/idletoprc) as htop handles
# htoprc, in a host tmux over a mkfixture tree (no kernel needed):
# - written on q only after a change of settings in the TUI (u), never
#   on a plain q, and never with the command line's --fields;
# - a symlink there is ignored with a warning and not written through;
# - a FIFO there does not hang the start;
# - a missing $XDG_CONFIG_HOME is not made (only its idletop/ would be);
# - as root, an $XDG_CONFIG_HOME of another user's (sudo -E) gets nothing;
# - run set-uid root by nobody, not even root's own directory gets it.
# The finer rules (size cap, owners, the merge) are tests/unit/test_rc.c's.
set -u
TMUX_PREFIX=idletop-rc
. "$(dirname "$0")/tmux-lib"	# top idletop mkfixture dir tm n S ok bad fail

"$mkfixture" "$dir/root" || { echo "FAIL: mkfixture"; exit 1; }
rc=$XDG_CONFIG_HOME/idletop/idletoprc
has() { tm capture-pane -p -t "$S" | grep -qE "$1"; }

# start [VAR=VALUE...] [-- ARGS...]: idletop in a fresh server, its table up
start() {
	local envs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	tm kill-server 2> /dev/null
	n=$((n + 1)) S=$TMUX_PREFIX-$$-$n
	tm new-session -d -x 100 -y 24 -s "$S" \
		"env LANG=C.UTF-8 TERM=screen ${envs[*]} $idletop --root $dir/root --period 600 --first-window 0 $*; sleep 600" ||
		{ bad "tmux new-session"; return 1; }
	until_ok 10 has '^NAME' || bad "no table"
}
# units KIB: u until the header says so
units() {
	local i
	for i in 1 2 3 4 5; do
		has "units: $1\\]" && return 0
		tm send-keys -t "$S" u
		until_ok 2 has "units: $1\\]" && return 0
	done
	bad "units never became $1"
}
ident() { stat -c '%i %Y %s' "$1" 2> /dev/null; }	# a rewrite changes the inode

# --- q alone writes nothing; a change is written; --fields never is -------
start -- --fields resident
quit
[ ! -e "$XDG_CONFIG_HOME/idletop" ] && ok "q without a change: nothing written, no idletop/ made" ||
	bad "q without a change wrote $(ls -R "$XDG_CONFIG_HOME")"
start -- --fields resident
units MiB
quit
if grep -qx 'units=MiB' "$rc" 2> /dev/null && ! grep -qx 'columns=resident' "$rc" &&
   [ "$(stat -c %a "$XDG_CONFIG_HOME/idletop")" = 700 ]; then
	ok "u then q: units saved, the columns the defaults' (not --fields resident), idletop/ 0700"
else
	bad "u then q with --fields resident: $(tr '\n' ' ' < "$rc" 2> /dev/null)"
fi
before=$(ident "$rc")
cp "$rc" "$dir/rc.saved"
start -- --fields idle
quit
[ "$(ident "$rc")" = "$before" ] && cmp -s "$rc" "$dir/rc.saved" &&
	ok "--fields idle then q: the file untouched (same inode, bytes)" ||
	bad "--fields idle then q rewrote the file: $(tr '\n' ' ' < "$rc")"

# --- a symlink: ignored with a warning, not written through ----------------
printf 'units=GiB\n' > "$dir/outside"
rm "$rc" && ln -s "$dir/outside" "$rc"
start
until_ok 5 has 'idletoprc: a symbolic link: ignored' &&
	ok "a symlinked rc file: a warning on the status line" ||
	bad "a symlinked rc file: no warning"
has 'units: auto\]' && ok "a symlinked rc file is not read" ||
	bad "a symlinked rc file was read (units GiB)"
units KiB
quit
[ -L "$rc" ] && [ "$(cat "$dir/outside")" = units=GiB ] &&
	ok "a symlinked rc file is not written through, nor replaced" ||
	bad "the symlink: $(ls -l "$rc"), outside: $(cat "$dir/outside")"

# --- a FIFO: the start does not wait for a writer -------------------------
rm "$rc" && mkfifo "$rc"
start
until_ok 5 has 'idletoprc: not a regular file: ignored' &&
	ok "a FIFO rc file: ignored at once, with a warning" ||
	bad "a FIFO rc file: no warning within 5 s"
quit
rm "$rc"

# --- a missing XDG_CONFIG_HOME is not made ---------------------------------
start "XDG_CONFIG_HOME=$dir/nothere"
units KiB
quit
if [ ! -e "$dir/nothere" ] && has 'settings not saved: .*/nothere: No such file'; then
	ok "a missing XDG_CONFIG_HOME is not made (settings not saved, said so)"
else
	bad "a missing XDG_CONFIG_HOME: $(ls -d "$dir/nothere" 2>&1)"
fi

# --- root with another user's XDG_CONFIG_HOME (sudo -E) writes nothing ------
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$dir/user/config" && chown -R 1000:1000 "$dir/user"
	start "XDG_CONFIG_HOME=$dir/user/config"
	units KiB
	quit
	if [ -z "$(ls -A "$dir/user/config")" ] && has 'settings not saved: .*owned by uid 1000'; then
		ok "root, XDG_CONFIG_HOME of uid 1000: nothing written, said so"
	else
		bad "root wrote into uid 1000's config: $(ls -lR "$dir/user/config")"
	fi
	# a set-uid root copy run by nobody: an XDG_CONFIG_HOME of root's
	# (nobody's choice of environment) is neither read nor written
	cp "$idletop" "$dir/idletop-suid" && chmod 4755 "$dir/idletop-suid" &&
		chmod 755 "$dir" && mkdir "$dir/rootcfg" ||
		bad "setting up a set-uid copy"
	idletop="setpriv --reuid=65534 --regid=65534 --clear-groups $dir/idletop-suid" \
		start "XDG_CONFIG_HOME=$dir/rootcfg"
	units KiB
	quit
	[ -z "$(ls -A "$dir/rootcfg")" ] &&
		ok "set-uid (uid 65534, euid 0): no settings file written" ||
		bad "set-uid idletop wrote $(ls -R "$dir/rootcfg")"
else
	echo "skip: root with another user's XDG_CONFIG_HOME, set-uid (need root)"
fi
exit $fail
