# Captures on this machine, diff and budgets: run where it is sourced, by
# tests/suites/capture_host.sh (after its damage checks), with tests/lib/lib.sh
# and that suite's EXMAP, T, start, a.cap, a.csv, PIDS_a (workload a) and
# changed.log. Leaves b.cap (workload a again, new pids; s, a stripped copy;
# c, the workload on a copy of its own) and PIDS_c for the checks after it.

# --- diff: a known change ------------------------------------------------
# b: the same workload again (new pids), a stripped copy of it on its own
# file, and a fifth child. Expected figures come from the live scans.
kill -TERM "${PIDS_a%%,*}"
PIDS_a0=$PIDS_a
start a "$T/bin/wl" -n 3 -f 256 -c 256 -p 128 -z 64
PIDS_a=$PIDS
start s "$T/bin/wls" -n 2 -f 128 -c 64 -p 64
PIDS_s=$PIDS
start c "$T/bin/wl2" -n 2 -f 128 -c 64 -p 64
PIDS_c=$PIDS
pb="$PIDS_a,$PIDS_s,$PIDS_c"
"$EXMAP" -p "$pb" dump >"$T/b.cap"
"$EXMAP" -p "$pb" -c procs >"$T/b.csv"
"$EXMAP" -a -c diff "$T/a.cap" "$T/b.cap" >"$T/diff.csv" 2>"$T/err"; rc=$?
check_eq "diff -c exits 0" "$rc" 0
head -1 "$T/diff.csv" | grep -qx 'kind,name,cmdline,n_a,n_b,vm,mapped,resident,eff_mapped,eff_resident,sole,writable,swap' &&
	ok "diff CSV header" || no "diff CSV header" "$(head -1 "$T/diff.csv")"
# sum FILE PIDLIST COLUMN: a figure summed over processes, from a live procs CSV
sum() { awk -F, -v pids=",$2," -v c="$3" 'NR > 1 && index(pids, "," $1 ",") { s += $c } END { print s + 0 }' "$1"; }
# drow CMDPREFIX: the diff row of the processes whose command line starts so
drow() { awk -F, -v p="$1" '$1 == "proc" && index($3, p) == 1' "$T/diff.csv"; }
fields="vm mapped resident eff_mapped eff_resident sole writable swap"
row=$(drow "$T/bin/wl -n 3 ")
n=0 bad=
for f in $fields; do
	n=$((n + 1))
	want=$(( $(sum "$T/b.csv" "$PIDS_a" $((n + 2))) - $(sum "$T/a.csv" "$PIDS_a0" $((n + 2))) ))
	got=$(echo "$row" | cut -d, -f$((n + 5)))
	# the live CSV rounds each process's effective sizes; diff sums, then rounds
	d=$((got - want)); [ $d -lt 0 ] && d=$((-d))
	[ $d -le 4 ] || bad="$bad $f:$got/$want"
done
# the first workload's pids changed: its old figures are those of a.csv's pids
n=0 bad2=
row=$(drow "$T/bin/wls -n 2 ")
for f in $fields; do
	n=$((n + 1))
	want=$(sum "$T/b.csv" "$PIDS_s" $((n + 2)))
	got=$(echo "$row" | cut -d, -f$((n + 5)))
	d=$((got - want)); [ $d -lt 0 ] && d=$((-d))
	[ $d -le 3 ] || bad2="$bad2 $f:$got/$want"
done
echo "$row" | cut -d, -f4,5 | grep -qx '0,3' || bad2="$bad2 counts:$(echo "$row" | cut -d, -f4,5)"
check_eq "diff: a new workload (3 processes) adds its live figures (eff within 1 B a process), n 0>3" "${bad2:-none}" none
echo "$(drow "$T/bin/wl2 -n 2 ")" | cut -d, -f4,5 | grep -qx '0,3' &&
	ok "diff: a second new workload, on its own file, n 0>3" || no "diff: second workload" "$(drow "$T/bin/wl2 -n 2 ")"
sed 1d "$T/diff.csv" | awk -F, '$1 == "proc" { print ($10 < 0 ? -$10 : $10) }' >"$T/order"
sort -rn "$T/order" | cmp -s - "$T/order" && ok "diff: processes sorted by the largest change of eff_resident" ||
	no "diff: sorted by largest change"
grep -q "^file,$T/bin/wls,,0,3," "$T/diff.csv" && ok "diff: the stripped copy's file appears, nproc 0>3" ||
	no "diff: file row" "$(grep "wls" "$T/diff.csv")"
