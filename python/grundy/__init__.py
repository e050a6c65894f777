"""grundy: a compiler and solver for impartial combinatorial games, from Python.

    >>> import grundy
    >>> p = grundy.compile('game kayles = octal "0.77";')
    >>> p.table("kayles", range(12))
    array([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6])
    >>> p.solve("kayles(4) + kayles(7)", convention="misere").outcome
    'N'

Programs are written in the .game language (``man 5 grundy-game``). A program is compiled once
and keeps what its calls computed: a solve after a table reads the table (``Program.stats``,
``Program.reset``). Every call runs in the C library with the GIL released; Ctrl-C stops it with KeyboardInterrupt and leaves the program
usable; threads may share a program. Tables are numpy arrays: SG values and remoteness as
int64 (-1 where none), outcomes as one-character strings 'P', 'N', 'D' (dtype '<U1'). A loopy
position's infinite generalised value ∞{K} is a :class:`Loopy` (a frozenset of K).
"""
# Imports under private names: the module's namespace is its public names (__all__) alone.
import json as _json
import os as _os
from dataclasses import dataclass as _dataclass, field as _field
from typing import Any as _Any, Callable as _Callable, Optional as _Optional, Sequence as _Sequence, \
    Union as _Union

import numpy as _np

from ._grundy import GameSyntaxError, GrundyError, LimitError, library_version as _library_version
from . import _grundy

__all__ = ["compile", "Program", "Solution", "Option", "Loopy", "Check", "Quotient", "Progress", "Plot",
           "GameSyntaxError", "LimitError", "GrundyError", "CONVENTIONS", "__version__"]
__version__ = _library_version

#: The conventions a sum can be played under (None: a lone game's own play, else normal).
CONVENTIONS = ("normal", "misere", "anyleaf", "every")
_CONV = {"normal": 0, "misere": 1, "misère": 1, "anyleaf": 2, "every": 3, None: -1}
_KIND = {"sg": 0, "outcome": 1, "remoteness": 2}
_KIND_NAME = {v: k for k, v in _KIND.items()}

_Coordinate = _Union[int, range]


class Loopy(frozenset):
    """The infinite generalised Sprague-Grundy value (Smith) of a position of a game with
    cycles, ∞{K}: the set K of the finite values of its options, as a frozenset of ints. The
    player to move wins when 0 is in K, else it is a draw; ∞{K} plus a nim heap x is
    ∞{K xor x}. ``str()`` writes it as the text output does (``∞{1}``)."""

    def __repr__(self) -> str:
        return f"Loopy({sorted(self)!r})"

    def __str__(self) -> str:
        return "∞{" + ",".join(str(k) for k in sorted(self)) + "}"


def _value(v: _Any) -> _Any:
    """An SG value from the library: an int, None, or a frozenset K for ∞{K}."""
    return Loopy(v) if isinstance(v, frozenset) else v


@_dataclass(frozen=True)
class Solution:
    """The answer of :meth:`Program.solve`."""
    position: str
    convention: str
    outcome: str                  #: 'P' (the player to move loses), 'N' (wins) or 'D' (a draw)
    #: Sprague-Grundy value (normal play): an int, a Loopy ∞{K} on a cycle, None where none
    sg: _Union[int, "Loopy", None]
    remoteness: _Optional[int]    #: moves to the end under optimal play, None if unknown or a draw
    winning_moves: list[str] = _field(default_factory=list)  #: the positions they lead to

    def __bool__(self) -> bool:   # True when the player to move wins
        return self.outcome == "N"


@_dataclass(frozen=True)
class Option:
    """One move of :meth:`Program.options`: the position it leads to and its value there."""
    position: str
    outcome: str
    sg: _Union[int, "Loopy", None]


@_dataclass(frozen=True)
class Check:
    """The answer of :meth:`Program.check`."""
    claim: str
    #: 'proved', 'holds' (as far as checked), 'refuted', or 'none' (a periodic check found no period)
    status: str
    period: _Optional[int]
    preperiod: _Optional[int]
    saltus: _Optional[int]
    checked_to: int
    counterexample: _Optional[str]
    theorem: str                  #: the theorem applied and the window verified, or why none
    #: The research tables' columns of a periodic check over heaps 0..checked_to, where the
    #: rare-value kernel ran (else None): the largest value and the first heap holding it, the
    #: rare-value mask (and whether the heap's parity joins it), how many heaps n >= 1 are rare
    #: and the last of them (None when none is).
    largest: _Optional[int] = None
    largest_at: _Optional[int] = None
    rare_mask: _Optional[int] = None
    rare_heap_parity: _Optional[bool] = None
    rare_count: _Optional[int] = None
    last_rare: _Optional[int] = None

    def __bool__(self) -> bool:   # True unless refuted
        return self.status != "refuted"


