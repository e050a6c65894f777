#!/usr/bin/env bash
# run_census.sh GRUNDY: families over codes and sets, and the census (src/query/census.h).
#  - known classes of the octal tables (Winning Ways ch. 4; Flammenkamp's tables; OEIS A071453,
#    A071435, A071434: codes whose values are another's shifted by one heap);
#  - the brute-force twin: every member's values by the position graph (--no-theory tables of
#    the same codes written out one by one), grouped here by exact equality and one-heap
#    shifts, must give the census's classes, members and largest values;
#  - the same bytes for --threads 1, 2 and 3, in text, CSV and JSON;
#  - subsets, hex and code lists; checks over code families; errors.
source "$(dirname "$0")/scriptlib.sh"

cat > o2.game <<'G'
game g[c] = octal c;
census g[c] for c in octal(2) to 10000;
G
"$grundy" o2.game --format json --threads 1 > o2.json 2> err || bad "octal(2) census failed"
# the class of a member, as "status period preperiod members..." (members by code, in order)
class_of() { python3 - "$1" "$2" <<'P'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    codes = [m["code"] for m in o["members"]]
    if sys.argv[2] in codes:
        m = o["members"][codes.index(sys.argv[2])]
        print(o["status"], m["period"], m["preperiod"], " ".join(codes))
P
}
expect_class() {   # FILE CODE "status period preperiod" [another member of its class]
    got=$(class_of "$1" "$2")
    case "$got" in "$3 "*) ;; *) bad "$2: want '$3', got '$got'"; return ;; esac
    if [ -n "${4:-}" ]; then case " $got " in *" $4 "*) ;; *) bad "$2 and $4 should share a class: $got"; return ;; esac; fi
    pass=$((pass + 1))
}
# /work/shared/reference/octal-periods.tsv: Kayles, Dawson's Kayles, Guiles and the 0.5x games
expect_class o2.json 0.77 "proved 12 71"
expect_class o2.json 0.07 "proved 34 53"
expect_class o2.json 0.15 "proved 10 1"
expect_class o2.json 0.51 "proved 1 1"
expect_class o2.json 0.52 "proved 4 4"
expect_class o2.json 0.53 "proved 9 11"
# OEIS A071435 (.177: period 20, last exception 496): .45 and .47 are it shifted by one heap
expect_class o2.json 0.45 "proved 20 498" 0.47
# OEIS A071434 (.1377: period 24, last exception 140): .44 and .46 shifted by two
expect_class o2.json 0.44 "proved 24 143" 0.46
# 0.1 is 0.01 from one heap on
expect_class o2.json 0.1 "proved 1 2" 0.01
grep -c '"query":"census"' o2.json | grep -qx 35 && pass=$((pass + 1)) || bad "octal(2) to 10000: want 35 classes"

cat > o3.game <<'G'
game g[c] = octal c;
census g[c] for c in octal(3) to 2000;
G
"$grundy" o3.game --format json --threads 2 > o3.json 2> err || bad "octal(3) census failed"
grep -c '"query":"census"' o3.json | grep -qx 149 && pass=$((pass + 1)) || bad "octal(3) to 2000: want 149 classes"
expect_class o3.json 0.137 "proved 34 52" 0.07          # Dawson's chess, Dawson's Kayles shifted
expect_class o3.json 0.117 "proved 48 47" 0.051         # OEIS A071453: .051 and .053 are .117 shifted
expect_class o3.json 0.177 "proved 20 497" 0.45         # OEIS A071435
expect_class o3.json 0.077 "proved 24 142" 0.44         # OEIS A071434: .074-.077 shifted by one
# shifts add up along a chain: 0.113 is 0.002 from three heaps on (docs/census.md says so)
"$grundy" o3.game --threads 2 > o3.txt 2> err || bad "octal(3) census text failed"
grep -qE " 0\.002 0\.003\(\+1\) 0\.013\(\+2\) 0\.113\(\+3\)$" o3.txt && pass=$((pass + 1)) || bad "octal(3): 0.113(+3) in 0.002's class"

