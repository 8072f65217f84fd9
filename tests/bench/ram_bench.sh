#!/bin/sh
# What the ram view costs on this machine: `exmap-mini -p PID -b pagemap -c
# ram` with one small process scanned, so that the sources and the census of
# every frame of RAM are the cost; 7 runs, median wall time and peak RSS.
# Beside it, in the same rounds, the floor of the census: dd reading as many
# bytes of /proc/kpageflags in 64 KiB reads (the kernel's own cost of the
# flags), and the ratio of the two, median and range over the rounds.
# Run by make bench. usage: tests/bench/ram_bench.sh BUILDDIR
set -u
B=${1:?usage: tests/bench/ram_bench.sh BUILDDIR}
EXMAP=$B/exmap-mini
RUNSTAT=build/host/runstat
T=$(mktemp -d /tmp/ram-bench.XXXXXX)
P=
trap '[ -n "$P" ] && kill "$P" 2>/dev/null; rm -rf "$T"' EXIT
[ -r /proc/kpageflags ] || { echo "ram view: no /proc/kpageflags here: not measured"; exit 0; }
sleep 600 &
P=$!
bytes=$("$EXMAP" -p "$P" -b pagemap -c ram 2>/dev/null | awk -F, '$1 == "census" && $2 == "census" { print $4 }')
[ -n "$bytes" ] || { echo "ram view: no census: not measured"; exit 1; }
frames=$((bytes / $(getconf PAGESIZE)))
chunks=$(((frames * 8 + 65535) / 65536))
for i in 1 2 3 4 5 6 7; do
	"$RUNSTAT" "$T/view" "$EXMAP" -p "$P" -b pagemap -c ram 2>/dev/null
	"$RUNSTAT" "$T/dd" dd if=/proc/kpageflags of=/dev/null bs=64k count="$chunks" 2>/dev/null
done
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
paste "$T/view" "$T/dd" | awk '{ print $2 / $5 }' >"$T/ratio"
echo "ram view: $(awk '{ print $2 }' "$T/view" | med) s median over 7 runs, peak RSS $(awk '{ print $3 }' "$T/view" | med) KiB, one process scanned, a census of $frames frames ($((bytes >> 20)) MiB)"
echo "ram view: reading kpageflags alone (dd, 64 KiB reads): $(awk '{ print $2 }' "$T/dd" | med) s; the view over it: $(med <"$T/ratio") [$(sort -n "$T/ratio" | head -1)-$(sort -n "$T/ratio" | tail -1)]"
