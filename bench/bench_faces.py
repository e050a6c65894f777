#!/usr/bin/env python3
"""bench_faces: every face at the command's cost (issue "One answer, every face").

Each query's answer is made once and only formatted by a face, so the formats and the Python
binding should cost what the command's text costs on the same work. This prints, for each
workload, the least of --runs wall times of `grundy FILE --format text` and `--format json`
and their ratio; then `grundy FILE` (a table and 1,000 solves) against the same work through
the Python package (a table and 1,000 Program.solve calls, timed inside the interpreter, as a
user's script would time them; the command's time includes its process start) and that ratio; then each ratio again with the workload doubled, and the growth exponent of
both faces (log2 of the time's ratio), so a face whose cost grows faster than the command's
shows. It also checks that text and JSON give the same remoteness on every solve.

    /usr/bin/python3 bench/bench_faces.py [--grundy build/grundy] [--python-path build/python] [--runs 3]

Goals: JSON at most 1.2x text; Python at most 1.5x the command.
"""
import argparse, json, math, os, random, re, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def workloads(scale):
    """name -> program text; scale 1 is the issue's size, 2 doubles the number of solves."""
    r = random.Random(1)
    w = {}
    lines = ['game s = subtract {2, 5, 7, 11, 13};', 'game k = octal "0.77";', 'table s(0..199999);']
    lines += [f'solve s({r.randrange(200000)}) + s({r.randrange(200000)}) + k({r.randrange(1000)});' for _ in range(200 * scale)]
    w["subtraction + kayles (issue's file)"] = lines
    w["1000 kayles sums"] = ['game k = octal "0.77";'] + [
        f'solve k({r.randrange(1, 300)}) + k({r.randrange(1, 300)}) + k({r.randrange(1, 60)});' for _ in range(1000 * scale)]
    w["misere kayles sums"] = ['game k = octal "0.77";'] + [
        f'solve misere k({r.randrange(1, 40)}) + k({r.randrange(1, 40)}) + k({r.randrange(1, 12)});' for _ in range(40 * scale)]
    w["anyleaf sums"] = ['game s = subtract {1, 2, 4};', 'game t = subtract {1, 3};'] + [
        f'solve anyleaf s({r.randrange(1, 10**6)}) + t({r.randrange(1, 10**6)}) + s({r.randrange(1, 40)});' for _ in range(5000 * scale)]
    w["sums of 0.6 heaps"] = ['game g = octal "0.6";'] + [
        f'solve g({r.randrange(1, 20000)}) + g({r.randrange(1, 20000)}) + g({r.randrange(1, 30)});' for _ in range(1000 * scale)]
    return {k: "\n".join(v) + "\n" for k, v in w.items()}


def best(cmd, runs, env=None):
    t = math.inf
    out = b""
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, env=env)
        t = min(t, time.perf_counter() - t0)
        if p.returncode != 0:
            sys.exit(f"{cmd}: exit {p.returncode}\n{p.stderr.decode()}")
        out = p.stdout
    return t, out.decode()


def same_remoteness(text, js):
    """text's remoteness of each solve (None where it says not computed, or a draw) == JSON's."""
    t = [int(m.group(1)) if m.group(1) else None
         for m in re.finditer(r"^  outcome [PND][^\n]*?(?:, remoteness (\d+)|$)", text, re.M)]
    j = [o["remoteness"] for o in map(json.loads, js.splitlines()) if o["query"] == "solve"]
    return t == j


PY = """
import random, sys, time
sys.path.insert(0, %r)
import grundy
r = random.Random(1)
p = grundy.Program('game s = subtract {2, 5, 7, 11, 13};\\ngame k = octal "0.77";\\n')
qs = [f"s({r.randrange(200000)}) + s({r.randrange(200000)}) + k({r.randrange(1000)})" for _ in range(%d)]
t0 = time.perf_counter()
p.table("s", range(200000))
for q in qs:
    p.solve(q)
print(time.perf_counter() - t0)
"""


def py_file(n):
    r = random.Random(1)
    lines = ['game s = subtract {2, 5, 7, 11, 13};', 'game k = octal "0.77";', 'table s(0..199999);']
    lines += [f'solve s({r.randrange(200000)}) + s({r.randrange(200000)}) + k({r.randrange(1000)});' for _ in range(n)]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grundy", default=os.path.join(ROOT, "build", "grundy"))
    ap.add_argument("--python-path", default=os.path.join(ROOT, "build", "python"))
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    ok = True
    print(f"{'workload':38} {'text s':>8} {'json s':>8} {'json/text':>9}   {'x2 ratio':>8} {'text exp':>8} {'json exp':>8}")
    for name in workloads(1):
        row = []
        for scale in (1, 2):
            f = os.path.join(tmp, f"w{scale}.game")
            open(f, "w").write(workloads(scale)[name])
            tt, text = best([a.grundy, f, "--no-progress"], a.runs)
            tj, js = best([a.grundy, f, "--no-progress", "--format", "json"], a.runs)
            ok &= same_remoteness(text, js)
            row.append((tt, tj))
        (t1, j1), (t2, j2) = row
        print(f"{name:38} {t1:8.3f} {j1:8.3f} {j1 / t1:9.2f}   {j2 / t2:8.2f} {math.log2(t2 / t1):8.2f} {math.log2(j2 / j1):8.2f}")
    print("text and JSON give the same remoteness on every solve:", "yes" if ok else "NO")
    print()
    print(f"{'python against the command':38} {'cmd s':>8} {'python s':>8} {'py/cmd':>9}")
    for n in (1000, 2000):
        f = os.path.join(tmp, f"py{n}.game")
        open(f, "w").write(py_file(n))
        tc, _ = best([a.grundy, f, "--no-progress"], a.runs)
        tp = min(float(best(["/usr/bin/python3", "-c", PY % (a.python_path, n)], 1)[1]) for _ in range(a.runs))
        print(f"{'table + %d solves' % n:38} {tc:8.3f} {tp:8.3f} {tp / tc:9.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
