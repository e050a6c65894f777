#!/usr/bin/env bash
# run_play_grid.sh GRUNDY: "grundy play" on grid boards through a pipe: the board drawn before
# the moves ('.' a cell on the board, '#' a cell removed, rows and columns numbered), moves
# typed as the cells they take (two adjacent cells for arckayles, one for nodekayles, by values
# and by the position graph, in a sum with a heap), typed moves that are not moves refused with
# a reason and asked again, board positions typed in full in any spelling, a path drawn as one
# row, and other boards listed as before.
source "$(dirname "$0")/scriptlib.sh"

printf 'game ak = arckayles;\ngame nk = nodekayles;\n' >b.game

# Cram on 2 x 3: the human takes (0, 0)-(0, 1); the computer's one winning reply takes
# (1, 1)-(1, 2), which leaves no domino: the computer wins. The boards are drawn exactly.
printf '(0, 1) (0, 0)\n' | "$grundy" play b.game "ak(grid(2, 3))" >out 2>err
rc=$?
want_start=$'Position: ak(grid(2, 3))\n     0 1 2\n  0  . . .\n  1  . . .\nYour moves:'
want_after=$'Position: ak(grid(2, 3) - {(0, 0), (0, 1)})\n     0 1 2\n  0  # # .\n  1  . . .\nThe computer\'s moves'
want_end=$'Position: ak(grid(2, 3) - {(0, 0), (0, 1), (1, 1), (1, 2)})\n     0 1 2\n  0  # # .\n  1  . # #\nNo move is left for you. Game over: the computer wins.'
if [ $rc -eq 0 ] && grep -qF "$want_start" out && grep -qF "$want_after" out && grep -qF "$want_end" out &&
   grep -q "^The computer plays 3: ak(grid(2, 3) - {(0, 0), (0, 1), (1, 1), (1, 2)})" out; then
    pass=$((pass + 1)); else bad "Cram 2 x 3 by cells (status $rc)"; fi

# Typed cells that are not a move: one cell of a domino, cells not next to each other, a cell
# off the board, three cells, an odd count; each refused with its reason, and the prompt again;
# then "1,0 1,1" (commas, no parentheses) is the move.
printf '(0,0)\n(0,0) (1,1)\n(7,0) (7,1)\n0 0 0 1 0 2\n0, 0, 1\n1,0 1,1\nq\n' | "$grundy" play b.game "ak(grid(2, 3))" >out 2>err
rc=$?
if [ $rc -eq 0 ] && grep -q "^'(0,0)': a move here takes two adjacent cells" out &&
   grep -q "^'(0,0) (1,1)': (0, 0) and (1, 1) are not next to each other" out &&
   grep -q "^'(7,0) (7,1)': (7, 0) is not a cell of the board: rows 0 to 1, columns 0 to 2\.$" out &&
   grep -q "^'0 0 0 1 0 2': a move here takes two adjacent cells" out &&
   grep -q "^'0, 0, 1': a cell is two numbers" out &&
   [ "$(grep -c '^Your move (1-7, a position, or the cells it takes; q to resign): ' out)" = 6 ] &&
   grep -q "^Position: ak(grid(2, 3) - {(1, 0), (1, 1)})$" out; then
    pass=$((pass + 1)); else bad "bad cells refused (status $rc)"; fi

# Node Kayles: one cell, and the cells it takes away with it; a cell already gone is refused.
printf '(2, 2)\n(1, 1)\nq\n' | "$grundy" play b.game "nk(grid(3, 3) - {(2, 2)})" >out 2>err
if grep -q "^'(2, 2)': (2, 2) is no longer on the board" out &&
   grep -qF $'Position: nk(grid(3, 3) - {(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)})\n     0 1 2\n  0  . # .\n  1  # # #\n  2  . # #' out; then
    pass=$((pass + 1)); else bad "Node Kayles by a cell"; fi

# By the position graph (misere): the move by its cell, and two cells refused for Node Kayles.
printf '0,0 0,1\n0 1\n' | "$grundy" play b.game "misere nk(grid(1, 4))" >out 2>err
if grep -q "^'0,0 0,1': a move here takes one cell" out &&
   grep -qF $'Position: nk(grid(1, 4) - {(0, 0), (0, 1), (0, 2)})\n     0 1 2 3\n  0  # # # .' out; then
    pass=$((pass + 1)); else bad "misere Node Kayles by a cell"; fi

# A grid in a sum with a heap: its cells are a move of the board; the heap is kept.
printf '0 0 0 1\nq\n' | "$grundy" play b.game "kayles(3) + ak(grid(1, 2))" >out 2>err
if grep -q "^Position: kayles(3) + ak(grid(1, 2) - {(0, 0), (0, 1)})$" out; then
    pass=$((pass + 1)); else bad "a grid in a sum by cells"; fi

# A board typed in full is its move in any spelling: other spaces, the cells in another order,
# a range, parts in another order; by values and by the position graph (misere). Each case:
# the start | the line typed | the position it must reach.
while IFS='|' read -r start typed reached; do
    printf '%s\nq\n' "$typed" | "$grundy" play b.game "$start" >out 2>err
    if grep -qxF "Position: $reached" out && ! grep -q "not a move" out; then
        pass=$((pass + 1)); else bad "typed in full: $typed from $start"; fi
done <<'CASES'
ak(grid(2, 3))|ak(grid(2,3) - {(0,1),(0,0)})|ak(grid(2, 3) - {(0, 0), (0, 1)})
misere nk(path(4))|nk( path(4) - {1, 0} )|nk(path(4) - {0, 1})
ak(grid(1, 2)) + kayles(3)|kayles(3)+ ak(grid(1,2)-{(0,1), (0,0)})|ak(grid(1, 2) - {(0, 0), (0, 1)}) + kayles(3)
nk(path(6))|nk(path(6) - {0..2})|nk(path(6) - {0, 1, 2})
CASES

# Wider boards: columns numbered 0 to 10 in columns of their own width.
printf 'q\n' | "$grundy" play b.game "ak(grid(1, 11) - {(0, 10)})" >out 2>err
if grep -qF $'      0  1  2  3  4  5  6  7  8  9 10\n  0   .  .  .  .  .  .  .  .  .  .  #' out; then
    pass=$((pass + 1)); else bad "a board of 11 columns"; fi

# A path is drawn as one row, and keeps its list: cells are not offered (a number is a move).
printf '0,1\nq\n' | "$grundy" play b.game "nk(path(4) - {2})" >out 2>err
if grep -qF $'Position: nk(path(4) - {2})\n     0 1 2 3\n     . . # .\nYour moves:' out &&
   grep -q "^Your move (1-2, or a position; q to resign): " out && grep -q "^'0,1' is not a move from here" out; then
    pass=$((pass + 1)); else bad "a path drawn, its list kept"; fi
# Other boards (a cycle) keep today's list alone.
printf 'q\n' | "$grundy" play b.game "nk(cycle(5))" >out 2>err
if grep -qF $'Position: nk(cycle(5))\nYour moves:' out; then pass=$((pass + 1)); else bad "a cycle is not drawn"; fi

echo "play_grid: $pass passed, $fail failed"
[ "$fail" = 0 ]
