#!/bin/sh
# board_rows.sh: the rows of docs/tables/boards.csv, one board a run. Each board is its own
# `grundy` process (its own tables, from nothing), so each row's time and peak memory are its
# own; a board that passes --max-time is written with the value "open" and the time it was
# given. Appends to the CSV named (made with its header when new).
#   tools/board_rows.sh GRUNDY OUT.csv MAX_SECONDS GAME CONVENTION BOARD...
#     GAME: ak (arckayles: Cram on a grid) or nk (nodekayles); CONVENTION: normal or misere;
#     BOARD: R,C for grid(R, C).
# Example: tools/board_rows.sh build/grundy docs/tables/boards.csv 3600 ak normal 5,9 6,7
set -eu
grundy=$1 out=$2 limit=$3 game=$4 conv=$5
shift 5
case $game in ak) rule=arckayles ;; nk) rule=nodekayles ;; *) echo "board_rows.sh: game ak or nk, not $game" >&2; exit 2 ;; esac
case $conv in normal) play="" ;; misere) play="misere " ;; *) echo "board_rows.sh: normal or misere, not $conv" >&2; exit 2 ;; esac
[ -s "$out" ] || echo "game,convention,rows,cols,cells,value,seconds,peak_mib,command" > "$out"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for b in "$@"; do
    r=${b%,*} c=${b#*,}
    printf 'game %s = %s;\ntable %s%s(grid(%s, %s));\n' "$game" "$rule" "$play" "$game" "$r" "$c" > "$dir/b.game"
    cmd="table $play$game(grid($r, $c)) (game $game = $rule)"
    start=$(date +%s.%N)
    status=0
    /usr/bin/time -f "%M" -o "$dir/mem" "$grundy" "$dir/b.game" --no-progress --format csv --max-time "$limit" \
        --max-memory 12G > "$dir/out" 2> "$dir/err" || status=$?
    end=$(date +%s.%N)
    secs=$(awk "BEGIN { print $end - $start }")
    mib=$(( $(tail -1 "$dir/mem") / 1024 ))
    if [ "$status" = 0 ]; then
        # the CSV answer: the header, then one row "R,value" (the SG value; P or N misere)
        value=$(sed -n 2p "$dir/out" | cut -d, -f2)
    else
        value=open
    fi
    printf '%s,%s,%s,%s,%s,%s,%.1f,%s,"%s"\n' "$game" "$conv" "$r" "$c" $((r * c)) "$value" "$secs" "$mib" "$cmd" >> "$out"
done
