#!/usr/bin/env python3
"""Truth for the sections and symbols fixture test, and the checks against it.

usage:
  fixture_truth.py layout LIB
  fixture_truth.py symbols[=SECTION][@PART] LIB EXMAP_CSV PID:PROBE...
  fixture_truth.py sections[@PART] LIB EXMAP_CSV PID:PROBE...
  fixture_truth.py sum LIB SECTIONS_CSV MAPSDIR PID:PROBE...

Every mode prints one line per check, "ok   WHAT" or "FAIL WHAT: why", and
nothing else on stdout; the caller counts them.

layout: the fixture library is what the test assumes: ten arrays of the same
whole number of pages, page aligned, data_* in .data and bss_* in .bss.

symbols, sections: EXMAP_CSV is exmap-mini's view of LIB for exactly the
processes listed (-p); with symbols=SECTION, the view of that section's
symbols alone. The expected figures are worked out here from
/proc/PID/pagemap and LIB's own headers (read by this script, not by readelf
or exmap-mini): each page is shared among the listed processes by the page
table entries that map it, and its share is split among the items by the
bytes each covers. PROBE is the address of a page each process read but never
wrote, in private anonymous memory. It tells what a read fault gives on this
kernel: the shared zero page, which is not RAM (no process maps it alone, and
/proc/kpageflags, where readable, flags it), or a page of the process's own
where the kernel has no zero page (pvm_no_zero_page=1, s390 KVM); the arrays
of .bss that the driver only read are then resident and writable too.

sum: the sections view's rows plus [holes] must add up to the library's
figures in the maps view (MAPSDIR/maps.PID.csv for each process, all run with
the same -p as SECTIONS_CSV): its mappings, plus the anonymous mapping right
after its last one when that holds .bss.
"""
import csv
import os
import struct
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from truth import kpage_zero  # noqa: E402  (the one kpageflags reader)

PAGE = os.sysconf("SC_PAGE_SIZE")
PRESENT = 1 << 63
SWAPPED = 1 << 62
FILEPAGE = 1 << 61
EXCLUSIVE = 1 << 56
FRAME = (1 << 55) - 1

FIGS = ["vm", "mapped", "resident", "eff_mapped", "eff_resident", "sole",
        "writable", "swap"]
EFF = ("eff_mapped", "eff_resident")
TOUCH = ["untouched", "read", "written", "half_read", "half_written"]
ARRAYS = [f"{kind}_{t}" for kind in ("data", "bss") for t in TOUCH]

SHT_SYMTAB, SHT_NOBITS, SHT_DYNSYM = 2, 8, 11
SHF_ALLOC, SHF_TLS = 0x2, 0x400
STT_SECTION, STT_FILE, STT_TLS = 3, 4, 6
SHN_LORESERVE = 0xff00
PT_LOAD = 1


def ok(what):
    print(f"ok   {what}")


def fail(what, why):
    print(f"FAIL {what}: {why}")


def die(msg):
    fail("fixture_truth.py", msg)
    sys.exit(1)


