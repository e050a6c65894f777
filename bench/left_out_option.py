#!/usr/bin/env python3
"""left_out_option: how often leaving out the options that read heap n - 1 changes heap n's value.

A two-thread design where each thread does whole heaps of one parity leaves out of heap n the
options that read heap n - 1 (the other thread's, not finished yet) and checks them at the
end; the heap is done again only when the value the other options give equals one of them.
This counts that case by brute force (every option of every heap), for Officers (0.6: take
one, leave one or two heaps) and Grundy's game (split into two unequal heaps), over heaps
FROM..N-1. See docs/periodicity.md, "Two threads by alternate heaps".

usage: left_out_option.py [0.6|grundy] [N] [FROM]      (numpy: /usr/bin/python3)
"""
import sys

import numpy as np


def mex(values):
    v = 0
    while v in values:
        v += 1
    return v


def count(code, n_max, start):
    g = np.zeros(n_max, dtype=np.int64)
    redo = total = 0
    for n in range(1, n_max):
        kept, left_out = set(), set()
        if code == "0.6":
            m = n - 1                      # one token taken; leave m as one heap or two
            if m >= 1:
                left_out.add(int(g[m]))    # the heap n - 1 itself
            if m >= 2:
                a = np.arange(1, m // 2 + 1)
                kept.update((g[a] ^ g[m - a]).tolist())
        else:
            a = np.arange(1, (n - 1) // 2 + 1)   # n = a + (n - a), a < n - a
            if len(a):
                vals = g[a] ^ g[n - a]
                if n - 1 > 1:                    # the split 1 + (n - 1) reads heap n - 1
                    left_out.add(int(vals[0]))
                    vals = vals[1:]
                kept.update(vals.tolist())
        g[n] = mex(kept | left_out)
        if n >= start:
            total += 1
            redo += mex(kept) in left_out
    return redo, total


def main():
    code = sys.argv[1] if len(sys.argv) > 1 else "0.6"
    n_max = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    start = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    redo, total = count(code, n_max, start)
    print(f"{code}: heaps {start}..{n_max - 1}: {redo} of {total} done again ({100.0 * redo / total:.3f}%)")


if __name__ == "__main__":
    main()
