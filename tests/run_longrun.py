#!/usr/bin/env python3
"""run_longrun.py GRUNDY: the long search of `check G periodic` with --histogram FILE
(src/query/longrun.c, docs/periodicity.md "Long runs").

  - for several octal codes, the CSV file, byte for byte, against one made here from a plain
    table: the values by brute force over every move of the code (numpy), cross-checked with
    the command's own `table`; at each power of two from 1024 and at the last heap the
    largest value and where it first appears, the count of heaps with each value, and the
    classes by the rare-value kernel's rule tried mask by mask (or, where the kernel does not
    apply, the split with the fewest heaps on one side), their rare count and last rare heap
  - the text rows on standard output say the same
  - the CSV's exact bytes for a small case (0.77 to heap 1100), written out here
  - the final columns of 0.6 and Grundy's game to heap 20000 are the published ones
  - a second `check G periodic` in the same run, and a family's, are input errors (status 2)
  - a run stopped by --max-time with --checkpoint (status 3) leaves a whole CSV whose rows are
    those of the full run, and the same command resumes it to the bytes of an uninterrupted
    run (standard output and CSV), with --threads 2 as with 1
  - --table-memory (the table in a mapped file past it, src/eval/heap/tablefile.c): the same
    bytes as the table in memory, with and without a checkpoint; a peak resident set that does
    not hold the table; a checkpoint whose values stay in FILE.GAME.values, resumed to the
    uninterrupted run's bytes, refused (status 2) when that file is changed or gone, and
    removed with it when the run finishes
  - tools/check_values.py on that values file: the CSV's rows counted again, heaps computed by
    the rules alone, and a changed count reported
Prints "N passed, M failed"."""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from check_values import parity, parse_code  # noqa: E402  (the octal code's digits; bit parity)

GRUNDY = os.path.abspath(sys.argv[1])
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL", what)


def run(args, cwd):
    return subprocess.run([GRUNDY] + args + ["--no-progress"], cwd=cwd, capture_output=True, text=True)


def values(code, n):
    """sg(0..n-1) by every move of the code."""
    digits = parse_code(code)
    sg = np.zeros(n, dtype=np.int64)
    for h in range(n):
        opts = set()
        for j, (d, uneq) in enumerate(digits):
            if d & 1 and h == j:
                opts.add(0)
            if d & 2 and j >= 1 and h - j >= 1:
                opts.add(int(sg[h - j]))
            m = h - j
            if d & 4 and m >= 2:
                half = (m - 1) // 2 if uneq else m // 2
                a = np.arange(1, half + 1)
                opts.update(np.unique(sg[a] ^ sg[m - a]).tolist())
        v = 0
        while v in opts:
            v += 1
        sg[h] = v
    return sg


def rule(code):
    """The rare-value kernel's parity of the split places (-1 mixed), -2 where it does not apply."""
    digits = parse_code(code)
    if digits[0][0] & 3:
        return -2
    ps = {j & 1 for j, (d, _) in enumerate(digits) if d & 4}
    return -2 if not ps else ps.pop() if len(ps) == 1 else -1


def columns(sg, kappa):
    """(largest, largest_at, mask, heap_parity, rare_count, last_rare, counts) of sg, every mask tried."""
    n = len(sg)
    largest = int(sg.max())
    k = largest.bit_length()
    heap_par = np.arange(n) & 1
    best = None
    if kappa == -2:
        for m in range(1, 1 << (k + 1)):
            mask, hp = m & ((1 << k) - 1), m >> k
            cl = parity(sg & mask) ^ (hp & heap_par)
            d = int((cl == 0).sum()) - int((cl == 1).sum())
            if best is None or abs(d) > abs(best[0]):
                best = (d, mask, hp, 1 if d < 0 else 0)
    else:
        for mask in range(1, 1 << k):
            for hp in (0, 1):
                if hp and kappa < 0:
                    continue
                cc = 1 ^ (hp & kappa)
                cl = parity(sg & mask) ^ (hp & heap_par)
                rare = int((cl != cc).sum())
                if best is None or rare < best[0]:
                    best = (rare, mask, hp, cc)
    _, mask, hp, cc = best
    rare = np.nonzero((parity(sg & mask) ^ (hp & heap_par)) != cc)[0]
    counts = np.bincount(sg, minlength=largest + 1)
    return (largest, int(np.argmax(sg == largest)), mask, hp, len(rare), int(rare[-1]) if len(rare) else -1, counts)


