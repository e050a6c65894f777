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
int64 (-1 where none), outcomes as one-character strings 'P', 'N', 'D' (dtype '<U1').
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from ._grundy import GameSyntaxError, GrundyError, LimitError, library_version
from . import _grundy

__all__ = ["compile", "Program", "Solution", "Option", "Check", "Plot", "GameSyntaxError",
           "LimitError", "GrundyError", "CONVENTIONS", "__version__"]
__version__ = library_version

#: The conventions a sum can be played under (None: a lone game's own play, else normal).
CONVENTIONS = ("normal", "misere", "anyleaf", "every")
_CONV = {"normal": 0, "misere": 1, "misère": 1, "anyleaf": 2, "every": 3, None: -1}
_KIND = {"sg": 0, "outcome": 1, "remoteness": 2}
_KIND_NAME = {v: k for k, v in _KIND.items()}

Coordinate = Union[int, range]


@dataclass(frozen=True)
class Solution:
    """The answer of :meth:`Program.solve`."""
    position: str
    convention: str
    outcome: str                  #: 'P' (the player to move loses), 'N' (wins) or 'D' (a draw)
    sg: Optional[int]             #: Sprague-Grundy value (normal play, no draw), else None
    remoteness: Optional[int]     #: moves to the end under optimal play, None if unknown or a draw
    winning_moves: List[str] = field(default_factory=list)  #: the positions they lead to

    def __bool__(self) -> bool:   # True when the player to move wins
        return self.outcome == "N"


@dataclass(frozen=True)
class Option:
    """One move of :meth:`Program.options`: the position it leads to and its value there."""
    position: str
    outcome: str
    sg: Optional[int]


@dataclass(frozen=True)
class Check:
    """The answer of :meth:`Program.check`."""
    claim: str
    status: str                   #: 'proved', 'holds' (as far as checked), 'refuted', or 'none' (no period found)
    period: Optional[int]
    preperiod: Optional[int]
    saltus: Optional[int]
    checked_to: int
    counterexample: Optional[str]
    theorem: str                  #: the theorem applied and the window verified, or why none
    #: The research tables' columns of a periodic check over heaps 0..checked_to, where the
    #: rare-value kernel ran (else None): the largest value and the first heap holding it, the
    #: rare-value mask (and whether the heap's parity joins it), how many heaps n >= 1 are rare
    #: and the last of them (None when none is).
    largest: Optional[int] = None
    largest_at: Optional[int] = None
    rare_mask: Optional[int] = None
    rare_heap_parity: Optional[bool] = None
    rare_count: Optional[int] = None
    last_rare: Optional[int] = None

    def __bool__(self) -> bool:   # True unless refuted
        return self.status != "refuted"