@_dataclass(frozen=True)
class Quotient:
    """The answer of :meth:`Program.quotient`: the misère quotient of a heap game's heaps
    0..to, as the quotient query's JSON (docs/quotients.md)."""
    game: str
    to: int
    order: int                    #: elements of the monoid
    p_order: int                  #: of them, P-positions
    generators: list[str]
    relations: list[str]          #: as "bd = bc"
    pretending: list[str]         #: the element of each heap 0..to
    tame: _Union[str, bool]       #: "T2" and such when tame, else False
    last_growth: int              #: the last heap at which the quotient grew


@_dataclass(frozen=True)
class Progress:
    """What a ``progress`` callable receives, every 50 ms while a call runs."""
    query: str                    #: the query running, as the library names it: a check's claim,
    #: "table normal kayles(0..99)"; under run(), each of the program's queries in turn
    step: str                     #: the step under way ("kayles", "exploring positions", ...), or ""
    done: int                     #: how far that step got, in its units (heaps, cells, positions)
    total: _Optional[int]         #: of how many, None if not known

    @property
    def fraction(self) -> _Optional[float]:
        """done / total, or None when the total is not known."""
        return self.done / self.total if self.total else None


class Plot(bytes):
    """The bytes of a PNG (or SVG) picture; Jupyter shows it inline."""
    format: str = "png"

    def __repr__(self) -> str:          # not the bytes: a notebook shows the picture instead
        return f"<grundy.Plot {self.format}, {len(self)} bytes>"

    __str__ = __repr__

    def _repr_png_(self) -> _Optional[bytes]:
        return bytes(self) if self.format == "png" else None

    def _repr_svg_(self) -> _Optional[str]:
        return self.decode() if self.format == "svg" else None

    def save(self, path: _Union[str, "_os.PathLike[str]"]) -> None:
        """Writes the picture to a file."""
        with open(path, "wb") as f:
            f.write(self)


def _default_memory() -> int:
    """3/4 of the machine's memory, as the command's --max-memory default (gr_cli_default_memory)."""
    try:
        pages, page = _os.sysconf("SC_PHYS_PAGES"), _os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        pages = page = -1
    if pages <= 0 or page <= 0:
        return 4 << 30
    return pages // 4 * 3 * page


def _memory(value: _Union[None, int, str]) -> int:
    """Bytes from an int or a size such as '512M' or '2G' (None: 3/4 of the memory, as the
    command; 0: no limit)."""
    if value is None:
        return _default_memory()
    if isinstance(value, str):
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
        s = value.strip().upper().rstrip("B")
        scale = units.get(s[-1:], 1)
        number = s[:-1] if s[-1:] in units else s
        value = int(float(number) * scale)
    if value < 0:
        raise ValueError("max_memory must be >= 0")
    return int(value)


def _limits(threads: _Optional[int], max_memory: _Union[None, int, str], max_time: _Optional[float],
            max_positions: _Optional[int], progress: _Optional[_Callable[[Progress], _Any]] = None,
            query: str = "") -> dict:
    if threads is None:
        threads = min(_os.cpu_count() or 1, 256)   # as the command: every core
    if threads < 1:
        raise ValueError("threads must be at least 1")
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable (it is given a grundy.Progress)")
    report = None
    if progress is not None:
        def report(running: str, step: str, done: int, total: int) -> None:
            progress(Progress(running or query, step, done, total or None))
    return {"threads": int(threads), "max_memory": _memory(max_memory),
            "max_time": float(max_time or 0.0), "max_positions": int(max_positions or 0), "progress": report}


def _convention(name: _Optional[str]) -> int:
    try:
        return _CONV[name.lower() if isinstance(name, str) else name]
    except KeyError:
        raise ValueError(f"convention is one of {', '.join(CONVENTIONS)} or None, not {name!r}") from None


def _box(coords: _Sequence[_Coordinate]) -> tuple[list[int], list[int], list[int], list[slice]]:
    """The box lo..hi of the coordinates, the span of each range (the axes of the array) and
    how to cut that box down to the ranges asked (a step, a descending range)."""
    if not coords:
        raise TypeError("a table needs the coordinates of its positions: an int or a range each")
    lo, hi, spans, cuts = [], [], [], []
    for c in coords:
        if isinstance(c, range):
            if len(c) == 0:
                raise ValueError(f"empty range {c!r}")
            a, b = min(c[0], c[-1]), max(c[0], c[-1])
            start, stop = c[0] - a, c[0] - a + c.step * len(c)
            cuts.append(slice(start, stop if stop >= 0 else None, c.step))
            spans.append(b - a + 1)
        elif isinstance(c, (int, _np.integer)) and not isinstance(c, bool):
            a = b = int(c)
        else:
            raise TypeError(f"a coordinate is an int or a range, not {type(c).__name__}")
        lo.append(a)
        hi.append(b)
    return lo, hi, spans, cuts


