#!/bin/sh
# The ELF reader's tests, in this order:
#   readelf  the reader against readelf (tests/suites/elf_readelf.sh) on
#            a sample of this machine's binaries and libraries, on the files
#            built from tests/work/elfobj.c for x86_64, arm, aarch64, mips and
#            ppc64, on the 66000-section object (extended numbering) and on the valid
#            rewrites that tests/work/elfcorrupt.c makes (PN_XNUM, SHN_XINDEX,
#            SYMTAB_SHNDX, no section headers)
#   corrupt  every variant tests/work/elfcorrupt.c writes, run through the
#            sanitizer build, twice (text and -c): exit 0, 1 or 2 only, no
#            sanitizer report, a failure said as "exmap-mini: FILE: why",
#            and CSV that parses; valid rewrites read as the original; and
#            a directory, a FIFO, a device, a missing path, text: exit 2
#   fuzz     tests/unit/fuzz_elf.c once over a few files larger than the
#            reader's 64 KiB window (the fuzzed inputs stay below it), then under
#            libFuzzer for FUZZ_SECONDS, from a seed corpus of the small
#            files and some of their variants
# One count per file compared, per corrupt variant, and one for the fuzz run.
#
# usage: tests/suites/elf_suite.sh [readelf] [corrupt] [fuzz]	(default: all three)
# Build first: make elftest-deps. The environment may name other builds:
#   ELFT_DIR (build/elftest), EXMAP (build/exmap-mini),
#   EXMAP_SAN ($ELFT_DIR/exmap-mini-san), ELFCORRUPT ($ELFT_DIR/elfcorrupt),
#   FUZZ_ELF ($ELFT_DIR/fuzz_elf), READELF (readelf), FUZZ_SECONDS (60),
#   ELF_JOBS (2: corrupt variants run this many at a time),
#   ELF_CPU_LIMIT (60: seconds of CPU one run of a variant may take),
#   ELF_TMPDIR (/dev/shm when it has 1 GiB free, else $ELFT_DIR: the scratch)
# A failing variant is kept in $ELFT_DIR/failed/, a fuzzer crash in
# $ELFT_DIR/fuzz-artifacts/. Last line: N passed, N failed; exit 1 if any failed.
set -u
ELFT_DIR=${ELFT_DIR:-build/elftest}
EXMAP=${EXMAP:-build/exmap-mini}
EXMAP_SAN=${EXMAP_SAN:-$ELFT_DIR/exmap-mini-san}
ELFCORRUPT=${ELFCORRUPT:-$ELFT_DIR/elfcorrupt}
FUZZ_ELF=${FUZZ_ELF:-$ELFT_DIR/fuzz_elf}
READELF=${READELF:-readelf}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
ELF_JOBS=${ELF_JOBS:-2}
export EXMAP READELF
LC_ALL=C
export LC_ALL
here=$(dirname "$0")
. "$here/../lib/lib.sh"
obj=$ELFT_DIR/obj

# The machine's own files: a fixed sample, skipped where missing.
lib=/usr/lib/x86_64-linux-gnu
host_files="$lib/libc.so.6 $lib/ld-linux-x86-64.so.2 $lib/libm.so.6 /bin/bash /bin/ls
	/bin/cat /bin/cp /usr/bin/sort /usr/bin/env $lib/libz.so.1 $lib/libstdc++.so.6
	$lib/libgcc_s.so.1 $lib/libselinux.so.1 $lib/libzstd.so.1 $lib/libbfd-2.40-system.so
	$lib/crt1.o $lib/crti.o /usr/lib/x86_64-linux-musl/libc.so
	/usr/arm-linux-gnueabihf/lib/libc.so.6 /usr/aarch64-linux-gnu/lib/libc.so.6
	/usr/mips-linux-gnu/lib/libc.so.6 /usr/powerpc64-linux-gnu/lib/libc.so.6"
