#!/usr/bin/env bash
# samecost: the same positions asked by different queries (issue 27, item 6). Prints the time
# of a table, a formula check, a solve and a plot over the same cells, each run alone, then
# all of them in one run (where the later ones read the box the first one computed). Run by
# hand, never by the tests; times on a shared machine are noisy, so each is the best of
# --repeat runs (default 3).
#
#   w2  (81 x 81)   a Wythoff variant whose diagonal moves are filtered by 'where':
#                   the table was the slow path (13.6 s against 0.48 s for the check)
#   w7  (301 x 301) Wythoff with odd diagonal steps and a position 'where', checked over a
#                   triangle (variables spanning no box): the check was the slow path
#                   (about 200 s against 3 s for the table)
#   w4  (101 x 101 x {3}) three coordinates, one fixed
#
# usage: bench/samecost.sh [path/to/grundy] [--repeat N]
set -u
G=${1:-build/grundy}
REPEAT=3
[ "${2:-}" = --repeat ] && REPEAT=${3:-3}
[ -x "$G" ] || { echo "samecost: no grundy at $G (give its path)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

W2='game w2 { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;
  move -> (a - k, b - l) for k in 1..a, l in 1..b where abs(k - l) < 2; }'
W7='game w7 { position (a, b) where a >= 0 && b >= 0; move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;
  move -> (a - k, b - k) for k in 1..min(a, b) where k % 2 == 1; }'
W4='game w4 { position (a, b, c); move -> (a - k, b, c) for k in 1..a; move -> (a, b - k, c) for k in 1..b;
  move -> (a - k, b - k, c) for k in 1..min(a, b); move -> (a, b, c - 1) where c > 0; }'

# best of REPEAT runs: wall clock and CPU (user + system), in seconds
timed() {
    local best="" cpu="" f=$1 TIMEFORMAT='%R %U %S' r u st
    for ((i = 0; i < REPEAT; i++)); do
        { time "$G" "$f" >/dev/null 2>"$dir/err"; } 2>"$dir/time" || { echo "FAILED: $(head -3 "$dir/err")"; return; }
        read -r r u st <"$dir/time"
        if [ -z "$best" ] || awk -v a="$r" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$r
            cpu=$(awk -v a="$u" -v b="$st" 'BEGIN { print a + b }')
        fi
    done
    printf '%8.2f s wall %8.2f s cpu' "$best" "$cpu"
}

row() {   # name, game text, query lines...
    local name=$1 game=$2
    shift 2
    printf '%-52s' "$name"
    printf '%s\n' "$game" "$@" >"$dir/q.game"
    timed "$dir/q.game"
    echo
}

echo "grundy: $G (the best of $REPEAT runs by wall clock, and its CPU time)"
echo
echo "w2 over 0..80 x 0..80"
row "  table" "$W2" 'table w2(0..80, 0..80);'
row "  check P(a, b) <=> P(b, a) (square)" "$W2" 'check w2: P(a, b) <=> P(b, a) for a in 0..80, b in 0..80;'
row "  check (triangle b <= a)" "$W2" 'check w2: P(a, b) <=> P(b, a) for a in 0..80, b in 0..a;'
row "  solve w2(80, 80)" "$W2" 'solve w2(80, 80);'
row "  plot" "$W2" "plot w2(0..80, 0..80) to \"$dir/w2.png\";"
row "  table + check + triangle + solve + plot, one run" "$W2" 'table w2(0..80, 0..80);' \
    'check w2: P(a, b) <=> P(b, a) for a in 0..80, b in 0..80;' 'check w2: P(a, b) <=> P(b, a) for a in 0..80, b in 0..a;' \
    'solve w2(80, 80);' "plot w2(0..80, 0..80) to \"$dir/w2.png\";"
row "  check + table, one run" "$W2" 'check w2: P(a, b) <=> P(b, a) for a in 0..80, b in 0..80;' 'table w2(0..80, 0..80);'
echo
echo "w7 over 0..300 x 0..300"
row "  table" "$W7" 'table w7(0..300, 0..300);'
row "  check (square)" "$W7" 'check w7: P(a, b) <=> P(b, a) for a in 0..300, b in 0..300;'
row "  check (triangle b <= a)" "$W7" 'check w7: P(a, b) <=> P(b, a) for a in 0..300, b in 0..a;'
row "  solve w7(300, 300)" "$W7" 'solve w7(300, 300);'
row "  table + triangle + solve, one run" "$W7" 'table w7(0..300, 0..300);' \
    'check w7: P(a, b) <=> P(b, a) for a in 0..300, b in 0..a;' 'solve w7(300, 300);'
echo
echo "w4 over 0..100 x 0..100 x {3}"
row "  table" "$W4" 'table w4(0..100, 0..100, 3);'
row "  check P(a, b, 3) <=> P(b, a, 3)" "$W4" 'check w4: P(a, b, 3) <=> P(b, a, 3) for a in 0..100, b in 0..100;'