# The brute-force twin: the position graph's values of each code, grouped here.
cat > small.game <<'G'
game g[c] = octal c;
census g[c] for c in octal(2) to 30;
G
"$grundy" small.game --format json --threads 1 > small.json 2> err || bad "small census failed"
python3 - small.json > twin.game <<'P'
import json, sys
codes = [m["code"] for l in open(sys.argv[1]) for m in json.loads(l)["members"]]
for i, c in enumerate(sorted(codes, key=lambda c: c)):
    print('game m%d = octal "%s";\ntable m%d(0..30);' % (i, c, i))
P
"$grundy" twin.game --no-theory --format json --threads 1 > twin.json 2> err || bad "twin tables failed"
python3 - small.json twin.game twin.json <<'P' || bad "census classes differ from the position graph's"
import json, re, sys
census = [json.loads(l) for l in open(sys.argv[1])]
names = dict(re.findall(r'game (m\d+) = octal "([^"]+)"', open(sys.argv[2]).read()))
vals = {names[o["game"]]: o["values"] for o in map(json.loads, open(sys.argv[3]))}
codes = [m["code"] for o in census for m in o["members"]]
order = sorted(codes, key=lambda c: [int(x, 8) for x in c[2:]])  # the family's order is numeric
N = 30
parent = {c: c for c in order}
def find(c):
    while parent[c] != c: c = parent[c]
    return c
def join(a, b):
    ra, rb = find(a), find(b)
    if ra != rb:
        if order.index(ra) < order.index(rb): parent[rb] = ra
        else: parent[ra] = rb
for i, a in enumerate(order):
    for b in order[i + 1:]:
        va, vb = vals[a], vals[b]
        if va == vb or va[1:] == vb[:N] or vb[1:] == va[:N]: join(a, b)
classes = {}
for c in order: classes.setdefault(find(c), []).append(c)
want = [sorted(v, key=order.index) for v in sorted(classes.values(), key=lambda v: min(order.index(c) for c in v))]
got = [[m["code"] for m in o["members"]] for o in census]
if want != got: print("want", want, "\ngot ", got); sys.exit(1)
for o in census:
    if o["largest"] != max(vals[o["members"][0]["code"]]): print("largest", o); sys.exit(1)
print("twin: %d classes agree" % len(got))
P
[ "$fail" = 0 ] && pass=$((pass + 1))

# The same bytes for every --threads, in every format.
for fmt in text csv json; do
    "$grundy" o3.game --format $fmt --threads 1 > t1 2> err
    for t in 2 3; do
        "$grundy" o3.game --format $fmt --threads $t > t$t 2> err
        cmp -s t1 t$t && pass=$((pass + 1)) || bad "census $fmt: --threads $t differs from --threads 1"
    done
done

# A periodic check over a code family: a line per member, the same bytes for every --threads.
printf 'game g[c] = octal c;\ncheck g[c] periodic for c in octal(2);\n' > fam.game
"$grundy" fam.game --to 3000 --threads 1 > f1 2> err || bad "family check"
"$grundy" fam.game --to 3000 --threads 3 > f3 2> err || bad "family check, 3 threads"
cmp -s f1 f3 && grep -qx "  g\[0.77\]: proved: period 12, preperiod 71 (checked to 167)" f1 && [ "$(grep -c '^  g\[' f1)" = 63 ] \
    && pass=$((pass + 1)) || bad "check g[c] periodic for c in octal(2)"

# Sets, hex and lists; checks over a code family.
cat > kinds.game <<'G'
game s[S] = subtract S;
census s[S] for S in subsets(1..4) to 500;
game h[c] = octal c;
census h[c] for c in hex(1) to 300;
census h[c] for c in {"0.77", "0.07", "4.0", "0.137"} to 1000;
check h[c] periodic for c in {"0.77", "0.15"};
G
"$grundy" kinds.game --format json --threads 1 > kinds.json 2> err || bad "set/hex/list census failed"
grep -q '"class":1,"status":"proved","checked_to":500,"largest":1,"rare_mask":1,"rare_heap_parity":true,"rare_count":0,"last_rare":null,"members":\[{"code":"{1}","preperiod":0,"period":2},{"code":"{1, 3}","preperiod":0,"period":2}' kinds.json \
    && pass=$((pass + 1)) || bad "subsets: {1} and {1, 3} (both alternate 0, 1) should open the census"
