#!/usr/bin/env python3
"""Independent truth for the tests: per-process figures computed straight from
/proc/PID/pagemap for a set of pids, sharing each page among those pids only.

usage: truth.py PID...   prints CSV: pid,resident,eff_resident,sole,distinct
(distinct is the same on every row: distinct present or swapped pages of the set)
       truth.py files PID...   prints CSV: pid,path,resident,eff_resident,
one row for each file each process maps ("[anon]" for anonymous memory, the
kernel's name for [heap], [stack] and the like), shares among the set; the
anonymous private writable mapping that starts where a file's private
writable mapping ends (the .bss the loader adds) is the file's
       truth.py readfault PID ADDR   what the page PID only read at ADDR is:
"zero PFN" (the shared zero page), "alloc PFN" (a page of its own: the kernel
has no zero page) or "absent"
It skips the zero page (where the kernel has one: kpageflags says) and frames
that no page table maps as a page (kpagecount 0: raw frames of a driver or of
[vvar] before 7.x), as the kernel's Rss does; VM_PFNMAP mappings pagemap
shows as holes itself.
"""
import os
import struct
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
PRESENT = 1 << 63
SWAP = 1 << 62
EXCLUSIVE = 1 << 56
FRAME = (1 << 55) - 1
KPF_ZERO_PAGE = 24
ODD_PAGES = 37      # a size no other read-only anonymous mapping has


def mappings(pid, perms=False):
    out = []
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            parts = line.split(None, 5)
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            path = parts[5].strip() if len(parts) > 5 else ""
            out.append((lo, hi, path, parts[1]) if perms else (lo, hi, path))
    return out


def mapped_as_page(kc, e):
    """Whether a present entry's frame is mapped by some page table as a
    page (kpagecount); True when kpagecount cannot be read."""
    if kc is None:
        return True
    kc.seek((e & FRAME) * 8)
    data = kc.read(8)
    return len(data) != 8 or struct.unpack("<Q", data)[0] != 0


def entries(pid, owner=False):
    """(vaddr, entry) for every page of every mapping; present entries of
    frames no page table maps as a page are left out. With owner, (vaddr,
    entry, name): the name of what the page belongs to (files mode)."""
    res = []
    try:
        kc = open("/proc/kpagecount", "rb")
    except OSError:
        kc = None
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        prev = None
        for lo, hi, path, perms in mappings(pid, perms=True):
            name = path or "[anon]"
            if (not path and perms == "rw-p" and prev and prev[1] == lo
                    and prev[3] == "rw-p" and prev[2].startswith("/")):
                name = prev[4]          # a .bss: its file's
            prev = (lo, hi, path, perms, name)
            n = (hi - lo) // PAGE
            pm.seek(lo // PAGE * 8)
            data = pm.read(n * 8)
            for i, e in enumerate(struct.unpack(f"<{len(data) // 8}Q", data)):
                if e & PRESENT and not mapped_as_page(kc, e):
                    continue
                res.append((lo + i * PAGE, e, name) if owner else
                           (lo + i * PAGE, e))
    if kc:
        kc.close()
    return res


def kpage_zero(pfn):
    """Whether /proc/kpageflags flags pfn as the zero page; None when it
    cannot be read."""
    try:
        with open("/proc/kpageflags", "rb") as f:
            f.seek(pfn * 8)
            data = f.read(8)
    except OSError:
        return None
    if len(data) != 8:
        return None
    return bool(struct.unpack("<Q", data)[0] >> KPF_ZERO_PAGE & 1)


def read_fault_page(e):
    """What a page only read, with pagemap entry e, is: ("zero", pfn) for the
    shared zero page (no process maps it alone, and kpageflags, where
    readable, says so), ("alloc", pfn) for a page of its own (a kernel
    without a zero page: pvm_no_zero_page=1, s390 KVM), None if absent."""
    if not e & PRESENT:
        return None
    f = e & FRAME
    if e & EXCLUSIVE or kpage_zero(f) is False:
        return ("alloc", f)
    return ("zero", f)


def zero_page():
    """pfn of the zero page, learnt by reading an untouched anonymous page
    of a child process that we then look up in its pagemap; None, said on
    stderr, when read faults here allocate instead."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        import mmap
        os.close(r)
        m = mmap.mmap(-1, PAGE * ODD_PAGES,
                      flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                      prot=mmap.PROT_READ)
        m[0]
        os.write(w, b"x")
        os.read(os.open("/dev/null", os.O_RDONLY), 1)
        import time
        time.sleep(30)
        os._exit(0)
    os.close(w)
    os.read(r, 1)
    got = None
    try:
        for lo, hi, path, perms in mappings(pid, perms=True):
            if hi - lo == PAGE * ODD_PAGES and path == "" and perms == "r--p":
                with open(f"/proc/{pid}/pagemap", "rb") as pm:
                    pm.seek(lo // PAGE * 8)
                    got = read_fault_page(struct.unpack("<Q", pm.read(8))[0])
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    if got is None:
        sys.exit("truth.py: a page read in a child is not present: cannot tell "
                 "what read faults give (run as root)")
    if got[0] == "alloc":
        print("truth.py: read faults here allocate a page (no zero page)",
              file=sys.stderr)
        return None
    return got[1]


def readfault(pid, addr):
    """truth.py readfault PID ADDR: what the page at ADDR, which PID only
    read, is: "zero PFN", "alloc PFN" or "absent"."""
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        pm.seek(addr // PAGE * 8)
        got = read_fault_page(struct.unpack("<Q", pm.read(8))[0])
    print("absent" if got is None else f"{got[0]} {got[1]}")


def pages_of(pids):
    """Each pid's pages as (key, present, owner), and how many times each key
    is mapped in the set: a frame ("p", pfn) or a swap entry ("s", entry)."""
    zero = zero_page()
    per = {}
    count = {}
    for pid in pids:
        pages = []
        for _, e, name in entries(pid, owner=True):
            if e & PRESENT:
                f = e & FRAME
                if zero is not None and f == zero:
                    continue
                key = ("p", f)
            elif e & SWAP:
                key = ("s", e & FRAME)
            else:
                continue
            pages.append((key, bool(e & PRESENT), name))
            count[key] = count.get(key, 0) + 1
        per[pid] = pages
    return per, count


def files(pids):
    """truth.py files PID...: pid,path,resident,eff_resident per file."""
    per, count = pages_of(pids)
    print("pid,path,resident,eff_resident")
    for pid in pids:
        res = {}
        eff = {}
        for k, p, name in per[pid]:
            if p:
                res[name] = res.get(name, 0) + PAGE
                eff[name] = eff.get(name, 0) + PAGE / count[k]
        for name in sorted(res):
            print(f"{pid},{name},{res[name]},{round(eff[name])}")


def main():
    if sys.argv[1:2] == ["readfault"]:
        readfault(int(sys.argv[2]), int(sys.argv[3], 0))
        return
    if sys.argv[1:2] == ["files"]:
        files([int(p) for p in sys.argv[2:]])
        return
    pids = [int(p) for p in sys.argv[1:]]
    per, count = pages_of(pids)
    print("pid,resident,eff_resident,sole,distinct")
    for pid in pids:
        res = sum(PAGE for _, p, _ in per[pid] if p)
        eff = sum(PAGE / count[k] for k, p, _ in per[pid] if p)
        sole = sum(PAGE for k, _, _ in per[pid] if count[k] == 1)
        print(f"{pid},{res},{round(eff)},{sole},{len(count)}")


if __name__ == "__main__":
    main()