class Plot(bytes):
    """The bytes of a PNG (or SVG) picture; Jupyter shows it inline."""
    format: str = "png"

    def __repr__(self) -> str:          # not the bytes: a notebook shows the picture instead
        return f"<grundy.Plot {self.format}, {len(self)} bytes>"

    __str__ = __repr__

    def _repr_png_(self) -> Optional[bytes]:
        return bytes(self) if self.format == "png" else None

    def _repr_svg_(self) -> Optional[str]:
        return self.decode() if self.format == "svg" else None

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes the picture to a file."""
        with open(path, "wb") as f:
            f.write(self)


def _memory(value: Union[None, int, str]) -> int:
    """Bytes from an int or a size such as '512M' or '2G' (None: no limit)."""
    if value is None:
        return 0
    if isinstance(value, str):
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
        s = value.strip().upper().rstrip("B")
        scale = units.get(s[-1:], 1)
        number = s[:-1] if s[-1:] in units else s
        value = int(float(number) * scale)
    if value < 0:
        raise ValueError("max_memory must be >= 0")
    return int(value)


def _limits(threads: Optional[int], max_memory: Union[None, int, str], max_time: Optional[float],
            max_positions: Optional[int]) -> dict:
    if threads is None:
        threads = min(os.cpu_count() or 1, 256)   # as the command: every core
    if threads < 1:
        raise ValueError("threads must be at least 1")
    return {"threads": int(threads), "max_memory": _memory(max_memory),
            "max_time": float(max_time or 0.0), "max_positions": int(max_positions or 0)}


def _convention(name: Optional[str]) -> int:
    try:
        return _CONV[name.lower() if isinstance(name, str) else name]
    except KeyError:
        raise ValueError(f"convention is one of {', '.join(CONVENTIONS)} or None, not {name!r}") from None


def _box(coords: Sequence[Coordinate]) -> Tuple[List[int], List[int], List[int], List[slice]]:
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
        elif isinstance(c, (int, np.integer)) and not isinstance(c, bool):
            a = b = int(c)
        else:
            raise TypeError(f"a coordinate is an int or a range, not {type(c).__name__}")
        lo.append(a)
        hi.append(b)
    return lo, hi, spans, cuts


class Program:
    """A compiled .game program. Make one with :func:`grundy.compile`.

    Every method takes the limits as keywords: ``threads`` (worker threads for large work,
    default every core), ``max_memory`` (bytes, or '512M', '2G'), ``max_time`` (seconds of wall
    clock) and ``max_positions`` (of a position graph); a limit reached raises LimitError.
    """

    def __init__(self, source: str, filename: str = "<source>") -> None:
        self._p = _grundy.Program(source, filename)
        self.source = source
        self.filename = filename

    def __repr__(self) -> str:
        return f"<grundy.Program {self.filename!r}>"

    def table(self, game: str, *coords: Coordinate, kind: str = "sg", convention: Optional[str] = None,
              threads: Optional[int] = None, max_memory: Union[None, int, str] = None,
              max_time: Optional[float] = None, max_positions: Optional[int] = None) -> np.ndarray:
        """The table of ``game`` over its positions, a numpy array with an axis per range.

        ``p.table("kayles", range(10**6))``; ``p.table("wythoff", range(100), range(100),
        kind="outcome")``; a coordinate given as an int is fixed. ``kind`` is 'sg' (int64,
        -1 where there is no SG value), 'outcome' ('P', 'N', 'D') or 'remoteness' (int64, -1 for
        a draw). As the table query: under 'misere' and 'every' an SG table holds outcomes,
        under 'anyleaf' the values after leaf deletion.
        """
        if kind not in _KIND:
            raise ValueError(f"kind is 'sg', 'outcome' or 'remoteness', not {kind!r}")
        lo, hi, spans, cuts = _box(coords)
        cells, got, _conv, _ndims, _cols = self._p.table(
            game, lo, hi, _convention(convention), _KIND[kind],
            **_limits(threads, max_memory, max_time, max_positions))
        a = np.frombuffer(cells, dtype=np.dtype("<U1") if got == 1 else np.dtype(np.int64))
        a = a.reshape(spans)          # an axis per range, in the order given
        if any(c.step != 1 for c in cuts):
            a = a[tuple(cuts)]
        return a

    def solve(self, position: str, convention: Optional[str] = None, *, threads: Optional[int] = None,
              max_memory: Union[None, int, str] = None, max_time: Optional[float] = None,
              max_positions: Optional[int] = None) -> Solution:
        """Solves a position, a sum written as in a solve query (``"kayles(4) + kayles(7)"``),
        under a convention ('normal', 'misere', 'anyleaf', 'every'; None: the game's own)."""
        outcome, sg, remoteness, moves, conv = self._p.solve(
            position, _convention(convention), **_limits(threads, max_memory, max_time, max_positions))
        return Solution(position, CONVENTIONS[conv], outcome, sg, remoteness, moves)

    def options(self, position: str, convention: Optional[str] = None, *, threads: Optional[int] = None,
                max_memory: Union[None, int, str] = None, max_time: Optional[float] = None,
                max_positions: Optional[int] = None) -> List[Option]:
        """Every move from a position, once per distinct result, with the result's outcome and
        SG value (normal play)."""
        return [Option(*o) for o in self._p.options(
            position, _convention(convention), **_limits(threads, max_memory, max_time, max_positions))]

    def check(self, claim: str, *, to: Optional[int] = None, threads: Optional[int] = None,
              max_memory: Union[None, int, str] = None, max_time: Optional[float] = None,
              max_positions: Optional[int] = None) -> Check:
        """Decides a claim written as after 'check': ``"kayles periodic"``, ``"s period 4"``,
        ``"bash[3]: P(n) <=> n % 4 == 0 for n in 0..1000"``. A refuted claim is an answer.
        ``to``: how far a periodic check may compute, as the command's ``--to``."""
        if to is not None and (not isinstance(to, int) or to < 1):
            raise ValueError(f"to is a heap >= 1, not {to!r}")
        r = self._p.check(claim, to or 0, **_limits(threads, max_memory, max_time, max_positions))
        return Check(claim, *r)

    def plot(self, game: str, *coords: Coordinate, kind: str = "sg", convention: Optional[str] = None,
             width: int = 0, height: int = 0, format: str = "png", threads: Optional[int] = None,
             max_memory: Union[None, int, str] = None, max_time: Optional[float] = None,
             max_positions: Optional[int] = None) -> Plot:
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
                            **_limits(threads, max_memory, max_time, max_positions))
        picture = Plot(data)
        picture.format = format
        return picture

    def run(self, format: str = "text", *, threads: Optional[int] = None,
            max_memory: Union[None, int, str] = None, max_time: Optional[float] = None,
            max_positions: Optional[int] = None) -> str:
        """Runs the program's own queries and returns their answers as the command prints
        them (format 'text', 'csv' or 'json')."""
        out, _refuted = self._p.run(format, False, **_limits(threads, max_memory, max_time, max_positions))
        return out

    def explain(self) -> str:
        """Which evaluator and kernel every rule set gets, and why (grundy --explain)."""
        return self._p.run("text", True)[0]

    def reset(self) -> None:
        """Drops every value the program keeps between calls (its tables, proved periods,
        boxes, position graphs, quotients); the next call computes what it needs again."""
        self._p.reset()

    def stats(self) -> dict:
        """What the program's engine did so far: ``values_computed`` (heap values, box cells,
        ... over its life), ``calls``, ``compiles`` (1, plus one after each drop), ``drops``
        (times what it kept was dropped: resets, a limit met while running, eviction) and
        ``memory`` (bytes held now). A solve after a table of the same game computes nothing:
        ``values_computed`` stays the same."""
        return self._p.stats()


def compile(source: Union[str, "os.PathLike[str]"], filename: Optional[str] = None) -> Program:
    """Compiles a .game program from its text, or from a file (a path, or a str naming an
    existing file). Bad text raises GameSyntaxError with filename, lineno, offset and text."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and ";" not in source and os.path.isfile(source)):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as f:
            return Program(f.read(), filename or path)
    return Program(source, filename or "<source>")
