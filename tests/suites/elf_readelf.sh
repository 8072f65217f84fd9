#!/bin/sh
# The ELF reader against readelf, file by file. Both are turned into the same
# plain lines and compared: every section's name, address and size (index 0
# too: readelf shows it as NULL with an empty name, and so do we), every
# segment's offset, address and sizes, every symbol of the first .symtab and
# the first .dynsym (name, value, size and the name of its section), and the
# first GNU build-id.
#
# usage: tests/suites/elf_readelf.sh [-x] FILE...
#   -x: the files must also use extended section numbering (e_shnum 0,
#       e_shstrndx SHN_XINDEX, a SYMTAB_SHNDX table), checked with readelf -h.
# env: EXMAP (build/exmap-mini), READELF (readelf)
# One line per file: "ok   readelf FILE ...", "FAIL readelf FILE: the first
# difference" or "skip readelf FILE: why" (missing, or readelf rejects it).
# Last line: N passed, N failed. Exit status 1 if any failed.
set -u
EXMAP=${EXMAP:-build/exmap-mini}
READELF=${READELF:-readelf}
LC_ALL=C
export LC_ALL
. "$(dirname "$0")/../lib/lib.sh"

xnum=0
if [ "${1:-}" = -x ]; then
	xnum=1
	shift
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/elf_readelf.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# Shared by both sides: numbers as lowercase hex without leading zeros, or as
# decimal strings. Sizes can pass 2^53, where awk's doubles stop being exact,
# so hex is turned into decimal digit by digit.
common='
# Both sides: .symtab first (readelf shows .dynsym first), the build-id last
END {
	for (i = 1; i <= nsym["symtab"]; i++)
		print sym["symtab", i]
	for (i = 1; i <= nsym["dynsym"]; i++)
		print sym["dynsym", i]
	if (bid != "")
		print "B", bid
}
function hexnorm(h) {
	h = tolower(h)
	sub(/^0x/, "", h)
	sub(/^0+/, "", h)
	return h == "" ? "0" : h
}
function hex2dec(h,    i, j, c, d, n, dig, s) {
	h = hexnorm(h)
	n = 1
	dig[1] = 0
	for (i = 1; i <= length(h); i++) {
		c = index("0123456789abcdef", substr(h, i, 1)) - 1
		for (j = 1; j <= n; j++) {
			d = dig[j] * 16 + c
			dig[j] = d % 10
			c = int(d / 10)
		}
		while (c > 0) {
			dig[++n] = c % 10
			c = int(c / 10)
		}
	}
	s = ""
	for (j = n; j >= 1; j--)
		s = s dig[j]
	return s
}
function decnorm(v) {
	sub(/^0+/, "", v)
	return v == "" ? "0" : v
}
# A section symbol with no name of its own: readelf shows its section name.
function symname(type, name, sec) {
	return type == "SECTION" && name == sec ? "" : name
}
'

