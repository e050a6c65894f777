#!/usr/bin/env bash
# run_stream.sh GRUNDY: answers as they come. The first query's answer must be readable while
# a slow second query still runs; Ctrl-C (SIGINT) then stops with status 130, keeps the first
# answer and says where it stopped. Also --query N and the self-naming CSV blocks.
source "$(dirname "$0")/scriptlib.sh"

# Grundy's game to two million takes minutes: the test never waits for it to finish.
printf 'game grundys = octal "4!.0";\ntable grundys(0..20);\ntable grundys(0..2000000);\n' > slow.game
"$grundy" slow.game --no-progress >out 2>err &
pid=$!
for _ in $(seq 1 600); do grep -q "20 | 0" out 2>/dev/null && break; sleep 0.1; done
if grep -q "^  10 | 0 2 1 3 2 1 3 2 4 3$" out && kill -0 $pid 2>/dev/null; then
    pass=$((pass + 1))
else
    bad "the first answer was not readable while the second query ran"
fi
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
if [ $rc -eq 130 ] && grep -q "interrupted in query 2 of 2 (table grundys(0..2000000)); the answers above are complete" err \
   && grep -q "^table grundys(0..20): Sprague-Grundy values$" out && ! grep -q "2000000" out; then
    pass=$((pass + 1))
else
    bad "SIGINT: status $rc"
fi

cat > q.game <<'G'
game nim = subtract 1..;
game s = subtract {1, 3, 4};
table s(0..4);
solve nim(1) + nim(2);
table s(2..3) outcome;
G
# --query N runs only the Nth query
"$grundy" q.game --query 2 --format json >out 2>err
if [ $? -eq 0 ] && [ "$(cat out)" = '{"query":"solve","position":"nim(1) + nim(2)","convention":"normal","outcome":"N","sg":3,"remoteness":3,"winning_moves":["nim(1) + nim(1)"]}' ]; then
    pass=$((pass + 1)); else bad "--query 2"; fi
"$grundy" q.game --query 4 >out 2>err
if [ $? -eq 2 ] && [ ! -s out ] && grep -q "the file has 3 queries" err; then pass=$((pass + 1)); else bad "--query past the end"; fi

# CSV: blocks separated by a blank line, each named by a comment line
"$grundy" q.game --format csv >out 2>err
expected='# table s(0..4)
n,value
0,0
1,1
2,0
3,1
4,2

# solve nim(1) + nim(2)
position,convention,outcome,sg,winning_moves,winning_moves_not_listed
"nim(1) + nim(2)",normal,N,3,"nim(1) + nim(1)",

# table s(2..3) outcome
n,value
2,P
3,N'
if [ "$(cat out)" = "$expected" ]; then pass=$((pass + 1)); else bad "named CSV blocks"; fi
# one query: plain CSV, no comment
"$grundy" q.game --format csv --query 1 >out 2>err
if [ "$(head -n 1 out)" = "n,value" ]; then pass=$((pass + 1)); else bad "a single CSV block"; fi

# An input error still leaves standard output empty (the whole file compiles first).
printf 'game s = subtract {1};\ntable s(0..3);\ntable t(0..3);\n' > bad.game
"$grundy" bad.game >out 2>err
if [ $? -eq 2 ] && [ ! -s out ]; then pass=$((pass + 1)); else bad "input error with output"; fi

echo "stream: $pass passed, $fail failed"
[ "$fail" = 0 ]
