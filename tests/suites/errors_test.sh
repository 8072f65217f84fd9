#!/bin/sh
# What a user who types something wrong is told: one table, in the style of
# toybox's tests, of the command, the exit code and the last line of stderr
# (a shell pattern; the scan's own warnings may come before it). Every case
# also checks that nothing went to stdout but what the case allows.
# Run as root after make all build/host/workload. Environment: EXMAP,
# WORKLOAD. Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
EXMAP=$(realpath "${EXMAP:-build/exmap-mini}")
WORKLOAD=${WORKLOAD:-build/host/workload}
T=$(mktemp -d /tmp/exmap-errors.XXXXXX) || exit 2
trap 'stop_workload; rm -rf "$T"' EXIT

if ! start_workload "$T/wl" "$WORKLOAD" -n 1 -f 64 -d "$T"; then
	no "workload ready" "$(cat "$T/wl.err")"
	finish
fi
# shellcheck disable=SC2086
set -- $READY
W=$1
DATA=$(sed -n 's/^file //p' "$T/wl")
KTHREAD=2	# kthreadd
# example capture lines, none of which checks out (as README's)
printf 'XM begin v2 ps=4096 chunks=3 crc=00000000\nXM 1 . 1 00000000 unreadable=0\n' >"$T/notcap"
# a pid that is not there: one above the largest
GONE=$(($(cat /proc/sys/kernel/pid_max) - 1))
while [ -d /proc/$GONE ]; do GONE=$((GONE - 1)); done

# exit | arguments | last line of stderr (a pattern)
while IFS='|' read -r want args line; do
	case $want in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2086 # the arguments, one word each
	eval "set -- $args"
	"$EXMAP" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	last=$(tail -n 1 "$T/err")
	# shellcheck disable=SC2254 # the table's pattern
	case $last in
	$line) match=1 ;;
	*) match=0 ;;
	esac
	if [ "$rc" = "$want" ] && [ $match = 1 ] && [ ! -s "$T/out" ]; then
		ok "exmap-mini $args: exit $want, '$last'"
	else
		no "exmap-mini $args" "exit $rc (want $want), stderr '$last' (want '$line'), stdout $(wc -c <"$T/out") bytes"
	fi
