#!/usr/bin/env python3
"""same_lines.py [-n MIN] PATH...: the runs of MIN (15) or more identical
lines that two C files (*.c, *.h; a PATH is a file or a folder searched
whole) share, one line each:
    same_lines: A:FIRST-LAST and B:FIRST-LAST share N lines
Lines are compared with their whitespace normalised (trimmed, inner runs made
one space); blank lines and lone braces ("{", "}", "};") are left out, so
neither breaks a run nor counts in one. Runs within one file are not
reported. Exit 0 when there is none, 1 when there is one, 2 on misuse or an
unreadable file."""

import os
import re
import sys

BRACES = re.compile(r"^[{}]+;?$")


def kept(path):
    """The lines that count: [(normalised text, line number)]."""
    out = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for no, line in enumerate(f, 1):
            text = " ".join(line.split())
            if text and not BRACES.match(text):
                out.append((text, no))
    return out


def c_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith((".c", ".h")):
                        yield os.path.join(root, name)
        elif os.path.isfile(p):
            yield p
        else:
            raise OSError("%s: no such file or folder" % p)


def shared_runs(lines, least):
    """(a, b, i, j, n): file a's kept lines i.. and file b's j.. agree for
    n >= least lines, each run at its longest, a < b."""
    starts = {}
    for a, ls in enumerate(lines):
        texts = [t for t, _ in ls]
        for i in range(len(ls) - least + 1):
            starts.setdefault(tuple(texts[i:i + least]), []).append((a, i))
    seen = set()
    for places in starts.values():
        for x in range(len(places)):
            for y in range(x + 1, len(places)):
                (a, i), (b, j) = places[x], places[y]
                if a == b:
                    continue
                # Back to where the run begins, then on to where it ends.
                while (i > 0 and j > 0 and
                       lines[a][i - 1][0] == lines[b][j - 1][0]):
                    i, j = i - 1, j - 1
                if (a, b, i, j) in seen:
                    continue
                seen.add((a, b, i, j))
                n = 0
                while (i + n < len(lines[a]) and j + n < len(lines[b]) and
                       lines[a][i + n][0] == lines[b][j + n][0]):
                    n += 1
                yield a, b, i, j, n


def main(argv):
    least = 15
    if len(argv) > 2 and argv[1] == "-n":
        if not argv[2].isdigit() or int(argv[2]) < 1:
            sys.stderr.write("same_lines: -n %s: want a positive integer\n"
                             % argv[2])
            return 2
        least = int(argv[2])
        argv = argv[2:]
    if len(argv) < 2:
        sys.stderr.write("usage: same_lines.py [-n min] path...\n")
        return 2
    try:
        files = list(c_files(argv[1:]))
        lines = [kept(f) for f in files]
        found = 0
        for a, b, i, j, n in shared_runs(lines, least):
            la, lb = lines[a], lines[b]
            print("same_lines: %s:%d-%d and %s:%d-%d share %d lines" % (
                files[a], la[i][1], la[i + n - 1][1],
                files[b], lb[j][1], lb[j + n - 1][1], n))
            found += 1
    except OSError as e:
        sys.stderr.write("same_lines: %s\n" % e)
        return 2
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
