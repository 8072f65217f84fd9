#!/usr/bin/env python3
"""The metrics view's checks for tests/suites/metrics_test.sh: one "ok" or
"FAIL" line each (checks.py).

  metrics_check.py text FILE DIR N [WHAT]
      FILE, exmap-mini -n N -l CAPTURE metrics, against the CLI's figures
      for the same capture: DIR/procs.csv, files.csv, ram.csv (-c procs,
      files, ram) and DIR/expect (source, unreadable, version, time_lo,
      time_hi, oddfile: KEY=VALUE lines)
  metrics_check.py server URL JOB FILE DIR N
      what a Prometheus server at URL returns for the job JOB (node_exporter
      reading FILE) through its HTTP API: the same checks, and FILE's series
      exactly
  metrics_check.py wait URL JOB...
      until every JOB's exmap_build_info and node_textfile_scrape_error are
      in (60 s at most); status 1 if not
  metrics_check.py until URL QUERY WANT
      until QUERY gives one series of value WANT (none: no series), 30 s
      at most; status 1 if not, and what it gave last
  metrics_check.py count FILE N WHAT
      FILE's series, counted from itself: 5 a process name, N files at
      most and other, the ram view's parts, the scan's
  metrics_check.py pids FILE PID...
      FILE made with --pids: each PID has its series, exmap_processes none
  metrics_check.py fleet URL JOB DIR HOST...
      one textfile directory DIR holding HOST.prom for each HOST (metrics
      of a capture taken there: host="HOST" on every series) and live.prom
      (this machine's, no host label), read by a node_exporter that
      Prometheus scrapes as JOB: node_exporter read them without error,
      and each host's series (and the unlabelled ones) are its file's,
      apart, value for value

A label's expected value is computed here from the CSV's bytes on its own:
UTF-8 as it is, every byte that is not part of valid UTF-8 as the text \\xNN
(Python's backslashreplace), names that come out the same summed.
"""
import csv
import io
import json
import sys
import time
import urllib.parse
import urllib.request

from checks import check, fail, ok

PROC_FAMILIES = {
    "exmap_process_eff_resident_bytes": "eff_resident",
    "exmap_process_sole_bytes": "sole",
    "exmap_process_resident_bytes": "resident",
    "exmap_process_swap_bytes": "swap",
}
SCAN_FAMILIES = ["exmap_build_info", "exmap_scan_info", "exmap_scan_duration_seconds",
                 "exmap_scan_time_seconds", "exmap_scan_unreadable_processes",
                 "exmap_capture_lost_processes"]
FILE_FAMILY = "exmap_file_eff_resident_bytes"
# the cgroups: the -n largest and other (eff_resident, processes), those
# named also their charges where known (tests/lib/cgroup_check.py has the rest)
CG_FAMILIES = {"exmap_cgroup_eff_resident_bytes": "eff_resident",
               "exmap_cgroup_processes": "processes",
               "exmap_cgroup_charged_bytes": "charged",
               "exmap_cgroup_charged_shmem_bytes": "charged_shmem"}
# The odd workload (tests/work/oddnames.c): its processes' names as labels,
# and how many have each; its file's name after its directory.
ODD_NAMES = {'a"b\\c d': 1, "caf\u00e9 \u00fcber": 1, "x\\xffy": 2, "nl\nname": 1,
             "\u03b1" * 7 + "\\xe2": 1, "many": 8}
ODD_FILE = '/q"b\\s \u00e9\\xff.dat'


def label(raw):
    return raw.decode("utf-8", "backslashreplace")


