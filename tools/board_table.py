#!/usr/bin/env python3
"""board_table.py: the Markdown tables of docs/tables/boards.md from the CSV rows that
tools/board_rows.sh writes: one grid of values a game and convention (rows by the board's rows,
columns by its columns; '.' where no row was run, 'open' where a run passed its time), and
under it each row's time and peak memory.
  board_table.py ROWS.csv...   (prints Markdown)"""
import csv
import sys


def main(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            rows += list(csv.DictReader(f))
    groups = {}
    for r in rows:
        groups.setdefault((r["game"], r["convention"]), []).append(r)
    names = {"ak": "Cram (`arckayles` on `grid(R, C)`)", "nk": "Node Kayles (`nodekayles` on `grid(R, C)`)"}
    for (game, conv), rs in groups.items():
        title = names.get(game, game) + (", misère play: outcomes" if conv == "misere" else ": SG values")
        print("### " + title + "\n")
        rr = sorted({int(r["rows"]) for r in rs})
        cc = sorted({int(r["cols"]) for r in rs})
        cell = {(int(r["rows"]), int(r["cols"])): r for r in rs}
        print("| R \\ C | " + " | ".join(str(c) for c in cc) + " |")
        print("|---|" + "---|" * len(cc))
        for r in rr:
            print("| %d | " % r + " | ".join(cell[(r, c)]["value"] if (r, c) in cell else "." for c in cc) + " |")
        slow = [r for r in rs if float(r["seconds"]) >= 1 or r["value"] == "open"]
        if slow:
            print("\nThe boards that took a second or more (each its own process, from nothing):\n")
            print("| board | cells | value | seconds | peak MiB |")
            print("|---|--:|--:|--:|--:|")
            for r in sorted(slow, key=lambda r: (int(r["cells"]), int(r["rows"]))):
                print("| %sx%s | %s | %s | %s | %s |" % (r["rows"], r["cols"], r["cells"], r["value"], r["seconds"], r["peak_mib"]))
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
