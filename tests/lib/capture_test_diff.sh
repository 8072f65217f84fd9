# The board's captures, diff and budgets: run where it is sourced, by
# tests/suites/capture_test.sh (its step 4), with tests/lib/lib.sh and that
# suite's X, w, o, N, FILE_KIB, PRIV_A, PRIV_B, w1, w2 and first: diff of
# captures A and B against the live figures the board sent and the
# workloads' parameters; --budget from capture A, and live on the board.

# 4. diff and budgets.
"$X" -a -c diff "$w/capA.log" "$w/capB.log" >"$w/host/diff.csv" 2>"$w/host/diff.err"
echo $? >"$w/host/diff.rc"
"$X" -a -c -s resident diff "$w/capA.log" "$w/capB.log" >"$w/host/diff.res.csv" 2>"$w/host/diff.res.err"
"$X" diff "$w/capA.log" "$w/capB.log" >"$w/host/diff.txt" 2>"$w/host/diff.txt.err"
echo $? >"$w/host/diff.txt.rc"
check_eq "diff A B: exit 0" "$(cat "$w/host/diff.rc") $(cat "$w/host/diff.txt.rc")" "0 0" \
	"exit $(cat "$w/host/diff.rc") (text $(cat "$w/host/diff.txt.rc")): $(first "$w/host/diff.err")"
python3 - "$o" "$w/host" $N $PRIV_A $PRIV_B "$w1" "$w2" >"$w/host/diff.checks" <<'EOF'
import csv, sys
o, h, n, pa, pb, w1, w2 = sys.argv[1:]
n, pa, pb = int(n), int(pa), int(pb)
w1, w2 = w1.split(), w2.split()
FIG = ["vm", "mapped", "resident", "eff_mapped", "eff_resident", "sole", "writable", "swap"]
HEAD = "kind,name,cmdline,n_a,n_b," + ",".join(FIG)
def out(ok, what, why=""):
    print("ok   " + what if ok else "FAIL " + what + (": " + why if why else ""))
def rows(p):
    try:
        return list(csv.DictReader(open(p, newline="")))
    except OSError:
        return []
def cmdlines(p):
    d = {}
    for l in open(p):
        pid, _, c = l.rstrip("\n").partition("\t")
        d[pid] = c
    return d
# Expected, from the live figures: per (name, cmdline) the processes and
# their summed figures; per file path nproc and figures; B minus A.
def procs(side):
    live = rows("%s/%s" % (o, "procs.c" if side == "A" else "B.procs.c"))
    cmd = cmdlines("%s/cmdlines.%s" % (o, side))
    g = {}
    for r in live:
        k = ("proc", r["name"], cmd.get(r["pid"], "?"))
        e = g.setdefault(k, [0] + [0] * len(FIG))
        e[0] += 1
        for i, f in enumerate(FIG):
            e[i + 1] += int(r[f])
    return g
def files(side):
    live = rows("%s/%s" % (o, "files.c" if side == "A" else "B.files.c"))
    return {("file", r["path"], ""): [int(r["nproc"])] + [int(r[f]) for f in FIG] for r in live}
exp = {}
for get in (procs, files):
    a, b = get("A"), get("B")
    for k in set(a) | set(b):
        ea, eb = a.get(k, [0] * 9), b.get(k, [0] * 9)
        exp[k] = [ea[0], eb[0]] + [eb[i] - ea[i] for i in range(1, 9)]
got_rows = rows(h + "/diff.csv")
head = open(h + "/diff.csv").readline().rstrip("\r\n") if got_rows else ""
out(head == HEAD, "diff -c: the header is " + HEAD, "got '%s'" % head)
got = {}
# the ram view's lines (kind ram: name, and A's and B's bytes) are not the
# processes' and files' figures; the board's are checked to be there
ram_rows = [r for r in got_rows if r["kind"] == "ram"]
out(len(ram_rows) > 0 and all(r["n_a"].lstrip("-").isdigit() and r["n_b"].lstrip("-").isdigit()
                              for r in ram_rows),
    "diff -c: the ram view's lines that changed, each with A's and B's bytes (%d)" % len(ram_rows))
# cgroup rows (the processes' figures by cgroup) and their charges: the
# board has no cgroup mount, its processes all in the root, whose change is
# the processes' summed
cg_rows = [r for r in got_rows if r["kind"] == "cgroup"]
proc_eff = sum(int(r["eff_resident"]) for r in got_rows if r["kind"] == "proc")
out(all(r["name"] == "/" for r in cg_rows) and
    abs(sum(int(r["eff_resident"]) for r in cg_rows) - proc_eff) <= len(got_rows),
    "diff -c: the board's one cgroup, /: its change is its processes' (%d)" % proc_eff,
    "%s" % [(r["name"], r["eff_resident"]) for r in cg_rows])
got_rows = [r for r in got_rows if r["kind"] in ("proc", "file")]
for r in got_rows:
    try:
        got[(r["kind"], r["name"], r["cmdline"])] = [int(r["n_a"]), int(r["n_b"])] + [int(r[f]) for f in FIG]
    except (KeyError, ValueError, TypeError) as e:
        out(False, "diff -c: a row parses", "%s: %s" % (e, r))
        break
# every row as the live figures say; rows left out only if nothing changed.
# The live rows' effective sizes are rounded each: their sum may be off by
# half a byte a row (the diff rounds the exact sum).
def same(g, e):
    slack = g[0] + g[1] + 1
    return all(abs(g[i] - e[i]) <= (slack if FIG[i - 2].startswith("eff_") else 0)
               if i >= 2 else g[i] == e[i] for i in range(10))
