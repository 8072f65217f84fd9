#!/bin/sh
# Unit test of the serial-console framing: tests/qemu/frame.sh (run here
# under busybox sh, as in a guest) frames a set of awkward files; the log it
# prints is then damaged the ways a serial console damages it (CRLF, kernel
# messages between lines and inside a line, a changed character, a dropped
# line, a truncated log...) and tests/qemu/unframe must bring every good
# block back byte for byte and name precisely what it cannot.
#
#   tests/qemu/frame_test.sh          (work files in build/qemu/frame_test/)
#
# Ends with one line "N passed, N failed"; exit status 0 when none failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/tests/lib/lib.sh"
w=$repo/build/qemu/frame_test
unframe=$here/unframe
rm -rf "$w" && mkdir -p "$w/in" || { echo "frame_test: $w: cannot create" >&2; exit 2; }
cd "$w" || exit 2

if command -v busybox >/dev/null 2>&1; then
	gsh="busybox sh"
else
	gsh=sh
	echo "frame_test: busybox not found: running frame.sh under sh (the guest runs busybox sh)" >&2
fi

# ---- fixtures ---------------------------------------------------------------
printf 'plain line\nback\\slash and @@F marker and @ at\ttab\r\ncarriage\rreturn\n\n\xe9\xff\x80 high bytes\n[    1.234567] looks like a kernel message\n@@F 1234 001 D 000001 00000000 a fake frame line\n' >in/text
awk 'BEGIN { for (i = 1; i <= 30; i++) printf "Field%-10d %8d kB\n", i, i * 1237 }' >in/meminfo
awk 'BEGIN { for (i = 0; i < 600; i++) printf "%c", (i * 7 + 3) % 256 }' >in/binary
printf 'first\nno newline at the end' >in/nonl
: >in/empty
awk 'BEGIN { for (l = 1; l <= 3; l++) { for (i = 0; i < 450 * l; i++) printf "%c", 33 + (i * l) % 90; printf "\n" } }' >in/long
awk 'BEGIN { for (i = 1; i <= 40; i++) printf "[%5d.%06d] driver%d: message number %d\n", i, i * 31, i % 7, i }' >in/dmesg

cat >session.sh <<EOF
. "$here/frame.sh"
cd "$w/in"
frame_begin ftest
frame_file text text
frame_file meminfo meminfo
frame_file binary binary
frame_file nonl nonl
frame_file empty empty
frame_file long long
frame_cmd fails sh -c 'echo out; echo err >&2; exit 3'
frame_cmd dmesg cat dmesg
frame_file unreadable /nonexistent/file
frame_end
EOF
# Blocks: 1 text, 2 meminfo, 3 binary, 4 nonl, 5 empty, 6 long, 7 fails,
# 8 fails.stderr, 9 dmesg, 10 unreadable, 11 unreadable.stderr.
printf 'out\n' >in/fails
printf 'err\n' >in/fails.stderr
all="text meminfo binary nonl empty long fails fails.stderr dmesg"

# A guest log: boot noise, the session over a tty (CRLF), a shell after.
{
	printf 'SeaBIOS (version 1.16)\r\nBooting from ROM...\r\n'
	awk 'BEGIN { for (i = 1; i <= 20; i++) printf "[    0.%06d] boot message %d\r\n", i * 4711, i }'
	$gsh session.sh | sed 's/$/\r/'
	printf '[   12.000000] reboot: Power down\r\n'
} >clean.log
[ -s clean.log ] || { echo "frame_test: the framing produced nothing" >&2; exit 2; }

