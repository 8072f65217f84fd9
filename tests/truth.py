#!/usr/bin/env python3
"""Independent truth for the tests: per-process figures computed straight from
/proc/PID/pagemap for a set of pids, sharing each page among those pids only.

usage: truth.py PID...   prints CSV: pid,resident,eff_resident,sole,distinct
(distinct is the same on every row: distinct present or swapped pages of the set)
It skips the zero page and [vvar]/device mappings, as the kernel's Rss does.
"""
import os
import struct
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
PRESENT = 1 << 63
SWAP = 1 << 62
FRAME = (1 << 55) - 1
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


def entries(pid):
    """(vaddr, entry) for every page of every mapping, device ones skipped."""
    res = []
    with open(f"/proc/{pid}/pagemap", "rb") as pm:
        for lo, hi, path in mappings(pid):
            if path.startswith("[vvar") or (path.startswith("/dev/") and
                                             not path.startswith("/dev/shm/") and
                                             not path.startswith("/dev/zero")):
                continue
            n = (hi - lo) // PAGE
            pm.seek(lo // PAGE * 8)
            data = pm.read(n * 8)
            for i, e in enumerate(struct.unpack(f"<{len(data) // 8}Q", data)):
                res.append((lo + i * PAGE, e))
    return res


def zero_page():
    """pfn of the zero page, learnt by reading an untouched anonymous page
    of a child process that we then look up in its pagemap."""
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
    zero = None
    try:
        for lo, hi, path, perms in mappings(pid, perms=True):
            if hi - lo == PAGE * ODD_PAGES and path == "" and perms == "r--p":
                with open(f"/proc/{pid}/pagemap", "rb") as pm:
                    pm.seek(lo // PAGE * 8)
                    e = struct.unpack("<Q", pm.read(8))[0]
                if e & PRESENT:
                    zero = e & FRAME
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    return zero


def main():
    pids = [int(p) for p in sys.argv[1:]]
    zero = zero_page()
    if zero is None:
        sys.exit("truth.py: could not find the zero page's pfn (run as root)")
    per = {}
    count = {}
    for pid in pids:
        pages = []
        for _, e in entries(pid):
            if e & PRESENT:
                f = e & FRAME
                if f == zero:
                    continue
                key = ("p", f)
            elif e & SWAP:
                key = ("s", e & FRAME)
            else:
                continue
            pages.append((key, bool(e & PRESENT)))
            count[key] = count.get(key, 0) + 1
        per[pid] = pages
    print("pid,resident,eff_resident,sole,distinct")
    for pid in pids:
        res = sum(PAGE for _, p in per[pid] if p)
        eff = sum(PAGE / count[k] for k, p in per[pid] if p)
        sole = sum(PAGE for k, _ in per[pid] if count[k] == 1)
        print(f"{pid},{res},{round(eff)},{sole},{len(count)}")


if __name__ == "__main__":
    main()
