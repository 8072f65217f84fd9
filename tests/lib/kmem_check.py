#!/usr/bin/python3
"""The kernel's memory by owner, judged (tests/lib/kmem_phase.sh).

usage: kmem_check.py CASE OUTDIR EXMAP LEAK_KIND LEAK_KIB

OUTDIR is what tests/guest/kmem_guest.sh framed back from a guest with the
test module xmkmem (tests/kmod/xmkmem.c). The truths: what the module says it
holds (its own count), the kernel's files read here independently
(vmallocinfo: its [xmkmem] areas with the vmalloc flag, their pages;
allocinfo: its [xmkmem] call sites), the amounts the module allocates (16
kmalloc blocks of 4 KiB, 4 alloc_pages blocks of 16 KiB, 256 KiB of vmalloc)
and the leak's rate. Each check prints "ok   CASE: WHAT" or "FAIL CASE: WHAT: why".
"""
import csv
import io
import re
import subprocess
import sys

CASE, OUT, EXMAP, LEAK_KIND, LEAK_KIB = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
PAGE = 4096
KMALLOC, PAGES, VMALLOC = 16 * 4096, 4 * 16384, 256 << 10
RATE = LEAK_KIB << 10


def check(what, cond, why=""):
    print(f"{'ok  ' if cond else 'FAIL'} {CASE}: {what}{'' if cond else ': ' + str(why)}", flush=True)


