# Captures on this machine, a log of several and what is no capture: run
# where it is sourced, by tests/suites/capture_host.sh (after its diff and
# budgets), with tests/lib/lib.sh and that suite's EXMAP, T, TESTS, a.cap
# and b.cap: LOG@N, diff LOG@1 LOG@2 and the captures view; a log whose
# capture lines none check out; files of a capture with no process loaded.

# --- a console session's captures: LOG@N, diff LOG@1 LOG@2, the list -----------
# a.cap and b.cap one after the other, as a console shows them
cat "$T/a.cap" "$T/b.cap" >"$T/ab.cap"
python3 "$TESTS/lib/capwire.py" console --seed 5 "$T/ab.cap" "$T/session.log"
S=$T/session.log
for c in a b; do
	"$EXMAP" -l "$T/$c.cap" -c procs >"$T/$c.alone" 2>/dev/null
	"$EXMAP" -l "$T/$c.cap" files >"$T/$c.files" 2>/dev/null
done
# place WANT(a|b) LABEL ARGS...: loads as that capture alone, exit 0, said nothing
place() {
	want=$1 label=$2
	shift 2
	"$EXMAP" "$@" -c procs >"$T/out" 2>"$T/err"
	check_eq "$label: capture $want's report, exit 0, nothing on stderr" \
		"$? $(cmp -s "$T/out" "$T/$want.alone" && echo same) $(wc -c <"$T/err")" "0 same 0" \
		"$(head -n 2 "$T/err")"
}
place a "-l LOG@1" -l "$S@1"
place b "-l LOG@2" -l "$S@2"
place b "-l LOG@-1" -l "$S@-1"
place a "-l LOG@-2" -l "$S@-2"
place a "-l -@1 (standard input)" -l -@1 <"$S"
"$EXMAP" -l "$S" -c procs >"$T/out" 2>"$T/err"
check_eq "-l LOG of two captures: the last, said as @2 of 2 in one line" \
	"$? $(cmp -s "$T/out" "$T/b.alone" && echo same) $(wc -l <"$T/err") $(grep -c "holds 2 captures: the last, @2 of 2 (log line [0-9]*), is loaded; $S@N loads another" "$T/err")" \
	"0 same 1 1" "$(cat "$T/err")"
"$EXMAP" -a -c diff "$T/a.cap" "$T/b.cap" >"$T/want" 2>/dev/null
"$EXMAP" -a -c diff "$S@1" "$S@2" >"$T/out" 2>"$T/err"
check_eq "diff LOG@1 LOG@2: the diff of the two captures apart, exit 0" \
	"$? $(cmp -s "$T/out" "$T/want" && echo same)" "0 same" "$(cat "$T/err")"
"$EXMAP" -a -c diff -@1 -@2 <"$S" >"$T/out" 2>"$T/err"
check_eq "diff -@1 -@2: both from one log on standard input" \
	"$? $(cmp -s "$T/out" "$T/want" && echo same)" "0 same" "$(cat "$T/err")"
for n in 3 -3; do
	"$EXMAP" -l "$S@$n" >"$T/out" 2>"$T/err"
	check_eq "-l LOG@$n: exit 2, how many captures the log holds" "$? $(cat "$T/err") $(wc -c <"$T/out")" \
		"2 exmap-mini: $S@$n: $S holds 2 captures: @1 to @2, or @-1 (the last) to @-2 0"
done
for n in 0 x 1x; do
	"$EXMAP" -l "$S@$n" >"$T/out" 2>"$T/err"
	check_eq "-l LOG@$n: exit 2, not a place" "$? $(cat "$T/err")" \
		"2 exmap-mini: $S@$n: not a capture's place in $S: @1 is its first, @-1 its last"
done
cp "$T/a.cap" "$T/x@2"
"$EXMAP" -l "$T/x@2" -c procs >"$T/out" 2>"$T/err"
check_eq "a file named x@2 is that file, not a place in x" \
	"$? $(cmp -s "$T/out" "$T/a.alone" && echo same)" "0 same" "$(cat "$T/err")"
