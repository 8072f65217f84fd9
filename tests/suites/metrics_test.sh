#!/bin/sh
# The metrics view against Prometheus's own tools (Debian's prometheus and
# prometheus-node-exporter). With tests/work/oddnames running (processes and
# a file whose names hold quotes, backslashes, spaces, a newline, letters
# outside ASCII and bytes that are not UTF-8):
#   - promtool check metrics on a live scan (and --pids) and on a capture
#     of this machine;
#   - the capture's metrics against the CLI's figures for it (-c procs,
#     files, ram, cgroups), each name, each file, each part, each cgroup,
#     each family's sum, and the series count: 5 a process name, the files
#     shown and other, the ram view's parts, the scan's, the cgroups' (4 at
#     most for each named, 2 for other) (tests/lib/metrics_check.py);
#   - -o into two node_exporter textfile directories (-n 20 and every
#     file), nothing else left there; two node_exporters and a Prometheus
#     server on loopback ports, started here and stopped after: what its
#     HTTP API returns is the file, series for series, and the CLI's figures;
#   - a fleet in one textfile directory: metrics of two captures taken
#     under other host names (a UTS namespace each), a third by --label
#     host=NAME, and this machine's own live file, read by a fourth
#     node_exporter: no error, and Prometheus returns each board's series
#     (host="NAME") and this machine's apart, each its file's; the same
#     board's file twice, to a fifth, is the collision node_exporter logs;
#   - watch INTERVAL -o FILE metrics, scraped by a third node_exporter:
#     processes that start show in Prometheus, and go from it when they
#     exit (no series lingers); SIGTERM ends it with the file whole, alone;
#   - -o when the disk fills up and on SIGTERM before the rename: the old
#     file stays, nothing else is left (misuse: errors_test.sh).
# usage: tests/suites/metrics_test.sh   env: EXMAP (build/exmap-mini),
#        ODDNAMES (build/host/oddnames). Root (the scan and the mount).
# Needs: make all build/host/oddnames; toolchain/setup test (prometheus,
# prometheus-node-exporter, strace). Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/lib.sh
X=${EXMAP:-build/exmap-mini}
ODD=${ODDNAMES:-build/host/oddnames}
CHECK=tests/lib/metrics_check.py
T=$(mktemp -d /tmp/exmap-metrics.XXXXXX) || exit 2
servers=
cleanup() {
	stop_workload
	for p in $servers; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	mountpoint -q "$T/full" && umount "$T/full"
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM

for b in promtool prometheus prometheus-node-exporter strace; do
	command -v $b >/dev/null 2>&1 || { no "$b is not installed (toolchain/setup test)"; finish; }
done
for f in "$X" "$ODD"; do
	[ -x "$f" ] || { no "$f is not built (make all build/host/oddnames)"; finish; }
done

# promtool_ok FILE: promtool check metrics finds nothing to say
promtool_ok() {
	promtool check metrics <"$1" >"$1.lint" 2>&1 && [ ! -s "$1.lint" ] && return 0
	head -n 5 "$1.lint"
	return 1
}

mkdir -p "$T/odd"
if ! start_workload "$T/odd.out" "$ODD" "$T/odd"; then
	no "oddnames ready" "$(cat "$T/odd.out.err")"
	finish
fi
oddpids=$READY

# --- live ---------------------------------------------------------------------
"$X" metrics >"$T/live.prom" 2>"$T/live.err"
rc=$?
check_cmd "live: exit 0 or 1 (partial), $(wc -l <"$T/live.prom") lines" within 0 $rc 1
check_cmd "live: promtool check metrics" promtool_ok "$T/live.prom"
d=$(sed -n 's/^exmap_scan_duration_seconds //p' "$T/live.prom")
check_cmd "live: the scan's duration, $d s, above 0 and below 60" \
	awk -v d="$d" 'BEGIN { exit !(d > 0 && d < 60) }'
"$X" --pids metrics >"$T/pids.prom" 2>/dev/null
check_cmd "live --pids: promtool check metrics" promtool_ok "$T/pids.prom"
run_checks "live --pids" python3 $CHECK pids "$T/pids.prom" $oddpids

# --- a capture of this machine, and the CLI's figures for it ------------------
lo=$(date +%s)
"$X" dump >"$T/cap.log" 2>"$T/dump.err"
rc=$?
hi=$(date +%s)
stop_workload
check_cmd "dump of this machine: exit 0 or 1" within 0 $rc 1
for v in procs files ram cgroups; do
	"$X" -l "$T/cap.log" -c $v >"$T/$v.csv" 2>/dev/null
done
{
	echo "source=$("$X" -l "$T/cap.log" procs 2>/dev/null | sed -n 's/^source: //p')"
	echo "unreadable=$(sed -n 's/^exmap-mini: \([0-9]*\) process.* could not be read.*/\1/p' \
		"$T/dump.err" | head -n 1 | grep . || echo 0)"
	echo "version=$("$X" -V | sed 's/^exmap-mini //')"
	echo "time_lo=$lo"
	echo "time_hi=$hi"
	echo "oddfile=$T/odd"
	echo "host=$(uname -n)"
} >"$T/expect"

mkdir -p "$T/tf20" "$T/tfall"
"$X" -l "$T/cap.log" -o "$T/tf20/exmap.prom" metrics 2>"$T/tf20.err"
rc=$?
check_cmd "-l CAPTURE -o FILE metrics: exit 0 or 1" within 0 $rc 1
"$X" -l "$T/cap.log" -n 100000 -o "$T/tfall/exmap.prom" metrics 2>/dev/null
check_eq "-o: the textfile directories hold the file alone" \
	"$(ls -A "$T/tf20") $(ls -A "$T/tfall")" "exmap.prom exmap.prom"
check_cmd "capture: promtool check metrics (-n 20)" promtool_ok "$T/tf20/exmap.prom"
check_cmd "capture: promtool check metrics (every file)" promtool_ok "$T/tfall/exmap.prom"
"$X" -l "$T/cap.log" metrics 2>/dev/null >"$T/stdout.prom"
check_cmd "-o FILE holds what standard output gets" same_file "$T/stdout.prom" "$T/tf20/exmap.prom"
run_checks "capture, -n 20" python3 $CHECK text "$T/tf20/exmap.prom" "$T" 20 "file -n 20"
run_checks "capture, every file" python3 $CHECK text "$T/tfall/exmap.prom" "$T" 100000 \
	"file, every file"
# -n 3: fewer than this machine's cgroups (and files) named, the rest other
"$X" -l "$T/cap.log" -n 3 metrics >"$T/n3.prom" 2>/dev/null
run_checks "capture, -n 3" python3 $CHECK text "$T/n3.prom" "$T" 3 "-n 3"

# --- a fleet: two boards' captures (other host names) and this machine -------
mkdir -p "$T/tffleet" "$T/tftwice"
for h in board-one board-two; do
	unshare --uts sh -c 'hostname "$1" && exec "$2" dump' sh $h "$X" >"$T/$h.cap" 2>/dev/null
	"$X" -l "$T/$h.cap" -o "$T/tffleet/$h.prom" metrics 2>/dev/null
	check_cmd "a capture taken as $h: its metrics carry host=\"$h\"" \
		has "^exmap_build_info{host=\"$h\",version=" "$T/tffleet/$h.prom"
done
"$X" -l "$T/board-one.cap" --label host=board-three -o "$T/tffleet/board-three.prom" metrics 2>/dev/null
check_cmd "--label host=board-three on board-one's capture: host=\"board-three\"" \
	has '^exmap_build_info{host="board-three",version=' "$T/tffleet/board-three.prom"
"$X" -o "$T/tffleet/live.prom" metrics 2>/dev/null
check_cmd "this machine's own live metrics: no host label" not has 'host=' "$T/tffleet/live.prom"
cp "$T/tffleet/board-one.prom" "$T/tftwice/board-one.prom"
cp "$T/tffleet/board-one.prom" "$T/tftwice/again.prom"

# --- node_exporter and Prometheus ---------------------------------------------
# free loopback ports, one for each server
set -- $(python3 -c 'import socket
ss = [socket.socket() for _ in range(6)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
p20=$1 pall=$2 pw=$3 pprom=$4 pfleet=$5 ptwice=$6
mkdir -p "$T/tfw"
for j in 20:$p20 all:$pall w:$pw fleet:$pfleet twice:$ptwice; do
	prometheus-node-exporter --web.listen-address="127.0.0.1:${j#*:}" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$T/tf${j%%:*}" >"$T/ne${j%%:*}.log" 2>&1 &
	servers="$servers $!"
done
cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: top20
    static_configs: [{targets: ['127.0.0.1:$p20']}]
  - job_name: all
    static_configs: [{targets: ['127.0.0.1:$pall']}]
  - job_name: watch
    static_configs: [{targets: ['127.0.0.1:$pw']}]
  - job_name: fleet
    static_configs: [{targets: ['127.0.0.1:$pfleet']}]
  - job_name: twice
    static_configs: [{targets: ['127.0.0.1:$ptwice']}]
EOF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address="127.0.0.1:$pprom" >"$T/prometheus.log" 2>&1 &
servers="$servers $!"
url=http://127.0.0.1:$pprom
if python3 $CHECK wait "$url" top20 all 2>"$T/wait.err"; then
	ok "Prometheus scraped both node_exporters"
	run_checks "Prometheus, -n 20" python3 $CHECK server "$url" top20 "$T/tf20/exmap.prom" "$T" 20
	run_checks "Prometheus, every file" python3 $CHECK server "$url" all \
		"$T/tfall/exmap.prom" "$T" 100000
else
	no "Prometheus scraped both node_exporters" "$(cat "$T/wait.err") $(tail -n 3 "$T/prometheus.log")"
fi
if python3 $CHECK wait "$url" fleet 2>"$T/wait.err"; then
	run_checks "the fleet" python3 $CHECK fleet "$url" fleet "$T/tffleet" board-one board-two \
		board-three
	check_cmd "the fleet's node_exporter logged no error" not has 'level=error\|level=ERROR' "$T/nefleet.log"
else
	no "Prometheus scraped the fleet's node_exporter" "$(cat "$T/wait.err")"
fi
n=0
until grep -q 'collected before with the same name and label values' "$T/netwice.log" ||
	[ $n -ge 50 ]; do
	sleep 0.2
	n=$((n + 1))
done
check_cmd "one board's file twice in a directory: the collision node_exporter logs (the check above can fail)" \
	has 'collected before with the same name and label values' "$T/netwice.log"

# watch: the file rewritten each sample, as Prometheus sees it
"$X" watch 0.3 -o "$T/tfw/exmap.prom" metrics 2>"$T/watch.err" &
wpid=$!
until_prom() { # WHAT QUERY WANT
	if python3 $CHECK until "$url" "$2" "$3" 2>"$T/until.err"; then ok "$1"
	else no "$1" "$(cat "$T/until.err")"; fi
}
q='exmap_processes{job="watch",name="many"}'
until_prom "watch 0.3 -o FILE metrics: Prometheus has the file, no process named many" \
	'exmap_build_info{job="watch"}' 1
mkdir -p "$T/odd2"
if start_workload "$T/odd2.out" "$ODD" -m 3 "$T/odd2"; then
	until_prom "watch: 3 processes named many started: Prometheus counts them" "$q" 3
	stop_workload
	until_prom "watch: they exited: their series are gone from Prometheus" "$q" none
else
	no "oddnames -m 3 ready" "$(cat "$T/odd2.out.err")"
fi
kill -TERM $wpid
wait $wpid
rc=$?
check_cmd "watch ... metrics: SIGTERM ends it, exit 0 or 1 ($rc)" within 0 $rc 1
check_eq "watch ... metrics: the textfile directory holds the file alone" "$(ls -A "$T/tfw")" exmap.prom
check_cmd "watch ... metrics: promtool check metrics on its last file" promtool_ok "$T/tfw/exmap.prom"
for p in $servers; do
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
done
servers=

# --- -o: a full disk, a signal, misuse ----------------------------------------
# old FILE: FILE holds "old" and nothing else is in its directory
old() {
	[ "$(cat "$1")" = old ] && [ "$(ls -A "$(dirname "$1")")" = "$(basename "$1")" ] && return 0
	echo "$(dirname "$1") holds: $(ls -A "$(dirname "$1")" | tr '\n' ' ')"
	return 1
}
# a tmpfs with room for "old" and half the file at most (in 4 KiB pages, one
# at least: the file is longer than a page), whatever this machine maps
bytes=$(wc -c <"$T/tfall/exmap.prom")
check_cmd "-o on a full disk: the file, $bytes bytes, is longer than a page" [ "$bytes" -gt 4096 ]
room=$((bytes / 8192))
[ $room -ge 1 ] || room=1
mkdir -p "$T/full"
if mount -t tmpfs -o size=$((4096 * (room + 1))) tmpfs "$T/full"; then
	echo old >"$T/full/exmap.prom"
	"$X" -l "$T/cap.log" -n 100000 -o "$T/full/exmap.prom" metrics 2>"$T/full.err"
	rc=$?
	check_eq "-o on a full disk: exit 2" $rc 2 "exit $rc"
	check_cmd "-o on a full disk: one line, the reason" has \
		"^exmap-mini: write error on $T/full/exmap.prom: No space left on device$" "$T/full.err"
	check_cmd "-o on a full disk: the old file stays, nothing else is left" old "$T/full/exmap.prom"
	umount "$T/full"
else
	no "a tmpfs of $((4 * (room + 1))) KiB for a full disk" "mount failed"
fi
# SIGTERM once the file is written, before the rename: strace holds the
# fsync before it back 3 s
mkdir -p "$T/sig"
echo old >"$T/sig/exmap.prom"
strace -f -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=3000000 \
	"$X" -l "$T/cap.log" -o "$T/sig/exmap.prom" metrics 2>/dev/null &
spid=$!
n=0
until [ -n "$(ls -A "$T/sig" | grep -v '^exmap.prom$')" ] || [ $n -ge 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
tmp=$(ls -A "$T/sig" | grep -v '^exmap.prom$')
xpid=${tmp##*.}
sleep 0.5	# written whole by now, its fsync held back
kill -TERM "$xpid" 2>/dev/null
wait $spid 2>/dev/null
rc=$?
check_eq "-o: the file beside FILE is .FILE.PID" "$tmp" ".exmap.prom.$xpid"
check_eq "-o: SIGTERM ends the run (by the signal)" $rc 143
check_cmd "-o: SIGTERM before the rename: the old file stays, nothing else is left" \
	old "$T/sig/exmap.prom"
finish