def expected_csv(sg, kappa, to):
    ends = [1 << e for e in range(10, 40) if (1 << e) <= to + 1]
    if not ends or ends[-1] != to + 1:
        ends.append(to + 1)
    rows = [columns(sg[:e], kappa) for e in ends]
    top = rows[-1][0]
    out = ["n,largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare" +
           "".join(",count_%d" % v for v in range(top + 1))]
    texts = []
    for e, (lg, at, mask, hp, rc, last, counts) in zip(ends, rows):
        cells = [e, lg, at, mask, "true" if hp else "false", rc, last if last >= 0 else ""]
        cells += [int(counts[v]) if v <= lg else 0 for v in range(top + 1)]
        out.append(",".join(str(c) for c in cells))
        t = "heaps 0..%d of a: largest value %d, first at heap %d; rare mask 0x%x%s: %d rare heap%s" % (
            e - 1, lg, at, mask, " with heap parity" if hp else "", rc, "" if rc == 1 else "s")
        if last >= 0:
            t += ", the last at heap %d" % last
        texts.append(t)
        texts.append("  heaps with value 0..%d: %s" % (lg, " ".join(str(int(c)) for c in counts)))
    return "\n".join(out) + "\n", texts


with tempfile.TemporaryDirectory() as tmp:
    # ---- several codes against the plain table made here ----
    N = 2100
    for code in ("0.6", "4!.0", "0.77", "0.137", "0.56", "0.26", "0.33", "0.07"):
        with open(os.path.join(tmp, "a.game"), "w") as f:
            f.write('game a = octal "%s";\ncheck a periodic;\ntable a(0..%d);\n' % (code, N))
        sg = values(code, N + 1)
        r = run(["a.game", "--query", "2", "--format", "csv"], tmp)
        got = [int(l.split(",")[1]) for l in r.stdout.splitlines()[1:]]
        check(got == sg.tolist(), "%s: the brute-force values are the command's table" % code)
        r = run(["a.game", "--query", "1", "--to", str(N), "--histogram", "h.csv"], tmp)
        csv, texts = expected_csv(sg, rule(code), N)
        check(r.returncode == 0, "%s: status %d (%s)" % (code, r.returncode, r.stderr.strip()))
        with open(os.path.join(tmp, "h.csv")) as f:
            got = f.read()
        check(got == csv, "%s: the CSV\n--- got\n%s--- expected\n%s" % (code, got[:600], csv[:600]))
        lines = r.stdout.splitlines()
        check(lines[:len(texts)] == texts, "%s: the text rows\n%s\n%s" % (code, lines[:2], texts[:2]))
        check(lines[len(texts)] == "check a periodic" and lines[len(texts) + 1] == "  none (checked to %d)" % N,
              "%s: the check's answer follows the rows" % code)

    # ---- exact bytes, written out ----
    with open(os.path.join(tmp, "k.game"), "w") as f:
        f.write('game k = octal "0.77";\ncheck k periodic;\n')
    r = run(["k.game", "--to", "1100", "--histogram", "k.csv", "--format", "json"], tmp)
    with open(os.path.join(tmp, "k.csv")) as f:
        got = f.read()
    want = ("n,largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare,count_0,count_1,count_2,count_3,"
            "count_4,count_5,count_6,count_7,count_8\n"
            "1024,8,27,15,false,10,70,1,255,253,4,173,1,4,168,165\n"
            "1101,8,27,15,false,10,70,1,275,272,4,186,1,4,181,177\n")
    check(got == want, "0.77: the CSV's bytes:\n" + got)
    check(r.stdout.splitlines()[0] == '{"query":"histogram","game":"k","n":1024,"largest":8,"largest_at":27,"rare_mask":15,'
          '"rare_heap_parity":false,"rare_count":10,"last_rare":70,"counts":[1,255,253,4,173,1,4,168,165]}',
          "0.77: the JSON row: " + r.stdout.splitlines()[0])

    # ---- one long search a run, and only of one heap game ----
    with open(os.path.join(tmp, "two.game"), "w") as f:
        f.write('game a = octal "0.6";\ngame b = octal "0.77";\ncheck a periodic;\ncheck b periodic;\n')
    r = run(["two.game", "--to", "2000", "--histogram", "two.csv"], tmp)
    check(r.returncode == 2 and "--histogram two.csv serves one" in r.stderr and r.stdout.startswith("heaps 0..1023 of a"),
          "a second long search: status %d, %s" % (r.returncode, r.stderr.strip()))
    r = run(["two.game", "--to", "2000", "--histogram", "two.csv", "--query", "2"], tmp)
    check(r.returncode == 0 and r.stdout.startswith("heaps 0..1023 of b"), "--query picks the one: status %d" % r.returncode)
    with open(os.path.join(tmp, "fam.game"), "w") as f:
        f.write('game s[m] = subtract 1..m;\ncheck s[m] periodic for m in 1..3;\n')
    r = run(["fam.game", "--histogram", "fam.csv"], tmp)
    check(r.returncode == 2 and "not a family's" in r.stderr, "a family: status %d, %s" % (r.returncode, r.stderr.strip()))

    # ---- the published columns at heap 20000 ----
    for code, want in (("0.6", "largest value 284, first at heap 18855; rare mask 0x1ee: 1583 rare heaps, the last at heap 18833"),
                       ("4!.0", "largest value 147, first at heap 17751; rare mask 0xfe: 1196 rare heaps, the last at heap 19687")):
        with open(os.path.join(tmp, "p.game"), "w") as f:
            f.write('game a = octal "%s";\ncheck a periodic;\n' % code)
        r = run(["p.game", "--to", "20000", "--histogram", "p.csv"], tmp)
        check("  in heaps 0..20000: " + want in r.stdout.splitlines(), "%s: the columns at 20000:\n%s" % (code, r.stdout[-400:]))

    # ---- --max-time with --checkpoint, and resume ----
    with open(os.path.join(tmp, "a.game"), "w") as f:
        f.write('game a = octal "0.6";\ncheck a periodic;\n')
    to = str((1 << 21) - 1)
    for d in ("whole", "stopped"):
        os.mkdir(os.path.join(tmp, d))
        with open(os.path.join(tmp, d, "a.game"), "w") as f:
            f.write('game a = octal "0.6";\ncheck a periodic;\n')
    whole = run(["a.game", "--to", to, "--histogram", "h.csv", "--threads", "1"], os.path.join(tmp, "whole"))
    check(whole.returncode == 0, "0.6 to 2^21: status %d" % whole.returncode)
    sd = os.path.join(tmp, "stopped")
    first = run(["a.game", "--to", to, "--histogram", "h.csv", "--threads", "1", "--checkpoint", "a.ck", "--max-time", "0.2"], sd)
    check(first.returncode == 3 and "saved in a.ck" in first.stderr, "--max-time: status %d, %s" % (first.returncode, first.stderr))
    with open(os.path.join(tmp, "whole", "h.csv")) as f:
        full = [l.split(",") for l in f.read().splitlines()]
    if os.path.exists(os.path.join(sd, "h.csv")):
        with open(os.path.join(sd, "h.csv")) as f:
            part = [l.split(",") for l in f.read().splitlines()]
        ok = len(part) >= 2 and part[0] == full[0][:len(part[0])]
        for i in range(1, len(part)):
            row = part[i] + ["0"] * (len(full[0]) - len(part[0]))
            ok = ok and row == full[i]
        check(ok, "the stopped run's CSV holds whole rows of the full run's")
    else:
        check(False, "the stopped run wrote no CSV (the run stopped before heap 1024?)")
    again = run(["a.game", "--to", to, "--histogram", "h.csv", "--threads", "2", "--checkpoint", "a.ck"], sd)
    check(again.returncode == 0, "resumed: status %d %s" % (again.returncode, again.stderr))
    check(again.stdout == whole.stdout, "resumed: standard output is the uninterrupted run's")
    with open(os.path.join(sd, "h.csv")) as f, open(os.path.join(tmp, "whole", "h.csv")) as g:
        check(f.read() == g.read(), "resumed: the CSV is the uninterrupted run's")
    check(os.path.exists(os.path.join(sd, "a.ck")), "the checkpoint of a search stopped at --to is kept")

    # ---- --table-memory: the table in a file ----
    wd = os.path.join(tmp, "whole")
    fd_ = os.path.join(tmp, "filed")
    os.mkdir(fd_)
    with open(os.path.join(fd_, "a.game"), "w") as f:
        f.write('game a = octal "0.6";\ncheck a periodic;\n')
    filed = run(["a.game", "--to", to, "--histogram", "h.csv", "--threads", "2", "--table-memory", "64K"], fd_)
    check(filed.returncode == 0 and filed.stdout == whole.stdout, "--table-memory 64K: the output of the table in memory (%d %s)"
          % (filed.returncode, filed.stderr))
    with open(os.path.join(fd_, "h.csv")) as f, open(os.path.join(wd, "h.csv")) as g:
        check(f.read() == g.read(), "--table-memory 64K: the CSV of the table in memory")
    check(sorted(os.listdir(fd_)) == ["a.game", "h.csv"], "no checkpoint: the table's file is gone (%s)" % os.listdir(fd_))
    # 0.6's look-ups read 20,627 + 1 heaps behind the newest (its last rare heap, 20,627, and
    # its split place), more than 64K keeps behind it (16,384 two-byte values): they stay
    # resident, and the run says so once
    grows = [l for l in filed.stderr.splitlines() if "the look-ups' window, kept in memory, grows to" in l]
    check(len(grows) == 1 and "a rare heap at 20627" in grows[0] and "grows to 20629 heaps" in grows[0],
          "--table-memory 64K: the window's note: %s" % grows)
    r = run(["a.game", "--histogram", "h.csv", "--table-memory", "0"], fd_)
    check(r.returncode == 2 and "--table-memory needs a size such as 512M or 4G, not '0'" in r.stderr,
          "--table-memory 0: status %d, %s" % (r.returncode, r.stderr.strip()))

    # the peak resident set: 2^23 heaps (16 MB of two-byte values) in memory and in a file
    def peak_kb(args):
        probe = ("import resource, subprocess, sys\n"
                 "r = subprocess.run(sys.argv[1:], capture_output=True)\n"
                 "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
        out = subprocess.run([sys.executable, "-c", probe, GRUNDY] + args + ["--no-progress"], cwd=fd_,
                             capture_output=True, text=True).stdout.split()
        return int(out[0]), int(out[1])
    big = str((1 << 23) - 1)
    rc_mem, kb_mem = peak_kb(["a.game", "--to", big, "--histogram", "m.csv", "--threads", "2"])
    rc_file, kb_file = peak_kb(["a.game", "--to", big, "--histogram", "f.csv", "--threads", "2", "--table-memory", "256K"])
    # The file run keeps the table's first, middle and last heaps and its two threads' buffers:
    # 14.5 MB here at 2^23 and at 2^25 alike, against 23 MB in memory (CI's machine: 14.8 and
    # 22.8). A table left resident would close the gap, so a quarter of the values is asked for.
    check(rc_mem == 0 and rc_file == 0 and kb_file + 4096 < kb_mem,
          "2^23 heaps: peak %d KB in a file against %d KB in memory (16 MB of values)" % (kb_file, kb_mem))
    with open(os.path.join(fd_, "m.csv")) as f, open(os.path.join(fd_, "f.csv")) as g:
        check(f.read() == g.read(), "2^23 heaps: the same CSV in memory and in a file")
    # Constant memory: with the table in its file, a run four times as long peaks at most 1.2x
    # as high (the 2^26 against 2^28, scaled down: 0.6 to 2^22 and to 2^24 with 1 MB of
    # values resident, which 8 MB and 32 MB of values pass); a table kept whole would add 24 MB.
    # Not from 2^21: the two threads' chunk buffers reach their full size by 2^22 (10.8 MB peak
    # to 2^21, then 14.1 MB at 2^22, 2^23, 2^24 and 2^25 alike, measured here).
    mid, far = str((1 << 22) - 1), str((1 << 24) - 1)
    rc_s, kb_s = peak_kb(["a.game", "--to", mid, "--histogram", "s.csv", "--threads", "2", "--table-memory", "1M"])
    rc_b, kb_b = peak_kb(["a.game", "--to", far, "--histogram", "b.csv", "--threads", "2", "--table-memory", "1M"])
    check(rc_s == 0 and rc_b == 0 and kb_b <= 1.2 * kb_s,
          "constant memory: peak %d KB to 2^24 against %d KB to 2^22 (at most 1.2x)" % (kb_b, kb_s))
    def rows(name):   # each row as its cells by column (a longer run may have more count_ columns)
        with open(os.path.join(fd_, name)) as f:
            lines = [l.split(",") for l in f.read().splitlines()]
        return [{k: v for k, v in zip(lines[0], l) if v != "0"} for l in lines[1:]]
    to22, to24 = rows("s.csv"), rows("b.csv")
    check(len(to24) == len(to22) + 2 and to24[:len(to22)] == to22,
          "constant memory: the rows to 2^22 (%d) begin those to 2^24 (%d)" % (len(to22), len(to24)))

    # a checkpoint whose values are the table's file
    cd = os.path.join(tmp, "filedck")
    os.mkdir(cd)
    with open(os.path.join(cd, "a.game"), "w") as f:
        f.write('game a = octal "0.6";\ncheck a periodic;\n')
    opts = ["a.game", "--to", to, "--histogram", "h.csv", "--table-memory", "64K", "--checkpoint", "a.ck"]
    first = run(opts + ["--threads", "1", "--max-time", "0.3"], cd)
    values = os.path.join(cd, "a.ck.a.values")
    check(first.returncode == 3 and os.path.exists(values) and os.path.getsize(os.path.join(cd, "a.ck")) < 4096,
          "stopped with the table in a file: status %d, a.ck %s bytes, values file %s" % (
              first.returncode, os.path.getsize(os.path.join(cd, "a.ck")) if os.path.exists(os.path.join(cd, "a.ck")) else None,
              os.path.exists(values)))
    import shutil
    for harm in ("changed", "gone"):
        hd = os.path.join(tmp, "harm-" + harm)
        shutil.copytree(cd, hd)
        hv = os.path.join(hd, "a.ck.a.values")
        if harm == "gone":
            os.remove(hv)
        else:
            with open(hv, "r+b") as f:
                f.seek(2000)
                b = f.read(1)
                f.seek(2000)
                f.write(bytes([b[0] ^ 1]))
        r = run(opts, hd)
        check(r.returncode == 2 and "keeps its values in a.ck.a.values, which is missing, short or not the one it saved" in r.stderr,
              "values file %s: status %d, %s" % (harm, r.returncode, r.stderr.strip()))
    again = run(opts + ["--threads", "2"], cd)
    check(again.returncode == 0 and again.stdout == whole.stdout, "resumed from the table's file: the uninterrupted output (%d %s)"
          % (again.returncode, again.stderr.strip()))
    with open(os.path.join(cd, "h.csv")) as f, open(os.path.join(wd, "h.csv")) as g:
        check(f.read() == g.read(), "resumed from the table's file: the uninterrupted CSV")
    check(os.path.exists(values) and os.path.getsize(os.path.join(cd, "a.ck")) < 4096, "kept at --to: a.ck small, its values beside it")
    # tools/check_values.py, the independent check of a long run's values file: the rows
    # counted again from the file, and heaps by the rules alone; a changed count is reported
    tool = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools", "check_values.py"), values]
    r = subprocess.run(tool + ["--rows", os.path.join(cd, "h.csv")], capture_output=True, text=True)
    rows = r.stdout.splitlines()
    check(r.returncode == 0 and len(rows) == 12 and all(" equal (" in x for x in rows)
          and rows[-1].endswith("1584 rare heaps, the last at 20627)"), "check_values --rows: %d %s %s" % (r.returncode, rows[-1:], r.stderr))
    r = subprocess.run(tool + ["0.6", "20627", "2^20", "2^21-1"], capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout.count("MISMATCH") == 0 and r.stdout.count("by the rules") == 3,
          "check_values by the rules: %d %s %s" % (r.returncode, r.stdout, r.stderr))
    with open(os.path.join(cd, "h.csv")) as f:
        lines = f.read().splitlines()
    cells = lines[5].split(",")
    cells[7] = str(int(cells[7]) + 1)
    lines[5] = ",".join(cells)
    with open(os.path.join(cd, "bad.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run(tool + ["--rows", os.path.join(cd, "bad.csv")], capture_output=True, text=True)
    check(r.returncode == 1 and r.stdout.count("MISMATCH") == 1 and "count_0 " in r.stdout,
          "check_values --rows, one count changed: %d %s" % (r.returncode, r.stdout))
    # a run that finishes (no --to: nothing kept) removes the checkpoint and its values file
    r = run(["a.game", "--histogram", "z.csv", "--table-memory", "64K", "--checkpoint", "z.ck"], cd)
    check(r.returncode == 0 and not os.path.exists(os.path.join(cd, "z.ck")) and not os.path.exists(os.path.join(cd, "z.ck.a.values")),
          "a finished run removes z.ck and z.ck.a.values (%s)" % sorted(os.listdir(cd)))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