bad = []
for k in set(exp) | set(got):
    e = exp.get(k)
    g = got.get(k)
    if g is None:
        if e[0] != e[1] or any(e[2:]):
            bad.append("missing %s %s" % (k, e))
    elif e is None or not same(g, e):
        bad.append("%s: got %s, live says %s" % (k, g, e))
out(not bad and got, "diff -c: every row (%d) is live B minus live A (process counts, 8 figures)" % len(got),
    "; ".join(bad[:4]) + (" (+%d)" % (len(bad) - 4) if len(bad) > 4 else ""))
# the known change: W1 (-p pa) out, W2 (-p pb) in, everything else the same
c1 = cmdlines(o + "/cmdlines.A").get(w1[0] if w1 else "", "?")
c2 = cmdlines(o + "/cmdlines.B").get(w2[0] if w2 else "", "?")
r1, r2 = got.get(("proc", "workload", c1)), got.get(("proc", "workload", c2))
out(r1 is not None and r1[:2] == [n + 1, 0], "diff: W1 (%s) in A only, %d processes" % (c1, n + 1), "%s" % r1)
out(r2 is not None and r2[:2] == [0, n + 1], "diff: W2 (%s) in B only, %d processes" % (c2, n + 1), "%s" % r2)
if r1 and r2:
    d = n * (pb - pa) * 1024
    s = [r1[i] + r2[i] for i in range(2, 10)]
    want = [d, d, d, d, d, d, d, 0]
    out(s == want, "diff: W2 - W1 = %d children x %d KiB more private memory = %d bytes in vm, mapped, resident, "
        "eff_mapped, eff_resident, sole, writable (swap 0)" % (n, pb - pa, d), "got %s" % s)
# unchanged processes: the programs and the shells are the same in A and B
same = [k for k in got if k[0] == "proc" and "/test/sbin/prog" in k[2]]
out(len(same) == 1 and got[same[0]][:2] == [1, 1] and not any(got[same[0]][2:]),
    "diff: the stripped program, the same in A and B: n 1 and 1, no change", "%s" % [got[k] for k in same])
# order: processes, then files, each by |eff_resident| (by |resident| with -s resident)
for f, p in (("eff_resident", "diff.csv"), ("resident", "diff.res.csv")):
    r = rows(h + "/" + p)
    kinds = [x["kind"] for x in r]
    ok = bool(r) and kinds == sorted(kinds, key=lambda k: k != "proc")
    for k in ("proc", "file"):
        v = [abs(int(x[f])) for x in r if x["kind"] == k]
        ok = ok and v == sorted(v, reverse=True)
    out(ok, "diff -c%s: processes, then files, each by largest absolute change of %s"
        % (" -s resident" if f == "resident" else "", f), "%s" % [(x["kind"], x[f]) for x in r][:12])
EOF
[ $? -eq 0 ] || no "the diff checks ran to their end" "$(tail -n 2 "$w/host/diff.checks")"
tally "$w/host/diff.checks"

# Budgets: W1's processes summed, and its data file, from capture A.
effw=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["name"] == "workload" { s += $h["eff_resident"] } END { print s + 0 }' "$o/procs.c")
dfile=$(sed -n 's/^file //p' "$o/w1")
efff=$(awk -F, -v p="$dfile" 'NR > 1 && $1 == p { print $7 }' "$o/files.c")
check_eq "W1's data file is $FILE_KIB KiB of eff_resident live (read whole by $N children)" \
	"$efff" $((FILE_KIB * 1024))
budget() { # WANT_RC WHAT BUDGET...: -l A procs with those budgets
	_want=$1 _what=$2
	shift 2
	_args=
	for _b; do _args="$_args --budget $_b"; done
	"$X" $_args -l "$w/capA.log" procs >"$w/host/budget.out" 2>"$w/host/budget.err"
	_rc=$?
	# the report as live, and a line for each budget
	grep -v '^budget ' "$w/host/budget.out" >"$w/host/budget.report"
	if [ $_rc = "$_want" ] && cmp -s "$o/procs" "$w/host/budget.report" &&
		{ [ "$_want" = 0 ] || grep -q "$_bname" "$w/host/budget.err"; }; then
		ok "--budget $* -l A: $_what (exit $_want)"
	else
		no "--budget $* -l A: $_what (exit $_want)" \
			"exit $_rc: $(first "$w/host/budget.err") $(diff "$o/procs" "$w/host/budget.report" | head -4 | tr '\n' ' ')"
	fi
}
kw=$((effw / 1024))
_bname=workload
budget 0 "W1's $((N + 1)) processes under" "proc:workload=$((kw + 2))K"
budget 3 "over, named on stderr" "proc:workload=$((kw - 1))K"
_bname=$dfile
budget 0 "a file at its known $FILE_KIB KiB: not over" "$dfile=${FILE_KIB}K"
budget 3 "a file over, named on stderr" "$dfile=$((FILE_KIB - 4))K"
budget 3 "one of two over" "proc:workload=$((kw + 2))K" "$dfile=$((FILE_KIB - 4))K"
if [ "$(cat "$o/budget.under.rc")" = 0 ] && [ "$(cat "$o/budget.over.rc")" = 3 ] &&
	grep -q workload "$o/budget.over.err"; then
	ok "--budget live on the board: under exits 0, over exits 3 and says so"
else
	no "--budget live on the board: under exits 0, over exits 3 and says so" \
		"under $(cat "$o/budget.under.rc"), over $(cat "$o/budget.over.rc"): $(first "$o/budget.over.err")"
fi
