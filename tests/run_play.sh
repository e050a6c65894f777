#!/usr/bin/env bash
# run_play.sh GRUNDY: "grundy play" driven through a pipe. From N positions with the computer
# first, against random legal moves, the computer must always win. The random player sends
# numbers drawn uniformly from 1..60; play rejects those above the number of moves and reads
# the next, so the moves it accepts are uniform over the legal ones (rejection sampling).
# Also: moves typed as positions (any spelling of the same position), bad moves, the end of the
# input, the longest defence from a P position (the move of greatest remoteness), and a bad
# position.
source "$(dirname "$0")/scriptlib.sh"

cat > g.game <<'G'
game kayles = octal "0.77";
game nim = subtract 1..;
game wythoff { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;
               move -> (a - k, b - k) for k in 1..min(a, b); }
G
randoms() { awk -v seed="$1" 'BEGIN { srand(seed); for (i = 0; i < 3000; i++) print int(rand() * 60) + 1 }'; }

# N positions (a winning move exists), under several conventions.
while IFS='|' read -r pos conv; do
    for seed in 1 2 3 4; do
        args=(play g.game "$pos" --first computer)
        [ -n "$conv" ] && args+=(--convention "$conv")
        randoms "$seed" | timeout 60 "$grundy" "${args[@]}" >out 2>err
        rc=$?
        if [ $rc -ne 0 ]; then bad "$pos $conv seed $seed: exit status $rc"; continue; fi
        if ! tail -n 1 out | grep -q "Game over: the computer wins."; then bad "$pos $conv seed $seed: the computer did not win"; continue; fi
        if ! grep -q "The computer plays .*(a winning move" out; then bad "$pos $conv seed $seed: no winning move announced"; continue; fi
        if grep -q "holds out longest" out; then bad "$pos $conv seed $seed: the computer was ever losing"; continue; fi
        pass=$((pass + 1))
    done
done <<'CASES'
kayles(7) + kayles(4)|
nim(3) + nim(5) + nim(7)|
wythoff(5, 9)|
nim(2) + nim(3) + nim(4)|misere
kayles(3) + kayles(5)|anyleaf
kayles(6)|misere
CASES

# A position typed in full (other order, other spacing) is the same move as its number.
printf 'kayles(2)+kayles(1)\n1\n1\n1\n1\n' | "$grundy" play g.game "kayles(4)" >out 2>err
if grep -q "^Position: kayles(1) + kayles(2)$" out; then pass=$((pass + 1)); else bad "a move typed as a position"; fi

# Bad moves are refused and asked again; the end of the input stops with status 1.
printf 'zz\n99\n' | "$grundy" play g.game "kayles(4)" >out 2>err
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c 'is not a move from here' out)" = 2 ] && grep -q "input ended" out; then pass=$((pass + 1)); else bad "bad moves and the end of the input (status $rc)"; fi

# From a P position the computer, moving first, has no winning move and says so, after the
# list it chose from; resigning ends the game with status 0.
printf 'q\n' | "$grundy" play g.game "nim(2) + nim(2)" --first computer >out 2>err
rc=$?
if [ $rc -eq 0 ] && grep -q "no winning move exists" out && grep -q "You resign" out &&
   grep -q "^The computer's moves" out; then pass=$((pass + 1)); else bad "losing side (status $rc)"; fi

# A sum of heaps with values is played by values, not by its position graph: three Kayles
# rows of 60 (a graph of hundreds of MB) within 64 MB, the prelude's kayles and *n by name.
# The computer's first move leaves value 0, and every move it lists carries its value.
: >empty.game
printf '1\nq\n' | "$grundy" play empty.game "kayles(60) + kayles(60) + kayles(60) + *1" --first computer --max-memory 64M >out 2>err
rc=$?
if [ $rc -eq 0 ] && grep -q "played by Sprague-Grundy values" out && grep -q "^The computer plays [0-9]*: .*(a winning move: it leaves value 0)" out &&
   [ "$(grep -c '^ *[0-9]*\. kayles.*  ([0-9]*)$' out)" -gt 50 ]; then pass=$((pass + 1)); else bad "play by values (status $rc)"; cat err; fi