def read_csv(path):
    """Rows as dicts of bytes: the CSV's quoting undone, and the quote that
    csv_field puts before a leading = + - @ tab or CR."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "surrogateescape")
    rows = []
    for row in csv.DictReader(io.StringIO(text, newline="")):
        d = {}
        for k, v in row.items():
            if len(v) > 1 and v[0] == "'" and v[1] in "=+-@\t\r":
                v = v[1:]
            d[k] = v.encode("utf-8", "surrogateescape")
        rows.append(d)
    return rows


def expected(d):
    """The figures the metrics must hold, from the CLI's CSV."""
    procs, files, ram = {}, {}, {}
    for r in read_csv(f"{d}/procs.csv"):
        p = procs.setdefault(label(r["name"]), {"n": 0, **{k: 0 for k in PROC_FAMILIES.values()}})
        p["n"] += 1
        for k in PROC_FAMILIES.values():
            p[k] += int(r[k])
    for r in read_csv(f"{d}/files.csv"):
        path = r["path"] + (b" (deleted)" if r["deleted"] == b"1" else b"")
        files[label(path)] = files.get(label(path), 0) + int(r["eff_resident"])
    for r in read_csv(f"{d}/ram.csv"):
        if r["category"] == b"part":
            ram[label(r["subcategory"])] = int(r["bytes"])
        if r["category"] == b"memtotal":
            ram_total = int(r["bytes"])
    kv = dict(line.rstrip("\n").split("=", 1) for line in open(f"{d}/expect"))
    return procs, files, ram, ram_total, kv


def compare_cgroups(what, series, d, n):
    """The cgroup families against the CLI's -c cgroups of the same capture."""
    cg = {label(r["cgroup"]): r for r in read_csv(f"{d}/cgroups.csv")}
    eff = {k: int(r["eff_resident"]) for k, r in cg.items()}
    top = sorted(eff, key=lambda k: (-eff[k], k.encode("utf-8", "surrogateescape")))[:n]
    rest = set(eff) - set(top)
    for fam, col in CG_FAMILIES.items():
        got = by(series, fam, "cgroup")
        want = {k: int(cg[k][col]) for k in top if cg[k][col] != b""}
        if col in ("eff_resident", "processes"):
            want["other"] = sum(int(cg[k][col]) for k in rest)
        check(f"{what}: {fam}: the {len(top)} largest of {len(cg)} cgroups"
              f"{' and other' if 'other' in want else ', where charged'}, as the CLI's",
              got == want, f"{[(k, got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)][:3]}")
    return len(top)


def unescape(s, i):
    """A quoted label value from s[i] (after its quote): the value, the index past it."""
    out = []
    while s[i] != '"':
        if s[i] == "\\":
            out.append({"\\": "\\", '"': '"', "n": "\n"}[s[i + 1]])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out), i + 1


def parse(path):
    """The exposition text (strict UTF-8): {family: {frozenset of labels:
    value}}, and each family's TYPE."""
    series, types = {}, {}
    for line in open(path, encoding="utf-8", newline="\n"):
        line = line.rstrip("\n")
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            types[name] = kind
            continue
        if line.startswith("#") or not line:
            continue
        i = 0
        while line[i] not in "{ ":
            i += 1
        name, labels = line[:i], []
        if line[i] == "{":
            i += 1
            while line[i] != "}":
                eq = line.index("=", i)
                key = line[i:eq]
                value, i = unescape(line, eq + 2)
                labels.append((key, value))
                if line[i] == ",":
                    i += 1
            i += 1
        series.setdefault(name, {})[frozenset(labels)] = float(line[i:].strip())
    return series, types


def by(series, family, key):
    """One family's series as {value of label key: value} (other labels: none)."""
    return {dict(ls).get(key): v for ls, v in series.get(family, {}).items()}


def without_host(what, series, host):
    """Every series carries host="HOST" (a capture's board); the series without it."""
    bad = [(f, sorted(ls)) for f, v in series.items() for ls in v if dict(ls).get("host") != host]
    check(f"{what}: every series carries host=\"{host}\", the capture's node name", not bad,
          f"{len(bad)} do not: {bad[:2]}")
    return {f: {frozenset((k, x) for k, x in ls if k != "host"): val for ls, val in v.items()}
            for f, v in series.items()}


