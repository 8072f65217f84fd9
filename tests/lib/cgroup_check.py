#!/usr/bin/env python3
"""The cgroups view's checks (tests/lib/cgroup_phase.sh, cgroup_host.sh): one
"ok" or "FAIL" line each (checks.py).

  cgroup_check.py guest DIR CASE KIB EXMAP
      what tests/guest/cgroup_guest.sh sent back for CASE (DIR/cg.CASE.*):
      nomount, v2, hybrid, v1; EXMAP (this machine's) loads the guest's dump
  cgroup_check.py trend DIR CASE RATE COUNT
      trend -c of the guest's watch log (DIR/cg.CASE.trend) for its cgroups:
      l.CASE's heap grew RATE KiB/s, s.CASE held still
  cgroup_check.py host CSV BEFORE AFTER MOUNT SELF HIERARCHY EXMAP
      this machine's -c cgroups against memory.stat, read before and after
      it (BEFORE, AFTER: "PATH KEY VALUE" lines) under MOUNT, the memory
      hierarchy's directory; SELF, the cgroup exmap-mini (EXMAP) ran in,
      is charged its own memory while it runs: held to them widened by
      what exmap-mini can hold

The truths: the kernel's smaps_rollup Pss for every process (a group's
eff_resident is the sum of its processes'), and each cgroup's memory.stat
and charge file, read in the guest around exmap-mini's runs; a figure is
held to them where it did not move between the reads before and after.
"""
import csv
import io
import os
import resource
import subprocess
import sys

import checks

KIB = 1024
# the suite's TEST_PREFIX ("trixie: "), so that it counts these lines
PREFIX = os.environ.get("TEST_PREFIX", "")


def ok(what):
    checks.ok(PREFIX + what)


def fail(what, why):
    checks.fail(PREFIX + what, why)


def check(what, cond, why=""):
    checks.check(PREFIX + what, cond, why)


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def rows(text):
    """A CSV's rows as dicts, or [] when there is none."""
    if not text:
        return []
    return list(csv.DictReader(io.StringIO(text)))


def stat(text):
    """A flat-keyed file (memory.stat) as a dict of ints."""
    out = {}
    for line in (text or "").splitlines():
        k, _, v = line.partition(" ")
        if v.strip().isdigit():
            out[k] = int(v)
    return out


def pss(text):
    """ "PID KB" lines: pid -> Pss in bytes."""
    out = {}
    for line in (text or "").splitlines():
        f = line.split()
        if len(f) == 2:
            out[int(f[0])] = int(f[1]) * KIB
    return out


def num(v):
    return int(v) if v not in (None, "") else None


def wide(text):
    return [l for l in (text or "").splitlines() if len(l) > 80]


# memory.stat's keys for charged_anon, charged_file, charged_shmem
KEYS = {"v2": ("anon", "file", "shmem"), "v1": ("total_rss", "total_cache", "total_shmem")}
CHARGED = ("charged_anon", "charged_file", "charged_shmem")


def note_lines(text, word):
    """The notes after the rows ("charge: ...", "vanished: ...") that hold word."""
    return [l for l in (text or "").splitlines() if word in l and l.split(" ", 1)[0].endswith(":")]


