#!/usr/bin/env python3
"""left_out_option: how often leaving out the options that read the newest heaps changes a heap's value.

A two-thread design where each thread does whole heaps of one parity leaves out of heap n the
options that read heap n - 1 (the other thread's, not finished yet) and checks them at the
end; the heap is done again only when the value the other options give equals one of them.
More generally a heap may be worked on while the W heaps below it are unfinished: it leaves
out every option that reads one of heaps n - W .. n - 1 (the pipeline's L trailed n by W; the kernel's --threads team no longer splits a heap).
This counts, by brute force (every option of every heap), how often that changes the value,
for Officers (0.6: take one, leave one or two heaps) and Grundy's game (split into two
unequal heaps), over heaps FROM..N-1, for each window W given (default 1). See
docs/periodicity.md, "Two threads by alternate heaps" and "A second host".

usage: left_out_option.py [0.6|grundy] [N] [FROM] [W,W,...]      (numpy: /usr/bin/python3)
"""
import sys

import numpy as np


def mex(values):
    """The least non-negative integer not among the values (a numpy array)."""
    if len(values) == 0:
        return 0
    seen = np.zeros(int(values.max()) + 2, dtype=bool)
    seen[values] = True
    return int(np.argmin(seen))


def options(code, g, n):
    """Heap n's option values and, for each, the largest heap it reads."""
    if code == "0.6":
        m = n - 1                          # one token taken; leave m as one heap (a = 0) or two
        a = np.arange(0, m // 2 + 1) if m >= 1 else np.arange(0)
        return g[a] ^ g[m - a], m - a
    a = np.arange(1, (n - 1) // 2 + 1)     # n = a + (n - a), a < n - a
    return g[a] ^ g[n - a], n - a


def count(code, n_max, start, windows):
    g = np.zeros(n_max, dtype=np.int64)
    redo = {w: 0 for w in windows}
    total = 0
    for n in range(1, n_max):
        vals, reads = options(code, g, n)
        g[n] = mex(vals)
        if n >= start:
            total += 1
            for w in windows:
                redo[w] += mex(vals[reads < n - w]) != g[n]
    return redo, total


def main():
    code = sys.argv[1] if len(sys.argv) > 1 else "0.6"
    n_max = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    start = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    windows = [int(w) for w in sys.argv[4].split(",")] if len(sys.argv) > 4 else [1]
    redo, total = count(code, n_max, start, windows)
    for w in windows:
        left = "heap n - 1" if w == 1 else f"heaps n - {w} .. n - 1"
        print(f"{code}: heaps {start}..{n_max - 1}, the options reading {left} left out: "
              f"{redo[w]} of {total} done again ({100.0 * redo[w] / total:.3f}%)")


if __name__ == "__main__":
    main()