def compare(what, series, d, n):
    procs, files, ram, ram_total, kv = expected(d)
    series = without_host(what, series, kv["host"])
    for fam, col in PROC_FAMILIES.items():
        got = by(series, fam, "name")
        want = {k: p[col] for k, p in procs.items()}
        bad = [k for k in set(got) | set(want) if got.get(k) != want.get(k)]
        check(f"{what}: {fam}: each of {len(want)} names as the CLI's sums",
              not bad, f"{len(bad)} differ, e.g. {sorted(bad, key=repr)[:3]!r}: "
              f"{[(got.get(k), want.get(k)) for k in sorted(bad, key=repr)[:3]]}")
        check(f"{what}: {fam}: the family's sum", sum(got.values()) == sum(want.values()),
              f"{sum(got.values())} != {sum(want.values())}")
    got = by(series, "exmap_processes", "name")
    want = {k: p["n"] for k, p in procs.items()}
    check(f"{what}: exmap_processes: each name's count, {sum(want.values())} in all",
          got == want, f"{[(k, got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)][:3]}")
    for name, count in ODD_NAMES.items():
        check(f"{what}: the odd name {name!r}: exactly, {count} process{'es' if count > 1 else ''}",
              got.get(name) == count, f"got {got.get(name)}")

    got = by(series, FILE_FAMILY, "path")
    other = got.pop("other", None)
    shown = set(got)
    rest = set(files) - shown
    check(f"{what}: {FILE_FAMILY}: the {min(n, len(files))} largest of {len(files)} files",
          len(shown) == min(n, len(files)) and shown <= set(files) and
          (not rest or min(files[k] for k in shown) >= max(files[k] for k in rest)),
          f"{len(shown)} shown, {sorted(shown - set(files))[:3]} unknown")
    bad = [k for k in shown & set(files) if got[k] != files[k]]
    check(f"{what}: {FILE_FAMILY}: each file's figure as the CLI's", not bad,
          f"{[(k, got[k], files[k]) for k in bad[:3]]}")
    check(f"{what}: {FILE_FAMILY}{{path=\"other\"}}: the rest, summed",
          other == sum(files[k] for k in rest), f"{other} != {sum(files[k] for k in rest)}")
    oddfile = kv["oddfile"] + ODD_FILE
    if oddfile in files and oddfile in shown:
        ok(f"{what}: the odd file {oddfile!r}: exactly, {files[oddfile]} bytes")
    elif n >= len(files):
        fail(f"{what}: the odd file {oddfile!r}: exactly", f"not among {sorted(shown)[:5]}")
    got_sum = sum(got.values()) + (other or 0)
    # files and processes split the same pages; each CSV row (a process, a
    # file) rounds its share to a byte: within a byte a row
    check(f"{what}: {FILE_FAMILY}: the family's sum is the files' and the processes'",
          got_sum == sum(files.values()) and
          abs(got_sum - sum(p["eff_resident"] for p in procs.values())) <=
          sum(p["n"] for p in procs.values()) + len(files),
          f"{got_sum}, files {sum(files.values())}, processes "
          f"{sum(p['eff_resident'] for p in procs.values())}")

    got = by(series, "exmap_ram_bytes", "part")
    check(f"{what}: exmap_ram_bytes: the ram view's {len(ram)} parts", got == ram,
          f"{[(k, got.get(k), ram.get(k)) for k in set(got) | set(ram) if got.get(k) != ram.get(k)][:4]}")
    check(f"{what}: exmap_ram_bytes: they add up to MemTotal ({ram_total})",
          sum(got.values()) == ram_total, f"{sum(got.values())}")

    scan = {f: series.get(f, {}) for f in SCAN_FAMILIES}
    info = [dict(ls) for ls in scan["exmap_scan_info"]]
    check(f"{what}: exmap_scan_info: source {kv['source']}, from the capture",
          info == [{"source": kv["source"], "from": "capture"}], f"{info}")
    check(f"{what}: exmap_build_info: version {kv['version']}",
          [dict(ls) for ls in scan["exmap_build_info"]] == [{"version": kv["version"]}],
          f"{scan['exmap_build_info']}")
    t = list(scan["exmap_scan_time_seconds"].values())
    check(f"{what}: exmap_scan_time_seconds: when the dump ran", len(t) == 1 and
          int(kv["time_lo"]) <= t[0] <= int(kv["time_hi"]), f"{t}, {kv['time_lo']}..{kv['time_hi']}")
    check(f"{what}: exmap_scan_unreadable_processes: {kv['unreadable']}, as the dump said",
          list(scan["exmap_scan_unreadable_processes"].values()) == [int(kv["unreadable"])],
          f"{scan['exmap_scan_unreadable_processes']}")
    check(f"{what}: exmap_capture_lost_processes: 0",
          list(scan["exmap_capture_lost_processes"].values()) == [0],
          f"{scan['exmap_capture_lost_processes']}")
    check(f"{what}: no scan duration from a capture (it does not say)",
          not scan["exmap_scan_duration_seconds"], f"{scan['exmap_scan_duration_seconds']}")

    compare_cgroups(what, series, d, n)
    # The series: 5 a process name, the files shown and other, the parts, the scan's.
    count_series(what, series, n, len(procs), len(files), len(ram))