# readelf -hSlsnW, to lines: S idx name addr size / P idx offset vaddr filesz
# memsz / Y table idx name value size section / B buildid, tab-separated.
readelf_awk=$common'
function trim(s) {
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	return s
}
# What the elf view prints in the section column for readelf'"'"'s Ndx.
function ndxname(n) {
	if (n == "UND" || n == "ABS" || n == "COM")
		return n
	if (n ~ /^[0-9]+$/)
		return (n + 0) in secname ? secname[n + 0] : "[" (n + 0) "]"
	if (n ~ /^bad section index\[/) {
		gsub(/[^0-9]/, "", n)
		return "[" (n + 0) "]"
	}
	return "(special)"	# SCOM, PRC[0xff00] and the like
}
BEGIN { OFS = "\t"; mode = "" }
/^Section Headers:/ { mode = "sec"; next }
/^Program Headers:/ { mode = "seg"; nseg = 0; next }
mode == "seg" && /^$/ { mode = ""; next }
# Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg Align (INTERP adds a line)
mode == "seg" && /^ +[^ ]+ +0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ 0x[0-9a-f]+ / {
	print "P", nseg++, hex2dec($2), hexnorm($3), hex2dec($5), hex2dec($6)
	next
}
/^Key to Flags:/ { mode = ""; next }
/^Symbol table .* contains [0-9]+ entr/ {
	t = $0
	sub(/^Symbol table '"'"'/, "", t)
	sub(/'"'"' contains.*/, "", t)
	mode = ""
	# the first table of each type, as the reader takes
	if (sectype[t] == "SYMTAB" && !seen["symtab"]++)
		{ mode = "sym"; table = "symtab" }
	else if (sectype[t] == "DYNSYM" && !seen["dynsym"]++)
		{ mode = "sym"; table = "dynsym" }
	next
}
# -W puts the build-id at the end of its note'"'"'s line
/^  GNU .*Build ID: [0-9a-f]+$/ {
	if (bid == "") {
		bid = $0
		sub(/.*Build ID: /, "", bid)
	}
	next
}
mode == "sec" && /^ +\[ *[0-9]+\] / {
	line = $0
	sub(/^ +\[ */, "", line)
	idx = line
	sub(/\].*/, "", idx)
	sub(/^[0-9]+\] /, "", line)
	# From the right: Al Inf Lk, Flg (may be empty), ES, Size, Off, Address;
	# what is left is the name, then the type (which may be three words).
	n = split(line, f, " ")
	k = n - 3
	if (f[k] !~ /^[0-9a-f]+$/)
		k--
	size = f[k - 1]
	addr = f[k - 3]
	k -= 4
	rest = line
	# cut the matched tail off the raw line, keeping the name as printed
	for (i = n; i > k; i--)
		sub(/ +[^ ]+ *$/, "", rest)
	if (rest ~ / SYMTAB SECTION INDICES$/) {
		sub(/ SYMTAB SECTION INDICES$/, "", rest)
		type = "SYMTAB_SHNDX"
	} else {
		type = rest
		sub(/.* /, "", type)
		sub(/ *[^ ]+$/, "", rest)
	}
	name = trim(rest)
	if (length(name) >= 4096)	# cut and marked, as symbol names are
		name = substr(name, 1, 4092) "..."
	secname[idx + 0] = name
	if (!(name in sectype))
		sectype[name] = type
	print "S", idx + 0, name, hexnorm(addr), hex2dec(size)
	next
}
mode == "sym" && /^ +[0-9]+: / {
	# Num: Value Size Type Bind Vis [other...] Ndx Name
	j = 7
	if ($j ~ /^\[/) {
		while (j < NF && $j !~ /\]$/)
			j++
		j++
	}
	ndx = $j
	if (ndx == "bad") {	# "bad section index[ 99]": words up to the "]"
		while (j < NF && $j !~ /\]$/)
			ndx = ndx " " $(++j)
	}
	name = $0
	for (i = 1; i <= j; i++)
		sub(/^ *[^ ]+/, "", name)
	sub(/^ /, "", name)
	if (table == "dynsym")
		sub(/@.*/, "", name)	# @VERSION, @@VERSION, (N)
	if (length(name) >= 4096)	# the reader cuts and marks long names
		name = substr(name, 1, 4092) "..."
	size = $3 ~ /^0x/ ? hex2dec($3) : decnorm($3)
	idx = $1
	sub(/:$/, "", idx)
	sec = ndxname(ndx)
	sym[table, ++nsym[table]] = "Y" OFS table OFS idx OFS symname($4, name, sec) OFS \
	    hexnorm($2) OFS size OFS sec
}
'

# exmap-mini -c elf FILE, to the same lines.
exmap_awk=$common'
# Split a CSV record (RFC 4180, one line) into f[1..n]; undo the apostrophe
# that guards a field a spreadsheet would take for a formula.
function csv(line, f,    n, c, i, q, v, guard) {
	n = 0
	i = 1
	while (1) {
		v = ""
		guard = 0
		if (substr(line, i, 1) == "\"") {
			i++
			if (substr(line, i, 1) == "'"'"'" && index("=+-@\t\r", substr(line, i + 1, 1)) > 0) {
				i++
				guard = 1
			}
			while (i <= length(line)) {
				c = substr(line, i, 1)
				if (c == "\"") {
					if (substr(line, i + 1, 1) == "\"") {
						v = v "\""
						i += 2
						continue
					}
					i++
					break
				}
				v = v c
				i++
			}
		} else {
			q = index(substr(line, i), ",")
			if (q == 0) {
				v = substr(line, i)
				i = length(line) + 1
			} else {
				v = substr(line, i, q - 1)
				i += q - 1
			}
		}
		f[++n] = v
		if (substr(line, i, 1) != ",")
			return n
		i++
	}
}
function secfield(s) {
	return s ~ /^0x[0-9a-f]+$/ ? "(special)" : s
}
BEGIN { OFS = "\t" }
NR == 1 { next }
{
	csv($0, f)
	if (f[1] == "section")
		print "S", f[2], f[3], hexnorm(f[5]), decnorm(f[7])
	else if (f[1] == "segment")
		print "P", f[2], decnorm(f[6]), hexnorm(f[5]), decnorm(f[8]), decnorm(f[7])
	else if (f[1] == "symbol")
		sym[f[13], ++nsym[f[13]]] = "Y" OFS f[13] OFS f[2] OFS \
		    symname(f[4], f[3], f[12]) OFS hexnorm(f[5]) OFS decnorm(f[7]) OFS \
		    secfield(f[12])
	else if (f[1] == "buildid")
		bid = f[3]
}
'

# The first line where the two differ: which item, which field, both values
# (a long value is shown around where the two part).
diff_awk='
function show(v, at) {
	if (length(v) <= 80)
		return "\"" v "\""
	return sprintf("(%d bytes) ...%s...", length(v), substr(v, at > 20 ? at - 20 : 1, 60))
}
BEGIN {
	FS = "\t"
	split("kind index name addr size", fs_S, " ")
	split("kind table index name value size section", fs_Y, " ")
	split("kind index offset vaddr filesz memsz", fs_P, " ")
	split("kind build-id", fs_B, " ")
}
NR == FNR { want[NR] = $0; nwant = NR; next }
{ have[FNR] = $0; nhave = FNR }
END {
	n = nwant > nhave ? nwant : nhave
	for (i = 1; i <= n; i++) {
		if (i <= nwant && i <= nhave && want[i] == have[i])
			continue
		nw = split(want[i], w, "\t")
		split(have[i], h, "\t")
		if (i > nwant || i > nhave || w[1] != h[1]) {
			ws = i <= nwant ? want[i] : "nothing more"
			hs = i <= nhave ? have[i] : "nothing more"
			gsub(/\t/, " ", ws)
			gsub(/\t/, " ", hs)
			printf "readelf has %d items, exmap-mini %d; item %d: readelf [%s], exmap-mini [%s]\n",
			    nwant, nhave, i, substr(ws, 1, 120), substr(hs, 1, 120)
			exit 1
		}
		for (k = 1; k <= nw && w[k] == h[k]; k++)
			;
		if (w[1] == "S") {
			what = "section " w[2]
			field = fs_S[k]
		} else if (w[1] == "P") {
			what = "segment " w[2]
			field = fs_P[k]
		} else if (w[1] == "Y") {
			what = w[2] " symbol " w[3]
			field = fs_Y[k]
		} else {
			what = "build-id"
			field = fs_B[k]
		}
		for (at = 1; at <= length(w[k]) && substr(w[k], at, 1) == substr(h[k], at, 1); at++)
			;
		printf "%s: %s: readelf %s, exmap-mini %s\n", what, field, show(w[k], at), show(h[k], at)
		exit 1
	}
}
'

# result pass|FAIL FILE TEXT
result() {
	if [ "$1" = pass ]; then
		ok "readelf $2${3:+ ($3)}"
	else
		no "readelf $2" "$3"
	fi
}

for f in "$@"; do
	if [ ! -f "$f" ]; then
		if [ $xnum -eq 1 ]; then
			result FAIL "$f" "missing (make elftest-deps builds it)"
		else
			echo "skip readelf $f: missing"
		fi
		continue
	fi
	"$READELF" -hSlsnW "$f" >"$tmp/r.out" 2>"$tmp/r.err"
	rc=$?
	if [ $rc -ne 0 ] || grep -q -i 'error' "$tmp/r.err"; then
		echo "skip readelf $f: readelf rejects it: $(head -n 1 "$tmp/r.err")"
		continue
	fi
	"$EXMAP" -c elf "$f" >"$tmp/x.out" 2>"$tmp/x.err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/x.err" ]; then
		result FAIL "$f" "exmap-mini -c elf exit $rc: $(head -n 1 "$tmp/x.err")"
		continue
	fi
	if [ $xnum -eq 1 ]; then
		shnum=$(sed -n 's/^ *Number of section headers: *//p' "$tmp/r.out")
		strndx=$(sed -n 's/^ *Section header string table index: *//p' "$tmp/r.out")
		case $shnum in
		"0 ("*) ;;
		*)	result FAIL "$f" "e_shnum is $shnum, not 0: no extended numbering"
			continue ;;
		esac
		case $strndx in
		"65535 ("*) ;;
		*)	result FAIL "$f" "e_shstrndx is $strndx, not SHN_XINDEX"
			continue ;;
		esac
		if ! grep -q 'SYMTAB SECTION INDICES' "$tmp/r.out"; then
			result FAIL "$f" "no SYMTAB_SHNDX section"
			continue
		fi
	fi
	if ! awk "$readelf_awk" "$tmp/r.out" >"$tmp/r.lines" ||
	    ! awk "$exmap_awk" "$tmp/x.out" >"$tmp/x.lines"; then
		result FAIL "$f" "internal: awk failed"
		continue
	fi
	# an empty comparison proves nothing
	if ! [ -s "$tmp/r.lines" ]; then
		result FAIL "$f" "readelf shows nothing to compare"
		continue
	fi
	if why=$(awk "$diff_awk" "$tmp/r.lines" "$tmp/x.lines"); then
		nsec=$(grep -c '^S' "$tmp/r.lines")
		nseg=$(grep -c '^P' "$tmp/r.lines")
		nsym=$(grep -c '^Y' "$tmp/r.lines")
		result pass "$f" "$nsec sections, $nseg segments, $nsym symbols$(
		    grep -q '^B' "$tmp/r.lines" && echo ", build-id")$(
		    [ $xnum -eq 1 ] && echo ", extended numbering")"
	else
		result FAIL "$f" "${why:-internal: the comparison failed}"
	fi
done

finish
