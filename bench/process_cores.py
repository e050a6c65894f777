#!/usr/bin/env python3
"""process_cores: the command's threads against what the cores give, process against process.

Each round runs the same one-thread command alone, two copies of it side by side, and the
command with --threads 2; cores = 2 x alone / side-by-side (2.0 on two whole cores), speed-up =
alone / two threads, share = speed-up / cores. Rounds alternate, so the machine's load is
about the same for the three (bench_cores.c does the same inside one process, on the kernel
alone).

usage: bench/process_cores.py [GRUNDY] [ROUNDS] [HEAP]   (default build/grundy, 6, 4194303:
Grundy's game to 2^22 by `check g periodic`)
"""
import os, subprocess, sys, tempfile, time

grundy = sys.argv[1] if len(sys.argv) > 1 else "build/grundy"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 6
heap = sys.argv[3] if len(sys.argv) > 3 else "4194303"
src = tempfile.NamedTemporaryFile("w", suffix=".game", delete=False)
src.write('game g = octal "4!.0";\ncheck g periodic;\n')
src.close()
cmd = [grundy, src.name, "--to", heap]


def run(threads, copies=1):
    t0 = time.perf_counter()
    ps = [subprocess.Popen(cmd + ["--threads", str(threads)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) for _ in range(copies)]
    if any(p.wait() for p in ps):
        sys.exit("process_cores: %s failed" % " ".join(cmd))
    return time.perf_counter() - t0


print("round  alone  side by side  --threads 2  cores  speed-up  share")
for r in range(rounds):
    alone, pair, two = run(1), run(1, 2), run(2)
    cores, up = 2 * alone / pair, alone / two
    print(f"{r + 1:5d} {alone:6.3f}s {pair:12.3f}s {two:11.3f}s {cores:6.2f}x {up:8.2f}x {up / cores:6.0%}",
          flush=True)
os.unlink(src.name)
