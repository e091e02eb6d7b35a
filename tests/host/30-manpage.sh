#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage: host
#
# docs/idletop.1 stays in step with idletop:
#  - every option of `idletop --help` (long and short) is a tag in the man
#    page's OPTIONS section, and every tag there is in --help;
#  - every key label of top/keys.c's table (the table the TUI dispatches
#    through and its help screen lists) is a tag in INTERACTIVE COMMANDS,
#    and every key named there is in the table;
#  - every field of `idletop --fields=help` (top/fields.c's registry, the
#    one the view, the text output and the help screen use) is a tag of
#    FIELDS, with its title, and every tag there is a field;
#  - every metric family that -f openmetrics (the exporter's output) gives
#    over a mkfixture tree is named in OUTPUT;
#  - the page renders without a single groff warning (groff -ww, and
#    `man --warnings -l` where man-db is installed);
#  - `make install DESTDIR=... PREFIX=/usr` installs idletop and the page.
# Needs gcc, make, groff and the ncurses headers (the build of idletop).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
page=$top/docs/idletop.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok()  { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

[ -r "$page" ] || { echo "FAIL: $page is missing"; exit 1; }
command -v groff > /dev/null || { echo "FAIL: groff not found (Debian package groff)"; exit 1; }
make -s -C "$top/top" > "$tmp/build.log" 2>&1 ||
	{ echo "FAIL: make -C top"; cat "$tmp/build.log"; exit 1; }
idletop=$top/top/idletop

# Tag lines (the line after .TP) of one .SH section, with the font and
# character escapes that can appear in option and key names undone, the
# macro name and quotes dropped: ".BR \-n \", \" \-\-iterations =\fIN\fR"
# becomes "-n ,  --iterations =N".
tags() {
	awk -v want="$1" '
		/^\.SH / { sec = substr($0, 5); gsub(/"/, "", sec); next }
		sec != want { next }
		/^\.TP/ { tp = 1; next }
		tp { print; tp = 0 }
	' "$page" | sed -E 's/\\f[BIRP]//g; s/\\-/-/g; s/\\\(ha/^/g; s/\\e/\\/g;
		s/\\&//g; s/^\.[A-Z]+ ?//; s/"//g'
}

# --- options -------------------------------------------------------------
"$idletop" --help > "$tmp/help" || bad "idletop --help exited $?"
# "  -b, --batch   text" / "      --period=SECONDS   text": the option
# column ends at two spaces.
grep -E '^ {2,6}-' "$tmp/help" | sed -E 's/^ +//; s/ {2,}.*//' |
	tr ',' '\n' | sed -E 's/^ +//; s/=.*//' | grep -E '^--?[[:alnum:]]' |
	sort -u > "$tmp/help.opts"
tags OPTIONS | tr ' ,=' '\n\n\n' | grep -E '^(--[[:alnum:]][[:alnum:]-]*|-[[:alnum:]])$' |
	sort -u > "$tmp/man.opts"
[ -s "$tmp/help.opts" ] || bad "no options found in idletop --help"
[ -s "$tmp/man.opts" ] || bad "no options found in the OPTIONS section of docs/idletop.1"
missing=$(comm -23 "$tmp/help.opts" "$tmp/man.opts" | tr '\n' ' ')
extra=$(comm -13 "$tmp/help.opts" "$tmp/man.opts" | tr '\n' ' ')
[ -z "$missing" ] || bad "in idletop --help but not in docs/idletop.1 OPTIONS: $missing"
[ -z "$extra" ] || bad "in docs/idletop.1 OPTIONS but not in idletop --help: $extra"
[ -z "$missing$extra" ] && ok "OPTIONS matches --help ($(wc -l < "$tmp/help.opts") options)"

# --- keys ----------------------------------------------------------------
if [ -r "$top/top/keys.c" ] && [ -r "$top/top/keys.h" ]; then
	cat > "$tmp/keys_list.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "keys.h"
/* Every distinct label of the key table, one per line. */
int main(void)
{
	size_t i, j;

	for (i = 0; i < keys_count; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(keys_table[j].label, keys_table[i].label))
				break;
		if (j == i)
			puts(keys_table[i].label);
	}
	return 0;
}
C
	if gcc -std=gnu11 -D_GNU_SOURCE -I"$top/top" -o "$tmp/keys_list" \
		"$tmp/keys_list.c" "$top/top/keys.c" > "$tmp/keys.log" 2>&1; then
		"$tmp/keys_list" | sort -u > "$tmp/table.keys"
		tags "INTERACTIVE COMMANDS" | tr ' ,' '\n\n' | grep -v '^$' |
			sort -u > "$tmp/man.keys"
		missing=$(comm -23 "$tmp/table.keys" "$tmp/man.keys" | tr '\n' ' ')
		extra=$(comm -13 "$tmp/table.keys" "$tmp/man.keys" | tr '\n' ' ')
		[ -z "$missing" ] || bad "keys in top/keys.c but not in docs/idletop.1 INTERACTIVE COMMANDS: $missing"
		[ -z "$extra" ] || bad "keys in docs/idletop.1 INTERACTIVE COMMANDS but not in top/keys.c: $extra"
		[ -z "$missing$extra" ] &&
			ok "INTERACTIVE COMMANDS matches top/keys.c ($(wc -l < "$tmp/table.keys") keys)"
	else
		bad "cannot build a lister of top/keys.c's table"; cat "$tmp/keys.log"
	fi
else
	bad "no top/keys.c or top/keys.h: the key table cannot be checked"
fi

# --- fields --------------------------------------------------------------
"$idletop" --fields=help | sed -nE 's/^  ([a-z_]+) +([^ ]+) .*/\1 (\2)/p' |
	sort > "$tmp/help.fields"
tags FIELDS | sed -E 's/ +/ /g; s/ $//' | sort > "$tmp/man.fields"
if [ -s "$tmp/help.fields" ] && cmp -s "$tmp/help.fields" "$tmp/man.fields"; then
	ok "FIELDS matches --fields=help ($(wc -l < "$tmp/help.fields") fields)"
else
	bad "FIELDS of docs/idletop.1 differs from idletop --fields=help:"
	diff "$tmp/help.fields" "$tmp/man.fields"
fi

# --- metrics: every family the exporter serves is in OUTPUT --------------
if make -s -C "$top/top" all "$top/build/top/unit/mkfixture" > "$tmp/fx.log" 2>&1 &&
	"$top/build/top/unit/mkfixture" "$tmp/fx" > /dev/null &&
	"$idletop" --root "$tmp/fx" -b -n 1 -f openmetrics --period 0.1 \
		> "$tmp/om" 2> "$tmp/om.err"; then
	sed -nE 's/^# TYPE ([a-z_]+) .*/\1/p' "$tmp/om" | sort -u > "$tmp/families"
	awk '/^\.SH / { sec = substr($0, 5) } sec == "OUTPUT"' "$page" > "$tmp/output"
	missing=$(while read -r f; do
		grep -qF "$f" "$tmp/output" || echo "$f"
	done < "$tmp/families")
	if [ -s "$tmp/families" ] && [ -z "$missing" ]; then
		ok "OUTPUT names all $(wc -l < "$tmp/families") metric families the exporter serves"
	else
		bad "metric families not in OUTPUT of docs/idletop.1: ${missing:-none served}"
	fi
else
	bad "idletop -f openmetrics over a fixture"; cat "$tmp/fx.log" "$tmp/om.err"
fi

# --- rendering -----------------------------------------------------------
groff -ww -man -Tutf8 "$page" > /dev/null 2> "$tmp/groff.err"
if [ -s "$tmp/groff.err" ]; then
	bad "groff -ww -man -Tutf8 docs/idletop.1 warns:"; cat "$tmp/groff.err"
else
	ok "groff -ww renders docs/idletop.1 without warnings"
fi
if man --version 2>/dev/null | grep -q '^man'; then
	MANWIDTH=80 man --warnings -l "$page" > /dev/null 2> "$tmp/man.err"
	if [ -s "$tmp/man.err" ]; then
		bad "man --warnings -l docs/idletop.1 warns:"; cat "$tmp/man.err"
	else
		ok "man --warnings -l renders docs/idletop.1 without warnings"
	fi
else
	bad "man-db's man not found (vm/deps test): man --warnings not run"
fi

# --- make install --------------------------------------------------------
dest=$tmp/dest
if make -s -C "$top" install DESTDIR="$dest" PREFIX=/usr > "$tmp/install.log" 2>&1; then
	if [ -x "$dest/usr/bin/idletop" ] &&
	   "$dest/usr/bin/idletop" --version | grep -q '^idletop ' &&
	   cmp -s "$page" "$dest/usr/share/man/man1/idletop.1"; then
		ok "make install DESTDIR=... PREFIX=/usr: usr/bin/idletop, usr/share/man/man1/idletop.1"
	else
		bad "make install DESTDIR=$dest PREFIX=/usr did not install usr/bin/idletop and usr/share/man/man1/idletop.1:"
		(cd "$dest" 2>/dev/null && find . | sort)
	fi
	left=$(find "$dest" -type f ! -path "$dest/usr/bin/idletop" ! -path "$dest/usr/share/man/man1/idletop.1")
	[ -z "$left" ] || bad "make install wrote more than expected: $left"
else
	bad "make install DESTDIR=... PREFIX=/usr failed:"; cat "$tmp/install.log"
fi

exit $fail