def guest(d, case, kib, exmap):
    def f(name):
        return read(os.path.join(d, f"cg.{case}.{name}"))

    def rc(name):
        return (f(f"{name}.rc") or "?").strip()

    if case == "nomount":
        check("nomount: no cgroup file system mounted", (f("mounts") or "").strip() == "",
              f("mounts"))
        text = f("text") or ""
        check("nomount: cgroups runs, exit 0", rc("text") == "0", rc("text") + " " + (f("text.stderr") or ""))
        body = [l for l in text.splitlines()[1:] if l and not l[0].isdigit() and ":" not in l]
        check("nomount: one row, the root cgroup", len(body) == 1 and body[0].split()[0] == "/",
              repr(body))
        check("nomount: the root's charge is not known (-)",
              body and body[0].split()[-4:] == ["-"] * 4, repr(body))
        check("nomount: one line says no cgroup file system is mounted",
              len(note_lines(text, "no cgroup file system is mounted")) == 1, text)
        check("nomount: text within 80 columns", not wide(text), repr(wide(text)))
        loaded(d, case, exmap, f("dump"), None)
        return
    hier = "v2" if case == "v2" else "v1"
    mount = {"v2": "/sys/fs/cgroup", "hybrid": "/mnt/memcg", "v1": "/sys/fs/cgroup/memory"}[case]
    ids = (f("pids") or "").split("\n")
    if len(ids) < 2 or not ids[0].strip() or len(ids[1].split()) != 2:
        fail(f"{case}: the workload started", repr(f("pids")))
        return
    a_pids, b_pids = [int(ids[0])], [int(p) for p in ids[1].split()]
    ok(f"{case}: the workload started (a: {a_pids}, b: {b_pids})")
    groups = (f("groups") or "").split()
    if len(groups) != 2:
        fail(f"{case}: the groups' paths came back", repr(f("groups")))
        return
    ga, gb = groups
    for g, pids in ((ga, a_pids), (gb, b_pids)):
        for p in pids:
            lines = (f(f"cgroup_{p}") or "").splitlines()
            want = [l for l in lines if (l.startswith("0::") if hier == "v2" else
                                          "memory" in l.split(":")[1].split(","))]
            check(f"{case}: pid {p} is in {g} (/proc/PID/cgroup)",
                  len(want) == 1 and want[0].split(":", 2)[2] == g, repr(lines))
    if case == "hybrid":
        check("hybrid: the v2 tree holds no memory controller",
              "memory" not in (f("controllers") or "x memory"), f("controllers"))
    st0 = {ga: stat(f("stat0_a")), gb: stat(f("stat0_b"))}
    st1 = {ga: stat(f("stat_a")), gb: stat(f("stat_b"))}
    shm = KEYS[hier][2]
    check(f"{case}: memory.stat {shm} of a is the file, {kib} KiB", st1[ga].get(shm) == kib * KIB,
          f"{st1[ga].get(shm)}")
    check(f"{case}: memory.stat {shm} of b is 0 (it maps the file, charged to a)",
          st1[gb].get(shm) == 0, f"{st1[gb].get(shm)}")
    check(f"{case}: -c cgroups, exit 0", rc("csv") == "0", rc("csv") + " " + (f("csv.stderr") or ""))
    cg = {r["cgroup"]: r for r in rows(f("csv"))}
    procs = {int(r["pid"]): r for r in rows(f("procs"))}
    p0, p1 = pss(f("pss0")), pss(f("pss1"))
    steady = {p: v for p, v in p0.items() if p1.get(p) == v}
    for g, pids in ((ga, a_pids), (gb, b_pids)):
        r = cg.get(g)
        if not r:
            fail(f"{case}: {g} is a row", repr(sorted(cg)))
            continue
        check(f"{case}: {g} holds {len(pids)} process(es)", num(r["processes"]) == len(pids),
              r["processes"])
        if all(p in steady for p in pids):
            want = sum(steady[p] for p in pids)
            check(f"{case}: {g}'s eff_resident ({r['eff_resident']}) is its processes' Pss "
                  f"summed ({want}), within 1 KiB each", abs(num(r["eff_resident"]) - want) <
                  KIB * len(pids), f"{r['eff_resident']} against {want}")
        else:
            fail(f"{case}: {g}'s processes' Pss steady", repr([(p, p0.get(p), p1.get(p)) for p in pids]))
        for col, key in zip(CHARGED, KEYS[hier]):
            if st0[g].get(key) == st1[g].get(key):
                check(f"{case}: {g}'s {col} is memory.stat's {key} ({st1[g].get(key)})",
                      num(r[col]) == st1[g].get(key), f"{r[col]}")
        charge = [l for l in (f("charge_" + ("a" if g == ga else "b")) or "").split() if l.isdigit()]
        check(f"{case}: {g}'s charged is its {'memory.current' if hier == 'v2' else 'usage_in_bytes'}"
              f" ({charge}), within 64 KiB", charge and abs(num(r["charged"]) - int(charge[0])) <= 64 * KIB,
              f"{r['charged']}")
    if ga in cg and gb in cg:
        a, b = cg[ga], cg[gb]
        check(f"{case}: charge against share: a is charged the file's shmem, b nothing; the "
              f"shares split it (a {a['eff_resident']}, b {b['eff_resident']})",
              num(a["charged_shmem"]) == kib * KIB and num(b["charged_shmem"]) == 0 and
              num(a["eff_resident"]) < kib * KIB * 2 // 3 and num(b["eff_resident"]) > kib * KIB // 2,
              repr((a, b)))
    # every process of the groups: its eff_resident is its Pss (the guest's
    # others share busybox with processes that come and go between the reads)
    bad = [(p, procs.get(p, {}).get("eff_resident"), steady.get(p)) for p in a_pids + b_pids
           if p not in procs or p not in steady or
           abs(num(procs[p]["eff_resident"]) - steady[p]) >= KIB]
    check(f"{case}: each process of a and b: its eff_resident is its Pss, within 1 KiB",
          not bad, repr(bad))
    text = f("text") or ""
    where = {"v2": "cgroup v2 at /sys/fs/cgroup", "hybrid": "memory controller at /mnt/memcg",
             "v1": "memory controller at /sys/fs/cgroup/memory"}[case]
    check(f"{case}: text: the charge's hierarchy, found in mountinfo ({where})",
          any(l.startswith("charge: the kernel's") and l.endswith(where) for l in text.splitlines()),
          text)
    check(f"{case}: text within 80 columns", not wide(text), repr(wide(text)))
    names = [l.split()[0] + (" " + l.split()[1] if l.startswith("podman ") else "")
             for l in text.splitlines()[1:] if l and not l.split(" ", 1)[0].endswith(":")]
    want = [f"writer-{case}.service", "podman " + gb.split("libpod-")[1][:12]]
    check(f"{case}: text: the rows name the unit and the container ({want})",
          all(w in names for w in want), repr(names))
    check(f"{case}: CSV: the unit column says the same", cg.get(ga, {}).get("unit") == want[0] and
          cg.get(gb, {}).get("unit") == want[1], repr((cg.get(ga), cg.get(gb))))
    if hier == "v2" and "/" in cg:
        check("v2: the root's charge is not known, said in one line",
              cg["/"]["charged"] == "" and len(note_lines(text, "root cgroup has no memory.current")) == 1,
              text)
    if hier == "v1" and "/" in cg:
        check(f"{case}: the root's charge counts a and b's too: they are marked, one line",
              num(cg["/"]["charged"]) >= num(cg[ga]["charged"]) + num(cg[gb]["charged"]) and
              len(note_lines(text, "below another row")) == 1, text)
    loaded(d, case, exmap, f("dump"), (ga, gb, st1, hier))
    faults(case, f, rc, mount)


