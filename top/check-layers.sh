#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-layers.sh SRCDIR OBJDIR: idletop's layers (docs/design.md,
# "Layers"), checked on what the compiler and the linker see:
#  - includes: `$CC -MM` of every .c and .h lists the headers it reaches,
#    directly or through others; each must be in a layer its file may use;
#  - calls: every symbol an object file leaves undefined (nm -u) that
#    another idletop object defines must be defined in a layer it may use
#    (a call through a prototype written by hand is caught here);
#  - inside a layer, files that must stay apart: the scanner's two paths
#    of a slice (per PFN, folio records) share only count_page();
#  - every .c and .h in SRCDIR belongs to a layer, so a new file is placed.
# Prints each wrong-way edge; exit 1 if there is one.  CC, CPPFLAGS and
# CFLAGS as for the build; NM defaults to nm.

src=${1:?usage: check-layers.sh SRCDIR OBJDIR}
obj=${2:?usage: check-layers.sh SRCDIR OBJDIR}
CC=${CC:-cc}
NM=${NM:-nm}

# layer: its files.  From the bottom: plain types and strings; the kernel's
# files and the cgroup tree; the scanner; the model (reports, the field
# registry, selection, labels, processes, the engine's face); the engine's
# inside; the command line; the printers and the exporter; the screens.
layer_files() {
	case $1 in
	base)	echo config.h cgdata.h fmt.h fmt.c version.h ;;
	kernel)	echo kpageidle_abi.h kpf.h idlesrc.h idlesrc.c \
		     idlesrc_folio.c idlesrc_warn.c mglru.h mglru.c \
		     cgroup.h cgroup.c \
		     cgfiles.c util.h util.c ;;
	scanner) echo acct.h acct.c pace.h pace.c scan.h scan.c \
		     scan_count.h scan_count.c scan_pfn.h scan_pfn.c \
		     scan_folio.h scan_folio.c scan_mglru.h scan_mglru.c ;;
	model)	echo stats.h stats.c fields.h fields.c fields_fmt.c \
		     select.h select.c ident.h ident.c procs.h procs.c \
		     series.h series.c \
		     engine.h engine.c ;;
	engine)	echo engine_impl.h ;;
	config)	echo options.h options.c ;;
	output)	(cd "$src" && echo batch.h batch_*.c metrics.h http*.h http*.c \
		     selfstat.h selfstat.c) ;;
	screen)	(cd "$src" && echo ui.h ui*.c keys.h keys.c tty.h tty.c) ;;
	main)	echo main.c ;;
	esac
}
LAYERS="base kernel scanner model engine config output screen main"

# The layers a file may use.  A header's reach is narrower than its
# layer's .c files': the model's headers show the model alone, so that
# what a screen or a printer includes never brings the scanner or the
# kernel's ABI with it.
may_use() {
	case $1 in
	*.h)	case $2 in
		base)	 echo base ;;
		kernel)	 echo base kernel ;;
		scanner) echo base kernel scanner ;;
		model)	 echo base model ;;
		engine)	 echo base kernel scanner model engine ;;
		config)	 echo base config ;;
		output)	 echo base model output ;;
		screen)	 echo base model config screen ;;
		esac ;;
	*)	case $2 in
		base)	 echo base ;;
		kernel)	 echo base kernel ;;
		scanner) echo base kernel scanner ;;
		model)	 echo base kernel scanner model ;;
		config)	 echo base kernel model config ;;
		output)	 echo base model config output ;;
		screen)	 echo base model config screen ;;
		main)	 echo "$LAYERS" ;;
		esac ;;
	esac
}

# Files one file may use beyond its layers: the engine's inside; util.c
# for the clocks of the TUI's loop and of the exporter, the settings
# file's own reading and writing and the exporter's /proc/self.
extra() {
	case $1 in
	engine.c) echo engine_impl.h ;;
	ui.c | ui_rc.c | http*.c | selfstat.c) echo util.h util.c ;;
	esac
}