class Elf:
    """The little of an ELF64 little-endian file that the truth needs."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            die(f"{path}: not an ELF64 little-endian file")
        (phoff, shoff, _flags, _ehsize, phentsize, phnum, shentsize, shnum,
         shstrndx) = struct.unpack_from("<QQIHHHHHH", d, 32)
        if shnum == 0 or shstrndx >= SHN_LORESERVE:
            die(f"{path}: extended section numbering is not expected here")
        self.sections = []
        for i in range(shnum):
            (name, typ, flags, addr, off, size, link, _info, _align,
             entsize) = struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
            self.sections.append(dict(name=name, type=typ, flags=flags, addr=addr,
                                      offset=off, size=size, link=link,
                                      entsize=entsize))
        strtab = self.sections[shstrndx]
        for s in self.sections:
            s["name"] = self.cstr(strtab["offset"] + s["name"])
        self.loads = []
        for i in range(phnum):
            typ, flags, off, vaddr, _paddr, filesz, memsz, _align = \
                struct.unpack_from("<IIQQQQQQ", d, phoff + i * phentsize)
            if typ == PT_LOAD:
                self.loads.append(dict(flags=flags, offset=off, vaddr=vaddr,
                                       filesz=filesz, memsz=memsz))

    def cstr(self, off):
        return self.data[off:self.data.index(b"\0", off)].decode(errors="replace")

    def section(self, name):
        for s in self.sections:
            if s["name"] == name:
                return s
        return None

    def symbols(self):
        """(name, value, size, section name, type) of .symtab, else .dynsym."""
        for want in (SHT_SYMTAB, SHT_DYNSYM):
            tabs = [s for s in self.sections if s["type"] == want]
            if tabs:
                break
        else:
            return []
        tab = tabs[0]
        strs = self.sections[tab["link"]]
        out = []
        for i in range(tab["size"] // tab["entsize"]):
            name, info, _other, shndx, value, size = struct.unpack_from(
                "<IBBHQQ", self.data, tab["offset"] + i * tab["entsize"])
            sec = self.sections[shndx]["name"] if 0 < shndx < SHN_LORESERVE else None
            out.append((self.cstr(strs["offset"] + name), value, size, sec,
                        info & 0xf))
        return out

    def has_symtab(self):
        return any(s["type"] == SHT_SYMTAB for s in self.sections)


def memory_symbols(elf):
    """The symbols that have bytes in memory: sized, in an allocated section,
    not section, file or thread-local symbols (a TLS symbol's value is an
    offset in each thread's block, not an address in the file's image)."""
    out = []
    for name, value, size, sec, typ in elf.symbols():
        if size == 0 or sec is None or typ in (STT_SECTION, STT_FILE, STT_TLS):
            continue
        if not elf.section(sec)["flags"] & SHF_ALLOC:
            continue
        out.append((name, value, size, sec))
    return out


def memory_sections(elf):
    """Allocated sections that take room in the image (.tbss does not)."""
    out = []
    for s in elf.sections:
        if not s["flags"] & SHF_ALLOC or s["size"] == 0:
            continue
        if s["flags"] & SHF_TLS and s["type"] == SHT_NOBITS:
            continue
        out.append(s)
    return out


def read_maps(pid):
    out = []
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            path = parts[5].rstrip("\n") if len(parts) > 5 else ""
            out.append(dict(lo=lo, hi=hi, perms=parts[1], offset=int(parts[2], 16),
                            inode=int(parts[4]), path=path))
    return out


def pagemap(pm, lo, hi):
    pm.seek(lo // PAGE * 8)
    data = pm.read((hi - lo) // PAGE * 8)
    return struct.unpack(f"<{len(data) // 8}Q", data)


class Proc:
    """One process: its pagemap entries, and where it has the library."""

    def __init__(self, pid, probe, lib, elf):
        self.pid = pid
        self.maps = read_maps(pid)
        st = os.stat(lib)
        self.entry = {}     # page address -> (pagemap entry, perms)
        with open(f"/proc/{pid}/pagemap", "rb") as pm:
            for m in self.maps:
                # vsyscall lies past the task size: pagemap has nothing there
                for i, e in enumerate(pagemap(pm, m["lo"], m["hi"])):
                    self.entry[m["lo"] + i * PAGE] = (e, m["perms"])
            probe_e = pagemap(pm, probe, probe + PAGE)
        if not probe_e or not probe_e[0] & PRESENT:
            die(f"pid {pid}: the probe page {probe:#x} is not present")
        # the zero page's pfn, or None where read faults allocate
        f = probe_e[0] & FRAME
        self.zero = None if probe_e[0] & EXCLUSIVE or kpage_zero(f) is False else f
        libmaps = [i for i, m in enumerate(self.maps) if m["inode"] == st.st_ino
                   and m["path"] == lib]
        if not libmaps:
            die(f"pid {pid} does not map {lib}")
        # Where the library is: the mapping of file offset 0 is the first
        # PT_LOAD segment's first page.
        first = min(elf.loads, key=lambda p: p["vaddr"])
        if first["offset"] != 0:
            die(f"{lib}: the first PT_LOAD segment is not at file offset 0")
        m0 = [self.maps[i] for i in libmaps if self.maps[i]["offset"] == 0]
        if not m0:
            die(f"pid {pid}: no mapping of {lib} at file offset 0")
        self.bias = m0[0]["lo"] - (first["vaddr"] & ~(PAGE - 1))
        self.regions = [self.maps[i] for i in libmaps]
        # .bss past the file's last page: the anonymous mapping right after
        last = libmaps[-1]
        if last + 1 < len(self.maps):
            a = self.maps[last + 1]
            if a["lo"] == self.maps[last]["hi"] and a["inode"] == 0 and a["path"] == "":
                self.regions.append(a)


def counts(procs):
    """Page table entries among the processes, by page (pfn or swap entry).
    Device memory ([vvar], /dev mappings) is counted too: its frames are
    never the library's, so no figure here depends on it."""
    c = {}
    for p in procs:
        for e, _ in p.entry.values():
            k = key(e, p.zero)
            if k is not None:
                c[k] = c.get(k, 0) + 1
    return c