def loaded(d, case, exmap, dump, share):
    """The guest's dump, loaded here: every process's cgroup and the charges."""
    path = os.path.join(d, f"cg.{case}.dump")
    if not dump:
        fail(f"{case}: a dump came back", "none")
        return
    res = subprocess.run([exmap, "-l", path, "-c", "cgroups"], capture_output=True, text=True)
    cg = {r["cgroup"]: r for r in rows(res.stdout)}
    check(f"{case}: the dump loads here, its cgroups view (exit {res.returncode})",
          res.returncode == 0 and cg, res.stderr)
    pr = subprocess.run([exmap, "-l", path, "-c", "procs"], capture_output=True, text=True)
    total = sum(num(r["eff_resident"]) for r in rows(pr.stdout))
    check(f"{case}: the dump's cgroups add up to its processes ({total})",
          sum(num(r["eff_resident"]) for r in cg.values()) in range(total - len(cg), total + len(cg) + 1)
          and sum(num(r["processes"]) for r in cg.values()) == len(rows(pr.stdout)), repr(cg))
    ylines = [l for l in dump.splitlines() if " y " in l[:12]]
    check(f"{case}: the dump has a y line a process ({len(ylines)})",
          len(ylines) == len(rows(pr.stdout)), dump[:300])
    if share is None:
        check(f"{case}: the dump's one cgroup is the root, no charge (nomount)",
              list(cg) == ["/"] and cg["/"]["charged"] == "" and
              all(l.split()[3:5] == ["0", "nomount"] for l in ylines), repr(ylines[:2]))
        return
    ga, gb, st, hier = share
    for g in (ga, gb):
        r = cg.get(g, {})
        for col, key in zip(CHARGED, KEYS[hier]):
            check(f"{case}: the dump's {g} {col} is memory.stat's ({st[g].get(key)})",
                  num(r.get(col)) == st[g].get(key), f"{r.get(col)}")


