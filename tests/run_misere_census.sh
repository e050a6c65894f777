#!/usr/bin/env bash
# run_misere_census.sh GRUNDY [GRUNDY-MPI]: the misere census (census misere, src/query/census.c)
# and huge heaps in misere sums (issue 29).
#  - its classes against a brute force written here (python): the misere outcome of every
#    multiset of at most three heaps of 1..10, by the rules of the octal code alone; members of
#    one class must agree on all of them, members of two classes must not;
#  - each class's row against a single 'quotient g(0..N)' of each member (order, |P|, tameness,
#    last growth);
#  - a code that explodes (0.64 passes the 4,096 elements of the trial monoid at heap 15): status
#    limit, the order it reached and its growth heap by heap, and the census goes on;
#  - the same bytes for --threads 1 and 2, in text, CSV and JSON (and under mpirun with 1, 2
#    and 3 ranks when grundy-mpi is given);
#  - solve, options and table misere of heaps past 2^20 answered through the proved period of
#    the pretending function, against a count made here from the quotient's period;
#  - errors and limits: anyleaf census refused (exit 2), a quotient stopped by --max-time names
#    the quotient (exit 3).
mpi=${2:-}
case $mpi in /*|'') ;; *) mpi=$PWD/$mpi ;; esac
source "$(dirname "$0")/scriptlib.sh"

codes='"0.77", "0.07", "0.137", "0.17", "0.3", "0.5", "0.7", "0.1", "0.2", "0.51", "0.75", "0.71", "0.15", "0.53", "0.4", "0.34", "0.35"'
cat > mc.game <<G
game g[c] = octal c;
census misere g[c] for c in {$codes} to 10;
G
"$grundy" mc.game --format json --threads 1 > mc.json 2> err || bad "census misere failed"
"$grundy" mc.game --format json --threads 2 > mc2.json 2> err || bad "census misere --threads 2 failed"
cmp -s mc.json mc2.json && pass=$((pass + 1)) || bad "census misere: --threads 1 and 2 differ (json)"
for fmt in text csv; do
    "$grundy" mc.game --format $fmt --threads 1 > a.$fmt 2> err
    "$grundy" mc.game --format $fmt --threads 2 > b.$fmt 2> err
    cmp -s a.$fmt b.$fmt && pass=$((pass + 1)) || bad "census misere: --threads 1 and 2 differ ($fmt)"
done
if [ -n "$mpi" ] && command -v mpirun >/dev/null 2>&1; then
    for n in 1 2 3; do
        mpirun --allow-run-as-root --oversubscribe -n $n "$mpi" mc.game --format json > m$n.json 2> err
        cmp -s mc.json m$n.json && pass=$((pass + 1)) || bad "census misere: grundy-mpi on $n ranks differs"
    done
fi

# the brute force's classes against the census's
python3 - mc.json <<'P' && pass=$((pass + 1)) || bad "census misere classes against the brute force"
import functools, itertools, json, sys
def moves(code, h):
    out = set()
    for k, d in enumerate(code.split('.')[1], start=1):
        d, r = int(d), h - k
        if r < 0: break
        if d & 1 and r == 0: out.add(())
        if d & 2 and r >= 1: out.add((r,))
        if d & 4 and r >= 2: out.update((a, r - a) for a in range(1, r // 2 + 1))
    return out
def signature(code):
    @functools.lru_cache(maxsize=None)
    def lost(pos):   # misere: the player to move loses; no move at all wins
        any_move = False
        for i, h in enumerate(pos):
            for m in moves(code, h):
                any_move = True
                if lost(tuple(sorted(pos[:i] + pos[i + 1:] + tuple(x for x in m if x)))): return False
        return any_move
    return tuple(lost(p) for k in (1, 2, 3) for p in itertools.combinations_with_replacement(range(1, 11), k))
rows = [json.loads(l) for l in open(sys.argv[1])]
assert all(r["convention"] == "misere" and r["checked_to"] == 10 for r in rows), rows
sig = {}
for r in rows:
    for m in r["members"]: sig[m] = (r["class"], signature(m))
ok = True
for a in sig:
    for b in sig:
        if (sig[a][0] == sig[b][0]) != (sig[a][1] == sig[b][1]):
            print(f"{a} and {b}: census classes {sig[a][0]}, {sig[b][0]}; brute force {'equal' if sig[a][1] == sig[b][1] else 'different'}")
            ok = False
print(f"{len(sig)} members in {len(rows)} classes, as the brute force groups them" if ok else "")
sys.exit(0 if ok else 1)
P

# each row against a single quotient of each of its members
python3 - mc.json "$grundy" <<'P' && pass=$((pass + 1)) || bad "census misere rows against single quotients"
import json, subprocess, sys
ok = True
for line in open(sys.argv[1]):
    r = json.loads(line)
    for m in r["members"]:
        src = f'game g = octal "{m}";\nquotient g(0..10);\n'
        q = json.loads(subprocess.run([sys.argv[2], "-", "--format", "json"], input=src, capture_output=True, text=True).stdout)
        got = (r["order"], r["p_order"], r["tame"], r["last_growth"])
        want = (q["order"], q["p_order"], q["tame"], q["last_growth"])
        if got != want:
            print(f"{m}: census {got}, quotient {want}"); ok = False
sys.exit(0 if ok else 1)
P
# known rows to heap 30: Kayles' quotient (order 40, |P| = 9, last growth 27, its pretending
# function proved periodic, 12 from 71: docs/quotients.md); Dawson's Kayles still growing, Q_30
# of order 360 (Siegel's |Q_30| = 360) with |P| = 65; 0.3, 0.5, 0.7 misere Nim on heaps of 1 (T1)
printf 'game g[c] = octal c;\ncensus misere g[c] for c in {"0.77", "0.07", "0.3", "0.5", "0.7"} to 30;\n' > k.game
"$grundy" k.game --format json > k.json 2> err || bad "census misere to 30 failed"
python3 - k.json <<'P' && pass=$((pass + 1)) || bad "census misere: known rows"
import json, sys
rows = {m: r for r in map(json.loads, open(sys.argv[1])) for m in r["members"]}
k = rows["0.77"]
assert (k["status"], k["order"], k["p_order"], k["last_growth"], k["periodic_from"], k["period"]) == ("stable", 40, 9, 27, 71, 12), k
d = rows["0.07"]
assert (d["status"], d["order"], d["p_order"], d["tame"], d["periodic_from"]) == ("growing", 360, 65, False, None), d
assert rows["0.3"]["tame"] == "T1" and rows["0.3"]["class"] == rows["0.5"]["class"] == rows["0.7"]["class"], rows["0.3"]
P

# a code that explodes: a limit row with its growth; the census goes on after it
printf 'game g[c] = octal c;\ncensus misere g[c] for c in {"0.64", "0.7"} to 16;\n' > ex.game
"$grundy" ex.game --format json --threads 1 > ex.json 2> err || bad "a census with an exploding code failed"
python3 - ex.json <<'P' && pass=$((pass + 1)) || bad "census misere: the limit row of 0.64"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
r = rows[0]
assert r["members"] == ["0.64"] and r["status"] == "limit" and r["checked_to"] == 14, r
assert r["growth"][-1] == [14, r["order"]] and len(r["growth"]) == 15 and "4096" in r["limit"], r
assert rows[1]["members"] == ["0.7"] and rows[1]["status"] == "stable", rows[1]
P
"$grundy" ex.game --threads 1 > ex.txt 2> err
grep -q "stopped at heap 15" ex.txt && grep -q "order by heap:" ex.txt && pass=$((pass + 1)) || bad "census misere: the limit in text"

# huge heaps: solve, options and table misere through the pretending function's period
printf 'solve misere kayles(1000000000000) + kayles(77) + kayles(31);\n' > big.game
"$grundy" big.game --format json > big.json 2> err || bad "solve misere of a huge heap failed"
python3 - big.json <<'P' && pass=$((pass + 1)) || bad "solve misere kayles(10^12) + kayles(77) + kayles(31)"
import json, sys
s = json.loads(open(sys.argv[1]).read())
assert s["outcome"] == "N" and s["convention"] == "misere", s
listed, rest = len(s["winning_moves"]), s["winning_moves_not_listed"]
# Kayles heaps past 71 pretend to be their normal-play class here (the quotient is
# normal-play-like once a heap is large), so the count is normal play's: 333333333354
assert listed + rest == 333333333354 and listed == 129, (listed, rest)
assert s["winning_moves"][0] == "kayles(4) + kayles(999999999995) + kayles(77) + kayles(31)", s["winning_moves"][0]
P
printf 'options misere kayles(1000000000000);\ntable misere kayles(999999999990..1000000000001) outcome;\n' > bigo.game
"$grundy" bigo.game --format json > bigo.json 2> err || bad "options/table misere of a huge heap failed"
python3 - bigo.json <<'P' && pass=$((pass + 1)) || bad "options and table misere of huge heaps"
import json, sys
o, t = [json.loads(l) for l in open(sys.argv[1])]
assert len(o["options"]) == 100 and len(o["options"]) + o["options_not_listed"] == 1000000000000, (len(o["options"]), o.get("options_not_listed"))
# misere Kayles: a single heap past 71 is N (P only at heaps 1, 4, 9, 12, 20, ...: none so large)
assert t["values"] == ["N"] * 12, t["values"]
P

# errors and limits
printf 'game g[c] = octal c;\ncensus anyleaf g[c] for c in octal(1) to 10;\n' > e.game
"$grundy" e.game > out 2> err; st=$?
[ $st = 2 ] && grep -q "a census groups normal-play values or misere quotients" err && pass=$((pass + 1)) || bad "census anyleaf: want exit 2 ($st)"
printf 'game g[c] = octal c;\ncensus misere g[c] for c in octal(1) to 70000;\n' > e.game
"$grundy" e.game > out 2> err; st=$?
[ $st = 2 ] && grep -q "a misere census runs to a heap from 1 to 65536" err && pass=$((pass + 1)) || bad "census misere to 70000: want exit 2 ($st)"
printf 'game g = octal "0.6";\nquotient g(0..30);\n' > t.game
"$grundy" t.game --max-time 1 > out 2> err; st=$?
[ $st = 3 ] && grep -q "misere quotient" err && pass=$((pass + 1)) || bad "quotient --max-time 1: want exit 3 naming the quotient ($st)"

# a limit in the search of a heap (here --max-memory, which stops at the same place on every
# machine): how far the quotient got, in text and JSON, before the limit's message (exit 3)
printf 'game d = octal "0.07";\nquotient d(0..36);\n' > dk.game
"$grundy" dk.game --max-memory 64M > dk.txt 2> err; st=$?
[ $st = 3 ] && grep -q "stopped at heap 34 (order 638 at heap 33): memory limit reached" dk.txt && grep -q "33:638" dk.txt \
    && grep -q "heap 34 was being added" err && pass=$((pass + 1)) || bad "quotient d(0..36) --max-memory 64M: how far it got ($st)"
"$grundy" dk.game --max-memory 64M --format json > dk.json 2> err; st=$?
python3 - dk.json <<'P' && [ $st = 3 ] && pass=$((pass + 1)) || bad "quotient d(0..36) --max-memory 64M in JSON ($st)"
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert (r["status"], r["reached"], r["order"]) == ("limit", 33, 638), r
assert r["growth"][30:] == [[30, 360], [31, 520], [32, 552], [33, 638]] and len(r["growth"]) == 34, r["growth"]
assert r["limit"].startswith("memory limit reached"), r["limit"]
b = r["proved_at_least"]
assert b["heap"] == 34 and 638 <= b["order"] and b["powers"] >= 1, b
P

echo "misere census: $pass passed, $fail failed"
[ "$fail" = 0 ]
