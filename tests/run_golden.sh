#!/usr/bin/env bash
# Golden-output tests: every examples/NAME.game is run in text and JSON format and compared
# with tests/golden/NAME.txt and tests/golden/NAME.json; the exit status must equal the
# number after "# expect-exit:" in the example (0 when absent); "# args:" adds command-line
# options (to keep heavy examples quick, e.g. --to).
#   run_golden.sh GRUNDY EXAMPLES_DIR GOLDEN_DIR [--update]
set -u
grundy=$1 examples=$2 golden=$3 update=${4:-}
pass=0 fail=0
for game in "$examples"/*.game; do
    name=$(basename "$game" .game)
    want_exit=$(sed -n 's/^# expect-exit: *\([0-9]*\).*/\1/p' "$game" | head -n 1)
    want_exit=${want_exit:-0}
    args=$(sed -n 's/^# args: *//p' "$game" | head -n 1)
    for fmt in txt json; do
        flag=text; [ "$fmt" = json ] && flag=json
        out=$(cd "$examples" && "$grundy" "$name.game" --format "$flag" --no-progress $args 2>/tmp/golden.err.$$)
        status=$?
        if [ "$update" = --update ]; then
            printf '%s\n' "$out" > "$golden/$name.$fmt"
        fi
        if [ "$status" != "$want_exit" ]; then
            echo "FAIL $name ($flag): exit status $status, expected $want_exit"; cat /tmp/golden.err.$$
            fail=$((fail + 1)); continue
        fi
        if ! diff -u "$golden/$name.$fmt" <(printf '%s\n' "$out") > /tmp/golden.diff.$$; then
            echo "FAIL $name ($flag): output differs from $golden/$name.$fmt"; head -n 40 /tmp/golden.diff.$$
            fail=$((fail + 1)); continue
        fi
        pass=$((pass + 1))
    done
done
rm -f /tmp/golden.err.$$ /tmp/golden.diff.$$
echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