def faults(case, f, rc, mount):
    text, err = f("exits") or "", f("exits.stderr") or ""
    victim = (f("exits_pid") or "").strip()
    check(f"{case}: a process killed as its cgroup is read: stopped there, exit 0",
          rc("exits") == "0" and "stopat: stopped at cgroup" in err, rc("exits") + " " + err)
    check(f"{case}: ... said in one line, nothing else on stderr",
          len(note_lines(text, "vanished")) == 1 and "vanished: 1 process exited" in text and
          err.strip().count("\n") == 0, text + err)
    check(f"{case}: ... its cgroup victim-{case}.service (it alone) has no row",
          f"victim-{case}" not in text, text)
    text, err = f("removed") or "", f("removed.stderr") or ""
    g = f"/system.slice/gone-{case}.service"
    check(f"{case}: a cgroup removed as its charge is read: stopped there, exit 0, removed",
          rc("removed") == "0" and f"stopat: stopped at {mount}{g}" in err and
          (f("removed_after") or "").strip() == "removed", rc("removed") + " " + err)
    row = [l for l in text.splitlines() if l.startswith(f"gone-{case}.service ")]
    check(f"{case}: ... its row keeps its share, its charge is - (not made up)",
          len(row) == 1 and row[0].split()[-4:] == ["-"] * 4 and row[0].split()[2] != "-", repr(row))
    check(f"{case}: ... said in one line, nothing else on stderr",
          note_lines(text, g) == [f"charge: not known, removed during the scan: {g}"] and
          err.strip().count("\n") == 0, text + err)