# ---- damage ---------------------------------------------------------------
# Log line number of block B's line S (S: 6 digits) in clean.log.
lineof() {
	awk -v b="$1" -v s="$2" 'index($0, "@@F ") && substr($0, 10, 3) + 0 == b && substr($0, 16, 6) + 0 == s { print NR; exit }' clean.log
}
# Insert kernel message text K into log line N at byte P (0: line start;
# -1: just before its end): what a printk does to a line being written.
cut_line() { # N P K
	awk -v n="$1" -v p="$2" -v k="$3" '
	NR == n { sub(/\r$/, ""); if (p < 0) p = length($0); printf "%s%s\r\n%s\r\n", substr($0, 1, p), k, substr($0, p + 1); next }
	{ print }'
}
change_char() { # N P: the byte at P of line N becomes another
	awk -v n="$1" -v p="$2" 'NR == n { c = substr($0, p, 1); $0 = substr($0, 1, p - 1) (c == "x" ? "y" : "x") substr($0, p + 1) } { print }'
}
drop_line() { awk -v n="$1" 'NR != n'; }

# run NAME LOG EXPECTED-RC [NAME...]: unframe LOG into out/NAME.
run() {
	t=$1 log=$2 want=$3
	shift 3
	rm -rf "out/$t"
	"$unframe" "$log" "out/$t" "$@" >"out.$t.stdout" 2>"out.$t.err"
	got=$?
	check_eq "$t: unframe exits $want" "$got" "$want" "unframe exits $got: $(head -c 600 "out.$t.err")"
}
# same T NAME...: those blocks came back byte for byte.
same() {
	t=$1; shift
	for b; do
		check_cmd "$t: $b intact" same_file "in/$b" "out/$t/$b"
	done
}
# absent T NAME...: those blocks were not written as good.
absent() {
	t=$1; shift
	for b; do
		if [ ! -e "out/$t/$b" ]; then ok "$t: $b not written"
		else no "$t: $b not written" "written though damaged"; fi
	done
}
# says T TEXT: unframe's stderr holds TEXT.
says() {
	if grep -qF -- "$2" "out.$1.err"; then ok "$1: reports \"$2\""
	else no "$1: reports \"$2\"" "it said: $(head -c 600 "out.$1.err")"; fi
}
# silent T: nothing on stderr.
silent() {
	if [ ! -s "out.$1.err" ]; then ok "$1: reports nothing"
	else no "$1: reports nothing" "it reports: $(head -c 600 "out.$1.err")"; fi
}

sess="session ftest ("
# 1. The clean log: every block, with exit status.
run clean clean.log 0 $all
same clean $all
silent clean
check_eq "clean: fails.rc is 3" "$(cat out/clean/fails.rc 2>/dev/null)" 3
check_cmd "clean: no .rc for a file block" not test -e out/clean/text.rc
if [ -f out/clean/unreadable ] && [ ! -s out/clean/unreadable ] && [ "$(cat out/clean/unreadable.rc 2>/dev/null)" = 1 ] &&
	grep -q 'nonexistent' out/clean/unreadable.stderr 2>/dev/null; then
	ok "clean: an unreadable file: empty block, exit status 1, the message in unreadable.stderr"
else
	no "clean: an unreadable file: empty block, exit status 1, the message in unreadable.stderr" \
		"not reported as such"
fi

# 2. LF only (a log saved without the tty's CR) and CR CR LF.
tr -d '\r' <clean.log >lf.log
run lf lf.log 0 $all
same lf $all
sed 's/\r$/\r\r/' clean.log >crcr.log
run crcr crcr.log 0 $all
same crcr $all

# 3. Kernel messages between lines: after every third line.
awk '{ print } NR % 3 == 0 { printf "[   %d.%06d] usb 1-1: new device %d\r\n", NR, NR * 17, NR }' clean.log >between.log
run between between.log 0 $all
same between $all

