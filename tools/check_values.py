#!/usr/bin/env python3
"""check_values: a long run's values file checked at chosen heaps, by the game's definition.

A run with --checkpoint F keeps every heap's value in F.<game>.values (heap 0 first, in the
table's width: one byte a heap while every value fits, two bytes little-endian past 255). This reads such a file and computes the value of each heap named
again from nothing but the rules, the mex of its options' values read from the same file,
with none of grundy's code: so a wrong value at a heap checked, or a wrong value below it that
its options read, shows up as a mismatch. It reads about 2n bytes for heap n (both parts of
every split), in pieces, with numpy.

  /usr/bin/python3 tools/check_values.py [--bytes 1|2] FILE CODE HEAP [HEAP ...]
  /usr/bin/python3 tools/check_values.py [--bytes 1|2] FILE --rows CSV

CODE is an octal code as in the language ("0.6", "0.137", "4.07"; a digit followed by "!"
splits into unequal heaps only: "4!.0" is Grundy's game). HEAP may be a number or "2^35-1". --bytes is the
width of a value in the file (default 2).
Prints each heap's value in the file and the one computed; exits 1 on any difference.

With --rows, the rows of a --histogram CSV are counted again from the file instead, in one
pass: for each row n, the count of every value in heaps 0 .. n-1, the largest value and the
first heap with it, and, with the row's rare mask, how many heaps are rare (the parity of
value & mask even) and the last of them.
"""
import sys

import numpy as np

PIECE = 1 << 24


def parse_heap(text):
    text = text.replace(" ", "")
    if "^" in text:
        base, rest = text.split("^", 1)
        for op in "+-":
            if op in rest:
                exp, off = rest.split(op, 1)
                v = int(base) ** int(exp)
                return v + int(off) if op == "+" else v - int(off)
        return int(base) ** int(rest)
    return int(text)


def parse_code(code):
    """digits[j] = (bits, unequal) for an octal code such as '0.6' or '4!.0' (a digit followed by
    '!' splits only into unequal heaps). Also what tests/run_longrun.py computes tables from."""
    head, tail = code.split(".")
    digits = []
    for part in (head, tail):
        i = 0
        while i < len(part):
            d = int(part[i])
            uneq = i + 1 < len(part) and part[i + 1] == "!"
            digits.append((d, uneq))
            i += 2 if uneq else 1
    return digits


def parity(a):
    """The parity of the bits of each element of the integer array a."""
    a = a.copy()
    p = np.zeros_like(a)
    while a.any():
        p ^= a & 1
        a >>= 1
    return p


class Values:
    """The values file, read in pieces (not mapped: a mapping of tens of GB would count as
    resident and crowd the page cache)."""

    def __init__(self, path, width):
        self.f = open(path, "rb")
        self.dtype = np.dtype("<u2" if width == 2 else "u1")
        self.f.seek(0, 2)
        self.heaps = self.f.tell() // self.dtype.itemsize

    def read(self, lo, hi):
        """Heaps lo .. hi - 1."""
        self.f.seek(lo * self.dtype.itemsize)
        got = np.fromfile(self.f, dtype=self.dtype, count=hi - lo)
        if len(got) != hi - lo:
            raise IOError(f"short read at heap {lo}")
        return got

    def __getitem__(self, n):
        return self.read(n, n + 1)[0]


def mex_of(v, n, digits):
    """The mex of heap n's options, every value read from v (the values file)."""
    seen = np.zeros(1 << 16, dtype=bool)
    parts = []
    for j, (d, uneq) in enumerate(digits):   # take j, leaving no heap, one, or two
        m = n - j
        if d & 1 and m == 0:
            seen[0] = True
        if d & 2 and j >= 1 and m >= 1:
            seen[int(v[m])] = True
        if d & 4 and m >= 2:
            parts.append((m, 1, (m - 1) // 2 if uneq else m // 2))
    for m, lo, hi in parts:   # the splits m -> (a, m - a), a in [lo, hi]
        a = lo
        while a <= hi:
            b = min(hi, a + PIECE - 1)
            low = v.read(a, b + 1)
            high = v.read(m - b, m - a + 1)[::-1]
            seen[np.bitwise_xor(low, high)] = True
            a = b + 1
    return int(np.argmin(seen)) if not seen.all() else 1 << 16


def check_rows(v, csv_path):
    """The rows of a --histogram CSV against the file, counted in one pass; returns mismatches."""
    import csv
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    rows.sort(key=lambda r: int(r["n"]))
    if any(r["rare_heap_parity"] != "false" for r in rows):
        print("rows with a heap-parity bit in the rare class: not counted here", file=sys.stderr)
        return 1
    masks = sorted({int(r["rare_mask"]) for r in rows})
    odd = {m: parity(np.arange(1 << 16) & m) for m in masks}
    counts = np.zeros(1 << 16, dtype=np.int64)
    largest, largest_at = -1, -1
    last_rare = {m: -1 for m in masks}
    done, bad = 0, 0
    for r in rows:
        n = int(r["n"])
        if n > v.heaps:
            print(f"row {n}: past the file's {v.heaps} heaps", file=sys.stderr)
            return bad + 1
        while done < n:
            hi = min(n, done + PIECE)
            piece = v.read(done, hi)
            counts += np.bincount(piece, minlength=1 << 16)
            top = int(piece.max())
            if top > largest:
                largest, largest_at = top, done + int(np.argmax(piece == top))
            for m in masks:
                rare = np.flatnonzero(odd[m][piece] == 0)
                if len(rare):
                    last_rare[m] = done + int(rare[-1])
            done = hi
        m = int(r["rare_mask"])
        rare_count = int(counts[odd[m] == 0].sum())
        want = {"largest": largest, "largest_at": largest_at, "rare_count": rare_count, "last_rare": last_rare[m]}
        diffs = [f"{k} {r[k]} against {w}" for k, w in want.items() if int(r[k]) != w]
        for col in (c for c in r if c.startswith("count_")):
            if int(r[col]) != int(counts[int(col[6:])]):
                diffs.append(f"{col} {r[col]} against {counts[int(col[6:])]}")
        if int(counts.sum()) != n or int(np.count_nonzero(counts)) > sum(1 for c in r if c.startswith("count_") and r[c] != "0"):
            diffs.append("values met that the row does not count")
        print(f"row {n}: " + ("; ".join(diffs) + "  MISMATCH" if diffs else
              f"equal (largest {largest} first at {largest_at}, {rare_count} rare heaps, the last at {last_rare[m]})"), flush=True)
        bad += bool(diffs)
    return bad


def main(argv):
    width = 2
    if len(argv) > 2 and argv[1] == "--bytes":
        width = int(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 4 or width not in (1, 2):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, code = argv[1], argv[2]
    if code == "--rows":
        return 1 if check_rows(Values(path, width), argv[3]) else 0
    heaps = [parse_heap(h) for h in argv[3:]]
    v = Values(path, width)
    digits = parse_code(code)
    bad = 0
    for n in heaps:
        if n >= v.heaps:
            print(f"heap {n}: past the file's {v.heaps} heaps", file=sys.stderr)
            return 2
        want = mex_of(v, n, digits)
        have = int(v[n])
        print(f"heap {n}: file {have}, by the rules {want}{'' if have == want else '  MISMATCH'}", flush=True)
        bad += have != want
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
