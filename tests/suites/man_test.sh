#!/bin/sh
# The manual page (src/exmap-mini.1): clean under mandoc's lint; its
# SYNOPSIS, options, views and figures those of -h (-h is made from the
# tables of views and options, src/views.c and src/cli.c); README's column
# legend -h's columns; every environment
# variable src/ reads and every exit code src/exmap.h defines in it; every
# column of every CSV the program prints named in it; installed by make
# install. (README's usage block against -h: tests/suites/integration.sh.)
# Environment: EXMAP (build/exmap-mini). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=${EXMAP:-build/exmap-mini}
MAN=src/exmap-mini.1
T=$(mktemp -d /tmp/exmap-man.XXXXXX) || exit 2
trap 'rm -rf "$T"' EXIT

if ! command -v mandoc >/dev/null; then
	no "mandoc" "not installed (toolchain/setup test installs it)"
	finish
fi
mandoc -T lint -W warning "$MAN" >"$T/lint" 2>&1
check_eq "mandoc -T lint -W warning: clean" "$? $(wc -c <"$T/lint")" "0 0" "$(head -3 "$T/lint")"

# sect NAME: the page's source lines of section NAME (.Sh NAME up to the next .Sh)
sect() {
	awk -v s=".Sh $1" '$0 == s { p = 1; next } /^\.Sh / { p = 0 } p' "$MAN"
}
# block SUB: the first list of subsection SUB (.Ss SUB, then up to its .El)
block() {
	awk -v s=".Ss $1" '$0 == s { p = 1; next } p && /^\.El/ { exit } p' "$MAN"
}
# counted NAME FILE LO: FILE has LO lines at least (what is compared was read)
counted() {
	within "$3" "$(wc -l <"$2")" "" || return 1
}

"$EXMAP" -h >"$T/help"
# -h: the option letters of its "  -X" lines, and the views under "views:"
sed -n 's/^  -\([A-Za-z]\) .*/\1/p; s/^  -\([A-Za-z]\)$/\1/p; s/^  --\([a-z]*\) .*/-\1/p; s/^  --\([a-z]*\)$/-\1/p' \
	"$T/help" | sort -u >"$T/help.opts"
awk '/^views:/ { v = 1; next } /^options:/ { v = 0 } v && /^  [a-z]/ { print $1 }' "$T/help" |
	sort -u >"$T/help.views"
# the page: .It Fl X in its Options list, .It Cm VIEW in its Views list
block Options | sed -n 's/^\.It Fl \([A-Za-z-][a-z]*\).*/\1/p' | sort -u >"$T/man.opts"
block Views | awk '/^\.It Cm / { print $3 }' | sort -u >"$T/man.views"
check_cmd "the page's options are -h's ($(wc -l <"$T/help.opts"))" same_file "$T/help.opts" "$T/man.opts"
check_cmd "the page's views are -h's ($(wc -l <"$T/help.views"))" same_file "$T/help.views" "$T/man.views"
lists_read() {
	counted opts "$T/help.opts" 10 && counted views "$T/help.views" 5
}
check_cmd "-h's options and views were read (10 and 5 at least)" lists_read

# SYNOPSIS: the page as mandoc renders it, one form a line, against -h's
# usage (its lines up to "views:"), spaces squeezed in both
forms() {
	tr -s ' \n' '  ' | sed 's/^ *//; s/ *$//; s/ exmap-mini /\nexmap-mini /g'
	echo
}
mandoc -T ascii -O width=400 "$MAN" | sed 's/.\x08//g' |
	awk '/^SYNOPSIS/ { p = 1; next } /^[A-Z]/ { p = 0 } p' | forms >"$T/man.synopsis"
awk '/^views:/ { exit } { print }' "$T/help" | sed '1s/^usage: //' | forms >"$T/help.synopsis"
check_cmd "the page's SYNOPSIS is -h's usage ($(wc -l <"$T/help.synopsis") forms)" \
	same_file "$T/help.synopsis" "$T/man.synopsis"
check_cmd "-h's usage was read (5 forms)" counted forms "$T/help.synopsis" 5

# the figures: -h's "columns" lines (head, CSV name), the page's FIGURES list
awk '/^columns/ { p = 1; next } /^[a-z]/ { p = 0 } p { print $1, $2 }' "$T/help" | sort >"$T/help.figs"
sect FIGURES | awk '/^\.Bl/ { n++ } n == 1 && /^\.It [A-Z]+ Cm / { print $2, $4 }' | sort >"$T/man.figs"
check_cmd "the page's figures are -h's ($(wc -l <"$T/help.figs"))" same_file "$T/help.figs" "$T/man.figs"
check_cmd "-h's figures were read (8)" counted figures "$T/help.figs" 8

