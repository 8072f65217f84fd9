# tests/qemu/frame.sh: send results from a qemu guest over its serial console
# in a form the host can check line by line (tests/qemu/unframe reads it).
# Sourced by the guest's test scripts under busybox sh:
#
#   . /test/frame.sh
#   frame_begin smoke                    start a session
#   frame_cmd uname uname -r             block "uname": the command's stdout
#                                        (stdin is /dev/null), its exit status,
#                                        and its stderr as block "uname.stderr"
#                                        when not empty; returns the status
#   frame_file meminfo /proc/meminfo     block "meminfo": a file, read once (a
#                                        /proc file cannot change under it);
#                                        if unreadable: empty, with the exit
#                                        status and "meminfo.stderr"
#   frame_text note "some words"         block "note": the arguments, a line each
#   frame_end                            end the session (lists every block)
#
# Binary content (any NUL byte) is sent as base64 and decoded by the host.
# Block names: letters, digits, . _ - (at most 64, not starting with "."),
# each once per session. The functions use globals named _f*: do not call
# them from inside a command given to frame_cmd.
#
# Needs only busybox: sh, awk, md5sum, base64, tail, tr, wc, od.
#
# Wire format: one framed line per at most FRAME_MAX bytes of payload:
#
#   @@F TTTT BBB K SSSSSS CCCCCCCC PAYLOAD
#
#   TTTT     session tag (4 hex digits, random per session)
#   BBB      block number in the session (000: the session's own lines)
#   K        S session begin (payload: session name)
#            B block begin (payload: block name)
#            D a chunk of data that ends a line (the newline is not sent)
#            C a chunk of data that does not end a line (long lines are cut
#              into chunks; a file's last line without newline ends in C)
#            E block end (payload: name= lines= md5= enc= rc= stderr=)
#            Z session end (payload: blocks=N and the block names)
#   SSSSSS   line number in the block: B is 0, data 1..N, E is N+1; S 0, Z 1
#   CCCCCCCC checksum of "TTTT BBB K SSSSSS PAYLOAD": h = (h*257 + byte + 1)
#            mod 2^31-1 over its bytes, in hex
#   PAYLOAD  bytes 0x20-0x7e as themselves except "\" and "@"; every other
#            byte as \xHH, so that no payload holds the marker "@@F "
#
# md5= is the md5 of the block's whole content (the file's bytes), checked
# after reassembly. Kernel messages may land between or inside framed lines;
# the host repairs a line cut by one, and reports what it cannot repair.

FRAME_MAX=${FRAME_MAX:-80}
FRAME_TAG=
FRAME_N=0
FRAME_NAMES=
FRAME_TMP=${TMPDIR:-/tmp}/frame.$$
FRAME_USED=${FRAME_USED:-}

# The emitter: mode=one prints one line (kind, blk, seq, text); otherwise it
# frames its input as block blk (name, md5, enc, rc, nonl, err from -v).
FRAME_AWK='
function ck(s,   i, n, h) {
	h = 0; n = length(s)
	for (i = 1; i <= n; i++) h = (h * 257 + ORD[substr(s, i, 1)] + 1) % 2147483647
	return h
}
function emit(kind, seq, text,   h) {
	h = sprintf("%s %03d %s %06d", tag, blk, kind, seq)
	printf "@@F %s %08x %s\n", h, ck(h " " text), text
}
function esc(s,   i, n, r) {
	r = ""; n = length(s)
	for (i = 1; i <= n; i++) r = r ESC[substr(s, i, 1)]
	return r
}
function out(line, nl,   i, n) {
	n = length(line)
	if (n == 0) { emit("D", ++seq, ""); return }
	for (i = 1; i <= n; i += max)
		emit((i + max > n && nl) ? "D" : "C", ++seq, esc(substr(line, i, max)))
}
BEGIN {
	for (i = 1; i < 256; i++) {
		c = sprintf("%c", i); ORD[c] = i
		ESC[c] = (i >= 32 && i < 127 && c != "\\" && c != "@") ? c : sprintf("\\x%02x", i)
	}
	if (mode == "one") { emit(kind, seq, text); exit }
	seq = 0
	emit("B", 0, name)
}
NR > 1 { out(prev, 1) }
{ prev = $0 }
END {
	if (mode == "one") exit
	if (NR > 0) out(prev, !nonl)
	emit("E", seq + 1, "name=" name " lines=" seq " md5=" md5 " enc=" enc " rc=" rc " stderr=" err)
}'

_frame_one() { # KIND BLK SEQ TEXT
	awk -v mode=one -v tag="$FRAME_TAG" -v kind="$1" -v blk="$2" -v seq="$3" -v text="$4" "$FRAME_AWK" </dev/null
}