def count_series(what, series, n, names, files, parts):
    scan = {f: series.get(f, {}) for f in SCAN_FAMILIES}
    total = sum(len(v) for v in series.values())
    nscan = sum(len(v) for v in scan.values())
    nproc = int(sum(series.get("exmap_processes", {}).values()))
    ncg = sum(len(series.get(f, {})) for f in CG_FAMILIES)
    named = len(series.get("exmap_cgroup_processes", {})) - 1
    check(f"{what}: the cgroups' series, {ncg}: 4 at most for each of the {named} named "
          f"({n} at most), and 2 for other", ncg == 0 or
          (0 <= named <= n and ncg <= 4 * named + 2 and
           len(series["exmap_cgroup_eff_resident_bytes"]) == named + 1), f"{ncg}")
    bound = 5 * names + min(n, files) + 1 + parts + nscan + ncg
    print(f"series: {total} for {nproc} processes of {names} names, {files} files "
          f"(-n {n}), {parts} ram parts, {ncg} of cgroups")
    check(f"{what}: the series: 5 a process name ({names}), {min(n, files)} files and other, "
          f"{parts} parts, {nscan} of the scan, {ncg} of cgroups: {bound}", total == bound,
          f"{total}")
    check(f"{what}: the scan's series, {nscan}: 5 at most (build, source, "
          f"duration or lost processes, time, unreadable processes)", 0 < nscan <= 5, f"{nscan}")
    check(f"{what}: each process family one series a name",
          all(len(series.get(f, {})) == names for f in list(PROC_FAMILIES) + ["exmap_processes"]),
          f"{[len(series.get(f, {})) for f in PROC_FAMILIES]}")


def cmd_count(path, n, what):
    series, _ = parse(path)
    n = int(n)
    names = len(series.get("exmap_processes", {}))
    files = len(series.get(FILE_FAMILY, {})) - 1
    check(f"{what}: at most {n} files and other", 0 <= files <= n and
          any(dict(ls).get("path") == "other" for ls in series.get(FILE_FAMILY, {})), f"{files}")
    count_series(what, series, n, names, files, len(series.get("exmap_ram_bytes", {})))


def cmd_text(path, d, n, what="file"):
    series, types = parse(path)
    bad = [f for f in series if types.get(f) != "gauge"]
    check(f"{what}: every family a gauge with its TYPE", not bad, f"{bad}")
    compare(what, series, d, int(n))


def query(url, q):
    with urllib.request.urlopen(f"{url}/api/v1/query?" + urllib.parse.urlencode({"query": q}),
                                timeout=10) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError(f"{q}: {body}")
    return body["data"]["result"]


def cmd_server(url, job, path, d, n):
    file_series, _ = parse(path)
    series = {}
    for r in query(url, f'{{__name__=~"exmap_.+",job="{job}"}}'):
        m = dict(r["metric"])
        name = m.pop("__name__")
        m.pop("job")
        m.pop("instance")
        series.setdefault(name, {})[frozenset(m.items())] = float(r["value"][1])
    what = f"Prometheus, job {job}"
    err = query(url, f'node_textfile_scrape_error{{job="{job}"}}')
    check(f"{what}: node_exporter read the file without error",
          [r["value"][1] for r in err] == ["0"], f"{err}")
    diff = [(f, sorted(dict(ls).items())) for f in set(series) | set(file_series)
            for ls in set(series.get(f, {})) ^ set(file_series.get(f, {}))]
    diff += [(f, sorted(dict(ls).items())) for f in set(series) & set(file_series)
             for ls in set(series[f]) & set(file_series[f]) if series[f][ls] != file_series[f][ls]]
    check(f"{what}: the file's {sum(len(v) for v in file_series.values())} series, each value",
          not diff, f"{len(diff)} differ: {diff[:3]}")
    compare(what, series, d, int(n))