# A capture against itself: nothing changed, so no row but the notes; -a
# shows every row, each change 0.
"$EXMAP" diff "$T/a.cap" "$T/a.cap" >"$T/same.txt" 2>&1
check_eq "diff of a capture with itself: no row, the processes, files and cgroups said unchanged" \
	"$(grep -c '^ *[0-9]*>' "$T/same.txt") $(grep -c '^  ([0-9]* unchanged [a-z]* not shown: -a shows them)$' "$T/same.txt")" \
	"0 3" "$(head -5 "$T/same.txt")"
"$EXMAP" -a -c diff "$T/a.cap" "$T/a.cap" >"$T/same.csv" 2>&1
check_eq "-a diff of a capture with itself: every row (processes, files, ram lines), every change 0" \
	"$(awk -F, 'NR > 1 { if ($1 == "ram" || $1 == "charge") { if ($4 != $5) bad++ }
		else for (i = 6; i <= 13; i++) if ($i != 0) bad++
		k[$1]++ } END { print (k["proc"] > 0), (k["file"] > 0), (k["cgroup"] > 0), (k["charge"] > 0),
		(k["ram"] > 0), bad + 0 }' "$T/same.csv")" \
	"1 1 1 1 1 0" "$(head -3 "$T/same.csv")"
# each cgroup's change: its figures in b's cgroups view less a's
for c in a b; do "$EXMAP" -l "$T/$c.cap" -c cgroups >"$T/$c.cg" 2>/dev/null; done
check_eq "diff -c: each cgroup's eff_resident and process count, b's cgroups view less a's" \
	"$(awk -F, '$1 == "cgroup" { print $2, $4, $5, $10 }' "$T/diff.csv" | sort)" \
	"$(awk -F, 'FNR == 1 { f++; next } { n[$1, f] = $2; e[$1, f] = $3; p[$1] = 1 }
		END { for (k in p) print k, n[k, 1] + 0, n[k, 2] + 0, e[k, 2] - e[k, 1] }' "$T/a.cg" "$T/b.cg" |
		sort)"
"$EXMAP" diff "$T/a.cap" "$T/b.cap" >"$T/diff.txt"; rc=$?
"$EXMAP" -k diff "$T/a.cap" "$T/b.cap" >"$T/diffk.txt"
wide=$(cat "$T/diff.txt" "$T/diffk.txt" | awk 'length($0) > 80' | wc -l)
if [ $rc -eq 0 ] && [ "$wide" -eq 0 ] && grep -q '^processes: change from a to b' "$T/diff.txt" &&
   grep -q '^files: change from a to b' "$T/diff.txt"; then ok "diff text, and -k: both sections, 80 columns"
else no "diff text" "exit $rc, $wide wide lines"; fi
awk -F, '$1 == "proc" && index($3, "'"$T/bin/wl"' -n 3 ") == 1' "$T/diff.csv" | cut -d, -f4,5 | grep -qx '4,4' &&
	ok "diff: processes matched by name and command line across new pids (4>4)" ||
	no "diff: matched across pids" "$(drow "$T/bin/wl -n 3 ")"
check_eq "diff: the restarted workload's change is the live one (per figure; eff within 1 B a process)" "${bad:-none}" none
"$EXMAP" diff "$T/a.cap" "$T/changed.log" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 4 ] && grep -q "chunk 5 of 8" "$T/err" && ok "diff of a damaged capture: exit 4, chunk named" ||
	no "diff damaged" "exit $rc"

# --- diff's rows that would print alike ------------------------------------
# Two workloads of one binary, their command lines alike up to the last
# argument (-d DIR): cut to 80 columns on the right, both rows would read
# the same; each shows the part that tells it apart instead.
start d1 "$T/bin/wl" -n 1 -f 64 -c 64 -p 64
PIDS_d1=$PIDS
start d2 "$T/bin/wl" -n 1 -f 64 -c 64 -p 64
"$EXMAP" -p "$PIDS_d1,$PIDS" dump >"$T/d.cap"
"$EXMAP" diff "$T/a.cap" "$T/d.cap" >"$T/d.txt"
awk '/^processes:/ { p = 1; next } /^$/ { p = 0 } p && /^ *[0-9]+>/' "$T/d.txt" |
	sed -E 's/^ *[0-9]+>[0-9]+( +[^ ]+){8} //' >"$T/d.names"