_frame_name_ok() {
	case $1 in
	''|.*|*[!A-Za-z0-9._-]*) echo "frame: $1: bad block name (letters, digits, . _ -)" >&2; return 1 ;;
	esac
	case " $FRAME_NAMES " in
	*" $1 "*) echo "frame: $1: block name already used in this session" >&2; return 1 ;;
	esac
	[ ${#1} -le 64 ] || { echo "frame: $1: block name too long" >&2; return 1; }
}

frame_begin() { # NAME
	_frame_name_ok "${1:-session}" || return 2
	# A tag no earlier session drew when FRAME_USED names a file (the guest's
	# run.sh does: one per boot, where the phases' sessions share a log):
	# two sessions under one tag would read as one, its blocks in conflict.
	_fb_try=0
	while :; do
		FRAME_TAG=$(od -An -N2 -tx1 /dev/urandom 2>/dev/null | tr -dc 0-9a-f)
		[ ${#FRAME_TAG} -eq 4 ] || FRAME_TAG=$(awk -v n=$_fb_try \
			'BEGIN { srand(); for (i = 0; i < n; i++) rand(); printf "%04x", int(rand() * 65536) }')
		_fb_try=$((_fb_try + 1))
		[ -n "$FRAME_USED" ] && [ $_fb_try -lt 64 ] && grep -qx "$FRAME_TAG" "$FRAME_USED" 2>/dev/null || break
	done
	[ -z "$FRAME_USED" ] || echo "$FRAME_TAG" >>"$FRAME_USED"
	FRAME_N=0
	FRAME_NAMES=
	_frame_one S 0 0 "${1:-session}"
}

# _frame_block NAME FILE RC ERR: frame FILE (a snapshot: read once, no
# longer changing) as the next block.
_frame_block() {
	[ -n "$FRAME_TAG" ] || frame_begin session
	_fb_f=$2 _fb_enc=text _fb_nonl=0
	_fb_md5=$(md5sum <"$_fb_f"); _fb_md5=${_fb_md5%% *}
	if [ "$(tr -d '\000' <"$_fb_f" | wc -c)" -ne "$(wc -c <"$_fb_f")" ]; then
		base64 "$_fb_f" >"$FRAME_TMP.b64"
		_fb_f=$FRAME_TMP.b64 _fb_enc=base64
	elif [ -s "$_fb_f" ] && [ -n "$(tail -c 1 "$_fb_f")" ]; then
		_fb_nonl=1
	fi
	FRAME_N=$((FRAME_N + 1))
	FRAME_NAMES="$FRAME_NAMES $1"
	awk -v tag="$FRAME_TAG" -v blk="$FRAME_N" -v name="$1" -v md5="$_fb_md5" \
		-v enc="$_fb_enc" -v rc="$3" -v err="$4" -v nonl="$_fb_nonl" \
		-v max="$FRAME_MAX" "$FRAME_AWK" <"$_fb_f"
	rm -f "$FRAME_TMP.b64"
}

# _frame_run NAME SHOWRC CMD [ARG...]: run CMD, frame its stdout as block
# NAME with its exit status (or "-" when SHOWRC is 0 and CMD succeeded), then
# its stderr, if any, as block NAME.stderr. Returns CMD's exit status.
_frame_run() {
	_fr_name=$1 _fr_always=$2
	shift 2
	_frame_name_ok "$_fr_name" || return 2
	_frame_name_ok "$_fr_name.stderr" || return 2
	"$@" </dev/null >"$FRAME_TMP.out" 2>"$FRAME_TMP.err"
	_fr_rc=$?
	_fr_err=0
	[ -s "$FRAME_TMP.err" ] && _fr_err=1
	_fr_show=$_fr_rc
	[ $_fr_always = 0 ] && [ $_fr_rc = 0 ] && _fr_show=-
	_frame_block "$_fr_name" "$FRAME_TMP.out" $_fr_show $_fr_err
	[ $_fr_err = 1 ] && _frame_block "$_fr_name.stderr" "$FRAME_TMP.err" - 0
	rm -f "$FRAME_TMP.out" "$FRAME_TMP.err"
	return $_fr_rc
}

# frame_cmd NAME CMD [ARG...]: returns the command's exit status.
frame_cmd() {
	_fc_name=$1; shift
	_frame_run "$_fc_name" 1 "$@"
}

# frame_file NAME FILE: a file that cannot be read comes as an empty block
# with cat's exit status and its message in NAME.stderr.
frame_file() {
	_frame_run "$1" 0 cat "$2"
}

# frame_text NAME TEXT...: the arguments, one a line.
_frame_print() { shift; printf '%s\n' "$@"; }
frame_text() {
	_frame_run "$1" 0 _frame_print "$@"
}

frame_end() {
	[ -n "$FRAME_TAG" ] || frame_begin session
	_frame_one Z 0 1 "blocks=$FRAME_N$FRAME_NAMES"
	FRAME_TAG=
}