[ "$(grep -c '"checked_to":500' kinds.json)" -ge 3 ] && pass=$((pass + 1)) || bad "subsets(1..4): 15 members in few classes"
grep -q '{"code":"0.07","preperiod":53,"period":34},{"code":"0.137","preperiod":52,"period":34}' kinds.json \
    && pass=$((pass + 1)) || bad "list: 0.07 and 0.137 share a class"
grep -q '"member":"h\[0.15\]","parameters":{"c":"0.15"},"status":"proved","period":10,"preperiod":1' kinds.json \
    && pass=$((pass + 1)) || bad "check over a code list: 0.15"
"$grundy" kinds.game --threads 1 > kinds.txt 2> err || bad "text"
grep -q "^census s\[S\] for S in subsets(1..4) to 500: 15 members in" kinds.txt && pass=$((pass + 1)) || bad "text header"

# The rare-value columns of the periodicity check: the kernel's classes where it ran (0.6 and
# Grundy's game), else the split of the values (0.77, proved by its period first).
printf 'game g[c] = octal c;\ncensus g[c] for c in {"0.6", "0.77", "4!.0"} to 20000;\n' > rare.game
"$grundy" rare.game --format json --threads 1 > rare.json 2> err || bad "rare columns census failed"
grep -q '"class":1,"status":"none","checked_to":20000,"largest":284,"rare_mask":494,"rare_heap_parity":false,"rare_count":1583,"last_rare":18833,"members"' rare.json \
    && pass=$((pass + 1)) || bad "0.6: rare mask 0x1ee, 1583 rare heaps to 20000"
grep -q '"class":2,"status":"proved","checked_to":20000,"largest":8,"rare_mask":15,"rare_heap_parity":false,"rare_count":10,"last_rare":70,"members"' rare.json \
    && pass=$((pass + 1)) || bad "0.77: rare columns from its values"
"$grundy" rare.game --threads 1 > rare.txt 2> err || bad "rare columns text"
grep -q "rare mask 0xfe: 1196 rare heaps, the last at heap 19687" rare.txt && pass=$((pass + 1)) || bad "4!.0 rare columns in text"

# The same columns from `check G periodic` itself, to the same heap, in text, JSON and CSV (the C
# API and Python assert them in unit_api.c and python/tests): 0.6 and Grundy's game hold with
# the kernel's columns, 0.77 is proved with those of the heaps its proof read.
printf 'game a = octal "0.6";\ngame b = octal "0.77";\ngame g = octal "4!.0";\n' > cols.game
printf 'check a periodic;\ncheck b periodic;\ncheck g periodic;\n' >> cols.game
"$grundy" cols.game --to 20000 --threads 1 > cols.txt 2> err || bad "check columns text failed"
grep -q "^  in heaps 0..20000: largest value 284, first at heap 18855; rare mask 0x1ee: 1583 rare heaps, the last at heap 18833$" cols.txt \
    && pass=$((pass + 1)) || bad "0.6 check columns in text"
grep -q "^  in heaps 0..20000: largest value 147, first at heap 17751; rare mask 0xfe: 1196 rare heaps, the last at heap 19687$" cols.txt \
    && pass=$((pass + 1)) || bad "Grundy's game check columns in text"
# no period found is "none", not "holds" (no claim held), and the run exits 0 (checked above)
grep -qx "check a periodic" -A1 cols.txt && [ "$(grep -A1 -x "check a periodic" cols.txt | tail -1)" = "  none (checked to 20000)" ] \
    && pass=$((pass + 1)) || bad "0.6 with no period found: status none in text"
grep -q "^  in heaps 0..167: largest value 8, first at heap 27; rare mask 0xf: 10 rare heaps, the last at heap 70$" cols.txt \
    && pass=$((pass + 1)) || bad "0.77 (proved first): its columns in text"
"$grundy" cols.game --to 20000 --threads 1 --format json > cols.json 2> err || bad "check columns json failed"
grep -q '"claim":"a periodic","status":"none","period":null,"preperiod":null,"checked_to":20000,"counterexample":null,"largest":284,"largest_at":18855,"rare_mask":494,"rare_heap_parity":false,"rare_count":1583,"last_rare":18833,"theorem"' cols.json \
    && pass=$((pass + 1)) || bad "0.6 check columns in JSON"