def read(name, default=None):
    try:
        with open(f"{OUT}/{name}", encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        if default is None:
            raise
        return default


def rc(name):
    return read(name + ".rc", "missing").strip()


def state(name):
    """The module's /proc/xmkmem: {kmalloc, pages, vmalloc: bytes, leak: [bytes, kind, rate, ms]}."""
    s = {}
    for line in read(name).splitlines():
        w = line.split()
        s[w[0]] = [int(w[1]), w[2], int(w[3]), int(w[4])] if w[0] == "leak" else int(w[1])
    return s


def vmallocinfo(text, module="xmkmem"):
    """The module's areas with the vmalloc flag: (bytes, {function: bytes})."""
    total, by = 0, {}
    for line in text.splitlines():
        m = re.search(r" (\S+?)\+\S+ \[" + module + r"[\] ].* pages=(\d+)", line)
        if not m or "vmalloc" not in line.split("pages=")[1].split()[1:]:
            continue
        b = int(m.group(2)) * PAGE
        total += b
        by[m.group(1)] = by.get(m.group(1), 0) + b
    return total, by


def allocinfo(text, module="xmkmem"):
    """The module's call sites: (bytes, {function: bytes})."""
    total, by = 0, {}
    for line in text.splitlines():
        w = line.split()
        if len(w) < 5 or w[3] != f"[{module}]" or not w[4].startswith("func:"):
            continue
        total += int(w[0])
        by[w[4][5:]] = by.get(w[4][5:], 0) + int(w[0])
    return total, by


def owner_rows(text, owner="xmkmem"):
    """The ram view's CSV rows of an owner: {(source, site or ''): bytes}."""
    rows = {}
    for r in csv.reader(io.StringIO(text)):
        if len(r) == 5 and r[0] == "owner" and r[1] == owner:
            rows[(r[4], r[2])] = int(r[3])
    return rows


def site(rows, source, func):
    """The bytes of the site whose name starts with func (allocinfo's: "func path:line")."""
    v = [b for (s, n), b in rows.items() if s == source and (n == func or n.startswith(func + " "))]
    return v[0] if len(v) == 1 else None


def near(a, b, tol):
    return a is not None and b is not None and abs(a - b) <= tol


def main():
    alloc = CASE == "allocinfo"
    check("insmod", rc("insmod") == "0", read("insmod.stderr", ""))
    st = state("state")
    check("the module holds 64 KiB by kmalloc, 64 KiB by alloc_pages, 256 KiB by vmalloc (its count)",
          (st["kmalloc"], st["pages"], st["vmalloc"]) == (KMALLOC, PAGES, VMALLOC), st)
    csvt, text = read("csv"), read("ram")
    check("exmap-mini -c ram and ram: exit 0", (rc("csv"), rc("ram")) == ("0", "0"),
          read("csv.stderr", "")[:300])
    rows = owner_rows(csvt)
    vm_bytes, vm_by = vmallocinfo(read("vmallocinfo"))
    got = rows.get(("vmallocinfo", ""))
    check(f"vmalloc by owner: xmkmem {got}, its vmalloc areas' pages as vmallocinfo lists them ({vm_bytes})",
          got == vm_bytes, rows)
    check("vmalloc by owner: xmkmem within a page of the 256 KiB it vmalloc'ed", near(got, VMALLOC, PAGE - 1), got)
    check("vmalloc by owner: its caller xm_vmalloc_fixed, within a page of 256 KiB, as vmallocinfo says",
          near(site(rows, "vmallocinfo", "xm_vmalloc_fixed"), VMALLOC, PAGE - 1) and
          site(rows, "vmallocinfo", "xm_vmalloc_fixed") == vm_by.get("xm_vmalloc_fixed"), (rows, vm_by))
    lines = text.splitlines()
    at = [i for i, l in enumerate(lines) if l.startswith("vmalloc by owner ")]
    sec = lines[at[0] + 1:] if at else []
    sec = sec[:next((i for i, l in enumerate(sec) if not l.startswith(" ")), len(sec))]
    check("text: vmalloc by owner names xmkmem with 256K, from vmallocinfo",
          any(re.match(r"  xmkmem +256K .* vmallocinfo$", l) for l in sec), sec)
    check("text: and its caller xm_vmalloc_fixed under it",
          any(re.match(r"    xm_vmalloc_fixed +256K ", l) for l in sec), sec)
    check("text: no line over 80 columns", all(len(l) <= 80 for l in lines),
          [l for l in lines if len(l) > 80])
    # every owner row of vmallocinfo adds up to the section's total, and the
    # sum is the vmalloc part but for what the kernel did between their reads
    total = sum(b for (s, n), b in [((r[4], r[2]), int(r[3])) for r in csv.reader(io.StringIO(csvt))
                                      if len(r) == 5 and r[0] == "owner" and r[4] == "vmallocinfo"] if not n)
    part = [int(r[3]) for r in csv.reader(io.StringIO(csvt)) if r[:2] == ["part", "vmalloc"]]
    check(f"vmalloc by owner adds up to the vmalloc part (VmallocUsed less the kernel stacks): {total} {part}",
          part and near(total, part[0], 16 * PAGE), part)
    note = "note: no /proc/allocinfo: CONFIG_MEM_ALLOC_PROFILING adds slab and page owners"
    ai = read("allocinfo")
    if not alloc:
        check("no allocinfo in this kernel", ai.strip() == "none", ai[:100])
        check("text: one line says what CONFIG_MEM_ALLOC_PROFILING would add", note in lines, lines[-5:])
        check("no allocations by owner", not any(s == "allocinfo" for s, n in rows) and
              not any(l.startswith("allocations by owner") for l in lines))
    else:
        check("profiling on (vm.mem_profiling)", read("profiling").strip() == "1", read("profiling"))
        check("no note says allocinfo is missing", not any("allocinfo" in l for l in lines if l.startswith("note:")),
              [l for l in lines if l.startswith("note:")])
        a_bytes, a_by = allocinfo(ai)
        got = rows.get(("allocinfo", ""))
        check(f"allocations by owner: xmkmem {got}, allocinfo's own lines for it ({a_bytes})", got == a_bytes, rows)
        for func, want, tol in (("xm_kmalloc_fixed", KMALLOC, 0), ("xm_pages_fixed", PAGES, 0),
                                ("xm_vmalloc_fixed", VMALLOC, PAGE - 1)):
            v = site(rows, "allocinfo", func)
            check(f"allocations by owner: {func} {v}, allocinfo's {a_by.get(func)}, "
                  f"{'exactly' if not tol else 'within a page of'} {want}",
                  v == a_by.get(func) and near(v, want, tol), rows)
        check("text: allocations by owner names xmkmem and its three call sites",
              any(re.match(r"  xmkmem +3[0-9.]+K .* allocinfo$", l) for l in lines) and
              all(any(l.startswith("    " + f + " xmkmem.c:") for l in lines)
                  for f in ("xm_kmalloc_fixed", "xm_pages_fixed", "xm_vmalloc_fixed")),
              [l for l in lines if "xm" in l])
    held = rows.get(("allocinfo" if alloc else "vmallocinfo", ""))
    m = re.search(r'^exmap_kernel_module_bytes\{module="xmkmem"\} (\d+)$', read("metrics"), re.M)
    check(f"metrics: exmap_kernel_module_bytes{{module=\"xmkmem\"}} is what it holds ({held})",
          m and int(m.group(1)) == held, m and m.group(0))
    series = re.findall(r"^exmap_kernel_module_bytes\{", read("metrics"), re.M)
    check("metrics: a series for each of the 8 largest modules, and other", 2 <= len(series) <= 9, len(series))
    # the capture, loaded here: its owners as the guest's view had them
    with open(f"{OUT}/cap.log", "w") as f:
        f.write(read("cap"))
    loaded = subprocess.run([EXMAP, "-l", f"{OUT}/cap.log", "-c", "ram"], capture_output=True, text=True)
    check("the capture, loaded here: xmkmem's rows as the guest's view had them",
          owner_rows(loaded.stdout) == rows, (owner_rows(loaded.stdout), rows))
    # freed: gone
    sf = state("state_free")
    check("free: the module holds nothing (its count)", (sf["kmalloc"], sf["pages"], sf["vmalloc"]) == (0, 0, 0), sf)
    free_rows = owner_rows(read("csv_free"))
    check("free: xmkmem is no owner any more", not free_rows, free_rows)
    check("free: vmallocinfo has no xmkmem area left", vmallocinfo(read("vmallocinfo_free"))[0] == 0)
    if alloc:
        check("free: allocinfo has nothing of xmkmem left", allocinfo(read("allocinfo_free"))[0] == 0)
    mods = [r for r in csv.reader(io.StringIO(read("csv_free"))) if r[:3] == ["detail", "module", "xmkmem"]]
    size = [int(l.split()[1]) for l in read("modules").splitlines() if l.startswith("xmkmem ")]
    check("free: the module's own size still shown, /proc/modules' in pages",
          mods and size and int(mods[0][3]) == (size[0] + PAGE - 1) // PAGE * PAGE, (mods, size))
    leak_checks(alloc)


def leak_checks(alloc):
    source = "allocinfo" if alloc else "vmallocinfo"
    check("watch: exit 0", rc("watch_run") == "0", read("watch_run.stderr", "")[:300])
    lk = state("state_leak")["leak"]
    check(f"leak: {lk[1]} at {lk[2]} bytes a second (the module's)", lk[1] == LEAK_KIND and lk[2] == RATE, lk)
    built = RATE * 3600
    if lk[3]:
        took = lk[0] * 1000 * 3600 / lk[3]
        check(f"leak: the module took {lk[0]} bytes in {lk[3]} ms: the rate built, within 5%",
              abs(took - built) <= 0.05 * built, took)
    rows = [r for r in csv.DictReader(io.StringIO(read("trend")))]
    own = [r for r in rows if r["kind"] == "owner" and r["name"] == "xmkmem"]
    slope = int(own[0]["slope"]) if own and own[0]["slope"] else None
    check(f"trend names xmkmem growing at {slope} bytes an hour: the rate built ({built}) within 10%",
          slope is not None and abs(slope - built) <= 0.1 * built and own[0]["grows"] == "1", own)
    # the leak's memory is xmkmem's alone: the core kernel's figure does not
    # carry it too (allocinfo: the slab pages of its objects left out)
    others = [r["name"] for r in rows if r["kind"] == "owner" and r["grows"] == "1"]
    check("trend: no other owner grows, the core kernel neither", others == ["xmkmem"], others)
    t = read("trend_text").splitlines()
    check("trend text: the kernel owners' table, xmkmem marked growing",
          any(l.startswith("kernel owners") for l in t) and
          any(l.startswith("*") and l.endswith(" xmkmem") for l in t), t[-12:])
    # the watch log's two captures, here: diff names the growth
    with open(f"{OUT}/watch.log", "w") as f:
        f.write(read("watch"))
    d = subprocess.run([EXMAP, "-c", "diff", f"{OUT}/watch.log@1", f"{OUT}/watch.log@2"],
                       capture_output=True, text=True)
    r = [x for x in csv.reader(io.StringIO(d.stdout)) if x[:2] == ["ram", f"owner:xmkmem:{source}"]]
    grew = int(r[0][4]) - int(r[0][3]) if r else None
    check(f"diff of the watch's captures: xmkmem grew by {grew}, what the module leaked ({lk[0]}) "
          f"within 3 s of the rate", grew is not None and abs(grew - lk[0]) <= 3 * RATE, (r, d.stderr[-200:]))
    dt = subprocess.run([EXMAP, "diff", f"{OUT}/watch.log@1", f"{OUT}/watch.log@2"],
                        capture_output=True, text=True).stdout.splitlines()
    check("diff text: a kernel owners' table with xmkmem's growth",
          any(l.startswith(f"xmkmem ({source}) ") and l.split()[-1].startswith("+") for l in dt), dt[-8:])
    check("rmmod", rc("rmmod") == "0", read("rmmod.stderr", ""))


main()
