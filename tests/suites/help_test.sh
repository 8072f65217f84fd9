#!/bin/sh
# Every build's -h lists exactly the views and options it runs: for each
# build (this machine's; PICTURES=0, LOAD=0, BROWSE=0; x86_64 as a board,
# with DMABUF=0 and CGROUPS=0 as arm64's and riscv64's; each board build
# under qemu-user, and arm64's with DMABUF=1), each view and option of the table
# below that its -h lists is run (it must get past the command line: exit
# 0 or 1, or browse asking for a terminal; a 32-bit board's scan under
# qemu-user stops at its page source, which the emulated process's
# pagemap is not), and each it does not list is
# tried (it must be refused with the one "left out of this build" line,
# exit 2). A view or option -h lists that the table lacks fails: the table
# is every one there is.
# Environment: EXMAP (build/exmap-mini: it makes the capture and the watch
# log the views read), HELP_BUILDS (the builds: PATH or QEMU:PATH; by
# default every one make test builds). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=${EXMAP:-build/exmap-mini}
HELP_BUILDS=${HELP_BUILDS:-"build/exmap-mini build/nopictures/exmap-mini build/noload/exmap-mini
	build/nobrowse/exmap-mini build/x86_64/exmap-mini qemu-arm-static:build/arm/exmap-mini
	qemu-aarch64-static:build/arm64/exmap-mini qemu-aarch64-static:build/arm64-dmabuf/exmap-mini
	qemu-mips-static:build/mips/exmap-mini
	qemu-mipsel-static:build/mipsel/exmap-mini qemu-riscv64-static:build/riscv64/exmap-mini"}
T=$(mktemp -d /tmp/exmap-help.XXXXXX) || exit 2
sleep 600 &
P=$!
trap 'kill $P 2>/dev/null; rm -rf "$T"' EXIT
EXE=$(readlink "/proc/$P/exe")
CAP=$T/a.cap
LOG=$T/w.log
"$EXMAP" -p "$P" dump >"$CAP" 2>"$T/err" || { no "a capture to read" "$(cat "$T/err")"; finish; }
"$EXMAP" -p "$P" watch 0.2 3 >"$LOG" 2>"$T/err" || { no "a watch log to read" "$(cat "$T/err")"; finish; }

# kind; name; what a build without it names refusing it (or another, after
# a comma); its arguments
#   view: listed under -h's views; word: VIEW WORD, a variant, listed as
#   [WORD] on VIEW's line; form: listed in the synopsis as NAME; opt: listed
#   under -h's options
cat >"$T/table" <<EOF
view;procs;procs;-p $P procs
view;files;files;-p $P files
view;maps;maps;-p $P maps $P
view;sections;sections;-p $P sections $EXE
view;symbols;symbols;-p $P symbols $EXE
view;elf;elf;elf $EXE
view;dump;dump;-p $P dump
view;diff;diff;diff $CAP $CAP
word;diff html;diff ... html;diff $CAP $CAP html
view;browse;browse;-p $P browse
view;ram;ram;-p $P ram
view;folded;folded;-p $P folded
view;html;html;-p $P html
form;html|trend;html,-l;-l $LOG html
view;captures;captures;-l $CAP captures
view;trend;trend;-l $LOG trend
view;metrics;metrics;-p $P metrics
view;watch;watch;-p $P watch 0.1 2
word;watch metrics;watch ... metrics;-p $P -o $T/m.prom watch 0.1 2 metrics
view;dmabuf;dmabuf;-p $P dmabuf
view;cgroups;cgroups;-p $P cgroups
opt;-a;-a;-a -p $P symbols $EXE
opt;-c;-c;-c -p $P procs
opt;-k;-k;-k -p $P procs
opt;-q;-q;-q -p $P procs
opt;-b;-b;-b auto -p $P procs
opt;-p;-p;-p $P procs
opt;-P;-P;-p $P -P $P procs
form;[-P name|pid];trend;-l $LOG -P sleep trend
opt;-F;-F;-p $P -F $EXE procs
opt;-s;-s;-s name -p $P procs
opt;-n;-n;-n 1 -p $P procs
opt;-m;-m;-m 4G -p $P procs
opt;-t;-t;-t 100000 -p $P procs
opt;-l;-l;-l $CAP procs
opt;-S;-l;-l $CAP -S / procs
opt;-w;trend;-l $LOG -w 0 trend
opt;-o;-o;-o $T/o.txt -p $P procs
opt;--max;--max;-o $T/o.log --max 1M -p $P watch 0.1 2
opt;--pids;--pids;--pids -p $P metrics
opt;--label;--label;--label board=b1 -p $P metrics
opt;--budget;--budget;--budget $EXE=1G -p $P procs
form;[--budget name=size/h];trend;-l $LOG --budget $EXE=1G/h trend
opt;-h;-h;-h
opt;-V;-V;-V
EOF

for b in $HELP_BUILDS; do
	case $b in *:*) qemu=${b%%:*} bin=${b#*:} ;; *) qemu= bin=$b ;; esac
	if [ ! -x "$bin" ]; then
		no "$bin: built" "make test builds it"
		continue
	fi
	# shellcheck disable=SC2086 # no qemu: nothing
	run() { $qemu "$bin" "$@"; }
	run -h >"$T/h" 2>"$T/h.err"
	check_eq "$bin -h: exit 0, nothing on stderr" "$? $(wc -c <"$T/h.err")" "0 0"
	awk '/^views:/ { exit } { print }' "$T/h" | tr -s ' \n' '  ' >"$T/syn"
	awk '/^views:/ { v = 1; next } /^options:/ { exit } v && /^  [a-z]/' "$T/h" >"$T/views"
	sed -n 's/^  \(--*[A-Za-z]*\).*/\1/p' "$T/h" | sed '/^-$/d' >"$T/opts"
	# listed KIND NAME: whether -h lists it
	listed() {
		case $1 in
		view) awk '{ print $1 }' "$T/views" | grep -qx -- "$2" ;;
		word) grep "^  ${2%% *} " "$T/views" | grep -qF "[${2#* }]" ;;
		form) grep -qF -- "$2" "$T/syn" ;;
		opt) grep -qx -- "$2" "$T/opts" ;;
		esac
	}
	# what -h lists, every one in the table
	missing=$( { awk '{ print "view;" $1 }' "$T/views"; sed 's/^/opt;/' "$T/opts"; } |
		while read -r k; do grep -qF -- "$k;" "$T/table" || echo "${k#*;}"; done | tr '\n' ' ')
	check_eq "$bin: every view and option -h lists is in the table" "$missing" ""
	nrun=0 nout=0 bad=
	while IFS=';' read -r kind name who args; do
		# shellcheck disable=SC2086 # the arguments, a word each
		run $args >"$T/out" 2>"$T/err" </dev/null
		rc=$?
		last=$(tail -n 1 "$T/err")
		if listed "$kind" "$name"; then
			nrun=$((nrun + 1))
			case "$rc $last" in
			[0134]" "* | *"needs a terminal on stdin and stdout"*) ;;
			*"running under an emulator such as qemu-user?")
				[ -n "$qemu" ] || bad="$bad; listed $name: exit $rc, '$last'" ;;
			*) bad="$bad; listed $name: exit $rc, '$last'" ;;
			esac
		else
			nout=$((nout + 1))
			case "$rc $last" in
			"2 exmap-mini: ${who%%,*}: left out of this build (made with "*) ;;
			"2 exmap-mini: ${who#*,}: left out of this build (made with "*) ;;
			*) bad="$bad; unlisted $name: exit $rc, '$last'" ;;
			esac
		fi
	done <"$T/table"
	check_eq "$bin: the $nrun views and options -h lists run, the $nout it does not are left out" \
		"${bad#; }" ""
	check_cmd "$bin: the table was read (40 rows at least)" within 40 $((nrun + nout)) ""
done
finish
