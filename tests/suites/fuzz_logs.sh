#!/bin/sh
# No damaged log crashes the reader: what exmap-mini reads from outside
# (watch logs, console logs holding captures, captures) damaged on purpose
# and fuzzed, through sanitizer builds (AddressSanitizer, UBSan).
#   damage   tests/lib/damage_check.py on a real watch log of this machine
#            (tests/data/fuzz/wlog/host.log): one character changed in each
#            watch line, one line at a time; and on a short one
#            (short.log): each line twice, each two neighbours swapped,
#            kernel messages in every line, the log cut after each line.
#            No signal, no sanitizer report, the loss said with its line
#            and exit 4 (0 for noise alone), no value made up, and trend's
#            rows the damage did not touch the same as the whole log's
#   replay   each fuzzer (tests/unit/fuzz_wlog.c, fuzz_conlog.c,
#            fuzz_capture.c) once over its committed corpus and the crashes
#            found so far (tests/data/fuzz/TARGET/, TARGET-crashes/)
#   fuzz     each fuzzer for FUZZ_SECONDS, from that corpus and seeds made
#            here and now (a capture and a watch log of workloads, as they
#            are, through a console's noise, --max rotated): what today's
#            dump and watch write is fuzzed, new lines with the rest
#   seeds DIR  only make those seeds, in DIR/TARGET/
# One count per check. A fuzzer's corpus grows in $FUZZ_DIR/TARGET-corpus/
# (kept for the next run; -merge=1 makes the committed one from it), a crash
# is kept in $FUZZ_DIR/TARGET-artifacts/: once fixed, it goes in
# tests/data/fuzz/TARGET-crashes/ (tests/README.md).
#
# usage: tests/suites/fuzz_logs.sh [damage] [replay] [fuzz]	(default: all three)
#        tests/suites/fuzz_logs.sh seeds DIR
# Build first: make fuzz-deps. Environment: FUZZ_DIR (build/fuzz: the fuzzers),
#   EXMAP (build/exmap-mini), EXMAP_SAN (build/capfuzz/exmap-mini-san),
#   WLOGDUMP (build/wlogdump), WORKLOAD (build/host/workload), FUZZ_SECONDS
#   (60, a fuzzer), FUZZ_TARGETS (wlog conlog capture: the fuzzers to run),
#   DAMAGE_JOBS (2: variants read at once). As root (the
#   seeds are scans). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
EXMAP=${EXMAP:-build/exmap-mini}
EXMAP_SAN=${EXMAP_SAN:-build/capfuzz/exmap-mini-san}
WLOGDUMP=${WLOGDUMP:-build/wlogdump}
WORKLOAD=${WORKLOAD:-build/host/workload}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
DATA=tests/data/fuzz
TARGETS=${FUZZ_TARGETS:-wlog conlog capture}
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
T=$(mktemp -d /tmp/exmap-fuzz.XXXXXX) || exit 2
WL=

cleanup() {
	[ -n "$WL" ] && kill -TERM "$WL" 2>/dev/null && wait "$WL" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# cpu_s: CPU, the seconds of CPU this shell's children (a fuzzer, on a busy
# machine) have used: times in this shell (in a subshell, as $(...) would
# run it, it is always 0)
cpu_s() {
	times >"$T/times"
	CPU=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); print int(u[1] * 60 + u[2] + s[1] * 60 + s[2]) }' "$T/times")
}

# seeds DIR: a capture and a watch log of a workload family, of this
# machine now, as they are, through a console's noise and --max rotated
# (400 samples: their t lines alone, 41 bytes or more each, pass 16K, so the
# log rotates whatever the opening capture's size).
seeds() {
	mkdir -p "$1/wlog" "$1/conlog" "$1/capture" || return 1
	start_workload "$T/wl.out" "$WORKLOAD" -n 2 -f 64 -c 64 -p 64 -d "$T" || return 1
	WL=$WL_PID
	p=$(echo "$READY" | tr ' ' ',')
	"$EXMAP" -p "$p" dump >"$1/capture/now.cap" &&
		"$EXMAP" -p "$p" watch 0.02 8 >"$1/wlog/now.log" &&
		"$EXMAP" -p "$p" -o "$T/rot" --max 16K watch 0.02 400 &&
		{ cat "$T/rot.1" && echo "#fuzz-rotate" && cat "$T/rot"; } >"$1/wlog/now-rotated.log" &&
		python3 tests/lib/noise.py --seed 11 a "$1/capture/now.cap" "$1/conlog/now.log" >/dev/null &&
		python3 tests/lib/noise.py --seed 12 a "$1/wlog/now.log" "$1/conlog/now-watch.log" >/dev/null
	rc=$?
	stop_workload
	WL=
	return $rc
}

