#!/bin/sh
# The manual page (src/exmap-mini.1): clean under mandoc's lint, the same
# options and views as -h, and installed by make install.
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
mandoc -T lint "$MAN" >"$T/lint" 2>&1
check_eq "mandoc -T lint: clean" "$? $(wc -c <"$T/lint")" "0 0" "$(head -3 "$T/lint")"

"$EXMAP" -h >"$T/help"
# -h: the option letters of its "  -X" lines, and the views under "views:"
sed -n 's/^  -\([A-Za-z]\) .*/\1/p; s/^  -\([A-Za-z]\)$/\1/p; s/^  --\([a-z]*\) .*/-\1/p; s/^  --\([a-z]*\)$/-\1/p' \
	"$T/help" | sort -u >"$T/help.opts"
awk '/^views:/ { v = 1; next } /^options:/ { v = 0 } v && /^  [a-z]/ { print $1 }' "$T/help" |
	sort -u >"$T/help.views"
# the page: .It Fl X in the options list, .It Cm VIEW in the views list
sed -n 's/^\.It Fl \([A-Za-z-][a-z]*\).*/\1/p' "$MAN" | sort -u >"$T/man.opts"
awk '/^The views:/ { v = 1 } /^The options:/ { v = 0 } v && /^\.It Cm / { print $3 }' "$MAN" |
	sort -u >"$T/man.views"
check_cmd "the page's options are -h's ($(wc -l <"$T/help.opts"))" same_file "$T/help.opts" "$T/man.opts"
check_cmd "the page's views are -h's ($(wc -l <"$T/help.views"))" same_file "$T/help.views" "$T/man.views"
lists_read() {	# the lists compared are what they should be, not empty
	within 10 "$(wc -l <"$T/help.opts")" "" && within 5 "$(wc -l <"$T/help.views")" ""
}
check_cmd "-h's options and views were read (10 and 5 at least)" lists_read

make -s install DESTDIR="$T/root" PREFIX=/usr >"$T/install" 2>&1
check_eq "make install: the binary and the page" \
	"$(cd "$T/root" 2>/dev/null && find . -type f | sort | tr '\n' ' ')" \
	"./usr/bin/exmap-mini ./usr/share/man/man1/exmap-mini.1 " "$(cat "$T/install")"
finish