def cmd_wait(url, jobs):
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            have = {r["metric"].get("job") for r in query(url, "exmap_build_info")}
            up = {r["metric"].get("job") for r in query(url, "node_textfile_scrape_error")}
            if set(jobs) <= have and set(jobs) <= up:
                return 0
        except OSError:
            pass
        time.sleep(0.5)
    print(f"no exmap_build_info for {jobs} at {url} after 60 s", file=sys.stderr)
    return 1


def cmd_until(url, q, want):
    deadline, got = time.time() + 30, None
    while time.time() < deadline:
        try:
            got = [r["value"][1] for r in query(url, q)]
        except OSError as e:
            got = str(e)
        if got == ([] if want == "none" else [want]):
            return 0
        time.sleep(0.25)
    print(f"{q}: {got} after 30 s, want {want}", file=sys.stderr)
    return 1


def cmd_pids(path, pids):
    series, _ = parse(path)
    for fam in PROC_FAMILIES:
        have = {dict(ls).get("pid") for ls in series.get(fam, {})}
        check(f"--pids: {fam}: a series for each of the {len(pids)} processes",
              set(pids) <= have and None not in have, f"missing {set(pids) - have}")
    check("--pids: exmap_processes stays by name",
          all("pid" not in dict(ls) for ls in series.get("exmap_processes", {})), "a pid label")


def cmd_fleet(url, job, d, hosts):
    series = {}
    for r in query(url, f'{{__name__=~"exmap_.+",job="{job}"}}'):
        m = dict(r["metric"])
        name = m.pop("__name__")
        m.pop("job")
        m.pop("instance")
        series.setdefault(m.get("host", ""), {}).setdefault(name, {})[frozenset(m.items())] = \
            float(r["value"][1])
    what = f"Prometheus, job {job}"
    err = query(url, f'node_textfile_scrape_error{{job="{job}"}}')
    check(f"{what}: node_exporter read the directory's {len(hosts) + 1} files without error",
          [r["value"][1] for r in err] == ["0"], f"{err}")
    check(f"{what}: the series of {len(hosts)} boards and of this machine, apart",
          sorted(series) == sorted(hosts + [""]), f"hosts {sorted(series)}")
    for host in hosts + [""]:
        file_series, _ = parse(f"{d}/{host or 'live'}.prom")
        got = series.get(host, {})
        diff = [(f, sorted(dict(ls).items())) for f in set(got) | set(file_series)
                for ls in set(got.get(f, {})) ^ set(file_series.get(f, {}))]
        diff += [(f, sorted(dict(ls).items())) for f in set(got) & set(file_series)
                 for ls in set(got[f]) & set(file_series[f]) if got[f][ls] != file_series[f][ls]]
        check(f"{what}: {'host=' + repr(host) if host else 'this machine (no host label)'}: "
              f"its file's {sum(len(v) for v in file_series.values())} series, each value",
              not diff, f"{len(diff)} differ: {diff[:3]}")


def main(argv):
    cmd = argv[1]
    if cmd == "text":
        cmd_text(*argv[2:])
    elif cmd == "server":
        cmd_server(*argv[2:])
    elif cmd == "wait":
        return cmd_wait(argv[2], argv[3:])
    elif cmd == "until":
        return cmd_until(*argv[2:])
    elif cmd == "count":
        cmd_count(*argv[2:])
    elif cmd == "pids":
        cmd_pids(argv[2], argv[3:])
    elif cmd == "fleet":
        cmd_fleet(argv[2], argv[3], argv[4], argv[5:])
    else:
        print(f"metrics_check.py: {cmd}: not a command", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