# 4. Kernel messages inside lines: in the payload, in the header, inside the
# marker, at the very end, two lines long, and on several lines at once.
k='[   33.123456] random: crng init done'
l=$(lineof 2 5); cut_line "$l" 40 "$k" <clean.log >mid.log
run mid-payload mid.log 0 $all
same mid-payload meminfo
l=$(lineof 9 7); cut_line "$l" 12 "$k" <clean.log >mid.log
run mid-header mid.log 0 $all
same mid-header dmesg
l=$(lineof 1 2); cut_line "$l" 2 "$k" <clean.log >mid.log
run mid-marker mid.log 0 $all
same mid-marker text
l=$(lineof 6 3); cut_line "$l" -1 "$k" <clean.log >mid.log
run mid-end mid.log 0 $all
same mid-end long
l=$(lineof 3 4); cut_line "$l" 30 "$(printf '%s\r\n%s' "$k" '[   33.200000] second line of it')" <clean.log >mid.log
run mid-twolines mid.log 0 $all
same mid-twolines binary
awk 'BEGIN { srand(7) }
index($0, "@@F ") && rand() < 0.5 { sub(/\r$/, ""); p = int(rand() * length($0)); printf "%s[ %4d.%06d] irq %d: nobody cared\r\n%s\r\n", substr($0, 1, p), NR, NR, NR, substr($0, p + 1); next }
{ print }' clean.log >many.log
run mid-many many.log 0 $all
same mid-many $all

# 5. A changed character in a data line: that block is named, with its line
# and the log line; the others come back.
l=$(lineof 2 7); change_char "$l" 40 <clean.log >chg.log
run changed chg.log 1
says changed "block 2 meminfo: line 7 of 30 damaged (log line $l: checksum mismatch)"
absent changed meminfo
same changed text binary nonl empty long fails dmesg
check_cmd "changed: meminfo.partial kept" test -s out/changed/meminfo.partial

# 6. A changed character in a header (the line number, the session tag).
l=$(lineof 9 12); change_char "$l" 21 <clean.log >chg.log
run changed-seq chg.log 1
says changed-seq "block 9 dmesg: line 12 of 40 damaged (log line $l: header unreadable)"
same changed-seq meminfo text long

l=$(lineof 2 9); change_char "$l" 6 <clean.log >chg.log
run changed-tag chg.log 1
says changed-tag "block 2 meminfo: line 9 of 30 damaged (log line $l: "

# 7. A dropped data line.
l=$(lineof 9 3); drop_line "$l" <clean.log >drop.log
run dropped drop.log 1
says dropped "block 9 dmesg: line 3 of 40 missing (dropped between log lines"
absent dropped dmesg
same dropped $(echo "$all" | sed 's/ dmesg//')

# 8. A dropped chunk of a long line (a C line), and two damaged blocks.
l=$(lineof 6 2); drop_line "$l" <clean.log | change_char "$(lineof 1 3)" 35 >two.log
run two two.log 1
says two "block 6 long: line 2 of"
says two "block 1 text: line 3 of"
same two meminfo binary nonl empty fails dmesg

# 9. A lost block end, a lost block begin, a lost session end.
l=$(lineof 2 31); drop_line "$l" <clean.log >noend.log
run noend noend.log 1
says noend "block 2 meminfo: end line missing"
absent noend meminfo
same noend text dmesg
l=$(lineof 2 0); drop_line "$l" <clean.log >nobegin.log
run nobegin nobegin.log 0 $all
same nobegin meminfo
grep -v ' 000 Z 000001 ' clean.log >noz.log
run nosessionend noz.log 1
says nosessionend "$sess"
says nosessionend "end line missing: the guest stopped before frame_end"
same nosessionend $all

# 10. A whole block lost, and the guest dying in the middle of a block.
awk 'index($0, "@@F ") && substr($0, 10, 3) == "004" { next } { print }' clean.log >noblock.log
run noblock noblock.log 1
says noblock "block 4 nonl: missing (no line of it in the log)"
same noblock text meminfo binary empty long dmesg
l=$(lineof 9 20); head -n "$l" clean.log >trunc.log
printf '[   40.000000] Kernel panic - not syncing: Oops\r\n' >>trunc.log
run truncated trunc.log 1 dmesg
says truncated "block 9 dmesg: end line missing (lines 1-20 seen)"
says truncated "end line missing: the guest stopped before frame_end"
says truncated "block dmesg: not good"
same truncated text meminfo binary nonl empty long fails

