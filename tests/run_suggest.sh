#!/usr/bin/env bash
# run_suggest.sh GRUNDY: "did you mean" on a list of misspellings: keywords, table kinds,
# games (the program's own and the prelude's), options and session commands; and words too far
# from anything get no suggestion. Each case is a program (or arguments) and the text that
# standard error must hold. Prints "N passed, M failed".
set -u
grundy=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
pass=0 fail=0

# case PROGRAM EXPECTED: the program must fail with status 2 and EXPECTED on standard error.
case_prog() {
    printf '%s\n' "$1" >p.game
    "$grundy" p.game --no-progress >out 2>err
    local rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$2" err && [ ! -s out ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: '$1' (status $rc) should say: $2"; sed 's/^/    /' err | head -3; fi
}

case_prog 'tabel kayles(0..10);'                       "unexpected name 'tabel' (did you mean 'table'?)"
case_prog 'slove kayles(3);'                           "(did you mean 'solve'?)"
case_prog 'chek kayles periodic;'                      "(did you mean 'check'?)"
case_prog 'check kayles periodc;'                      "(did you mean 'periodic'?)"
case_prog 'check kayles preperoid 71;'                 "(did you mean 'preperiod'?)"
case_prog 'table misre kayles(0..3);'                  "unexpected name 'kayles'"
case_prog 'quotent kayles(0..20);'                   "(did you mean 'quotient'?)"
case_prog 'gmae s = subtract {1, 2};'                  "(did you mean 'game'?)"
case_prog 'game s = subtrct {1, 2};'                   "(did you mean 'subtract'?)"
case_prog 'game s = octl "0.77";'                      "(did you mean 'octal'?)"
case_prog 'table kayles(0..4) outcom;'                 "(did you mean 'outcome'?)"
case_prog 'table kayles(0..4) remotness;'              "(did you mean 'remoteness'?)"
case_prog 'solve kayels(4);'                           "unknown game 'kayels' (did you mean 'kayles'?)"
case_prog 'solve dawsn(4);'                            "(did you mean 'dawson'?)"
case_prog 'table wythof(0..3, 0..3);'                  "(did you mean 'wythoff'?)"
case_prog 'table grundy_game(0..3);'                   "(did you mean 'grundygame'?)"
case_prog 'table fibonaci(0..3);'                      "(did you mean 'fibonacci'?)"
case_prog 'game s134 = subtract {1, 3, 4}; solve s143(4);' "(did you mean 's134'?)"
case_prog 'solve zzz(4);'                              "unknown game 'zzz': define it first, e.g. game zzz = subtract {1, 2};"
case_prog 'solve kayles(3) +;'                         "expected a name, '(' or a nim heap *n"
case_prog 'game t { position (a, b) where a >= 0 b >= 0; }' "unexpected name 'b'; expected"

# options of the command
printf 'table kayles(0..3);\n' >ok.game
for pair in "--max-memroy=1G|--max-memory" "--formt=csv|--format" "--explian|--explain" "--no-progres|--no-progress"; do
    opt=${pair%%|*} want=${pair##*|}
    "$grundy" ok.game "$opt" >out 2>err
    if [ $? -eq 2 ] && grep -qF "(did you mean '$want'?)" err; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: option $opt should suggest $want"; head -2 err; fi
done
"$grundy" ok.game --frobnicate >out 2>err
if [ $? -eq 2 ] && ! grep -q "did you mean" err; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: --frobnicate suggests something"; fi

# session commands (standard input not a terminal: no prompt, the same answers)
printf ':hlep\n:qiut\n' | "$grundy" -i >out 2>err
if grep -qF "unknown command ':hlep' (did you mean ':help'?)" err && grep -qF "(did you mean ':quit'?)" err; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: session commands"; cat err; fi

echo "suggest: $pass passed, $fail failed"
[ $fail -eq 0 ]
