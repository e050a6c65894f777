#!/usr/bin/env bash
# run_edges.sh GRUNDY: the rough edges a new user met (issue "The third hour"), each checked
# where the old behaviour failed: a 2-D table shortened in text, a program on standard input
# with no last ';', check over coin-turning games, the same census bytes on every --threads
# under a memory limit, partial winning-move lists said so in every format, the session's
# --format, and right totals in a formula check's limit message.
source "$(dirname "$0")/scriptlib.sh"
ok() { pass=$((pass + 1)); }

# A 2-D table in text is shortened like a 1-D one (first and last rows and columns), saying
# how to get every value; CSV still prints every cell.
printf 'table wythoff(0..2000, 0..2000) outcome;\n' >w.game
"$grundy" --no-progress w.game >out 2>err
lines=$(wc -l <out)
if [ "$lines" -lt 400 ] && grep -q 'rows not shown (--format csv or json prints every value)' out &&
   grep -q 'y = 36..1997 not shown' out && grep -q '^  2000 |' out; then ok; else bad "2-D table shortened ($lines lines)"; fi
printf 'table wythoff(0..200, 0..200) outcome;\n' >w2.game
"$grundy" --no-progress --format csv w2.game >out 2>err
if [ "$(wc -l <out)" = $((201 * 201 + 1)) ]; then ok; else bad "2-D CSV prints every cell"; fi

# A program piped with no file needs no ';' at a line's end, as in the session; a program that
# is wrong still gets its own error, at its own line and column.
printf 'game s = subtract {1, 4}\ntable s(0..5)' | "$grundy" --no-progress >out 2>err
if [ $? = 0 ] && grep -q '  0 | 0 1 0 1 2 0' out; then ok; else bad "stdin with no ';' at the ends of lines"; fi
printf 'game s = subtract {1, 4};\ntable s(0..5' | "$grundy" --no-progress >out 2>err
if [ $? = 2 ] && grep -q '^<stdin>:2:13: error: unexpected end of input' err; then ok; else bad "stdin with a real syntax error"; fi

# A winning-move list known to be partial says so in every format: the text's "one shown", JSON's
# winning_moves_not_listed (null: not counted), CSV's last column.
printf 'game s = subtract {1, 2, 4};\nsolve every *9 + *15 + s(19) + *15;\n' >ev.game
"$grundy" --no-progress ev.game >out 2>err
if grep -q 'one shown; others were not searched for' out; then ok; else bad "text: one shown"; fi
"$grundy" --no-progress --format json ev.game >out 2>err
if grep -q '"winning_moves":\["s(18)"\],"winning_moves_not_listed":null}$' out; then ok; else bad "JSON: winning_moves_not_listed"; fi
"$grundy" --no-progress --format csv ev.game >out 2>err
if [ "$(sed -n 1p out)" = position,convention,outcome,sg,winning_moves,winning_moves_not_listed ] &&
   [ "$(sed -n 2p out)" = '"*9 + *15 + s(19) + *15",every,N,,"s(18)",unknown' ]; then ok; else bad "CSV: winning_moves_not_listed"; fi
printf 'solve nim(3) + nim(5);\n' >all.game
"$grundy" --no-progress --format json all.game >out 2>err
if ! grep -q not_listed out; then ok; else bad "JSON: a whole list says nothing"; fi

# The session applies the command line's --format to every query, as its other options.
printf 'game s = subtract {1, 4};\n' >def.game
printf 'table s(0..5)\nsolve s(3)\n' | "$grundy" --no-progress -i def.game --format json >out 2>err
if [ "$(sed -n 1p out)" = '{"query":"table","game":"s","from":[0],"to":[5],"kind":"sg","values":[0,1,0,1,2,0],"convention":"normal"}' ] &&
   grep -q '^{"query":"solve","position":"s(3)"' out && [ "$(wc -l <out)" = 2 ]; then ok; else bad "session --format json"; fi
printf 'table s(0..2)\n' | "$grundy" --no-progress -i def.game --format csv >out 2>err
if [ "$(tr '\n' ' ' <out)" = "n,value 0,0 1,1 2,0 " ]; then ok; else bad "session --format csv"; fi

# A formula check's limit message counts the check's own items of the check's own total (not
# a heap table's total that the check's loop filled on the way).
printf 'check kayles: sg(n) >= 0 for n in 0..9223372036854775807;\n' >f.game
"$grundy" --no-progress --max-time 1 f.game >out 2>err
st=$?
if [ $st = 3 ] && grep -Eq '; check: [0-9]+ of 9223372036854775808 done \(raise it with --max-time\)$' err; then ok; else bad "formula check's limit message (status $st)"; fi

# A census member spread over worker processes gets the retry a lone query gets when it passes
# its worker's share of the memory: every --threads prints the same bytes and status (the
# audit's case, where --threads 2 used to stop with status 3 and print nothing).
printf 'game g[c] = octal c;\ncensus misere g[c] for c in {"0.07", "0.77"} to 34;\n' >cen.game
"$grundy" --no-progress --max-memory 300M --threads 1 cen.game >out1 2>err1; st1=$?
"$grundy" --no-progress --max-memory 300M --threads 2 cen.game >out2 2>err2; st2=$?
if [ $st1 = 0 ] && [ $st2 = 0 ] && [ -s out1 ] && cmp -s out1 out2; then ok; else bad "census over threads under a memory limit ($st1, $st2: $(head -c 200 err2))"; fi

# check over coin-turning games: the values of a single heads at places 0, 1, ... are the
# sequence (Twins: x, arithmetic period 1, saltus 1; Ruler: the ruler function, no period).
cat >coin.game <<'GAME'
game ruler = turning { flip x-k+1 .. x for k in 1..x; }
game twins = turning { flip y, x for y in 0..x-1; }
check twins periodic;
check ruler periodic;
check twins period 2 saltus 1;
GAME
"$grundy" --no-progress --to 100 coin.game >out 2>err
st=$?
if [ $st = 1 ] && grep -q '^  holds: period 1, preperiod 0, saltus 1 (checked to 100)$' out &&
   grep -q '^  none (checked to 100)$' out && grep -q 'counterexample: sg(0) = 0 but sg(0 + 2) = sg(2) = 2, not sg(0) + 1' out
then ok; else bad "check over coin turning (status $st)"; fi
"$grundy" --no-progress --to 100 --format json coin.game >out 2>err
if grep -q '^{"query":"check","claim":"twins periodic","status":"holds","period":1,"preperiod":0,"checked_to":100' out; then ok; else bad "check over coin turning, JSON"; fi

echo "edges: $pass passed, $fail failed"
[ "$fail" = 0 ]