def key(e, zero):
    if e & PRESENT:
        f = e & FRAME
        return None if f == zero else ("pfn", f)
    if e & SWAPPED:
        return ("swap", e & FRAME)
    return None


def truth(procs, c, lo, hi):
    """The eight figures of the link-time range [lo, hi), over the processes."""
    fig = dict.fromkeys(FIGS, 0)
    fig["eff_mapped"] = fig["eff_resident"] = Fraction(0)
    for p in procs:
        a0, z0 = lo + p.bias, hi + p.bias
        for r in p.regions:
            a, z = max(a0, r["lo"]), min(z0, r["hi"])
            if a >= z:
                continue
            fig["vm"] += z - a
            page = a & ~(PAGE - 1)
            while page < z:
                b = min(z, page + PAGE) - max(a, page)
                e, perms = p.entry[page]
                k = key(e, p.zero)
                if k is not None:
                    share = Fraction(b, c[k])
                    fig["mapped"] += b
                    fig["eff_mapped"] += share
                    if e & PRESENT:
                        fig["resident"] += b
                        fig["eff_resident"] += share
                        if (not e & FILEPAGE and e & EXCLUSIVE and
                                perms[1] == "w" and perms[3] == "p"):
                            fig["writable"] += b
                    else:
                        fig["swap"] += b
                    if c[k] == 1:
                        fig["sole"] += b
                page += PAGE
    return fig


def compare(what, got, want, tol_eff=1):
    """One check: every figure of an exmap-mini row against the truth."""
    bad = []
    for f in FIGS:
        g = int(got[f])
        w = want[f]
        tol = tol_eff if f in EFF else 0
        if abs(g - w) > tol:
            bad.append(f"{f} got {g} want {round(w) if f in EFF else w}")
    if bad:
        fail(what, ", ".join(bad))
    else:
        ok(what)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def load(lib, tokens):
    elf = Elf(lib)
    procs = []
    for t in tokens:
        pid, probe = t.split(":")
        procs.append(Proc(int(pid), int(probe, 16), lib, elf))
    zeros = {p.zero for p in procs}
    if len(zeros) != 1:
        die("the probes disagree on what a read fault gives: zero page pfns "
            f"{sorted(z for z in zeros if z is not None)}"
            f"{', and pages of their own' if None in zeros else ''}")
    z = zeros.pop()
    who = "the probe" if len(procs) == 1 else f"the {len(procs)} probes agree"
    if z is None:
        ok(f"{who}: read faults here allocate a page (no zero page)")
    else:
        ok(f"{who}: read faults here map the zero page (pfn {z})")
    return elf, procs, counts(procs)


def label(procs):
    if len(procs) == 1:
        return f"-p {procs[0].pid}"
    return f"-p {len(procs)} pids"


def mode_layout(lib):
    elf = Elf(lib)
    what = "fixture layout"
    if not elf.has_symtab():
        fail(what, f"{lib} has no .symtab (stripped?)")
        return
    syms = {s[0]: s for s in elf.symbols() if s[0] in ARRAYS}
    sizes = set()
    spans = []
    for name in ARRAYS:
        if name not in syms:
            fail(f"{what}: {name}", "not in .symtab")
            continue
        _, value, size, sec, _ = syms[name]
        want_sec = ".data" if name.startswith("data_") else ".bss"
        problems = []
        if sec != want_sec:
            problems.append(f"in {sec}, not {want_sec}")
        if value % PAGE:
            problems.append(f"address {value:#x} not page aligned")
        if size == 0 or size % (2 * PAGE):
            problems.append(f"size {size} not an even number of pages")
        if problems:
            fail(f"{what}: {name}", ", ".join(problems))
        else:
            ok(f"{what}: {name} at {value:#x}, {size // PAGE} pages, {sec}")
        sizes.add(size)
        spans.append((value, value + size, name))
    spans.sort()
    overlap = [f"{a[2]} and {b[2]}" for a, b in zip(spans, spans[1:]) if a[1] > b[0]]
    if len(sizes) > 1 or overlap:
        fail(f"{what}: arrays", f"sizes {sorted(sizes)}, overlapping: {overlap}")
    else:
        ok(f"{what}: arrays are the same size and do not overlap")
    data, bss = elf.section(".data"), elf.section(".bss")
    if not data or not bss or data["type"] == SHT_NOBITS or bss["type"] != SHT_NOBITS:
        fail(f"{what}: sections", ".data or .bss missing or of the wrong type")
    else:
        ok(f"{what}: .data is PROGBITS, .bss NOBITS")