class Program:
    """A compiled .game program. Make one with :func:`grundy.compile`.

    Every method that computes takes the limits as keywords: ``threads`` (worker threads for
    large work, default every core), ``max_memory`` (bytes, or '512M', '2G'; default 3/4 of the
    machine's memory, as the command; 0: no limit), ``max_time`` (seconds of wall clock) and
    ``max_positions`` (of a position graph); a limit reached raises LimitError. ``progress``: a
    callable given a :class:`Progress` every 50 ms while the call runs (from the calling
    thread; an exception it raises stops the call and propagates).
    """

    def __init__(self, source: str, filename: str = "<source>") -> None:
        self._p = _grundy.Program(source, filename)
        self.source = source
        self.filename = filename

    def __repr__(self) -> str:
        return f"<grundy.Program {self.filename!r}>"

    def table(self, game: str, *coords: _Coordinate, kind: str = "sg", convention: _Optional[str] = None,
              board: _Optional[str] = None,
              threads: _Optional[int] = None, max_memory: _Union[None, int, str] = None,
              max_time: _Optional[float] = None, max_positions: _Optional[int] = None,
              progress: _Optional[_Callable[[Progress], _Any]] = None) -> _np.ndarray:
        """The table of ``game`` over its positions, a numpy array with an axis per range.

        ``p.table("kayles", range(10**6))``; ``p.table("wythoff", range(100), range(100),
        kind="outcome")``; a coordinate given as an int is fixed. ``kind`` is 'sg' (int64,
        -1 where there is no SG value), 'outcome' ('P', 'N', 'D'), 'remoteness' (int64, -1 for
        a draw) or 'genus' (an object array of tuples: Conway's genus, ``(1, 0, 3, 1)`` for
        1^031, as the table query's JSON). As the table query: under 'misere' and 'every' an SG
        table holds outcomes, under 'anyleaf' the values after leaf deletion. A game on boards
        ranges over a board family's sizes: ``p.table("nk", 3, range(1, 17), board="grid")`` is
        ``table nk(grid(3, 1..16))``, ``p.table("ak", range(1, 31), board="path")``.
        """
        if kind not in _KIND and kind != "genus":
            raise ValueError(f"kind is 'sg', 'outcome', 'remoteness' or 'genus', not {kind!r}")
        lo, hi, spans, cuts = _box(coords)
        if board is not None and board not in ("path", "cycle", "grid", "complete"):
            raise ValueError(f"board is 'path', 'cycle', 'grid' or 'complete', not {board!r}")
        if kind == "genus" or board is not None:   # no data call: the table query, its JSON read back
            conv = _convention(convention)
            ranges = ", ".join(f"{a}..{b}" for a, b in zip(lo, hi))
            if board is not None:
                ranges = f"{board}({ranges})"
            text = f"table {CONVENTIONS[conv] + ' ' if conv >= 0 else ''}{game}({ranges})"
            text += " genus" if kind == "genus" else " outcome" if kind == "outcome" else " remoteness" if kind == "remoteness" else ""
            lim = _limits(threads, max_memory, max_time, max_positions, progress, game)
            row = _json.loads(self._p.run_one(text, "json", **lim))
            flat: list = []

            def cells(v: _Any, depth: int) -> None:   # the JSON nests an axis per coordinate
                if depth == len(coords):
                    flat.append(tuple(v) if kind == "genus" else v)
                else:
                    for x in v:
                        cells(x, depth + 1)
            cells(row["values"], 0)
            if kind == "genus":
                a = _np.empty(len(flat), dtype=object)
                a[:] = flat
            elif kind == "outcome":
                a = _np.array(flat, dtype=_np.dtype("<U1"))
            else:
                a = _np.array([-1 if v is None else v for v in flat], dtype=_np.int64)
            a = a.reshape(spans)
            return a[tuple(cuts)] if any(c.step != 1 for c in cuts) else a
        cells, got, _conv, _ndims, _cols, sets = self._p.table(
            game, lo, hi, _convention(convention), _KIND[kind],
            **_limits(threads, max_memory, max_time, max_positions, progress, game))
        a = _np.frombuffer(cells, dtype=_np.dtype("<U1") if got == 1 else _np.dtype(_np.int64))
        if sets and got == 0:         # loopy values: an object array of ints and Loopy values
            a = _np.array([Loopy(sets[-2 - v]) if v <= -2 else int(v) for v in a.tolist()], dtype=object)
        a = a.reshape(spans)          # an axis per range, in the order given
        if any(c.step != 1 for c in cuts):
            a = a[tuple(cuts)]
        return a

    def solve(self, position: str, convention: _Optional[str] = None, *, threads: _Optional[int] = None,
              max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
              max_positions: _Optional[int] = None,
              progress: _Optional[_Callable[[Progress], _Any]] = None, remoteness: bool = False) -> Solution:
        """Solves a position, a sum written as in a solve query (``"kayles(4) + kayles(7)"``),
        under a convention ('normal', 'misere', 'anyleaf', 'every'; None: the game's own).
        The remoteness follows the solve query's rule (found where cheap, else None);
        ``remoteness=True`` asks for it as ``solve ... remoteness`` does, within the limits."""
        lim = _limits(threads, max_memory, max_time, max_positions, progress, position)
        text = position + " remoteness" if remoteness else position
        outcome, sg, remoteness, moves, conv = self._p.solve(text, _convention(convention), **lim)
        return Solution(position, CONVENTIONS[conv], outcome, _value(sg), remoteness, moves)

    def options(self, position: str, convention: _Optional[str] = None, *, threads: _Optional[int] = None,
                max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
                max_positions: _Optional[int] = None,
              progress: _Optional[_Callable[[Progress], _Any]] = None) -> list[Option]:
        """Every move from a position, once per distinct result, with the result's outcome and
        SG value (normal play)."""
        lim = _limits(threads, max_memory, max_time, max_positions, progress, position)
        return [Option(pos, outcome, _value(sg))
                for pos, outcome, sg in self._p.options(position, _convention(convention), **lim)]

    def check(self, claim: str, *, to: _Optional[int] = None, threads: _Optional[int] = None,
              max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
              max_positions: _Optional[int] = None,
              progress: _Optional[_Callable[[Progress], _Any]] = None) -> Check:
        """Decides a claim written as after 'check': ``"kayles periodic"``, ``"s period 4"``,
        ``"bash[3]: P(n) <=> n % 4 == 0 for n in 0..1000"``. A refuted claim is an answer.
        ``to``: how far a periodic check may compute, as the command's ``--to``."""
        if to is not None and (not isinstance(to, int) or to < 1):
            raise ValueError(f"to is a heap >= 1, not {to!r}")
        lim = _limits(threads, max_memory, max_time, max_positions, progress, claim)
        r = self._p.check(claim, to or 0, **lim)
        return Check(claim, *r)

    def plot(self, game: str, *coords: _Coordinate, kind: str = "sg", convention: _Optional[str] = None,
             width: int = 0, height: int = 0, format: str = "png", threads: _Optional[int] = None,
             max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
             max_positions: _Optional[int] = None,
              progress: _Optional[_Callable[[Progress], _Any]] = None) -> Plot:
        """The picture the plot query draws of the table (SG values or outcomes): PNG bytes
        (``format='svg'``: SVG) that Jupyter shows inline. ``width``, ``height``: pixels
        (0: the default size). Ranges must have step 1."""
        if kind not in ("sg", "outcome"):
            raise ValueError(f"kind is 'sg' or 'outcome', not {kind!r}")
        if format not in ("png", "svg"):
            raise ValueError(f"format is 'png' or 'svg', not {format!r}")
        lo, hi, _spans, cuts = _box(coords)
        if any(c.step != 1 for c in cuts):
            raise ValueError("a plot's ranges go up by 1")
        data = self._p.plot(game, lo, hi, _convention(convention), _KIND[kind], format, width, height,
                            **_limits(threads, max_memory, max_time, max_positions, progress, game))
        picture = Plot(data)
        picture.format = format
        return picture

    def run(self, format: str = "text", *, threads: _Optional[int] = None,
            max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
            max_positions: _Optional[int] = None,
              progress: _Optional[_Callable[[Progress], _Any]] = None) -> str:
        """Runs the program's own queries and returns their answers as the command prints
        them (format 'text', 'csv' or 'json')."""
        lim = _limits(threads, max_memory, max_time, max_positions, progress, self.filename)
        out, _refuted = self._p.run(format, False, **lim)
        return out

    def query(self, text: str, format: str = "json", *, threads: _Optional[int] = None,
              max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
              max_positions: _Optional[int] = None,
              progress: _Optional[_Callable[[Progress], _Any]] = None) -> str:
        """Runs one query written as in a .game file, without its ';' (``"quotient
        kayles(0..30)"``), against the program's definitions, and returns its answer as the
        command prints it (format 'json', 'text' or 'csv')."""
        if format not in ("text", "csv", "json"):
            raise ValueError(f"format is 'text', 'csv' or 'json', not {format!r}")
        return self._p.run_one(text, format, **_limits(threads, max_memory, max_time, max_positions, progress,
                                                       text))

    def quotient(self, game: str, to: int, *, threads: _Optional[int] = None,
                 max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
                 max_positions: _Optional[int] = None,
                 progress: _Optional[_Callable[[Progress], _Any]] = None) -> Quotient:
        """The misère quotient of ``game``'s heaps 0..to (the quotient query)."""
        if not isinstance(to, int) or isinstance(to, bool) or to < 0:
            raise ValueError(f"to is a heap >= 0, not {to!r}")
        r = _json.loads(self.query(f"quotient {game}(0..{to})", threads=threads, max_memory=max_memory,
                                   max_time=max_time, max_positions=max_positions, progress=progress))
        return Quotient(r["game"], r["to"], r["order"], r["p_order"], r["generators"], r["relations"],
                        r["pretending"], r["tame"], r["last_growth"])

    def census(self, family: str, to: int, *, threads: _Optional[int] = None,
               max_memory: _Union[None, int, str] = None, max_time: _Optional[float] = None,
               max_positions: _Optional[int] = None,
               progress: _Optional[_Callable[[Progress], _Any]] = None) -> list[dict]:
        """The classes of a family's members to heap ``to`` (the census query):
        ``p.census("g[c] for c in octal(2)", 10000)``. A dict per class, as the census JSON
        (``class``, ``status``, ``checked_to``, ``largest``, ``members`` ...; docs/census.md)
        without its ``query`` field."""
        if not isinstance(to, int) or isinstance(to, bool) or to < 1:
            raise ValueError(f"to is a heap >= 1, not {to!r}")
        out = self.query(f"census {family} to {to}", threads=threads, max_memory=max_memory,
                         max_time=max_time, max_positions=max_positions, progress=progress)
        rows = [_json.loads(line) for line in out.splitlines() if line.strip()]
        for r in rows:
            r.pop("query", None)
        return rows

    def explain(self) -> str:
        """Which evaluator and kernel every rule set gets, and why (grundy --explain)."""
        return self._p.run("text", True)[0]

    def reset(self) -> None:
        """Drops every value the program keeps between calls (its tables, proved periods,
        boxes, position graphs, quotients); the next call computes what it needs again."""
        self._p.reset()

    def stats(self) -> dict:
        """What the program's engine did so far: ``values_computed`` (heap values, box cells,
        ... over its life), ``calls``, ``compiles`` (1, plus one after each reset), ``drops``
        (times everything it kept was dropped: resets), ``memory`` (bytes held now) and its
        parts ``games_memory`` (the games' values) and ``program_memory`` (the compiled
        program), ``game_drops`` (times one game's values were dropped: a call stopped by a
        limit or an interrupt drops those of the games it used and keeps the others', the
        memory limit evicts the least recently used game's, a redefinition drops the old
        one's), ``evictions`` (of them, for the memory limit), ``retries`` (calls run again
        after an eviction), and ``games``: one dict per game that keeps values, with its
        ``name``, ``bytes``, ``values`` (kept now) and ``drops``. A solve after a table of the
        same game computes nothing: ``values_computed`` stays the same."""
        return self._p.stats()


def compile(source: _Union[str, "_os.PathLike[str]"], filename: _Optional[str] = None) -> Program:
    """Compiles a .game program from its text, or from a file (a path, or a str naming an
    existing file). Bad text raises GameSyntaxError with filename, lineno, offset and text; a
    str that looks like a path (one line, no ';', ending in .game or holding a '/') and names
    no file raises FileNotFoundError."""
    one_line = isinstance(source, str) and "\n" not in source and ";" not in source
    looks_like_path = one_line and (source.strip().endswith(".game") or ("/" in source and "//" not in source))
    if looks_like_path and not _os.path.isfile(source):   # "//" starts a comment: that is text
        raise FileNotFoundError(2, "no such .game file", source)
    if isinstance(source, _os.PathLike) or (one_line and _os.path.isfile(source)):
        path = _os.fspath(source)
        with open(path, encoding="utf-8") as f:
            return Program(f.read(), filename or path)
    return Program(source, filename or "<source>")