# Ours: built by make elftest-deps, so a missing one is a failure.
own_files="$EXMAP $EXMAP_SAN $FUZZ_ELF"
for a in x86_64 arm aarch64 mips ppc64; do
	own_files="$own_files $obj/$a.o $obj/$a.exe $obj/$a.so"
done
own_files="$own_files $obj/longsec.o $obj/big.o"
# What gets corrupted: ELF32 LE (ET_REL), ELF32 BE, ELF64 LE (ET_DYN), ELF64 BE.
corrupt_inputs="$obj/arm.o $obj/mips.exe $obj/aarch64.so $obj/ppc64.exe $obj/ppc64.o"

steps=${*:-readelf corrupt fuzz}
for s in $steps; do
	case $s in
	readelf|corrupt|fuzz) ;;
	*)	echo "usage: tests/suites/elf_suite.sh [readelf] [corrupt] [fuzz]" >&2
		exit 2 ;;
	esac
done
want() {
	case " $steps " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

start=$(date +%s)

# Some 200 MB of variants and their outputs, written once and read once: in
# memory when /dev/shm has room (on disk, removing them waits for writeback).
mkdir -p "$ELFT_DIR" || exit 2
if [ -z "${ELF_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
    [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt 1048576 ] 2>/dev/null; then
	ELF_TMPDIR=/dev/shm
fi
tmp=$(mktemp -d "${ELF_TMPDIR:-$ELFT_DIR}/elf_suite.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# need WHAT FILE...: the files exist, or one failure each
need() {
	what=$1
	shift
	missing=0
	for f in "$@"; do
		if [ ! -f "$f" ]; then
			no "$what" "$f is missing (make elftest-deps builds it)"
			missing=1
		fi
	done
	return $missing
}

# The variants, made once: the readelf step compares the valid ones, the
# fuzz step seeds from some of them.
made=0
if need elfcorrupt "$ELFCORRUPT" && need "corrupt inputs" $corrupt_inputs; then
	mkdir "$tmp/c"
	for f in $corrupt_inputs; do
		d=$tmp/c/$(basename "$f")
		mkdir "$d" && "$ELFCORRUPT" "$f" "$d" >/dev/null || no "corrupt $f" "elfcorrupt failed"
	done
	# and what is no ELF file at all: each must be refused as fatal (exit 2)
	sp=$tmp/c/special
	mkdir "$sp" "$sp/dir" && mkfifo "$sp/fifo" && ln -s /dev/null "$sp/devnull" &&
		printf 'not an ELF file\n' >"$sp/text" && printf '\177ELF' >"$sp/magic-only" ||
		no "corrupt" "cannot make the special files"
	made=1
fi

# 1. The reader against readelf.
if want readelf; then
	echo "== readelf: sections, segments, symbols and build-id against readelf"
	files=$host_files
	for f in $own_files; do
		need readelf "$f" && files="$files $f"
	done
	if [ $made -eq 1 ]; then
		for d in "$tmp"/c/*; do
			for v in valid-xnum valid-pnxnum valid-xnum-pnxnum valid-shndx valid-nosec; do
				[ -f "$d/$v" ] && files="$files $d/$v"
			done
		done
	fi
	"$here/elf_readelf.sh" $files >"$tmp/readelf.log" 2>&1
	add_results "$tmp/readelf.log" elf_readelf.sh
	if need readelf "$obj/xnum.o"; then
		"$here/elf_readelf.sh" -x "$obj/xnum.o" >"$tmp/readelf.log" 2>&1
		add_results "$tmp/readelf.log" "elf_readelf.sh -x"
	fi
fi

# One shard of the variants: each run twice, text and CSV, a status line each.
# CPU time is capped (ulimit -t) so that a reader stuck in a loop is killed
# and reported, not waited for.
run_shard() {
	(
		ulimit -t "${ELF_CPU_LIMIT:-60}" 2>/dev/null || :	# not POSIX; dash has it
		while IFS= read -r v; do
			"$EXMAP_SAN" elf "$v" >/dev/null 2>"$v.et"
			rt=$?
			"$EXMAP_SAN" -c elf "$v" >"$v.csv" 2>"$v.ec"
			echo "$v $rt $?"
		done <"$1" >"$1.status"
	)
}

# The verdict on every variant, from its two exit statuses and messages.
check_awk='
function slurp(f, a,    n, l) {
	n = 0
	while ((getline l < f) > 0)
		a[++n] = l
	close(f)
	return n
}
function code(c) {
	if (c == 86) return "an AddressSanitizer report (exit 86)"
	if (c == 87) return "an UndefinedBehaviorSanitizer report (exit 87)"
	if (c == 128 + 9 || c == 128 + 24)
		return "killed by signal " (c - 128) " (past the CPU time limit: a loop?)"
	if (c > 128) return "killed by signal " (c - 128)
	return "exit " c
}
# One run: exit 0, 1 or 2, no sanitizer, and every message as promised.
function run(v, mode, c,    n, i, e, m) {
	n = slurp(v ".e" mode, e)
	m = mode == "t" ? "elf" : "-c elf"
	for (i = 1; i <= n; i++)
		if (e[i] ~ /Sanitizer|runtime error/)
			return m ": sanitizer: " e[i]
	if (c !~ /^[012]$/)
		return m ": " code(c) (n ? ": " e[1] : "")
	if (c == 0 && n > 0)
		return m ": exit 0 but a message: " e[1]
	if (c != 0 && n == 0)
		return m ": exit " c " and no message"
	for (i = 1; i <= n; i++)
		if (index(e[i], "exmap-mini: " v ": ") != 1)
			return m ": exit " c ", a message not of the form \"exmap-mini: FILE: why\": " e[i]
	return ""
}
# The CSV dump of a run that did not die must be CSV: the header, then
# records of 13 fields, quoted where they must be, whatever names the file
# holds (a broken string table gives names with commas, quotes, newlines).
function csvok(f,    l, first, inq, nf, i, c, n, start, atstart, why) {
	first = 1
	inq = 0
	why = ""
	while (why == "" && (getline l < f) > 0) {
		if (!inq) {
			nf = 1
			start = l
			atstart = 1
		}
		if (!inq && index(l, "\"") == 0) {
			nf = gsub(/,/, ",", l) + 1
		} else {
			n = length(l)
			for (i = 1; i <= n; i++) {
				c = substr(l, i, 1)
				if (inq) {
					if (c != "\"")
						continue
					if (substr(l, i + 1, 1) == "\"") {
						i++
						continue
					}
					inq = 0
					if (i < n && substr(l, i + 1, 1) != ",")
						why = "a character after a closing quote: " start
				} else if (c == "\"") {
					if (!atstart)
						why = "a quote inside an unquoted field: " start
					inq = 1
				} else if (c == ",") {
					nf++
					atstart = 1
					continue
				}
				atstart = 0
			}
			if (inq) {	# a quoted line break: the record goes on
				atstart = 0
				continue
			}
		}
		if (first) {
			if (start != header)
				why = "no CSV header: " start
			first = 0
		} else if (nf != 13) {
			why = "a CSV record of " nf " fields: " start
		} else if (start !~ /^(section|segment|symbol|buildid),[0-9]+,/) {
			why = "a CSV record of no known kind: " start
		}
	}
	close(f)
	if (why == "" && inq)
		why = "a quoted CSV field never closed"
	if (why == "" && first)
		why = "no CSV output"
	return why
}
# The rows of a CSV dump but its sections (or, keep "segment", only those).
function rows(f, a, keep,    n, l) {
	n = 0
	while ((getline l < f) > 0)
		if (l !~ /^section,/ && (keep == "" || index(l, keep) == 1 || l ~ /^buildid,/))
			a[++n] = l
	close(f)
	return n
}
# A valid rewrite must be read as the original is.
function same(v, orig,    keep, n, m, a, b, i) {
	keep = v ~ /\/valid-nosec$/ ? "segment," : ""
	n = rows(v ".csv", a, keep)
	m = rows(orig, b, keep)
	for (i = 1; i <= n || i <= m; i++)
		if (a[i] != b[i])
			return "read unlike the original: [" (i <= m ? b[i] : "nothing") \
			    "] became [" (i <= n ? a[i] : "nothing") "]"
	return ""
}
# A symbol whose section index came from SYMTAB_SHNDX is named by that
# index, never shown as a reserved one (ABS, COM, 0xff..) unless it was one.
function reserved(v, orig,    l, k, was, why) {
	while ((getline l < orig) > 0)
		if (l ~ /^symbol,/ && l ~ /,(ABS|COM|0x[0-9a-f]+),(symtab|dynsym)$/) {
			split(l, k, ",")
			was[k[2] "," substr(l, match(l, /,[a-z]+$/) + 1)] = 1
		}
	close(orig)
	why = ""
	while ((getline l < (v ".csv")) > 0)
		if (why == "" && l ~ /^symbol,/ &&
		    l ~ /,(ABS|COM|0x[0-9a-f]+),(symtab|dynsym)$/) {
			split(l, k, ",")
			if (!((k[2] "," substr(l, match(l, /,[a-z]+$/) + 1)) in was))
				why = "a section index from SYMTAB_SHNDX shown as a reserved one: " l
		}
	close(v ".csv")
	return why
}
{
	v = $1
	input = v
	sub(/\/[^\/]*$/, "", input)
	orig = input ".orig.csv"
	why = run(v, "t", $2)
	if (why == "")
		why = run(v, "c", $3)
	if (why == "" && $3 != 2) {
		why = csvok(v ".csv")
		if (why != "")
			why = "-c elf: exit " $3 ", " why
	}
	if (why == "" && v ~ /\/valid-[^\/]*$/)
		why = $2 != 0 || $3 != 0 ? "a valid file, exit " $2 "/" $3 : same(v, orig)
	if (why == "" && v ~ /\/shndx-entries-[^\/]*$/)
		why = reserved(v, orig)
	if (why == "" && v ~ /\/c\/special\// && ($2 != 2 || $3 != 2))
		why = "exit " $2 "/" $3 ", not 2: this is no ELF file to read"
	name = v
	sub(/.*\/c\//, "", name)
	split(name, parts, "/")
	if (!(parts[1] in total))
		order[++ninput] = parts[1]
	total[parts[1]]++
	if (why == "") {
		good[parts[1]]++
		next
	}
	bad[parts[1]]++
	print "FAIL corrupt " name ": " why
	print v >failed
}
END {
	for (j = 1; j <= ninput; j++) {
		i = order[j]
		printf "corrupt %s: %d variants, %d passed, %d failed\n", i, total[i], good[i], bad[i]
		p += good[i]
		f += bad[i]
	}
	print p + 0 " passed, " f + 0 " failed"
}
'

csv_header=kind,index,name,type,addr,offset,size,filesz,flags,align,bind,section,table

# 2. Corrupt inputs through the sanitizer build.
if want corrupt && [ $made -eq 1 ] && need corrupt "$EXMAP_SAN"; then
	echo "== corrupt: broken variants through the sanitizer build"
	# exit codes of their own, so a report is never mistaken for exit 1
	ASAN_OPTIONS=exitcode=86:detect_leaks=0:handle_abort=1
	UBSAN_OPTIONS=exitcode=87:print_stacktrace=1:halt_on_error=1
	export ASAN_OPTIONS UBSAN_OPTIONS
	for f in $corrupt_inputs; do
		"$EXMAP_SAN" -c elf "$f" >"$tmp/c/$(basename "$f").orig.csv" 2>/dev/null ||
			no "corrupt $f" "the original does not read cleanly"
	done
	rm -rf "$ELFT_DIR/failed"
	{
		find "$tmp/c" -type f ! -name '*.csv'
		printf '%s\n' "$sp/dir" "$sp/fifo" "$sp/devnull" "$sp/missing"
	} | sort >"$tmp/variants"
	n=0
	while [ $n -lt "$ELF_JOBS" ]; do
		awk -v n="$ELF_JOBS" -v k=$n 'NR % n == k' "$tmp/variants" >"$tmp/shard$n"
		run_shard "$tmp/shard$n" &
		n=$((n + 1))
	done
	wait
	sort "$tmp"/shard*.status >"$tmp/status"
	# a variant with no status line: the shard itself died
	if [ "$(wc -l <"$tmp/status")" -ne "$(wc -l <"$tmp/variants")" ]; then
		no "corrupt" "$(wc -l <"$tmp/variants") variants, only $(wc -l <"$tmp/status") ran"
	fi
	awk -v failed="$tmp/failed" -v header="$csv_header" "$check_awk" "$tmp/status" \
		>"$tmp/corrupt.log" 2>&1
	add_results "$tmp/corrupt.log" "the corrupt check"
	if [ -s "$tmp/failed" ]; then
		mkdir -p "$ELFT_DIR/failed"
		while IFS= read -r v; do
			name=${v#"$tmp"/c/}
			# regular files only: reading the FIFO would wait for ever
			[ -f "$v" ] && cp "$v" "$ELFT_DIR/failed/$(echo "$name" | tr / _)"
		done <"$tmp/failed"
		echo "corrupt: the failing variants are in $ELFT_DIR/failed/"
	fi
	unset ASAN_OPTIONS UBSAN_OPTIONS
fi

# 3. The fuzzer, from a seed corpus of the small files and some variants.
if want fuzz && need fuzz "$FUZZ_ELF"; then
	echo "== fuzz: tests/unit/fuzz_elf.c for $FUZZ_SECONDS seconds"
	mkdir "$tmp/corpus"
	for a in x86_64 arm aarch64 mips ppc64; do
		for k in o exe so; do
			[ -f "$obj/$a.$k" ] && cp "$obj/$a.$k" "$tmp/corpus/$a.$k"
		done
	done
	if [ $made -eq 1 ]; then
		for d in "$tmp"/c/*/; do
			for v in "$d"valid-* "$d"xnum-* "$d"pnxnum-* "$d"shndx-* "$d"note-* \
			    "$d"str*-unterminated "$d"trunc-52 "$d"trunc-64; do
				[ -f "$v" ] && cp "$v" "$tmp/corpus/$(basename "$d")-$(basename "$v")"
			done
		done
	fi
	mkdir -p "$ELFT_DIR/fuzz-artifacts"
	# Files given by name run once each: these move the file window.
	big=""
	for f in "$obj/big.o" "$EXMAP" "$lib/libc.so.6"; do
		[ -f "$f" ] && big="$big $f"
	done
	"$FUZZ_ELF" $big >"$tmp/fuzz.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		"$FUZZ_ELF" -max_total_time="$FUZZ_SECONDS" -timeout=30 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix="$ELFT_DIR/fuzz-artifacts/" \
			"$tmp/corpus" >"$tmp/fuzz.log" 2>&1
		rc=$?
		what="fuzzing"
	else
		what="the files$big"
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz.log")
	seeds=$(ls "$tmp/corpus" | wc -l)
	if [ $rc -eq 0 ]; then
		ok "fuzz:$big, then ${runs:-?} runs in $FUZZ_SECONDS s; the corpus grew to $seeds inputs"
	else
		grep -E 'ERROR|SUMMARY|fuzz_elf:|runtime error|Test unit written|Running:' \
			"$tmp/fuzz.log" | head -n 8
		no "fuzz" "$what: exit $rc (a fuzzed input that fails is kept in $ELFT_DIR/fuzz-artifacts/)"
	fi
fi

echo "elf suite: $(($(date +%s) - start)) s"
finish