printf 'q\n' | "$grundy" play empty.game "kayles(3)" --max-memroy 1G >out 2>err
if [ $? -eq 2 ]; then pass=$((pass + 1)); else bad "play rejects an unknown option"; fi

# Any spelling of a move is the move: parts in another order, other spaces, nim(n) for *n and
# empty heaps written or not are compared as positions, by values and by the position graph.
printf ' *0+kayles( 4 ) + kayles(0)\nq\n' | "$grundy" play empty.game "kayles(4) + *1 + *0" >out 2>err
if grep -q "^Position: kayles(4) + \*1$" out && grep -q "^Position: kayles(4)$" out && ! grep -q "not a move" out &&
   ! grep -q "^Position: .*\(kayles(0)\|\*0\)" out; then pass=$((pass + 1)); else bad "a move spelt with empty heaps and *0"; fi
printf 'nim(1) + kayles(0) + kayles(3)\nq\n' | "$grundy" play empty.game "kayles(4) + *1" >out 2>err
if grep -q "^Position: kayles(3) + \*1$" out && ! grep -q "not a move" out; then pass=$((pass + 1)); else bad "nim(1) typed for *1"; fi
printf 'kayles(0) + kayles(2) + kayles(1)\nq\n' | "$grundy" play g.game "kayles(4)" --convention misere >out 2>err
if grep -q "^Position: kayles(1) + kayles(2)$" out && ! grep -q "not a move" out; then pass=$((pass + 1)); else bad "a move by the position graph spelt with an empty heap"; fi
# Under anyleaf a group is one component: "(k(3) + k(3))" is a move from k(7), "k(3) + k(3)"
# (two components, a different position) is not.
printf 'game k = octal "0.77";\n' >k.game
printf 'k(3) + k(3)\n( k(3)+k(3) )\nq\n' | "$grundy" play k.game "k(7)" --convention anyleaf >out 2>err
if [ "$(grep -c 'is not a move from here' out)" = 1 ] && grep -q "^Position: (k(3) + k(3))$" out; then pass=$((pass + 1)); else bad "a group typed under anyleaf"; fi

# A lost computer plays the move that lasts longest, and says so: from kayles(5) + kayles(5)
# (value 0) the first move listed, kayles(4) + kayles(5), leaves a remoteness of 5, the second,
# kayles(1) + kayles(3) + kayles(5), one of 9: ten moves to the end with this one.
printf 'q\n' | "$grundy" play empty.game "kayles(5) + kayles(5)" --first computer >out 2>err
if grep -q "^The computer plays 2: kayles(1) + kayles(3) + kayles(5)  (no winning move exists (the value is 0); this one holds out longest: 10 more moves to the end)$" out; then
    pass=$((pass + 1)); else bad "the longest defence by values"; fi
# Where the first move listed is the shortest: nim(1) + s(3) on s = subtract {1, 3, 4} lists
# s(3) (remoteness 1) before nim(1) + s(2) (remoteness 3).
printf 'game s = subtract {1, 3, 4};\n' >s.game
printf 'q\n' | "$grundy" play s.game "nim(1) + s(3)" --first computer >out 2>err
if grep -q "^    1\. s(3)  (1)$" out && grep -q "^The computer plays 2: nim(1) + s(2)  (no winning move exists (the value is 0); this one holds out longest: 4 more moves to the end)$" out; then
    pass=$((pass + 1)); else bad "the longest defence when the first move is the shortest"; cat out; fi

# A bad position is a located input error (status 2).
"$grundy" play g.game "kayles(-1)" </dev/null >out 2>err
rc=$?
if [ $rc -eq 2 ] && grep -q "error: a heap cannot be negative" err; then pass=$((pass + 1)); else bad "bad position (status $rc)"; fi

echo "play: $pass passed, $fail failed"
[ "$fail" = 0 ]
