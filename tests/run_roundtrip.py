#!/usr/bin/env python3
"""run_roundtrip.py GRUNDY: every printed position parses back to the same position. Random
small sums (kayles, dawson, a subtraction game, *n; empty heaps and groups '( ... )' among
them) are solved and their options listed under each convention; every winning move and every
option printed is fed back to solve under the same convention, which must
  - echo it verbatim (the printed form is canonical: empty heaps left out, *0 for nothing,
    groups in parentheses where components matter),
  - find a winning move's position lost (P), an option's outcome and SG value as listed,
  - agree with the position graph alone (--no-theory) on the outcome.
Prints "N passed, M failed"; exits 1 on a failure."""
import json, random, subprocess, sys, tempfile, os

grundy = sys.argv[1]
GAMES = 'game k = octal "0.77";\ngame d = octal "0.137";\ngame s = subtract {1, 3, 4};\n'
CONVS = ["normal", "misere", "anyleaf", "every"]
passed = failed = 0
shown = 0


def check(cond, what):
    global passed, failed, shown
    if cond:
        passed += 1
        return
    failed += 1
    if shown < 20:
        print("FAIL " + what)
        shown += 1


def run(queries, extra=()):
    """Runs the queries (one per line) in one file; returns one JSON answer per query."""
    with tempfile.NamedTemporaryFile("w", suffix=".game", delete=False) as f:
        f.write(GAMES + "".join(q + ";\n" for q in queries))
        name = f.name
    try:
        r = subprocess.run([grundy, name, "--format", "json", "--no-progress", *extra],
                           capture_output=True, text=True, timeout=600)
    finally:
        os.unlink(name)
    if r.returncode not in (0, 1):
        print("grundy failed (%d): %s" % (r.returncode, r.stderr[:2000]))
        sys.exit(1)
    out = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
    if len(out) != len(queries):
        print("expected %d answers, got %d" % (len(queries), len(out)))
        sys.exit(1)
    return out


def atom(rng):
    g = rng.choice(["k", "k", "d", "s", "*"])
    h = rng.randint(0, 7)
    return "*%d" % h if g == "*" else "%s(%d)" % (g, h)


def position(rng):
    parts = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.2:   # a group: one component of several heaps
            parts.append("(" + " + ".join(atom(rng) for _ in range(rng.randint(2, 3))) + ")")
        else:
            parts.append(atom(rng))
    return " + ".join(parts)


rng = random.Random(28)
starts = [(conv, position(rng)) for conv in CONVS for _ in range(45)]
queries = []
for conv, pos in starts:
    queries.append("solve %s %s" % (conv, pos))
    queries.append("options %s %s" % (conv, pos))
answers = run(queries)

# What each printed position must be when read back.
back = []   # (conv, text, outcome wanted or None, sg wanted or None, where from)
for (conv, pos), sol, opts in zip(starts, answers[0::2], answers[1::2]):
    for m in sol.get("winning_moves", []):
        back.append((conv, m, "P", None, "a winning move of %s %s" % (conv, pos)))
    for o in opts.get("options", []):
        back.append((conv, o["position"], o.get("outcome"), o.get("sg"), "an option of %s %s" % (conv, pos)))
check(len(back) > 500, "enough printed positions to read back (%d)" % len(back))
check(any("(" in t for _, t, _, _, _ in back), "some printed positions have groups")

again = run(["solve %s %s" % (conv, text) for conv, text, _, _, _ in back])
graph = run(["solve %s %s" % (conv, text) for conv, text, _, _, _ in back], ["--no-theory"])
for (conv, text, outcome, sg, where), a, g in zip(back, again, graph):
    check(a["position"] == text, "%s: %r read back is written %r" % (where, text, a["position"]))
    if outcome is not None:
        check(a["outcome"] == outcome, "%s: %r is %s, listed %s" % (where, text, a["outcome"], outcome))
    if sg is not None:
        check(a.get("sg") == sg, "%s: %r has sg %s, listed %s" % (where, text, a.get("sg"), sg))
    check(a["outcome"] == g["outcome"], "%s: %r is %s, %s by the position graph" % (where, text, a["outcome"], g["outcome"]))

print("roundtrip: %d passed, %d failed (%d printed positions read back)" % (passed, failed, len(back)))
sys.exit(1 if failed else 0)