def design_writable(name, size, nproc, zero_page):
    """What the driver wrote: the whole array, the first half, or nothing;
    without a zero page, what it read of .bss too (anonymous memory, where
    a read fault maps a page of its own, writable and dirty)."""
    if name.endswith("_half_written") or (
            not zero_page and name == "bss_half_read"):
        return nproc * size // 2
    if name.endswith("_written") or (not zero_page and name == "bss_read"):
        return nproc * size
    return 0


def part_of(procs, part):
    """The processes whose figures are summed: all, or the one -P names."""
    if part is None:
        return procs
    sel = [p for p in procs if p.pid == part]
    if not sel:
        die(f"-P {part} is none of the processes listed")
    return sel


def mode_symbols(lib, csvpath, tokens, only=None, part=None):
    elf, procs, c = load(lib, tokens)
    rows = read_csv(csvpath)
    lab = label(procs) + (f" {only}" if only else "") + (f" -P {part}" if part else "")
    mine = part_of(procs, part)
    got = {}
    nosym = [r for r in rows if r["symbol"] == "[no symbol]"]
    for r in rows:
        if r["symbol"] != "[no symbol]":
            got[(r["symbol"], int(r["addr"], 16))] = r
    syms = [s for s in memory_symbols(elf) if only is None or s[3] == only]
    # [no symbol]: the bytes of the sections shown that no symbol covers
    gaps = []
    for sec in memory_sections(elf):
        if only is not None and sec["name"] != only:
            continue
        at, end = sec["addr"], sec["addr"] + sec["size"]
        for _, v, size, _ in sorted(syms, key=lambda x: x[1]):
            if v + size <= at or v >= end:
                continue
            if v > at:
                gaps.append((at, v))
            at = max(at, v + size)
        if at < end:
            gaps.append((at, end))
    want_gap = dict.fromkeys(FIGS, 0)
    for a, z in gaps:
        t = truth(mine, c, a, z)
        for f in FIGS:
            want_gap[f] += t[f]
    if len(nosym) != 1:
        fail(f"symbols {lab}: [no symbol]", f"{len(nosym)} rows")
    else:
        compare(f"symbols {lab}: [no symbol] ({len(gaps)} gaps): figures", nosym[0], want_gap,
                tol_eff=len(gaps) + 1)
    want = {(n, v): (n, v, s, sec) for n, v, s, sec in syms}
    # Every symbol with bytes in memory is listed, and each as the file has it.
    missing = [n for (n, v) in want if (n, v) not in got]
    extra = [n for (n, v) in got if (n, v) not in want]
    if missing or extra:
        fail(f"symbols {lab}: rows", f"missing {missing}, unexpected {extra}")
    else:
        ok(f"symbols {lab}: one row for each of the {len(want)} symbols in memory")
    for k in sorted(want, key=lambda k: (k[0] not in ARRAYS, k[1])):
        if k not in got:
            continue
        name, value, size, sec = want[k]
        r = got[k]
        if r["section"] != sec or int(r["size"]) != size:
            fail(f"symbols {lab}: {name}: section and size",
                 f"got {r['section']} {r['size']}, want {sec} {size}")
        compare(f"symbols {lab}: {name}: figures", r, truth(mine, c, value, value + size))
        if name in ARRAYS:
            w = design_writable(name, size, len(mine), procs[0].zero is not None)
            g = int(r["writable"])
            if g == w:
                ok(f"symbols {lab}: {name}: writable is the bytes written, {w}"
                   f"{'' if procs[0].zero is not None else ' (and, with no zero page, read)'}")
            else:
                fail(f"symbols {lab}: {name}: writable is the bytes written",
                     f"got {g}, want {w}")
    for name in ARRAYS:
        if only and not name.startswith(only[1:] + "_"):
            continue
        if not any(k[0] == name for k in got):
            fail(f"symbols {lab}: {name}", "no row")