# 11. A lost newline (two framed lines on one log line) is harmless.
l=$(lineof 2 10)
awk -v n="$l" 'NR == n { sub(/\r$/, ""); printf "%s", $0; next } { print }' clean.log >glued.log
run glued glued.log 0 $all
same glued $all

# 12. Names asked for that the log lacks; two sessions in one log.
run unknown clean.log 1 meminfo nosuchblock
says unknown "block nosuchblock: not in the log"
cat >session2.sh <<EOF
. "$here/frame.sh"
frame_begin second
frame_text extra "one more block"
frame_end
EOF
{ cat clean.log; $gsh session2.sh | sed 's/$/\r/'; } >twosess.log
printf 'one more block\n' >in/extra
run twosessions twosess.log 0 $all extra
same twosessions dmesg extra

# 12b. One session at a time (-s), as a guest's phases are read: a second
# session with a block of the same name as the first's, damaged in a line,
# concerns only itself.
cat >session3.sh <<EOF
. "$here/frame.sh"
frame_begin third
frame_text text "the third session's own text"
frame_text more "and more"
frame_end
EOF
$gsh session3.sh | sed 's/$/\r/' >third.log
l=$(awk 'index($0, "@@F ") && substr($0, 14, 1) == "D" { n++ } n == 1 { print NR; exit }' third.log)
change_char "$l" 40 <third.log >third.bad.log
{ cat clean.log; cat third.bad.log; } >phases.log
# sess NAME SESSION EXPECTED-RC: unframe -s SESSION phases.log into out/NAME
sess() {
	rm -rf "out/$1"
	"$unframe" -s "$2" phases.log "out/$1" >"out.$1.stdout" 2>"out.$1.err"
	got=$?
	check_eq "$1: unframe -s $2 exits $3" "$got" "$3" "unframe exits $got: $(head -c 600 "out.$1.err")"
}
sess first ftest 0
same first $all
silent first
absent first more
sess third third 1
says third "session third ("
check_cmd "third: its own text, not the first session's" not test -e out/third/text
check_eq "third: its intact block" "$(cat out/third/more 2>/dev/null)" "and more"
sess nosess nosuch 1
says nosess "session nosuch: not in the log"

# 12c. Two sessions of one log that draw the same tag (od made to repeat
# itself): unframe names the reuse, not "not in the log"; with FRAME_USED
# (the guest's run.sh sets it) the second session draws again.
cat >sametag.sh <<EOF
od() { # the next line of od.seq (a call runs in a subshell: its count in od.n)
	n=\$((\$(cat "$w/od.n" 2>/dev/null || echo 0) + 1)); echo \$n >"$w/od.n"
	sed -n "\${n}p" "$w/od.seq"
}
. "$here/frame.sh"
frame_begin one
frame_text a "the first session"
frame_end
frame_begin two
frame_text b "the second session"
frame_end
EOF
printf ' ab cd\n ab cd\n 12 34\n' >od.seq
rm -f used.tags od.n
$gsh sametag.sh >sametag.log
"$unframe" -s two sametag.log out/sametag >out.sametag.stdout 2>out.sametag.err
check_eq "one tag drawn twice: unframe -s two exits 1" "$?" 1 "$(head -c 600 out.sametag.err)"
says sametag "session two: its tag abcd was drawn before by session one"
rm -f od.n
FRAME_USED=$w/used.tags $gsh sametag.sh >sametag2.log
"$unframe" -s two sametag2.log out/sametag2 >out.sametag2.stdout 2>out.sametag2.err
check_eq "FRAME_USED: the second session draws a new tag, read apart (exit 0)" "$?" 0 "$(head -c 600 out.sametag2.err)"
check_eq "FRAME_USED: the second session's block" "$(cat out/sametag2/b 2>/dev/null)" "the second session"
check_eq "FRAME_USED: the tags drawn, listed" "$(tr '\n' ' ' <used.tags)" "abcd 1234 "

# 13. Not a framed log at all.
printf 'just a boot\r\n[    1.0] nothing framed\r\n' >none.log
run none none.log 1
says none "no framed output at all"

finish
