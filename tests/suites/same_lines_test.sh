#!/bin/sh
# No two C files share a run of 15 identical lines (tests/lib/same_lines.py:
# whitespace normalised, blank lines and lone braces left out): what two
# files do alike belongs in one place (the workloads': tests/work/wl.c).
# First the check against planted files: two that share 15 lines are caught,
# with both places named, however their blank lines, braces and indentation
# differ; 14 are not, nor 15 within one file. Then the C of tests/, src/ and
# kmod/, any two files of them (and a copy of one of them is caught).
# usage: tests/suites/same_lines_test.sh   Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
T=$(mktemp -d /tmp/same-lines.XXXXXX) || exit 2
trap 'rm -rf "$T"' EXIT
same() { python3 tests/lib/same_lines.py "$@"; }

# lines FROM TO [INDENT]: distinct statements, numbered FROM to TO
lines() {
	i=$1
	while [ "$i" -le "$2" ]; do
		printf '%sv[%d] = f(%d, "%d");\n' "${3:-}" "$i" "$i" "$i"
		i=$((i + 1))
	done
}

# a.c: 15 shared lines (20-34) among its own; b.c: the same 15, indented,
# spaced, with blank lines and lone braces between them.
{ lines 1 5; lines 20 34; lines 6 9; } >"$T/a.c"
{
	lines 100 102
	lines 20 24 '	'
	printf '\n{\n'
	lines 25 29 '        ' | sed 's/ = /   =   /'
	printf '}\n};\n\n'
	lines 30 34 ' '
	lines 103 104
} >"$T/b.c"
out=$(same "$T"); rc=$?
check_eq "15 shared lines: found, exit 1" "$rc $out" \
	"1 same_lines: $T/a.c:6-20 and $T/b.c:4-23 share 15 lines"

# 14 shared lines are not a run of 15
{ lines 1 5; lines 20 33; lines 6 9; } >"$T/a.c"
out=$(same "$T"); rc=$?
check_eq "14 shared lines: none, exit 0" "$rc $out" "0 "
# nor is a run that a line of another breaks
{ lines 1 5; lines 20 26; lines 200 200; lines 27 34; } >"$T/a.c"
out=$(same "$T"); rc=$?
check_eq "15 shared lines with another between: none, exit 0" "$rc $out" "0 "
# a file alone repeats what it likes; a header counts as C
{ lines 20 34; lines 20 34; } >"$T/a.c"
rm -f "$T/b.c"
out=$(same "$T"); rc=$?
check_eq "15 lines twice in one file: none, exit 0" "$rc $out" "0 "
lines 20 34 >"$T/a.c"
lines 20 34 >"$T/b.h"
out=$(same "$T" | sed "s|$T/||g"); rc=$?
check_eq "a header sharing 15 lines with a .c file: found" "$out" \
	"same_lines: a.c:1-15 and b.h:1-15 share 15 lines"
out=$(same "$T/nosuch" 2>&1); rc=$?
check_eq "a path that is not there: exit 2, named" "$rc $out" \
	"2 same_lines: $T/nosuch: no such file or folder"

# The project's own C.
out=$(same tests src kmod); rc=$?
check_eq "tests/, src/ and kmod/: no two C files share 15 lines" "$rc" 0 "$out"
# and it reads them: a copy of one beside them is caught
rm -f "$T"/*
cp tests/work/wl.c "$T/copy.c"
out=$(same tests src kmod "$T/copy.c" | grep -c "^same_lines: tests/work/wl.c:.* and $T/copy.c:")
check_eq "a copy of tests/work/wl.c beside them: caught" "$out" 1
finish