def mode_sections(lib, csvpath, tokens, part=None):
    elf, procs, c = load(lib, tokens)
    rows = read_csv(csvpath)
    lab = label(procs) + (f" -P {part}" if part else "")
    mine = part_of(procs, part)
    got = {r["section"]: r for r in rows}
    secs = memory_sections(elf)
    names = [s["name"] for s in secs]
    listed = [n for n in got if n != "[holes]"]
    if sorted(listed) != sorted(names) or "[holes]" not in got:
        fail(f"sections {lab}: rows", f"got {listed} and [holes], want {names} and [holes]")
    else:
        ok(f"sections {lab}: one row for each of the {len(names)} sections, and [holes]")
    for s in secs:
        if s["name"] not in got:
            continue
        r = got[s["name"]]
        if int(r["addr"], 16) != s["addr"] or int(r["size"]) != s["size"]:
            fail(f"sections {lab}: {s['name']}: address and size",
                 f"got {r['addr']} {r['size']}, want {s['addr']:#x} {s['size']}")
        compare(f"sections {lab}: {s['name']}: figures", r,
                truth(mine, c, s["addr"], s["addr"] + s["size"]))
    for need in (".data", ".bss"):
        if need not in got:
            fail(f"sections {lab}: {need}", "no row")


def mode_sum(lib, seccsv, mapsdir, tokens):
    elf, procs, c = load(lib, tokens)
    rows = read_csv(seccsv)
    secsum = dict.fromkeys(FIGS, 0)
    for r in rows:
        for f in FIGS:
            secsum[f] += int(r[f])
    bss = elf.section(".bss")
    bss_end = bss["addr"] + bss["size"] if bss else 0
    img_end = max(p["vaddr"] + p["memsz"] for p in elf.loads)
    first = min(elf.loads, key=lambda p: p["vaddr"])
    filesum = dict.fromkeys(FIGS, 0)
    # Figures of the anonymous mapping past the page that ends the image,
    # from pagemap: only to say so if they are the whole difference.
    beyond = dict.fromkeys(FIGS, 0)
    beyond_bytes = 0
    nrows = len(rows)
    for p in procs:
        path = f"{mapsdir}/maps.{p.pid}.csv"
        maps = read_csv(path)
        idx = [i for i, m in enumerate(maps) if m["path"] == lib]
        if not idx:
            die(f"{path}: no mapping of {lib}")
        base = [int(maps[i]["address"], 16) for i in idx if int(maps[i]["offset"]) == 0]
        if not base:
            die(f"{path}: no mapping of {lib} at file offset 0")
        bias = base[0] - (first["vaddr"] & ~(PAGE - 1))
        take = list(idx)
        last = maps[idx[-1]]
        if idx[-1] + 1 < len(maps):
            a = maps[idx[-1] + 1]
            a_lo, a_hi = int(a["address"], 16), int(a["end"], 16)
            # The maps view names anonymous memory [anon].
            if (a_lo == int(last["end"], 16) and a["inode"] == "0" and
                    a["path"] in ("", "[anon]") and bias + bss_end > a_lo):
                take.append(idx[-1] + 1)
                end = (bias + img_end + PAGE - 1) & ~(PAGE - 1)
                if a_hi > end:
                    beyond_bytes += a_hi - end
                    t = truth([p], c, end - bias, a_hi - bias)
                    for f in FIGS:
                        beyond[f] += t[f]
        for i in take:
            for f in FIGS:
                filesum[f] += int(maps[i][f])
        nrows += len(take)
    lab = label(procs)
    # Each printed effective size is rounded: up to half a byte per row.
    tol = (nrows + 1) // 2 + 1
    for f in FIGS:
        what = f"sum {lab}: sections plus holes = the library's mappings: {f}"
        d = secsum[f] - filesum[f]
        t = tol if f in EFF else 0
        if abs(d) <= t:
            ok(what)
            continue
        why = f"sections {secsum[f]}, mappings {filesum[f]}, difference {d}"
        if beyond_bytes and abs(d + beyond[f]) <= t:
            why += (f": exactly the {f} of the {beyond_bytes} bytes of the .bss "
                    f"mapping past the end of the library's image (the kernel "
                    f"merged other anonymous memory into it), left out of [holes]")
        fail(what, why)


def main():
    a = sys.argv[1:]
    part = None
    if a and "@" in a[0]:
        a[0], p = a[0].split("@", 1)
        part = int(p)
    if len(a) == 2 and a[0] == "layout":
        mode_layout(a[1])
    elif len(a) >= 4 and a[0] == "symbols":
        mode_symbols(a[1], a[2], a[3:], part=part)
    elif len(a) >= 4 and a[0].startswith("symbols="):
        mode_symbols(a[1], a[2], a[3:], a[0][len("symbols="):], part)
    elif len(a) >= 4 and a[0] == "sections":
        mode_sections(a[1], a[2], a[3:], part)
    elif len(a) >= 5 and a[0] == "sum":
        mode_sum(a[1], a[2], a[3], a[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