done <<EOF
# views: what is wrong in one line, then the usage line of that view
2|bogus|usage: see exmap-mini -h
2|maps|usage: exmap-mini \[options\] maps pid
2|files 716|usage: exmap-mini \[options\] files
2|sections|usage: exmap-mini \[options\] sections file
2|diff a|usage: exmap-mini \[options\] diff capture capture \[html\]
2|symbols a b c|usage: exmap-mini \[options\] symbols file \[section\]
2|procs extra|usage: exmap-mini \[options\] procs
# options: one prefix, one line
2|-Z|exmap-mini: -Z: not an option (exmap-mini -h lists them)
2|--bogus|exmap-mini: --bogus: not an option (exmap-mini -h lists them)
2|--max5|exmap-mini: --max5: not an option (exmap-mini -h lists them)
2|--bud=x=1|exmap-mini: --bud: not an option (exmap-mini -h lists them)
2|--h|exmap-mini: --h: not an option (exmap-mini -h lists them)
2|--pids=1 metrics|exmap-mini: --pids: takes no value: --pids=1
2|--budget|exmap-mini: --budget: give its value (name=size)
2|-b auto elf $EXMAP|exmap-mini: -b: not with the elf view (it reads the file alone, in its order: no scan), which takes -c -q -o
2|-l $T/notcap -b auto procs|exmap-mini: -b: it shapes a scan; a capture was shaped when it was taken
2|-S / procs|exmap-mini: -S: a sysroot is for a capture's files: give -l too
2|-n|exmap-mini: -n: give its value*
2|-s name maps $W|exmap-mini: -s: name is not a field of this view; it has: vm mapped resident eff_mapped eff_resident sole writable swap path address
2|-s x dump|exmap-mini: -s: not with the dump view (it writes the whole scan as a capture), which takes -b -p -m -t -o
2|-s name ram|exmap-mini: -s: not with the ram view (it is all of RAM, its lines in their order), which takes -a -c -k -q -b -p -m -t -l -S -o --budget
2|-P $W ram|exmap-mini: -P: not with the ram view (it is all of RAM, its lines in their order), which takes *
2|-F libc.so.6 ram|exmap-mini: -F: not with the ram view (it is all of RAM, *
2|ram extra|usage: exmap-mini \[options\] ram
2|folded extra|usage: exmap-mini \[options\] folded
2|diff a b pdf|usage: exmap-mini \[options\] diff capture capture \[html\]
2|-c folded|exmap-mini: -c: not with the folded view (its lines are for flame-graph tools), which takes -a -b -p -P -F -m -t -l -S -o --budget
2|-n 5 html|exmap-mini: -n: not with the html view (it is one page, all of it), which takes *
2|-q diff a b html|exmap-mini: -q: not with diff ... html (it is one page, all of it), which takes -a -s -m -o
2|-s pid folded|exmap-mini: -s: not with the folded view (its lines are for flame-graph tools), which takes *
2|-s name html|exmap-mini: -s: name is not a field of this view; it has: vm mapped resident eff_mapped eff_resident sole writable swap
# captures: what is not one, a place that is not one, the list's options
2|-l $T/notcap|exmap-mini: $T/notcap: not a capture: 2 lines start with XM, none of them checks out
2|-l $T/notcap@2 files|exmap-mini: $T/notcap: not a capture: 2 lines start with XM, none of them checks out
2|-l $T/notcap@0|exmap-mini: $T/notcap@0: not a capture's place in $T/notcap: @1 is its first, @-1 its last
2|-l $T/notcap@-x|exmap-mini: $T/notcap@-x: not a capture's place in $T/notcap: @1 is its first, @-1 its last
2|captures|exmap-mini: captures: give -l LOG, the log whose captures it lists
2|-k -l $T/notcap captures|exmap-mini: -k: not with the captures view (it lists a log's captures, in its order), which takes -c -q -n -l -o
2|-s name -l $T/notcap captures|exmap-mini: -s: not with the captures view (it lists a log's captures, in its order), which takes -c -q -n -l -o
2|-l $T/notcap@1 captures|exmap-mini: captures: lists every capture of a log: give -l $T/notcap, without @N
2|-l $T/notcap captures|exmap-mini: $T/notcap: not a capture: 2 lines start with XM, none of them checks out
2|captures extra|usage: exmap-mini \[options\] captures
# watch: its interval and count, the options a log of samples takes, -o and --max
2|watch|usage: exmap-mini \[options\] watch interval \[count\] \[metrics\]
2|watch x|usage: exmap-mini \[options\] watch interval \[count\] \[metrics\]
2|watch 1.2345|usage: exmap-mini \[options\] watch interval \[count\] \[metrics\]
2|watch 1 0|usage: exmap-mini \[options\] watch interval \[count\] \[metrics\]
2|watch 1 2 3|usage: exmap-mini \[options\] watch interval \[count\] \[metrics\]
2|watch -1|usage: exmap-mini \[options\] watch interval \[count\] \[metrics\]
2|watch -0.5 3|usage: exmap-mini \[options\] watch interval \[count\] \[metrics\]
2|--max 16K watch 1|exmap-mini: --max: the size at which -o's file is renamed: give -o too
2|-o $T/log --max 1K watch 1|exmap-mini: --max: not a size of at least 16K: 1K
2|-l $T/notcap watch 1|exmap-mini: -l: not with the watch view (it writes a log of whole samples), which takes -b -p -m -t -o --max
2|-c watch 1|exmap-mini: -c: not with the watch view (it writes a log of whole samples), which takes -b -p -m -t -o --max
2|-P $W watch 1|exmap-mini: -P: not with the watch view (it writes a log of whole samples), which takes -b -p -m -t -o --max
2|-s pid watch 1|exmap-mini: -s: not with the watch view (it writes a log of whole samples), which takes -b -p -m -t -o --max
2|-o /nonexistent/dir/log watch 1|exmap-mini: watch: -o /nonexistent/dir/log: No such file or directory
# dmabuf, cgroups
2|dmabuf extra|usage: exmap-mini \[options\] dmabuf
2|-s vm dmabuf|exmap-mini: -s: not with the dmabuf view (its rows are dma-bufs, the largest first), which takes -c -k -q -b -p -P -n -m -t -l -S -o --budget
2|cgroups extra|usage: exmap-mini \[options\] cgroups
2|-s vm cgroups|exmap-mini: -s: vm is not a field of this view; it has: eff_resident sole swap cgroup processes charged charged_anon charged_file charged_shmem
2|-s charged procs|exmap-mini: -s: charged is not a field of this view; it has: vm mapped resident eff_mapped eff_resident sole writable swap pid name
2|-l tests/data/capture-v1.log cgroups|exmap-mini: cgroups: tests/data/capture-v1.log holds no process's cgroup (a capture made before captures carried them)
# metrics, -o for a view, --pids
2|metrics extra|usage: exmap-mini \[options\] metrics
2|--pids procs|exmap-mini: --pids: not with the procs view: for metrics, watch ... metrics
2|-a procs|exmap-mini: -a: not with the procs view: for symbols, diff, browse, ram, folded, html
2|-c metrics|exmap-mini: -c: not with the metrics view (it is the whole scan in Prometheus's format, in a fixed order), which takes -b -p -n -m -t -l -S -o --pids --label
2|-P $W metrics|exmap-mini: -P: not with the metrics view (it is the whole scan in Prometheus's format, *
2|--budget x=1 metrics|exmap-mini: --budget: not with the metrics view (it is the whole scan in Prometheus's format, *
2|-s name metrics|exmap-mini: -s: not with the metrics view (it is the whole scan in Prometheus's format, in a fixed order), which *
2|watch 1 metrics|exmap-mini: watch ... metrics: give -o FILE, rewritten each sample
2|-l $T/notcap -o $T/m watch 1 metrics|exmap-mini: -l: not with watch ... metrics (it rewrites -o's file each sample), which takes -b -p -n -m -t -o --pids --label
2|-o $T/m --max 16K watch 1 metrics|exmap-mini: --max: not with watch ... metrics (it rewrites -o's file each sample), which takes *
2|-o $T/m --max 16K procs|exmap-mini: --max: not with the procs view: for watch
2|-n 3 watch 1|exmap-mini: -n: not with the watch view (it writes a log of whole samples), which takes -b -p -m -t -o --max
2|-o $T/m browse|exmap-mini: -o: not with the browse view (it draws on a terminal), which takes -a -k -b -p -P -F -s -m -t -l -S
2|-o /dev/null procs|exmap-mini: -o /dev/null: not a regular file: a rename would replace it
2|-o $T/ procs|exmap-mini: -o $T/: a directory: -o names the file to write
2|-o $T procs|exmap-mini: -o $T: a directory: -o names the file to write
2|-o $T watch 1|exmap-mini: -o $T: a directory: -o names the file to write
2|-o /nonexistent/dir/m procs|exmap-mini: -o /nonexistent/dir/m: cannot create /nonexistent/dir/.m.*: No such file or directory
# processes: the real reason
2|-p $GONE|exmap-mini: -p: no such process: pid $GONE
2|-p $W maps $GONE|exmap-mini: maps: pid $GONE is not among -p's: add it there
2|maps $GONE|exmap-mini: no such process: pid $GONE
2|maps $KTHREAD|exmap-mini: pid $KTHREAD has no user memory (a kernel thread, or a zombie)
# files: what cannot be met is 2, and says why
2|-p $W symbols $EXMAP .nosuch|exmap-mini: $EXMAP: no scanned process maps such a file
2|-p $W symbols $WORKLOAD .nosuch|exmap-mini: *: no section .nosuch; it has *.text*
2|-p $W sections $DATA|exmap-mini: $DATA: *ELF*
2|-p $W symbols $DATA|exmap-mini: $DATA: *ELF*
2|elf $DATA|exmap-mini: $DATA: *ELF*
2|-m 1M -p $W sections $WORKLOAD|exmap-mini: arena full: * in use, * more needed; raise it with -m SIZE (-m *M would do)
# trend: a watch log's; its options
2|trend|exmap-mini: trend: give the watch log with -l LOG
2|-l $T/notcap trend|exmap-mini: $T/notcap: *
2|-l $T/notcap -w 5q trend|exmap-mini: -w: not a duration (seconds, or with s, m, h, d: 90, 15m, 2h): 5q
2|-l $T/notcap -P a,b trend|exmap-mini: -P a,b: trend follows one process's parts: give one name or pid
2|-l $T/notcap -s vm trend|exmap-mini: -s: not with the trend view (its rows are every one, by slope), which takes *
2|-l $T/notcap -a trend|exmap-mini: -a: not with the trend view (its rows are every one, by slope), which takes -c -k -q -P name|pid -n -m -l -w -o --budget --budget name=size/h
2|-w 5m procs|exmap-mini: -w: a warm-up is left out of a watch log's trend: -l LOG -w DURATION trend
2|--budget a=1M/h procs|exmap-mini: --budget name=size/h: a slope is checked on a watch log: -l LOG trend
2|-l $T/notcap --budget a=1M/h procs|exmap-mini: --budget name=size/h: not with the procs view: for html, trend
2|--budget a=xM/h procs|exmap-mini: --budget a=xM/h: not a size (4096, 1.5M, 10MiB)
# budgets: sizes as the reports print them; a decimal unit refused, said
2|--budget a=1MB procs|exmap-mini: --budget a=1MB: a decimal unit: K, M, G are binary (1M is 1048576 bytes), as are KiB, MiB, GiB
2|--budget a=1.5kB/h procs|exmap-mini: --budget a=1.5kB/h: a decimal unit: K, M, G are binary (1M is 1048576 bytes), as are KiB, MiB, GiB
2|--budget a procs|exmap-mini: --budget a: give NAME=SIZE
2|--budget proc:=1M procs|exmap-mini: --budget proc:: give a name after proc:
# --label: metrics' alone, a name Prometheus takes and none of the series' own
2|--label a=1 procs|exmap-mini: --label: not with the procs view: for metrics, watch ... metrics
2|--label 1a=b metrics|exmap-mini: --label 1a=b: a label's name is letters, digits and _, not starting with a digit
2|--label __a=b metrics|exmap-mini: --label __a=b: names starting with __ are Prometheus's own
2|--label name=b metrics|exmap-mini: --label name=b: name is a label of exmap-mini's own series
2|--label a metrics|exmap-mini: --label a: give NAME=VALUE
2|--label a=1 --label a=2 metrics|exmap-mini: --label a=2: the label a given twice
2|trend extra|usage: exmap-mini \[options\] trend
EOF

# A view's words wrong: the reason is the line before the usage line.
while IFS='|' read -r args line; do
	eval "set -- $args"
	"$EXMAP" "$@" >/dev/null 2>"$T/err"
	check_eq "exmap-mini $args: why, on the line before the usage" "$(head -n 1 "$T/err")" "$line"
done <<EOF
watch -1|exmap-mini: watch: a negative interval: -1 (0.001 to a year, or 0: one sample after another)
watch -0.5 3|exmap-mini: watch: a negative interval: -0.5 (0.001 to a year, or 0: one sample after another)
watch 1 2 3|exmap-mini: watch: its last word can only be metrics: 3
diff a b pdf|exmap-mini: diff: its last word can only be html: pdf
diff a|exmap-mini: diff: missing capture
maps|exmap-mini: maps: missing pid
files 716|exmap-mini: files takes no pid: -P 716 reports a process's part
bogus|exmap-mini: bogus: not a view (procs files maps sections symbols elf dump diff browse ram folded html captures trend metrics watch dmabuf cgroups)
EOF

# --help as -h: the usage on stdout, exit 0, nothing on stderr.
"$EXMAP" -h >"$T/h" 2>"$T/h.err"
rc=$?
"$EXMAP" --help >"$T/help" 2>>"$T/h.err"
check_eq "--help: exit 0, -h's usage ($(wc -l <"$T/h") lines), nothing on stderr" \
	"$? $rc $(cmp -s "$T/h" "$T/help" && echo same) $(wc -c <"$T/h.err")" "0 0 same 0"
check_cmd "--help's usage was read (40 lines at least)" within 40 "$(wc -l <"$T/help")" ""

# Root without CAP_SYS_ADMIN: the kernel hides pfns (pagemap's zeros); the
# message says that is the reason, not "run as root".
if command -v capsh >/dev/null; then
	capsh --drop=cap_sys_admin -- -c '"$0" -p "$1" procs' "$EXMAP" "$W" >"$T/out" 2>"$T/err"
	check_eq "root without CAP_SYS_ADMIN (capsh --drop): exit 2, that reason" \
		"$? $(tail -n 1 "$T/err")" \
		"2 exmap-mini: pagemap: page frame numbers are hidden without CAP_SYS_ADMIN: this process is root but lacks it (dropped, or a container's)"
else
	no "root without CAP_SYS_ADMIN" "capsh is not installed (libcap2-bin)"
fi

# The -m the message names does what it says.
"$EXMAP" -m 1M -p "$W" sections "$WORKLOAD" >/dev/null 2>"$T/err"
m=$(sed -n 's/.*(-m \([0-9]*M\) would do).*/\1/p' "$T/err")
"$EXMAP" -m "${m:-0}" -p "$W" sections "$WORKLOAD" >/dev/null 2>"$T/err2"
check_eq "the -m the arena message names ($m) is enough" "$?" 0 "$(cat "$T/err2")"

# Unreadable by root: where some process is (pid 1 in a container that
# hides it), maps names it with the kernel's reason.
for p in $(ls /proc | grep '^[0-9]*$'); do
	err=$(cat /proc/$p/maps 2>&1 >/dev/null) || {
		case $err in *"Permission denied"*) ;; *) continue ;; esac
		"$EXMAP" maps "$p" >/dev/null 2>"$T/err"
		rc=$?
		check_eq "maps $p, which root cannot read here: exit 2, the reason" \
			"$rc $(tail -n 1 "$T/err")" "2 exmap-mini: cannot read pid $p: Permission denied"
		break
	}
done
finish