# README: beside its example report, each of the eight columns a line
awk '/^The columns, each process.s:$/ { p = 1; next } p && /^    [A-Z]/ { print $1 }
	p && /^[^ ]/ { exit }' README.md | sort >"$T/readme.legend"
awk '{ print $1 }' "$T/help.figs" | sort >"$T/help.heads"
check_cmd "README's example report: each of -h's $(wc -l <"$T/help.heads") columns explained, a line each" \
	same_file "$T/help.heads" "$T/readme.legend"

# environment: every getenv("X") in src/, and nothing more, in ENVIRONMENT
grep -oh 'getenv("[A-Za-z_0-9]*")' src/*.c | sed 's/getenv("\(.*\)")/\1/' | sort -u >"$T/src.env"
sect ENVIRONMENT | awk '/^\.It Ev / { print $3 }' | sort -u >"$T/man.env"
check_cmd "ENVIRONMENT names what src/ reads ($(tr '\n' ' ' <"$T/src.env"))" same_file "$T/src.env" "$T/man.env"
check_cmd "src/'s getenv calls were read (2 at least)" counted env "$T/src.env" 2

# exit status: src/exmap.h's EX_ codes, and nothing more, in EXIT STATUS
sed -n 's/^[[:space:]]*EX_[A-Z]* = \([0-9]*\),.*/\1/p' src/exmap.h | sort -u >"$T/src.exit"
sect 'EXIT STATUS' | awk '/^\.It [0-9]+$/ { print $2 }' | sort -u >"$T/man.exit"
check_cmd "EXIT STATUS has src/exmap.h's codes ($(tr '\n' ' ' <"$T/src.exit"))" same_file "$T/src.exit" "$T/man.exit"
check_cmd "src/exmap.h's exit codes were read (5)" counted exit "$T/src.exit" 5

# CSV: each column of each view's header row is named in the page's CSV
# section (a Cm word there, or one of the eight figures)
sect CSV | awk '/^\.(It|Cm) / { for (i = 2; i <= NF; i++) print $i }' | tr -d ',:;.' |
	sort -u >"$T/man.csvwords"
awk '{ print $2 }' "$T/help.figs" >>"$T/man.csvwords"
sort -u -o "$T/man.csvwords" "$T/man.csvwords"
# csv NAME ARGS...: the header row of exmap-mini -c ARGS, a column a line
csv() {
	_name=$1
	shift
	"$EXMAP" -c "$@" 2>"$T/csv.err" | head -n 1 | tr ',' '\n' >"$T/csv.$_name"
	if [ ! -s "$T/csv.$_name" ]; then
		no "CSV of $_name: a header row" "$(head -3 "$T/csv.err")"
		return
	fi
	_missing=$(sort -u "$T/csv.$_name" | comm -23 - "$T/man.csvwords" | tr '\n' ' ')
	check_eq "CSV of $_name: its $(wc -l <"$T/csv.$_name") columns in the page" "$_missing" "" \
		"not in the page's CSV section: $_missing"
}
csv elf elf "$EXMAP"
if [ "$(id -u)" -eq 0 ]; then
	csv procs -p $$ procs
	csv files -p $$ files
	csv maps -p $$ maps $$
	csv sections -p $$ sections "$(readlink /proc/$$/exe)"
	csv symbols -p $$ symbols "$(readlink /proc/$$/exe)"
	csv ram -p $$ ram
	csv dmabuf -p $$ dmabuf
	csv cgroups -p $$ cgroups
	"$EXMAP" -p $$ dump >"$T/a.cap" 2>/dev/null
	csv diff diff "$T/a.cap" "$T/a.cap"
	csv captures -l "$T/a.cap" captures
	"$EXMAP" -p $$ watch 0.2 3 >"$T/w.log" 2>/dev/null
	csv trend -l "$T/w.log" trend
else
	no "CSV of the views that scan" "need root (the page's CSV section unchecked for them)"
fi

make -s install DESTDIR="$T/root" PREFIX=/usr >"$T/install" 2>&1
check_eq "make install: the binary and the page" \
	"$(cd "$T/root" 2>/dev/null && find . -type f | sort | tr '\n' ' ')" \
	"./usr/bin/exmap-mini ./usr/share/man/man1/exmap-mini.1 " "$(cat "$T/install")"
finish