if [ "${1:-}" = seeds ]; then
	[ $# -eq 2 ] || { echo "usage: tests/suites/fuzz_logs.sh seeds DIR" >&2; exit 2; }
	seeds "$2" || exit 1
	exit 0
fi
steps=${*:-damage replay fuzz}
for s in $steps; do
	case $s in
	damage|replay|fuzz) ;;
	*)	echo "usage: tests/suites/fuzz_logs.sh [damage] [replay] [fuzz] | seeds DIR" >&2
		exit 2 ;;
	esac
done
want() {
	case " $steps " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}
for f in "$EXMAP" "$EXMAP_SAN" "$WLOGDUMP" "$WORKLOAD" $(for t in $TARGETS; do echo "$FUZZ_DIR/fuzz_$t"; done); do
	[ -x "$f" ] || { no "$f is built" "make fuzz-deps"; finish; }
done

# 1. A real log damaged line by line.
if want damage; then
	echo "== damage: tests/lib/damage_check.py"
	mkdir "$T/d"
	run_checks "one character changed" python3 tests/lib/damage_check.py char "$EXMAP_SAN" \
		"$WLOGDUMP" "$DATA/wlog/host.log" "$T/d"
	run_checks "repeated, swapped, noise" python3 tests/lib/damage_check.py order "$EXMAP_SAN" \
		"$WLOGDUMP" "$DATA/wlog/short.log" "$T/d"
	run_checks "cut" python3 tests/lib/damage_check.py cut "$EXMAP_SAN" "$WLOGDUMP" \
		"$DATA/wlog/short.log" "$T/d"
fi

# 2. The corpus and the crashes found so far, once each.
if want replay; then
	for t in $TARGETS; do
		set -- "$DATA/$t"/*
		[ -d "$DATA/$t-crashes" ] && set -- "$@" "$DATA/$t-crashes"/*
		"$FUZZ_DIR/fuzz_$t" -close_fd_mask=2 "$@" >"$T/replay-$t.log" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && [ $# -gt 1 ]; then
			ok "fuzz_$t: the committed corpus and crashes, $# inputs, run once each"
		else
			grep -E 'ERROR|SUMMARY|fuzz:|runtime error|Running:' "$T/replay-$t.log" | tail -n 6
			no "fuzz_$t: the committed corpus and crashes, $# inputs" "exit $rc"
		fi
	done
fi

# 3. Fuzzing, from the corpus and today's seeds.
if want fuzz; then
	if seeds "$T/seeds"; then
		ok "seeds of this machine: a capture, a watch log, rotated, through noise"
	else
		no "seeds of this machine" "dump or watch failed"
	fi
	for t in $TARGETS; do
		echo "== fuzz: fuzz_$t for $FUZZ_SECONDS seconds"
		c=$FUZZ_DIR/$t-corpus
		mkdir -p "$c" "$FUZZ_DIR/$t-artifacts"
		cp "$DATA/$t"/* "$c/" && cp "$T/seeds/$t"/* "$c/" 2>/dev/null
		n0=$(ls "$c" | wc -l)
		cpu_s
		cpu0=$CPU
		"$FUZZ_DIR/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -max_len=131072 -timeout=30 \
			-rss_limit_mb=2048 -close_fd_mask=2 -print_final_stats=1 \
			-artifact_prefix="$FUZZ_DIR/$t-artifacts/" "$c" >"$T/fuzz-$t.log" 2>&1
		rc=$?
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$T/fuzz-$t.log")
		cpu_s
		if [ $rc -eq 0 ]; then
			ok "fuzz_$t: ${runs:-?} runs in $FUZZ_SECONDS s ($((CPU - cpu0)) s of CPU), its corpus ($c) from $n0 inputs to $(ls "$c" | wc -l)"
		else
			grep -E 'ERROR|SUMMARY|fuzz:|runtime error|Test unit written' "$T/fuzz-$t.log" | head -n 8
			no "fuzz_$t" "exit $rc (the input is kept in $FUZZ_DIR/$t-artifacts/)"
		fi
	done
fi
finish