# Files one file may not use although its layer may.
apart() {
	case $1 in
	scan_pfn.c | scan_pfn.h) echo scan_folio.h scan_folio.c ;;
	scan_folio.c | scan_folio.h) echo scan_pfn.h scan_pfn.c ;;
	esac
}

srcabs=$(cd "$src" && pwd) || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/map"
for l in $LAYERS; do
	for f in $(layer_files "$l"); do
		echo "$f $l" >> "$tmp/map"
	done
done

layer_of() {
	awk -v f="$1" '$1 == f { print $2; exit }' "$tmp/map"
}

# allowed FILE: the files FILE may use, one a line
allowed() {
	for l in $(may_use "$1" "$(layer_of "$1")"); do
		layer_files "$l"
	done | tr ' ' '\n' | grep -vxF "$(apart "$1" | tr ' ' '\n')"
	extra "$1" | tr ' ' '\n'
}

rc=0
for p in "$src"/*.c "$src"/*.h; do
	f=${p##*/}
	if [ -z "$(layer_of "$f")" ]; then
		echo "check-layers: $f is in no layer (top/check-layers.sh)"
		rc=1
	fi
done

# includes
for p in "$src"/*.c "$src"/*.h; do
	f=${p##*/}
	l=$(layer_of "$f")
	if [ -z "$l" ] || [ "$l" = main ]; then
		continue
	fi
	allowed "$f" > "$tmp/ok"
	# shellcheck disable=SC2086
	deps=$($CC $CPPFLAGS $CFLAGS -std=gnu11 -D_GNU_SOURCE -MM -x c \
		"$p" 2>"$tmp/err") || {
		echo "check-layers: $CC -MM $f failed:"; cat "$tmp/err"; rc=1
		continue
	}
	# shellcheck disable=SC1003 # a backslash, not a quote
	for d in $(echo "$deps" | tr -d '\\' | tr ' ' '\n' | sed 1d); do
		case $d in	# only SRCDIR's own headers, not the system's
		*/*) [ "${d%/*}" = "$src" ] || [ "${d%/*}" = "$srcabs" ] ||
			continue ;;
		esac
		h=${d##*/}
		[ "$h" = "$f" ] && continue
		if ! grep -qx "$h" "$tmp/ok"; then
			echo "check-layers: $f ($l) reaches $h" \
			     "($(layer_of "$h"))"
			rc=1
		fi
	done
done

# calls: undefined symbols of each object against the object defining them
for p in "$src"/*.c; do
	f=${p##*/}
	[ -f "$obj/${f%.c}.o" ] || {
		echo "check-layers: no $obj/${f%.c}.o (make it first)"; rc=1
		continue
	}
	$NM -g --defined-only "$obj/${f%.c}.o" |
		awk -v f="$f" 'NF == 3 { print $3, f }' >> "$tmp/defs"
done
for p in "$src"/*.c; do
	f=${p##*/}
	l=$(layer_of "$f")
	if [ -z "$l" ] || [ "$l" = main ] || [ ! -f "$obj/${f%.c}.o" ]; then
		continue
	fi
	allowed "$f" > "$tmp/ok"
	$NM -u "$obj/${f%.c}.o" | awk '{ print $NF }' > "$tmp/und"
	awk 'NR == FNR { und[$1] = 1; next } ($1 in und) { print }' \
		"$tmp/und" "$tmp/defs" > "$tmp/uses"
	while read -r sym def; do
		[ "$def" = "$f" ] && continue
		if ! grep -qx "$def" "$tmp/ok"; then
			echo "check-layers: $f ($l) uses $sym of $def" \
			     "($(layer_of "$def"))"
			rc=1
		fi
	done < "$tmp/uses"
done
set -- "$src"/*.c "$src"/*.h
[ $rc = 0 ] && echo "check-layers: ok, $# files"
exit $rc