check_eq "diff: two rows alike but for their last argument read apart, each its own, within 80 columns" \
	"$(sort "$T/d.names" | uniq -d | wc -l) $(grep -c '^wl .*/d1$' "$T/d.names") $(grep -c '^wl .*/d2$' "$T/d.names") $(awk 'length($0) > 80' "$T/d.txt" | wc -l)" \
	"0 1 1 0" "$(cat "$T/d.names")"
for p in $PIDS_d1 $PIDS; do kill -TERM "$p" 2>/dev/null; done

# --- budgets ---------------------------------------------------------------
eres=$(sum "$T/b.csv" "$PIDS_s" 7)
for mode in live capture; do
	if [ $mode = live ]; then src="-p $pb"; else src="-l $T/b.cap"; fi
	# shellcheck disable=SC2086
	"$EXMAP" $src --budget "proc:wls=$eres" procs >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -eq 0 ] && grep -q '^budget proc:wls: eff_resident .*: ok$' "$T/out"; then
		ok "$mode: budget proc:wls=$eres (exactly its eff_resident) holds, exit 0"
	else no "$mode: budget holds" "exit $rc: $(cat "$T/err") $(grep budget "$T/out")"; fi
	# shellcheck disable=SC2086
	"$EXMAP" $src --budget "proc:wls=$((eres - 1))" -c procs >"$T/out" 2>"$T/err"; rc=$?
	if [ $rc -eq 3 ] && grep -q "budget proc:wls exceeded: eff_resident is $eres bytes" "$T/err" &&
	   ! grep -q budget "$T/out"; then
		ok "$mode: budget proc:wls=$((eres - 1)) exceeded: exit 3, said on stderr, CSV clean"
	else no "$mode: budget exceeded" "exit $rc: $(cat "$T/err")"; fi
	# shellcheck disable=SC2086
	"$EXMAP" $src --budget "nosuch=1M" >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && grep -q "budget nosuch: no process or mapped file of that name" "$T/err" &&
		ok "$mode: a budget naming nothing: exit 2, said" || no "$mode: budget nosuch" "exit $rc: $(cat "$T/err")"
done
fres=$("$EXMAP" -l "$T/b.cap" -c files | awk -F, -v p="$T/bin/wls" '$1 == p { print $7 }')
# wls is both the processes' name and their file's basename: a plain name is
# the processes (proc:wls's line and figure), file:wls the file ($fres)
"$EXMAP" -l "$T/b.cap" --budget "wls=$((eres - 1))" procs >"$T/out" 2>"$T/err"; rc=$?
check_eq "a budget on a name that is a process's and a file's: the processes, exit 3" \
	"$rc $(grep -c "budget wls exceeded: eff_resident is $eres bytes" "$T/err")" "3 1" "$(cat "$T/err")"
"$EXMAP" -l "$T/b.cap" --budget "file:wls=$fres" procs >"$T/out" 2>"$T/err"; rc=$?
check_eq "file:wls: the mapped file, at its figure: ok" \
	"$rc $(grep -c '^budget file:wls: eff_resident .*: ok$' "$T/out")" "0 1" "$(cat "$T/err")"
"$EXMAP" -l "$T/b.cap" --budget "$(basename "$(sed -n 's/^file //p' "$T/s.out")")=1G" procs >"$T/out" 2>"$T/err"; rc=$?
check_eq "a budget on a data file's basename: the file's line (no process has that name)" \
	"$rc $(grep -c '^budget workload\.[A-Za-z0-9]*: eff_resident' "$T/out")" "0 1" "$(cat "$T/err" "$T/out" | tail -3)"
"$EXMAP" -l "$T/b.cap" --budget "$T/bin/wls=$fres" --budget "proc:wls=$((eres - 1))" \
	--budget "$T/bin/wls=$((fres - 4096))" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 3 ] && [ "$(grep -c '^budget .*EXCEEDED$' "$T/out")" -eq 2 ] &&
   [ "$(grep -c '^budget .*: ok$' "$T/out")" -eq 1 ]; then
	ok "file budgets ($fres bytes): at it ok, below it exceeded; three budgets, three lines"
else
	no "file budgets" "exit $rc: $(grep budget "$T/out")"
fi
"$EXMAP" -l "$T/changed.log" --budget "proc:wl=1" >/dev/null 2>"$T/err"; rc=$?
check_eq "a damaged capture and an exceeded budget: the higher code, 4" "$rc" 4
