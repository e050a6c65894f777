"""The Python binding against the command's own answers (CSV and JSON of the same queries),
values from the literature, its exceptions, an interrupt, and threads sharing a program.

Run by ctest (tests/CMakeLists.txt) with the package built in build/python on PYTHONPATH,
GRUNDY_CLI the command and GRUNDY_EXAMPLES the examples folder."""
import csv
import io
import json
import re
import os
import signal
import struct
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import grundy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLI = os.environ.get("GRUNDY_CLI", os.path.join(ROOT, "build", "grundy"))
EXAMPLES = os.environ.get("GRUNDY_EXAMPLES", os.path.join(ROOT, "examples"))

KAYLES = "game kayles = octal \"0.77\";\n"
PROGRAM = KAYLES + textwrap.dedent("""\
    game nim = subtract 1..;
    game grundys = octal "4!.0";
    game wythoff {
        position (a, b);
        move -> (a - k, b)     for k in 1..a;
        move -> (a, b - k)     for k in 1..b;
        move -> (a - k, b - k) for k in 1..min(a, b);
    }
    graph loop { x -> y; y -> x, z; z -> w; }
    """)


def cli(path, *args):
    r = subprocess.run([CLI, path, *args], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr     # 1: a check refuted, the answers still given
    return r.stdout


def cli_text(tmp_path, text, *args):
    f = tmp_path / "q.game"
    f.write_text(text)
    return cli(str(f), *args)


def csv_table(text, kind):
    """The array a table's CSV describes: n,value or x,y,value rows."""
    rows = list(csv.reader(io.StringIO(text)))
    header, rows = rows[0], rows[1:]
    def cell(v):
        if kind == "outcome":
            return v
        return int(v) if v != "" else -1
    if header == ["n", "value"]:
        return np.array([cell(r[1]) for r in rows])
    assert header == ["x", "y", "value"]
    xs = sorted({int(r[0]) for r in rows})
    ys = sorted({int(r[1]) for r in rows})
    a = np.empty((len(xs), len(ys)), dtype="<U1" if kind == "outcome" else np.int64)
    for r in rows:
        a[int(r[0]) - xs[0], int(r[1]) - ys[0]] = cell(r[2])
    return a


# ---- tables: the same arrays as the command's CSV, on every example ----

def example_tables():
    for name in sorted(os.listdir(EXAMPLES)):
        if not name.endswith(".game"):
            continue
        path = os.path.join(EXAMPLES, name)
        index = 0   # the query's number: a census prints a line per class, its first class 1
        for line in cli(path, "--format", "json").splitlines():
            q = json.loads(line)
            if q["query"] != "census" or q["class"] == 1:
                index += 1
            if q["query"] == "table" and "from" in q and q["kind"] in ("sg", "outcome", "remoteness"):
                yield pytest.param(path, index, q, id=f"{name}:{index}")


EXAMPLE_TABLES = list(example_tables())


@pytest.mark.parametrize("path,index,query", EXAMPLE_TABLES)
def test_table_equals_cli_csv(path, index, query):
    p = grundy.compile(path)
    coords = [lo if lo == hi else range(lo, hi + 1) for lo, hi in zip(query["from"], query["to"])]
    # a table over a board family names it (table nk(grid(3, 1..16))): board= says which
    head = cli(path, "--query", str(index)).splitlines()[0]
    family = re.match(r"table (?:\w+ )?\w+\((path|cycle|grid|complete)\(", head)
    got = p.table(query["game"], *coords, kind=query["kind"], convention=query["convention"],
                  board=family.group(1) if family else None)
    want = csv_table(cli(path, "--format", "csv", "--query", str(index)), query["kind"])
    assert got.shape == want.shape
    assert got.dtype == want.dtype
    assert np.array_equal(got, want)


def test_examples_cover_one_and_two_dimensions():
    dims = {len([1 for lo, hi in zip(q.values[2]["from"], q.values[2]["to"]) if lo != hi])
            for q in EXAMPLE_TABLES}
    assert {1, 2} <= dims


def test_table_values_from_the_literature():
    p = grundy.compile(PROGRAM)
    kayles = p.table("kayles", range(0, 10**6))
    assert kayles.dtype == np.int64 and kayles.shape == (10**6,)
    assert list(kayles[:12]) == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    # period 12 from heap 71 on (Guy and Smith, 1956)
    assert np.array_equal(kayles[71:10**6 - 12], kayles[83:10**6])
    assert kayles[70] != kayles[82]
    # Grundy's game: 0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0 (Winning Ways)
    assert list(p.table("grundys", range(21))) == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
    w = p.table("wythoff", range(100), range(100), kind="outcome")
    assert w.shape == (100, 100) and w.dtype == np.dtype("<U1")
    phi = (1 + 5 ** 0.5) / 2
    ps = {(int(k * phi), int(k * phi) + k) for k in range(100)}
    ps |= {(b, a) for a, b in ps}
    assert {(a, b) for a in range(100) for b in range(100) if w[a, b] == "P"} == {(a, b) for a, b in ps if a < 100 and b < 100}


def test_table_ranges_fixed_coordinates_and_steps():
    p = grundy.compile(PROGRAM)
    full = p.table("wythoff", range(10), range(10))
    assert np.array_equal(p.table("wythoff", range(10), 3), full[:, 3])
    assert np.array_equal(p.table("wythoff", range(2, 9, 3), range(9, -1, -2)), full[2:9:3, 9::-2])
    assert p.table("wythoff", range(4, 5), range(10)).shape == (1, 10)
    assert int(p.table("kayles", 11)) == 6
    assert np.array_equal(p.table("kayles", range(20, 9, -1)), p.table("kayles", range(10, 21))[::-1])
    with pytest.raises(ValueError):
        p.table("kayles", range(5, 5))
    with pytest.raises(TypeError):
        p.table("kayles", 2.5)
    with pytest.raises(ValueError):
        p.table("kayles", range(10), kind="genera")
    # the array is the caller's to change
    a = p.table("kayles", range(5))
    a[0] = 7
    assert a[0] == 7


# ---- every convention: solve and options as the command's JSON ----

SUMS = ["kayles(3) + kayles(5)", "kayles(4) + kayles(7)", "nim(2) + nim(2)", "nim(1) + nim(2) + kayles(2)",
        "wythoff(3, 5)", "wythoff(2, 1) + nim(3)", "kayles(12)"]


@pytest.mark.parametrize("conv", ["normal", "misere", "anyleaf", "every"])
def test_solve_every_convention_equals_cli_json(tmp_path, conv):
    text = PROGRAM + "".join(f"solve {conv} {s};\n" for s in SUMS)
    want = [json.loads(l) for l in cli_text(tmp_path, text, "--format", "json").splitlines()]
    p = grundy.compile(PROGRAM)
    for s, w in zip(SUMS, want):
        got = p.solve(s, convention=conv)
        assert (got.convention, got.outcome, got.sg, got.remoteness, got.winning_moves) == \
               (w["convention"], w["outcome"], json_value(w["sg"]), w["remoteness"], w["winning_moves"]), s
        assert bool(got) == (w["outcome"] == "N")


def test_remoteness_by_the_one_rule_and_asked_for(tmp_path):
    # Where the rule finds it cheaply (kayles(3) + kayles(5)) Python, JSON and text give the same
    # number; where it declines (kayles(20) + kayles(25)) None, null and "not computed"; asked
    # for, the number the position graph gives, in every face alike.
    sums = ["kayles(3) + kayles(5)", "kayles(20) + kayles(25)"]
    text = PROGRAM + "".join(f"solve {s};\nsolve {s} remoteness;\n" for s in sums)
    js = [json.loads(l) for l in cli_text(tmp_path, text, "--format", "json").splitlines()]
    txt = cli_text(tmp_path, text)
    p = grundy.compile(PROGRAM)
    got = [p.solve(s, remoteness=asked).remoteness for s in sums for asked in (False, True)]
    assert got == [j["remoteness"] for j in js] == [7, 7, None, 42]
    assert txt.count("remoteness not computed") == 1 and txt.count("remoteness 42") == 1
    with pytest.raises(grundy.LimitError, match="position graph limit"):
        p.solve(sums[1], remoteness=True, max_positions=1000)


@pytest.mark.parametrize("conv", ["normal", "misere", "anyleaf", "every"])
def test_tables_every_convention_equal_cli_csv(tmp_path, conv):
    p = grundy.compile(PROGRAM)
    for kind in ("sg", "outcome", "remoteness"):
        text = PROGRAM + f"table {conv} kayles(0..30) {kind};\n"
        want = csv_table(cli_text(tmp_path, text, "--format", "csv"),
                         "outcome" if kind == "outcome" or (kind == "sg" and conv in ("misere", "every")) else kind)
        assert np.array_equal(p.table("kayles", range(31), kind=kind, convention=conv), want), (conv, kind)


def test_known_conventions():
    p = grundy.compile(PROGRAM)
    # misere Nim: two equal heaps of 2 lose, a lone heap of 1 loses
    assert p.solve("nim(2) + nim(2)", convention="misere").outcome == "P"
    assert p.solve("nim(1)", convention="misere").outcome == "P"
    assert p.solve("nim(1)", convention="normal").outcome == "N"
    assert p.solve("kayles(4) + kayles(7)", convention="misère").outcome == "N"
    with pytest.raises(ValueError):
        p.solve("nim(1)", convention="losing")


def test_options_equal_cli_json(tmp_path):
    p = grundy.compile(PROGRAM)
    for pos, conv in [("kayles(4) + nim(2)", "normal"), ("kayles(5)", "misere"), ("loop.x", None)]:
        text = PROGRAM + f"options {conv or ''} {pos};\n"
        want = json.loads(cli_text(tmp_path, text, "--format", "json"))
        got = p.options(pos, convention=conv)
        assert [(o.position, o.sg, o.outcome) for o in got] == \
               [(o["position"], json_value(o["sg"]), o["outcome"]) for o in want["options"]]
    assert [o.position for o in p.options("loop.y")] == ["loop.x", "loop.z"]


def json_value(v):
    """A value of the command's JSON as the binding gives it: {"loopy": [K]} is Loopy(K)."""
    return grundy.Loopy(v["loopy"]) if isinstance(v, dict) else v


def test_loopy_values_equal_cli_json(tmp_path):
    # Smith's infinite generalised values: x is ∞{1} (its finite options' values), xp ∞{}, a
    # sum with one infinite part ∞{K xor x}; solve, options and tables agree with the command.
    src = "graph g { x -> xp, y; xp -> x; y -> z; z; }\n"
    p = grundy.compile(src)
    x = p.solve("g.x")
    assert x.outcome == "D" and x.sg == grundy.Loopy({1}) and isinstance(x.sg, grundy.Loopy)
    assert str(x.sg) == "∞{1}" and str(p.solve("g.xp").sg) == "∞{}" and p.solve("g.y").sg == 1
    s = p.solve("g.x + g.y")
    assert s.outcome == "N" and s.sg == grundy.Loopy({0}) and s.winning_moves == ["g.y + g.y"]
    assert [(o.position, o.sg) for o in p.options("g.x")] == [("g.xp", grundy.Loopy()), ("g.y", 1)]
    text = src + "solve g.x + g.y;\noptions g.x;\ntable g;\n"
    solve, options, table = [json.loads(l) for l in cli_text(tmp_path, text, "--format", "json").splitlines()]
    assert json_value(solve["sg"]) == s.sg
    assert [json_value(o["sg"]) for o in options["options"]] == [o.sg for o in p.options("g.x")]
    assert [json_value(v) for v in table["values"]] == [grundy.Loopy({1}), grundy.Loopy(), 1, 0]
    # a loopy rule set's table: an object array of ints and Loopy values
    q = grundy.compile("game up { heap n; move -> n - 1 where n >= 1; move -> n + 1 where n == 2; }\n")
    t = q.table("up", range(5))
    got = [json_value(v) for v in json.loads(cli_text(tmp_path, "game up { heap n; move -> n - 1 where n >= 1; "
                                                       "move -> n + 1 where n == 2; }\ntable up(0..4);\n",
                                                       "--format", "json"))["values"]]
    assert list(t) == got


def test_check():
    p = grundy.compile(PROGRAM)
    c = p.check("kayles periodic")
    assert (c.status, c.period, c.preperiod) == ("proved", 12, 71)
    assert "Guy-Smith" in c.theorem and c
    r = p.check("kayles period 5")
    assert r.status == "refuted" and r.counterexample and not r
    f = p.check("nim: sg(n) == n for n in 0..1000")
    assert f.status in ("proved", "holds") and f.checked_to >= 1000
    b = grundy.compile("game bash[m] = subtract 1..m;")
    formula = b.check("bash[m]: P(n) <=> n % (m + 1) == 0 for m in 1..20, n in 0..500")
    assert formula.status in ("proved", "holds")
    assert b.check("bash[m]: P(n) <=> n % m == 0 for m in 1..20, n in 0..500").status == "refuted"
    with pytest.raises(ValueError, match="once per member"):
        b.check("bash[m] periodic for m in 1..5")
    assert "bash[3]: proved: period 4, preperiod 0" in grundy.compile(
        "game bash[m] = subtract 1..m;\ncheck bash[m] periodic for m in 1..5;\n").run()


def test_check_columns():
    # the research tables' columns, as run_census.sh pins them for text, JSON and CSV (to 20000)
    p = grundy.compile('game a = octal "0.6";\ngame b = octal "0.77";\ngame g = octal "4!.0";')
    a = p.check("a periodic", to=20000, threads=1)
    assert (a.status, a.period, a.checked_to) == ("none", None, 20000)
    assert (a.largest, a.largest_at, a.rare_mask, a.rare_heap_parity, a.rare_count, a.last_rare) == \
        (284, 18855, 0x1ee, False, 1583, 18833)
    g = p.check("g periodic", to=20000, threads=1)
    assert (g.largest, g.largest_at, g.rare_mask, g.rare_heap_parity, g.rare_count, g.last_rare) == \
        (147, 17751, 0xfe, False, 1196, 19687)
    b = p.check("b periodic", to=20000, threads=1)     # proved first: the columns of its heaps 0..167
    assert (b.status, b.period, b.preperiod) == ("proved", 12, 71)
    assert (b.largest, b.rare_mask, b.rare_count, b.last_rare) == (8, 0xf, 10, 70)
    assert p.check("a periodic", threads=1).checked_to == 100000     # the default range
    with pytest.raises(ValueError):
        p.check("a periodic", to=-1)


def test_plot_png_and_svg():
    p = grundy.compile(PROGRAM)
    png = p.plot("grundys", range(200))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and isinstance(png, bytes)
    assert struct.unpack(">II", png[16:24]) == (800, 600)
    assert png._repr_png_() == bytes(png)
    assert repr(png) == str(png) == f"<grundy.Plot png, {len(png)} bytes>"
    two = p.plot("wythoff", range(30), range(30), kind="outcome", width=300, height=280)
    assert struct.unpack(">II", two[16:24]) == (300, 280)
    svg = p.plot("kayles", range(50), format="svg")
    assert svg.startswith(b"<?xml") and svg._repr_png_() is None and "<svg" in svg._repr_svg_()


def test_run_and_explain():
    p = grundy.compile(KAYLES + "solve kayles(4) + kayles(7);\n")
    assert json.loads(p.run("json"))["sg"] == 3
    assert "kayles" in p.explain()


# ---- Python's habits: exceptions, limits, interrupts, threads ----

def test_compile_error_is_a_located_syntax_error(tmp_path):
    with pytest.raises(grundy.GameSyntaxError) as e:
        grundy.compile("game k = octal \"0.77\";\nsolve kk(3);\n", "k.game")
    err = e.value
    assert isinstance(err, SyntaxError)
    assert (err.filename, err.lineno, err.offset, err.text) == ("k.game", 2, 7, "solve kk(3);")
    assert err.msg == "unknown game 'kk' (did you mean 'k'?)"
    f = tmp_path / "bad.game"
    f.write_text("game k = octal ;\n")
    with pytest.raises(SyntaxError) as e:
        grundy.compile(f)
    assert (e.value.filename, e.value.lineno, e.value.offset) == (str(f), 1, 16)


def test_bad_positions_and_games_are_located():
    p = grundy.compile(PROGRAM)
    with pytest.raises(grundy.GameSyntaxError) as e:
        p.solve("kayles(5) + nimm(3)")
    assert (e.value.filename, e.value.lineno, e.value.offset, e.value.text) == ("<position>", 1, 13, "kayles(5) + nimm(3)")
    with pytest.raises(grundy.GameSyntaxError) as e:
        p.table("kayless", range(3))
    assert (e.value.filename, e.value.offset) == ("<game>", 1)
    with pytest.raises(grundy.GameSyntaxError):
        p.check("kayles periodc")
    with pytest.raises(grundy.GameSyntaxError, match="vertex"):
        p.table("loop", range(3))
    assert p.solve("nim(3) + nim(5) + nim(6)").outcome == "P"    # still answers


def test_limits_raise_limit_error():
    p = grundy.compile(PROGRAM)
    with pytest.raises(grundy.LimitError) as e:
        p.table("wythoff", range(3000), range(3000), max_time=0.2)
    assert "time limit" in str(e.value)
    with pytest.raises(grundy.LimitError):
        p.solve("kayles(30) + kayles(31)", convention="every", max_positions=100)
    with pytest.raises(grundy.LimitError):
        p.table("grundys", range(2**22), max_memory="1M")
    assert list(p.table("kayles", range(4), max_time=10, max_memory="1G", threads=1)) == [0, 1, 2, 3]


def test_limits_hold_on_periodic_tables_and_large_arrays():
    # issue 28: a proved period still polls the clock (it took 39 s and returned 8 GB on 0.2)
    p = grundy.compile("game s = subtract {1, 3};\n")
    t0 = time.monotonic()
    with pytest.raises(grundy.LimitError, match=r"time limit of 0.2 s reached; cells read: \d+ of 1000000000 done"):
        p.table("s", range(10**9), max_time=0.2)
    assert time.monotonic() - t0 < 20    # only a hang fails: the limit ends it in about 0.2 s
    # an array larger than the memory limit is refused before it is made
    with pytest.raises(grundy.LimitError, match=r"the table's 100000000 cells need 763 MiB .* memory limit of 100 MiB .*max_memory"):
        p.table("s", range(10**8), max_memory="100M")
    # by default (max_memory: three quarters of the machine's memory, as the command), and with
    # none (0), one larger than that
    with pytest.raises(grundy.LimitError, match=r"cells need 7629395 MiB .* memory limit of \d+ MiB"):
        p.table("s", range(10**12))
    with pytest.raises(grundy.LimitError, match=r"three quarters of this machine's memory"):
        p.table("s", range(10**12), max_memory=0)
    assert list(p.table("s", range(8), max_time=10, max_memory="100M")) == [0, 1, 0, 1, 0, 1, 0, 1]


def test_interrupt_answers_within_a_second_and_leaves_the_program_usable():
    script = textwrap.dedent("""\
        import os, signal, threading, time, grundy
        p = grundy.compile(%r)
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        t0 = time.monotonic()
        try:
            p.table("wythoff", range(4000), range(4000))
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - t0 - 0.5, 3))
        print(list(p.table("kayles", range(6))))
        """) % PROGRAM
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("interrupted after"), r.stdout
    assert float(lines[0].split()[-1]) < 1.0
    assert lines[1] == "[0, 1, 2, 3, 1, 4]"


def test_two_threads_share_a_program():
    p = grundy.compile(PROGRAM)
    want = {"kayles": p.table("kayles", range(200000)), "grundys": p.table("grundys", range(30000)),
            "wythoff": p.table("wythoff", range(150), range(150), kind="outcome")}
    results, errors = {}, []

    def work(name):
        try:
            for _ in range(3):
                coords = {"wythoff": (range(150), range(150)), "grundys": (range(30000),)}.get(name, (range(200000),))
                kind = "outcome" if name == "wythoff" else "sg"
                got = p.table(name, *coords, kind=kind, threads=1)
                assert np.array_equal(got, want[name])
                png = p.plot(name, *(c if name == "wythoff" else range(300) for c in coords), kind=kind)
                assert png[:4] == b"\x89PNG"
            results[name] = True
        except Exception as e:          # reported below, with the thread's name
            errors.append((name, e))

    threads = [threading.Thread(target=work, args=(n,)) for n in want]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert set(results) == set(want)


# ---- one engine that remembers ----

def test_solve_after_table_computes_nothing():
    p = grundy.compile('game g = octal "0.6";')
    t = p.table("g", range(50000))
    st = p.stats()
    assert st["values_computed"] == 50000 and st["compiles"] == 1
    for i in range(20):
        s = p.solve("g(%d) + g(5)" % (49999 - i))
        assert s.sg == t[49999 - i] ^ t[5]
    after = p.stats()
    assert after["values_computed"] == 50000          # read from the table kept
    assert after["calls"] == st["calls"] + 20 and after["drops"] == 0
    p.reset()
    assert p.solve("g(40000) + g(5)").sg == t[40000] ^ t[5]
    assert p.stats()["values_computed"] > 50000       # computed again after the reset


def test_stopped_call_keeps_other_games_values():
    # a query on another game stopped by the time limit drops only what it was making: the
    # table of s stays, and the next solve on s computes no value
    p = grundy.compile('game s = subtract {1, 2, 5};\ngame g = octal "0.6";')
    t = p.table("s", range(100001))
    st = p.stats()
    mine = {d["name"]: d for d in st["games"]}
    assert mine["s"]["values"] > 0 and mine["s"]["bytes"] > 0
    assert st["games_memory"] >= mine["s"]["bytes"] and st["memory"] >= st["games_memory"] + st["program_memory"]
    with pytest.raises(grundy.LimitError, match="time limit"):
        p.solve("g(3000) + g(5) + g(7)", convention="misere", max_time=0.05)
    after = p.stats()
    assert after["drops"] == 0 and after["game_drops"] >= 1
    assert {d["name"]: d["values"] for d in after["games"]}["s"] == mine["s"]["values"]
    assert "g" not in {d["name"] for d in after["games"]} or after["game_drops"] >= 1
    computed = after["values_computed"]
    assert p.solve("s(99999) + s(12345)").sg == t[99999] ^ t[12345]
    assert p.stats()["values_computed"] == computed      # s's values were kept


def test_stats_per_game():
    p = grundy.compile('game a = octal "0.6";\ngame b = octal "0.6";')
    p.table("a", range(20000))
    p.table("b", range(1000))
    games = {d["name"]: d for d in p.stats()["games"]}
    assert games["a"]["values"] == 20000 and games["b"]["values"] == 1000
    assert games["a"]["bytes"] > games["b"]["bytes"] > 0
    p.reset()
    assert p.stats()["games"] == []


# ---- the namespace, paths, defaults, locations ----

def test_namespace_is_the_public_names():
    public = {n for n in dir(grundy) if not n.startswith("_")}
    assert public == set(grundy.__all__) - {"__version__"}
    for leaked in ("np", "os", "List", "dataclass", "field", "Optional", "Union", "annotations"):
        assert not hasattr(grundy, leaked), leaked
    assert all(hasattr(grundy, n) for n in grundy.__all__)


def test_a_path_that_names_no_file_is_file_not_found(tmp_path):
    for missing in ("nosuch.game", "dir/nosuch", str(tmp_path / "nosuch.game")):
        with pytest.raises(FileNotFoundError):
            grundy.compile(missing)
    with pytest.raises(FileNotFoundError):
        grundy.compile(tmp_path / "nosuch.game")          # a PathLike too
    with pytest.raises(grundy.GameSyntaxError):            # text that names no file stays text
        grundy.compile("nosuch")
    assert grundy.compile("// a comment, no statement").run() == ""   # text with a '/' that is a comment


def test_memory_limit_defaults_to_three_quarters_of_ram():
    p = grundy.compile('game g = octal "4!.0";')
    ram = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    with pytest.raises(grundy.LimitError) as e:
        p.table("g", range(2**50, 2**50 + 3), threads=1)     # 1 PiB: past any address space
    msg = str(e.value)
    assert "limit %d MiB" % ((os.sysconf("SC_PHYS_PAGES") // 4 * 3 * os.sysconf("SC_PAGE_SIZE")) >> 20) in msg, msg
    assert "max_memory" in msg and ram > 0
    # max_memory=0: no limit; the system then refuses, and the message names no limit
    with pytest.raises(grundy.LimitError) as e:
        p.table("g", range(2**50, 2**50 + 3), threads=1, max_memory=0)
    msg = str(e.value)
    assert "no memory limit set" in msg and "17592186044415" not in msg and "limit 1" not in msg, msg


def test_an_empty_position_is_located_in_it():
    p = grundy.compile(PROGRAM)
    for text in ("", "  "):
        with pytest.raises(grundy.GameSyntaxError) as e:
            p.solve(text)
        assert (e.value.filename, e.value.lineno, e.value.offset, e.value.text) == ("<position>", 1, 1, text)
        assert e.value.msg == "no position given (the text is empty)"
    with pytest.raises(grundy.GameSyntaxError) as e:
        p.table("", range(3))
    assert (e.value.filename, e.value.offset) == ("<game>", 1)


# ---- progress ----

def test_progress_is_called_with_how_far_the_call_got():
    p = grundy.compile('game a = octal "0.6";')
    seen = []
    r = p.check("a periodic", to=1500000, threads=1, progress=seen.append)
    assert r.status == "none"
    assert seen, "no progress reported for a call of seconds"
    assert all(isinstance(s, grundy.Progress) and s.query == "a periodic" for s in seen)
    heaps = [s for s in seen if s.step == "a"]
    assert heaps and all(s.total == 1500001 and 0 <= s.done <= s.total for s in heaps)
    done = [s.done for s in heaps]
    assert done == sorted(done) and done[-1] > done[0]      # it moves forward
    assert 0 < heaps[-1].fraction <= 1


def test_progress_that_raises_stops_the_call():
    p = grundy.compile('game a = octal "0.6";')

    def stop(s):
        raise RuntimeError("enough")
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        p.check("a periodic", to=10**8, threads=1, progress=stop)
    assert time.monotonic() - t0 < 5
    assert p.solve("a(5) + a(7)").sg is not None              # still answers
    with pytest.raises(TypeError):
        p.solve("a(3)", progress=42)


# ---- quotient, census, genus: the queries' JSON as Python values ----

def test_quotient_equals_cli_json(tmp_path):
    p = grundy.compile(KAYLES)
    q = p.quotient("kayles", 30)
    want = json.loads(cli_text(tmp_path, KAYLES + "quotient kayles(0..30);\n", "--format", "json"))
    assert isinstance(q, grundy.Quotient)
    got = {k: getattr(q, k) for k in ("game", "to", "order", "p_order", "generators", "relations", "pretending",
                                       "tame", "last_growth")}
    assert got == {k: v for k, v in want.items() if k != "query"}
    assert (q.order, q.p_order, q.tame) == (40, 9, False)         # Plambeck and Siegel: kayles to heap 30
    with pytest.raises(ValueError):
        p.quotient("kayles", -1)


def test_census_equals_cli_json(tmp_path):
    src = 'game g[c] = octal c;\n'
    p = grundy.compile(src)
    rows = p.census("g[c] for c in octal(2)", 300, threads=1)
    want = [json.loads(line) for line in
            cli_text(tmp_path, src + "census g[c] for c in octal(2) to 300;\n", "--format", "json").splitlines()]
    for w in want:
        del w["query"]
    assert rows == want
    dawson = [r for r in rows if any(m["code"] == "0.07" for m in r["members"])]
    assert [m["code"] for m in dawson[0]["members"]] == ["0.07", "0.4", "0.42"]
    assert (dawson[0]["status"], dawson[0]["members"][0]["period"]) == ("proved", 34)


def test_genus_table_equals_cli_json(tmp_path):
    p = grundy.compile(KAYLES)
    g = p.table("kayles", range(11), kind="genus")
    want = json.loads(cli_text(tmp_path, KAYLES + "table kayles(0..10) genus;\n", "--format", "json"))["values"]
    assert g.shape == (11,) and [list(x) for x in g] == want
    assert g[1] == (1, 0, 3, 1) and g[5] == (4, 1, 4, 6)           # 1^031, 4^146
    w = p.table("wythoff", range(3), range(0, 4, 2), kind="genus")
    full = json.loads(cli_text(tmp_path, "table wythoff(0..2, 0..2) genus;\n", "--format", "json"))["values"]
    assert w.shape == (3, 2) and [[list(c) for c in row] for row in w] == [[row[0], row[2]] for row in full]
    with pytest.raises(ValueError):
        p.table("kayles", range(3), kind="genera")


def test_query_runs_one_query_and_no_definition():
    p = grundy.compile(KAYLES + "solve kayles(4) + kayles(7);\n")
    assert json.loads(p.query("solve kayles(1) + kayles(2)"))["sg"] == 3       # that query alone
    assert p.query("table kayles(0..3)", "csv") == "n,value\n0,0\n1,1\n2,2\n3,3\n"
    with pytest.raises(grundy.GameSyntaxError):
        p.query("game z = subtract {1}")


def test_boards_through_python():
    # Games on boards come through program text like every game: a table over a board family,
    # a sum of a board and a heap whose winning moves are boards less cells that read back.
    p = grundy.compile("game nk = nodekayles;\ngame ak = arckayles;\ntable nk(grid(3, 1..8));\n")
    out = [json.loads(l) for l in p.run("json").splitlines()]
    assert out[0]["values"] == [2, 1, 1, 0, 3, 3, 2, 2] and out[0]["from"] == [3, 1]
    assert list(p.table("nk", 3, range(1, 9), board="grid")) == [2, 1, 1, 0, 3, 3, 2, 2]
    # Cram on 4 x 4..7 (igs's table) and Node Kayles on paths = Dawson's chess, both from numpy
    assert list(p.table("ak", 4, range(4, 8), board="grid")) == [0, 2, 0, 3]
    dc = grundy.compile('game dc = octal "0.137";').table("dc", range(1, 31))
    assert list(p.table("nk", range(1, 31), board="path")) == list(dc)
    with pytest.raises(ValueError):
        p.table("nk", range(1, 5), board="star")
    s = p.solve("ak(grid(3, 4)) + kayles(2)")
    assert (s.outcome, s.sg) == ("N", 1 ^ 2)
    assert s.winning_moves
    for m in s.winning_moves:
        assert p.solve(m).outcome == "P", m