def trend(d, case, rate, count):
    def f(name):
        return read(os.path.join(d, f"cg.{case}.{name}"))

    check(f"{case}: watch ran ({count} samples), exit 0", (f("watch_rc") or "").strip() == "0",
          f("watch_err"))
    rs = {r["name"]: r for r in rows(f("trend")) if r["kind"] == "cgroup"}
    built = rate * KIB * 3600
    lg, sg = f"/system.slice/leak-{case}.service", f"/system.slice/steady-{case}.service"
    l, s = rs.get(lg), rs.get(sg)
    k0 = (f("pss_l0") or "0 0").split()
    k1 = (f("pss_l1") or "0 0").split()
    pss_rate = (int(k1[0]) - int(k0[0])) * KIB / (float(k1[1]) - float(k0[1])) * 3600 \
        if len(k0) == 2 and len(k1) == 2 and float(k1[1]) > float(k0[1]) else 0
    if not l or not s:
        fail(f"{case}: trend has a row for {lg} and {sg}", repr(sorted(rs)))
        return
    slope = int(l["slope"] or 0)
    check(f"{case}: trend: {lg}'s slope ({slope}/h) is the rate built ({built}/h) within 10%",
          abs(slope - built) <= built // 10, repr(l))
    check(f"{case}: trend: ... and the leaker's Pss's ({pss_rate:.0f}/h) within 10%",
          pss_rate and abs(slope - pss_rate) <= pss_rate / 10, repr(l))
    check(f"{case}: trend: {lg} is marked growing, {l['samples']} samples of {count}",
          l["grows"] == "1" and int(l["samples"]) >= count - 2, repr(l))
    check(f"{case}: trend: {sg}, steady, not marked; its slope under 64 KiB over the log",
          s["grows"] == "0" and abs(int(s["slope"] or 0)) < 64 * KIB * 3600 // count, repr(s))


def own_bound(exmap):
    """The most exmap-mini can add to its own cgroup's anon charge while it
    runs: it allocates nothing, so its writable segments (readelf's LOAD
    lines with W) and its stack, at most the stack limit."""
    out = subprocess.run(["readelf", "-lW", exmap], capture_output=True, text=True).stdout
    seg = sum(int(f[5], 16) for f in (l.split() for l in out.splitlines())
              if len(f) >= 7 and f[0] == "LOAD" and "W" in "".join(f[6:-1]))
    stack = resource.getrlimit(resource.RLIMIT_STACK)[0]
    if stack < 0 or stack > 64 << 20:
        stack = 64 << 20
    return seg + stack + 64 * 4096


def host(csv_path, before, after, mount, me, hier, exmap):
    """Each row's charges against memory.stat read just before and just after
    the run: equal where it stood still; where it moved, within the span of
    that movement widened by as much again (a figure may swing past either
    end and come back while the run reads it). exmap-mini's own cgroup (ME)
    also holds exmap-mini while it runs: its anon charge may be above the
    span by as much as exmap-mini can hold (own_bound), no more. On a busy
    machine, or where every process is in ME (CI), nothing may stand still:
    the figures are then held to their movement alone."""
    keys = KEYS["v1" if hier.startswith("v1") else "v2"]
    cg = rows(read(csv_path))
    check(f"host: -c cgroups gives rows ({len(cg)})", cg, read(csv_path))
    b, a = {}, {}
    for src, dst in ((before, b), (after, a)):
        for line in (read(src) or "").splitlines():
            path, key, value = line.rsplit(" ", 2)
            dst[(path, key)] = int(value)
    own = own_bound(exmap)
    held = moved = 0
    for r in cg:
        d = mount + (r["cgroup"] if r["cgroup"] != "/" else "")
        check(f"host: {r['cgroup']} is a directory of the memory hierarchy", os.path.isdir(d) or
              r["charged"] == "", d)
        for col, key in zip(CHARGED, keys):
            k = (r["cgroup"], key)
            if k not in b or k not in a:
                continue
            v = num(r[col])
            if b[k] == a[k] and r["cgroup"] != me:
                held += 1
                check(f"host: {r['cgroup']} {col} is memory.stat's {key} ({b[k]})",
                      v == b[k], r[col])
                continue
            moved += 1
            lo, hi = min(b[k], a[k]), max(b[k], a[k])
            lo, hi = lo - (hi - lo), hi + (hi - lo)
            what = "as it moved" if b[k] != a[k] else "around the run"
            if r["cgroup"] == me and col == "charged_anon":
                hi += own
                what = f"with exmap-mini's own at most {own}"
            check(f"host: {r['cgroup']} {col} within memory.stat's {key} {what} "
                  f"({b[k]} to {a[k]}: {lo}..{hi})", v is not None and lo <= v <= hi, r[col])
    print(f"# host: {held} figures stood still and were held exactly, {moved} moved "
          f"and were held to their movement")
    check(f"host: figures held to memory.stat ({held} exactly, {moved} within their movement)",
          held + moved > 0, "no row of -c cgroups has memory.stat figures read around it")


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "guest":
        guest(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    elif len(sys.argv) == 6 and sys.argv[1] == "trend":
        trend(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif len(sys.argv) == 9 and sys.argv[1] == "host":
        host(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
