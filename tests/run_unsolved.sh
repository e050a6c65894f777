#!/usr/bin/env bash
# The table of unsolved octal games (tools/unsolved_table.py, docs/tables/unsolved-octal.md):
# the family's members; the table's rows against single `check` runs of the same members (the
# second stage went on from the first's checkpoint; a fresh run computes from heap 0); the same
# bytes apart from times for 1 and 2 members at once (2 under nice), after a resume of deleted
# rows and after an interruption; our columns at 2^17 pinned beside the published rows.
#   run_unsolved.sh GRUNDY PYTHON3 SOURCE_DIR
set -u
grundy=$1 python=$2 src=$3
tool="$python $src/tools/unsolved_table.py --grundy $grundy --no-progress"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# ---- the family: 83 members, Grundy's game first, 69 codes 0.xyz (and 0.xy), 13 codes 4.xyz;
# its census to heap 4095 has no two members in a class ----
"$grundy" "$src/examples/unsolved-octal.game" --threads 1 --no-progress > fam.txt || bad "the family's census failed"
grep -q ' to 4095: 83 members in 83 classes$' fam.txt || bad "not 83 members in 83 classes: $(head -c 300 fam.txt)"
"$grundy" "$src/examples/unsolved-octal.game" --threads 1 --no-progress --format json > fam.json || bad "the family's census failed"
members=$("$python" -c '
import json
print(" ".join(m["code"] for l in open("fam.json") for m in json.loads(l)["members"]))')
set -- $members
[ $# = 83 ] || bad "the family has $# members, not 83"
[ "$1" = "4!.0" ] && [ "$2" = "0.6" ] && [ "${83}" = "4.406" ] || bad "first or last members: $1 $2 ... ${83}"
[ "$(printf '%s\n' $members | grep -c '^0\.')" = 69 ] || bad "not 69 codes 0.x"
[ "$(printf '%s\n' $members | grep -c '^4\.')" = 13 ] || bad "not 13 codes 4.x"
for m in 0.04 0.06 0.14 0.776 4.344 4.064; do
    printf '%s\n' $members | grep -qxF "$m" || bad "$m is not a member"
done
grep -q '^  [0-9]* *proved  *51  *998 .* 4.344$' fam.txt || bad "4.344's period 51 from 998 in the census"

# cells of a table's rows without the time columns (wall, CPU: the 10th and 11th) and without
# the closing note's times
strip() {
    sed -e 's/^\(|\([^|]*|\)\{9\}\)[^|]*|[^|]*|/\1 | |/' -e 's/took .* of CPU time (.* of wall time/took T of CPU time (T of wall time/' \
        -e 's/command .* of wall time in all/command T of wall time in all/' -e 's/(`[^`]*`); the times/(STATE); the times/' "$1"
}

# ---- every member to 2^13 heaps, the sparse ones to 2^14, two at once (under nice: where the
# scheduler groups by session, each member's session takes the tool's nice, through sh) ----
nice -n 3 $tool --threads 2 --heaps 2^13 --rare-heaps 2^14 --state s2 --out t2.md || bad "the table (2 at once) failed"
[ "$(grep -c '^| `' t2.md)" = 83 ] || bad "the table has $(grep -c '^| `' t2.md) rows, not 83"
rare=$(grep '^| `' t2.md | grep -c '| rare |')
[ "$rare" -ge 5 ] || bad "only $rare members by the rare-value kernel at 2^13"
grep -q '^| `0.054` | none | 2^14 | 34 | 3762 | 3d | 38 | 796 | rare |' t2.md || bad "0.054 (a sparse space by 2^13) was not taken to 2^14"
grep -q '^| `0.36` | none | 2^13 | .* | 7587 | rare |' t2.md || bad "0.36 (rare-value, a rare heap at 7587) was taken past 2^13"
grep -q '^| `0.04` | none | 2^13 |' t2.md || bad "0.04 (plain) is not at 2^13"
grep -q '^| `4.344` | proved: period 51, preperiod 998 | 2101 |' t2.md || bad "4.344's period (51 from 998, proof read to heap 2100)"
grep -q '^| `4.364` | proved: period 62, preperiod 11687 | 2^14 |' t2.md && bad "4.364 proved by 2^14: its window ends at 23500"
grep -q '^| `4!.0` | .* | 2^21 | 231 | 763622 | fe | 1274 | 82860 |$' t2.md || bad "Grundy's game's published cells"

# each row against a single check of that member alone, computed from heap 0 to the row's n
"$python" - "$grundy" t2.md <<'EOF' || bad "rows differ from single check runs"
import json, subprocess, sys
grundy, path = sys.argv[1], sys.argv[2]
rows = [l.split('|')[1:-1] for l in open(path) if l.startswith('| `')]
bad = 0
for i, r in enumerate(rows):
    if i % 4 and r[8].strip() != 'rare' and 'proved' not in r[1]:
        continue   # a quarter of the plain rows, every rare-value and proved row
    code = r[0].strip().strip('`')
    n = r[2].strip()
    n = 2 ** int(n[2:]) if n.startswith('2^') else int(n)
    prog = 'game u = octal "%s";\ncheck u periodic;\n' % code
    out = subprocess.run([grundy, '-', '--to', str(n - 1), '--threads', '1', '--format', 'json', '--no-progress'],
                         input=prog.encode(), capture_output=True, check=True).stdout.decode()
    j = json.loads(out.splitlines()[-1])
    status = j['status'] if j['status'] != 'proved' else 'proved: period %d, preperiod %d' % (j['period'], j['preperiod'])
    mask = '%x%s' % (j['rare_mask'], 'p' if j['rare_heap_parity'] else '')
    want = [status, str(j['largest']), str(j['largest_at']), mask, str(j['rare_count']),
            '' if j['last_rare'] is None else str(j['last_rare']), 'rare' if j['rare_kernel'] else 'plain']
    got = [r[1].strip()] + [c.strip() for c in r[3:9]]
    if j['checked_to'] + 1 != n or got != want:
        print('row %s: %s, single run: %s (checked to %d)' % (code, got, want, j['checked_to']))
        bad = 1
sys.exit(bad)
EOF

# ---- the same bytes apart from times: one at a time, and resumed after rows were lost ----
$tool --threads 1 --heaps 2^13 --rare-heaps 2^14 --state s1 --out t1.md || bad "the table (1 at once) failed"
cmp <(strip t1.md) <(strip t2.md) > /dev/null || { bad "1 and 2 at once differ apart from times"; diff <(strip t1.md) <(strip t2.md) | head; }
# each member on the kernel's two threads: the same bytes apart from times
printf '#!/bin/sh\necho "$*" >> "%s/calls.txt"\nexec "%s" "$@"\n' "$PWD" "$grundy" > logged-grundy && chmod +x logged-grundy
$tool --grundy ./logged-grundy --threads 1 --member-threads 2 --heaps 2^13 --rare-heaps 2^14 --state smt --out tmt.md \
    || bad "the table (--member-threads 2) failed"
cmp <(strip t1.md) <(strip tmt.md) > /dev/null || { bad "--member-threads 2 differs apart from times"; diff <(strip t1.md) <(strip tmt.md) | head; }
[ "$(grep -c -- '--threads 2 ' calls.txt)" -gt 0 ] && [ "$(grep -c -v -- '--threads 2 ' calls.txt)" = 0 ] \
    || bad "--member-threads 2: the members' commands $(head -2 calls.txt)"
# the default: a member alone gets every thread of --threads (its stages' commands), the same bytes
: > calls.txt
$tool --grundy ./logged-grundy --threads 2 --heaps 2^13 --rare-heaps 2^14 --members 4!.0 --state sauto --out tauto.md \
    || bad "the table (one member, --threads 2) failed"
[ "$(grep -c -- '--threads 2 ' calls.txt)" -gt 0 ] && [ "$(grep -c -v -- '--threads 2 ' calls.txt)" = 0 ] \
    || bad "a member alone on --threads 2: its commands $(head -2 calls.txt)"
cmp <(grep '^| `4!.0`' t1.md | strip /dev/stdin) <(grep '^| `4!.0`' tauto.md | strip /dev/stdin) > /dev/null \
    || bad "a member alone on --threads 2: its row differs apart from times"
# where a running member is, every --progress-every seconds, from grundy's own progress lines
# (a grundy that shows two before it starts); they stay out of the member's stderr.txt
printf '#!/bin/sh\nfor at in 4096 6144; do echo "grundy: query 1 (u periodic): u: $at of 8192 done, 5 s in" >&2; sleep 1; done\nsleep 1.5\nexec "%s" "$@"\n' \
    "$grundy" > slow-grundy && chmod +x slow-grundy
$python "$src/tools/unsolved_table.py" --grundy ./slow-grundy --progress-every 1 --threads 1 --heaps 2^13 --rare-heaps 2^14 \
    --members 0.6 --state sprog --out tprog.md 2> prog.txt || bad "the table with progress failed"
grep -q '^unsolved_table: 0\.6 at heap 6,144 of 8,192, [0-9,]* heaps a second, about [0-9] s to go$' prog.txt \
    || bad "the member's progress: $(cat prog.txt)"
grep -q '^unsolved_table: 1/1 members (0\.6)$' prog.txt || bad "the members' count: $(cat prog.txt)"
grep -q 'done' sprog/0.6/stderr.txt && bad "progress lines in the member's stderr.txt: $(cat sprog/0.6/stderr.txt)"
cmp <(strip t1.md | grep '^| `0\.6`') <(strip tprog.md | grep '^| `0\.6`') > /dev/null || bad "0.6's row with progress: $(grep '0\.6' tprog.md)"
$tool --member-threads 0 --state s0 --out t0.md 2> err.txt && bad "--member-threads 0 was taken"
grep -q -- '--member-threads needs 1 or more, not 0' err.txt || bad "--member-threads 0: $(cat err.txt)"
runs_before=$(cat s2/0.04/times.txt | wc -l)
rm s2/0.054/row.json s2/0.054/stages.json s2/0.04/row.json s2/0.04/stages.json
$tool --threads 2 --heaps 2^13 --rare-heaps 2^14 --state s2 --out t3.md || bad "the resumed table failed"
cmp <(strip t1.md) <(strip t3.md) > /dev/null || { bad "the resumed table differs apart from times"; diff <(strip t1.md) <(strip t3.md); }
[ "$(wc -l < s2/0.04/times.txt)" = $((runs_before + 1)) ] || bad "0.04 was not computed once more"
[ "$(wc -l < s2/0.054/times.txt)" = 4 ] || bad "0.054 was not computed again in two stages"
[ "$(wc -l < s2/0.6/times.txt)" -le 2 ] || bad "0.6, finished, was computed again"
# another pair of targets over the same state is refused
$tool --heaps 2^12 --state s2 --out t4.md 2> err.txt && bad "other targets over a state were taken"
grep -q 'holds rows for other targets' err.txt || bad "the refusal's message: $(cat err.txt)"

# ---- two runs at once over one state folder (as on two machines over a shared file system):
# each member is computed by one of them, once; a third run then only assembles the table ----
$tool --threads 1 --heaps 2^13 --rare-heaps 2^14 --state sc --out tc1.md 2> /dev/null &
pa=$!
$tool --threads 1 --heaps 2^13 --rare-heaps 2^14 --state sc --out tc2.md 2> /dev/null
wait $pa
$tool --threads 1 --heaps 2^13 --rare-heaps 2^14 --state sc --out tc.md || bad "the shared-state table failed"
cmp <(strip t1.md) <(strip tc.md) > /dev/null || { bad "two runs over one state differ apart from times"; diff <(strip t1.md) <(strip tc.md); }
runs=$(cat sc/*/times.txt | wc -l) stages=$(grep -c '^| `' tc.md) taken=$(grep -c '^| `[^|]*| none | 2^14 |' tc.md)
[ "$runs" = $((stages + taken)) ] || bad "two runs over one state ran $runs processes for $stages members, $taken of them twice"
[ -z "$(ls -d sc/*/lock 2>/dev/null)" ] || bad "locks were left behind"

# ---- interrupted in the middle of members, then resumed: the same rows as uninterrupted ----
$tool --threads 2 --heaps 2^17 --rare-heaps 2^18 --members 0.04,0.564,0.064 --state si --out ti.md &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
st=$?
[ "$st" = 130 ] || [ "$st" = 0 ] || bad "the interrupted table exited $st"
# every member it started recorded its process's time, and left no lock
for d in si/*/; do
    [ -f "$d/member.game" ] || continue
    [ -s "$d/times.txt" ] || bad "the interrupted member $d recorded no time"
done
[ -z "$(ls -d si/*/lock 2>/dev/null)" ] || bad "the interrupted table left locks: $(ls -d si/*/lock)"
$tool --threads 1 --heaps 2^17 --rare-heaps 2^18 --members 0.04,0.564,0.064 --state si --out ti.md || bad "the resumed table failed"
$tool --threads 2 --heaps 2^17 --rare-heaps 2^18 --members 0.04,0.564,0.064 --state sj --out tj.md || bad "the uninterrupted table failed"
cmp <(strip ti.md) <(strip tj.md) > /dev/null || { bad "interrupted and resumed differs"; diff <(strip ti.md) <(strip tj.md); }

# ---- --plain-heaps: every member to 2^14 first; a plain one stops there (0.04), a rare-value one
# goes on to --heaps (0.14: its rare heaps go on past half of 2^14, so not to --rare-heaps), a
# sparse space to --rare-heaps (0.054) ----
$tool --threads 2 --plain-heaps 2^14 --heaps 2^15 --rare-heaps 2^16 --members 0.04,0.14,0.054 --state sq --out tq.md \
    --keep-checkpoints || bad "the table with --plain-heaps failed"
grep -q '^| `0.04` | none | 2^14 | .* | plain |' tq.md || bad "0.04 (plain at 2^14) did not stop there"
grep -q '^| `0.14` | none | 2^15 | .* | rare |' tq.md || bad "0.14 did not go on to 2^15 only"
grep -q '^| `0.054` | none | 2^16 | 34 | 3762 | 3d | 38 | 796 | rare |' tq.md || bad "0.054 did not go on to 2^16"
grep -q 'Made by `tools/unsolved_table.py --heaps 2^15 --rare-heaps 2^16 --plain-heaps 2^14 ' tq.md || bad "the command in the note"

# ---- raised targets over that state (--plain-heaps now --heaps): 0.04 goes on from its checkpoint
# at 2^14 to 2^15, the same row as a single check to 2^15; the finished others are not run again;
# lower targets are still refused ----
$tool --threads 2 --heaps 2^15 --rare-heaps 2^16 --members 0.04,0.14,0.054 --state sq --out tr.md \
    || bad "the table with raised targets failed"
grep -q '^| `0.04` | none | 2^15 | .* | plain |' tr.md || bad "0.04 did not go on to 2^15: $(grep 0.04 tr.md)"
[ "$(wc -l < sq/0.04/times.txt)" = 2 ] || bad "0.04 did not run once more"
[ "$(wc -l < sq/0.14/times.txt)" = 2 ] && [ "$(wc -l < sq/0.054/times.txt)" = 3 ] || bad "finished members ran again"
want=$(printf 'game u = octal "0.04";\ncheck u periodic;\n' | "$grundy" - --to 32767 --threads 1 --format json --no-progress |
       "$python" -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["largest"], j["largest_at"], j["rare_count"], j["last_rare"])')
got=$(grep '^| `0.04`' tr.md | awk -F'|' '{gsub(/ /,""); print $5, $6, $8, $9}')
[ "$got" = "$want" ] || bad "0.04 gone on to 2^15: $got, a single check: $want"
$tool --threads 2 --plain-heaps 2^14 --heaps 2^15 --rare-heaps 2^16 --members 0.04 --state sq --out tr2.md 2> err.txt \
    && bad "lower targets over a raised state were taken"
grep -q 'holds rows for other targets' err.txt || bad "the refusal's message: $(cat err.txt)"
# --table-only with raised targets: nothing computed, 0.04 and 0.14 shown at 2^15 on the way to
# 2^16, 0.054 (at 2^16 already) as it is
before=$(cat sq/*/times.txt | wc -l)
$tool --heaps 2^16 --rare-heaps 2^16 --members 0.04,0.14,0.054 --state sq --out tt.md --table-only \
    || bad "the table only failed"
[ "$(cat sq/*/times.txt | wc -l)" = "$before" ] || bad "--table-only computed something"
grep -q '^| `0.04` | on the way to 2^16 | 2^15 | .* | plain |' tt.md || bad "0.04 with --table-only: $(grep 0.04 tt.md)"
grep -q '^| `0.054` | none | 2^16 |' tt.md || bad "0.054 (at its targets) with --table-only: $(grep 0.054 tt.md)"
grep -q '^| `0.14` | on the way to 2^16 | 2^15 |' tt.md || bad "0.14 with --table-only: $(grep 0.14 tt.md)"
grep -q '^2 are on the way to their targets' tt.md && grep -q 'includes the work since): `0.04`, `0.14`.$' tt.md || bad "the note on members on the way: $(tail -5 tt.md)"

# ---- --member-time: a member cut short shows how far it got, with the columns of the heaps its
# checkpoint holds (against a single check to there), and the next run goes on from there ----
mt() { $tool --threads 1 --heaps 2^30 --rare-heaps 2^30 --member-time 1 --members 0.054 --state sm --out tm.md; }
mt || bad "the table with --member-time failed"
n1=$(grep '^| `0.054` | limit (time) on the way to 2^30 | [0-9]* |' tm.md | cut -d'|' -f4 | tr -d ' ')
[ -n "$n1" ] && [ "$n1" -gt 65536 ] || bad "0.054 cut short: $(grep '0.054' tm.md)"
grep -q '1 stopped at their time limit (`--member-time`) on the way: `0.054`' tm.md || bad "the note on members cut short"
[ -f sm/0.054/member.ck ] || bad "the checkpoint of a member cut short was not kept"
if [ -n "$n1" ]; then
    want=$(printf 'game u = octal "0.054";\ncheck u periodic;\n' | "$grundy" - --to $((n1 - 1)) --threads 1 --format json --no-progress |
           "$python" -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["largest"], j["largest_at"], j["rare_count"], j["last_rare"])')
    got=$(grep '^| `0.054`' tm.md | awk -F'|' '{gsub(/ /,""); print $5, $6, $8, $9}')
    [ "$got" = "$want" ] || bad "0.054 cut short at $n1: $got, a single check to there: $want"
fi
mt || bad "the table with --member-time failed the second time"
n2=$(grep '^| `0.054` | limit (time) on the way to 2^30 | [0-9]* |' tm.md | cut -d'|' -f4 | tr -d ' ')
[ -n "$n2" ] && [ -n "$n1" ] && [ "$n2" -gt "$n1" ] || bad "0.054 did not go on from $n1 (now $n2)"
# a member cut short, gone on with by a later run that finished a stage and was itself stopped
# before its end: its row.json still holds the limit; the table shows the finished stage, on the
# way on (the stage here: 0.054's 2^16 of the table above)
rm -rf sm2 && cp -r sm sm2
"$python" - sq/0.054/stages.json sm2/0.054/stages.json <<'PY'
import json, sys
st = [s for s in json.load(open(sys.argv[1])) if s['heaps'] == 2 ** 16]
json.dump(st, open(sys.argv[2], 'w'))
PY
$tool --heaps 2^30 --rare-heaps 2^30 --member-time 1 --members 0.054 --state sm2 --out tm2.md --table-only ||
    bad "--table-only over a member gone on with failed"
grep -q '^| `0.054` | on the way to 2^30 | 2^16 |' tm2.md || bad "0.054 gone on with past its limit: $(grep '0.054' tm2.md)"

# ---- our columns at 2^17 beside the published rows (Czajka, UnsolvedGames.md) ----
$tool --threads 2 --heaps 2^17 --rare-heaps 2^17 --members '4!.0,0.6,0.04,0.06' --state sp --out tp.md || bad "the 2^17 table failed"
# Grundy's game and 0.6 (published to 2^21): the same mask, rare heaps and last rare heap by 2^17;
# 0.04 and 0.06 (published to 2^17): the same largest value at the same heap (the plain kernel's
# split of the values is not the published mask)
grep -q '^| `4!.0` | none | 2^17 | 230 | 45668 | fe | 1274 | 82860 | rare | .* | 2^21 | 231 | 763622 | fe | 1274 | 82860 |$' tp.md || bad "4!.0 at 2^17"
grep -q '^| `0.6` | none | 2^17 | 285 | 89634 | 1ee | 1584 | 20627 | rare | .* | 2^21 | 319 | 1274955 | 1ee | 1584 | 20627 |$' tp.md || bad "0.6 at 2^17"
grep -q '^| `0.04` | none | 2^17 | 1024 | 109363 | [0-9a-f]* | [0-9]* | [0-9]* | plain | .* | 2^17 | 1024 | 109363 | 7b8 | 18860 | 131003 |$' tp.md || bad "0.04 at 2^17"
grep -q '^| `0.06` | none | 2^17 | 1045 | 127083 | [0-9a-f]* | [0-9]* | [0-9]* | plain | .* | 2^17 | 1045 | 127083 | 5a0 | 52923 | 131070 |$' tp.md || bad "0.06 at 2^17"
[ "$fail" = 0 ] || { echo "--- tp.md"; cat tp.md; }

if [ "$fail" = 0 ]; then echo "unsolved table: all passed"; else exit 1; fi