# the list: each capture's id, when (v2's chunk 2: time and uptime), where,
# its processes, whole; ids and times as the captures' own lines say
capid() { sed -n 's/^XM begin .* id=\([0-9a-f]*\) .*/\1/p' "$1"; }
captime() { sed -n 's/^XM 2 v time \([0-9]*\)$/\1/p' "$1" | head -n 1; }
capprocs() { sed -n 's/^XM begin .* procs=\([0-9]*\) .*/\1/p' "$1"; }
"$EXMAP" -l "$S" -c captures >"$T/list.csv" 2>"$T/err"
check_eq "captures -c: a row each, their ids, times, processes, whole" \
	"$? $(cut -d, -f1-3,7,10 "$T/list.csv" | tr '\n' ' ')" \
	"0 place,id,time,procs,state 1,$(capid "$T/a.cap"),$(captime "$T/a.cap"),$(capprocs "$T/a.cap"),whole 2,$(capid "$T/b.cap"),$(captime "$T/b.cap"),$(capprocs "$T/b.cap"),whole " \
	"$(cat "$T/err")"
check_cmd "captures -c: the log lines each spans, in order, without overlap" awk -F, \
	'NR > 1 { if ($5 > $6 || $5 <= last) exit 1; last = $6 } END { exit NR != 3 }' "$T/list.csv"
"$EXMAP" -l "$S" captures >"$T/list.txt" 2>"$T/err"
check_eq "captures: text, 80 columns, a header and two rows, how to load one" \
	"$? $(awk 'length($0) > 80' "$T/list.txt" | wc -l) $(grep -c '^ *[12] [0-9a-f]\{16\} .* whole$' "$T/list.txt") $(tail -n 1 "$T/list.txt")" \
	"0 0 2 2 captures; -l LOG@N loads the Nth (@-1 the last, the default)" "$(cat "$T/list.txt" "$T/err")"
# one cut short (after its chunk 5) before the other: the list says which
# and what it lacks; @1 is what arrived of it, exit 4; @2 whole
awk '/^XM 6 / { exit } { print }' "$T/a.cap" >"$T/acut.log"
cat "$T/b.cap" >>"$T/acut.log"
"$EXMAP" -l "$T/acut.log" captures >"$T/list.txt" 2>"$T/err"
check_eq "captures: a capture cut short, damaged, and what it lacks; the next whole" \
	"$? $(grep -c '^ *1 .* damaged$' "$T/list.txt") $(grep -c '^ *2 .* whole$' "$T/list.txt") $(grep -c '^@1: its end line is missing; 5 of its 8 chunks check out$' "$T/list.txt")" \
	"0 1 1 1" "$(cat "$T/list.txt")"
"$EXMAP" -l "$T/acut.log@1" procs >"$T/out" 2>"$T/err"
check_eq "-l LOG@1, cut short by the next capture: exit 4, said, 2 processes" \
	"$? $(grep -c "the next capture begins (log line [0-9]*) before this one's end line: cut short?" "$T/err") $(grep -c '^ *[0-9]* wl ' "$T/out")" \
	"4 1 2" "$(cat "$T/err")"
place b "-l LOG@2 after one cut short" -l "$T/acut.log@2"

# --- not a capture: nothing in it checks out ---------------------------------
# README shows capture lines; none of them checks out: not a capture (2). As
# much as one chunk that checks out is a damaged capture (4).
xm=$(grep -c 'XM ' "$TESTS/../README.md")
"$EXMAP" -l "$TESTS/../README.md" >"$T/out" 2>"$T/err"
check_eq "-l README.md: exit 2, not a capture: its $xm lines with XM, none checks out" \
	"$? $(cat "$T/err") $(wc -c <"$T/out")" \
	"2 exmap-mini: $TESTS/../README.md: not a capture: $xm lines start with XM, none of them checks out 0"
grep -v '^XM \(begin\|end\) ' "$T/a.cap" >"$T/nohead.log"
"$EXMAP" -l "$T/nohead.log" >"$T/out" 2>"$T/err"
check_eq "chunks that check out, no begin or end line: a damaged capture, exit 4" "$? $(cat "$T/err")" \
	"4 exmap-mini: $T/nohead.log: the capture's begin and end lines are both damaged or missing: its parameters are lost"

# --- files when no process loaded: said, not a bare header ---------------------
awk '!/^XM [4-7] /' "$T/a.cap" >"$T/noproc.log"
"$EXMAP" -l "$T/noproc.log" files >"$T/out" 2>/dev/null
check_eq "files of a capture whose 4 processes were all lost: exit 4, the header and why no row" \
	"$? $(sed 1d "$T/out")" "4 (no files: none of the capture's 4 processes loaded)" "$(cat "$T/out")"