grep -q '"claim":"b periodic","status":"proved","period":12,"preperiod":71,"checked_to":167,"counterexample":null,"saltus":0,"largest":8,"largest_at":27,"rare_mask":15,"rare_heap_parity":false,"rare_count":10,"last_rare":70,"theorem"' cols.json \
    && pass=$((pass + 1)) || bad "0.77: its columns in JSON"
grep -q '"checked_to":20000,"counterexample":null,"largest":147,"largest_at":17751,"rare_mask":254,"rare_heap_parity":false,"rare_count":1196,"last_rare":19687,"theorem"' cols.json \
    && pass=$((pass + 1)) || bad "Grundy's game check columns in JSON"
"$grundy" cols.game --to 20000 --threads 1 --format csv > cols.csv 2> err || bad "check columns csv failed"
head_csv="claim,status,period,preperiod,saltus,checked_to,largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare"
[ "$(grep -c "^$head_csv\$" cols.csv)" = 3 ] && pass=$((pass + 1)) || bad "check CSV header with the columns, for every check"
grep -qx '"a periodic",none,,,,20000,284,18855,494,false,1583,18833' cols.csv && pass=$((pass + 1)) || bad "0.6 check columns in CSV"
grep -qx '"b periodic",proved,12,71,0,167,8,27,15,false,10,70' cols.csv && pass=$((pass + 1)) || bad "0.77: its columns in CSV"
grep -qx '"g periodic",none,,,,20000,147,17751,254,false,1196,19687' cols.csv && pass=$((pass + 1)) || bad "Grundy's game check columns in CSV"
# over a family, a row per member with the same cells; a claim's quotes doubled inside its cell
printf 'game h[c] = octal c;\ncheck h[c] periodic for c in {"0.6", "0.77"};\n' > colsf.game
"$grundy" colsf.game --to 20000 --threads 1 --format csv > colsf.csv 2> err || bad "family check columns csv failed"
[ "$(sed -n 1p colsf.csv)" = "claim,member,status,period,preperiod,saltus,checked_to,largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare" ] \
    && grep -qx '"h\[c\] periodic for c in {""0.6"", ""0.77""}","h\[0.6\]",none,,,,20000,284,18855,494,false,1583,18833' colsf.csv \
    && grep -qx '"h\[c\] periodic for c in {""0.6"", ""0.77""}","h\[0.77\]",proved,12,71,0,167,8,27,15,false,10,70' colsf.csv \
    && pass=$((pass + 1)) || bad "family check columns in CSV"
"$grundy" colsf.game --to 20000 --threads 1 > colsf.txt 2> err || bad "family check text failed (a member with no period exits 0)"
grep -qx "  h\[0.6\]: none: no period found (checked to 20000)" colsf.txt && pass=$((pass + 1)) || bad "family member with no period: none in text"

# Errors: status 2, located.
err_case() {   # SOURCE MESSAGE-PART
    printf '%s\n' "$1" > e.game
    "$grundy" e.game > out 2> err
    st=$?
    if [ $st = 2 ] && grep -q -- "$2" err && [ ! -s out ]; then pass=$((pass + 1)); else bad "error case ($st): $1"; fi
}
err_case 'game g[c] = octal c; table g[3](0..5);' "takes a code"
err_case 'game g[c] = octal d; check g[c] periodic for c in octal(1);' "'d' is not a parameter"
err_case 'game g[c] = octal c; census g[c] for c in octal(0) to 10;' "k is from 1 to 16"
err_case 'game g[k] = subtract 1..k; census g[c] for c in octal(2) to 10;' "must be declared"
err_case 'game g[k] { heap n; move -> n - 1 for j in octal(2); }' "only a family's parameter"
err_case 'game s[S] = subtract S; census s[S] for S in subsets(1..30) to 10;' "nonempty subsets"
err_case 'game g[c] = octal c; census g[c] for c in {"0.7", "0.x"} to 10;' "error"
err_case 'game g[c] = octal c; census g[c] for c in octal(2) to 0;' "a census runs to a heap"
err_case 'game g = octal "0.7"; census g for c in octal(2) to 10;' "a census is over a family"

echo "census: $pass passed, $fail failed"
[ "$fail" = 0 ]
