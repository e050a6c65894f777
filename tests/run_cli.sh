#!/usr/bin/env bash
# run_cli.sh GRUNDY DIR: the command line contract (exit statuses, standard input, limits).
# DIR (optional, the diagnostics folder) is accepted for symmetry with run_diagnostics.sh.
# Prints "N passed, M failed" and exits non-zero if anything failed.
set -u
export LC_ALL=C

if [ $# -lt 1 ]; then
    echo "usage: $0 GRUNDY [DIR]" >&2
    exit 2
fi
grundy=$1
case $grundy in /*) ;; *) grundy=$PWD/$grundy ;; esac
[ -x "$grundy" ] || { echo "$0: $grundy is not an executable" >&2; exit 2; }
examples=$(cd "$(dirname "$0")/../examples" && pwd)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

pass=0
fail=0
failed_names=()
name=""
rc=0

# run NAME [ARGS...]: runs grundy with ARGS (stdin from $tmp/in if it exists, else empty).
run() {
    name=$1; shift
    if [ -f in ]; then
        timeout "${T:-120}" "$grundy" --no-progress "$@" <in >out 2>err
    else
        timeout "${T:-120}" "$grundy" --no-progress "$@" </dev/null >out 2>err
    fi
    rc=$?
    rm -f in
}
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    failed_names+=("$name")
    echo "FAIL $name: $*"
    sed -n '1,4s/^/    stderr: /p' err
    sed -n '1,4s/^/    stdout: /p' out
}
# expect STATUS: the exit status, never a crash or a timeout.
expect_status() {
    if [ $rc -eq 124 ]; then bad "timed out"; return 1; fi
    if [ $rc -gt 128 ]; then bad "killed by signal $((rc - 128))"; return 1; fi
    if [ $rc -ne "$1" ]; then bad "exit status $rc, expected $1"; return 1; fi
    return 0
}
stdout_empty() { if [ -s out ]; then bad "standard output is not empty"; return 1; fi; }
stderr_has() { if ! grep -q -- "$1" err; then bad "standard error lacks '$1'"; return 1; fi; }
stdout_has() { if ! grep -q -- "$1" out; then bad "standard output lacks '$1'"; return 1; fi; }

# ---- options ----
printf 'game nim = subtract 1..;\nsolve nim(3) + nim(5);\n' >ok.game

run unknown_option ok.game --bogus
expect_status 2 && stdout_empty && stderr_has "'--bogus'" && ok

run unknown_option_first --bogus ok.game
expect_status 2 && stdout_empty && stderr_has "unknown option '--bogus'" && ok

run unknown_short_option ok.game -x
expect_status 2 && stdout_empty && stderr_has "grundy: error:" && ok

run no_input_file
expect_status 2 && stdout_empty && stderr_has "no input file" && ok

run two_input_files ok.game ok.game
expect_status 2 && stdout_empty && stderr_has "grundy: error:" && ok

run missing_file does-not-exist.game
expect_status 2 && stdout_empty && stderr_has "does-not-exist.game" && stderr_has "grundy: error:" && ok

run directory_as_file .
expect_status 2 && stdout_empty && stderr_has "grundy: error:" && ok

run bad_format ok.game --format xml
expect_status 2 && stdout_empty && stderr_has "--format" && ok

run option_without_value ok.game --max-positions
expect_status 2 && stdout_empty && stderr_has "needs a value" && ok

run bad_count ok.game --max-positions 12x
expect_status 2 && stdout_empty && stderr_has "--max-positions" && ok

run negative_count ok.game --to -5
expect_status 2 && stdout_empty && stderr_has "--to" && ok

run bad_memory_size ok.game --max-memory lots
expect_status 2 && stdout_empty && stderr_has "--max-memory" && ok

run help --help
expect_status 0 && stdout_has "usage: grundy" && ok

run version --version
expect_status 0 && stdout_has "grundy" && ok

run option_equals ok.game --format=json
expect_status 0 && stdout_has '"query":"solve"' && ok

# ---- input ----
run plain_file ok.game
expect_status 0 && stdout_has "outcome N" && ok

printf 'game nim = subtract 1..;\nsolve nim(3) + nim(5);\n' >in
run stdin_dash -
expect_status 0 && stdout_has "outcome N" && ok

printf 'game nim = subtract 1..;\nsolve nim(3) + $;\n' >in
run stdin_diagnostic_name -
expect_status 2 && stdout_empty && stderr_has '^<stdin>:2:16: error: ' && ok

: >empty.game
run empty_file empty.game
if expect_status 0 && stdout_empty; then
    if [ -s err ]; then bad "standard error is not empty"; else ok; fi
fi

printf '# nothing but comments\n// and blank lines\n\n' >comments.game
run comments_only comments.game
expect_status 0 && stdout_empty && ok

: >in
run empty_stdin -
expect_status 0 && stdout_empty && ok

printf 'game nim = subtract 1..;\ntable nim(0..\0003);\n' >nul.game
run nul_byte nul.game
expect_status 2 && stdout_empty && stderr_has '^nul.game:2:14: error: ' && ok

# A long left-leaning sum: valid input (nim(1)); must not overflow the C stack.
python_sum() { local n=$1; printf 'game nim = subtract 1..;\nsolve nim(0'; for ((i = 0; i < n; i++)); do printf '+1'; done; printf ' - %d);\n' $((n - 1)); }
python_sum 300000 >deep.game
run deep_expression deep.game
if [ $rc -eq 0 ] || [ $rc -eq 2 ]; then ok; else expect_status 0; fi

# ---- resource limits: status 3, a message, nothing half-written ----
printf 'game nim = subtract 1..;\nsolve nim(1) + nim(2);\nsolve misere nim(5) + nim(6) + nim(7) + nim(3);\n' >misere.game
run max_positions misere.game --max-positions 100 --no-theory
expect_status 3 && stdout_empty && stderr_has "grundy: error:" && stderr_has "100" && ok

run max_positions_enough misere.game --max-positions 100000
expect_status 0 && stdout_has "outcome" && ok

printf 'game s = subtract {1, 3, 4};\ntable s(0..10);\ntable s(0..100000000);\n' >huge.game
run max_memory huge.game --max-memory 1M
expect_status 3 && stdout_empty && stderr_has "grundy: error:" && stderr_has "memory" && ok

run max_memory_json huge.game --max-memory 1M --format json
expect_status 3 && stdout_empty && ok

# A 'for' range wider than grundy enumerates: a limit (status 3), never an endless loop.
printf 'game g {\n    heap n;\n    move -> n - k for k in -10..9223372036854775807;\n}\ntable g(0..3);\n' >wide.game
T=20 run wide_binding_range wide.game
expect_status 3 && stdout_empty && stderr_has "wide.game:3:" && ok

# A table whose size does not fit in 64 bits: an error (status 2 or 3), never an empty table.
printf 'game w {\n    position (a, b);\n    move -> (a - k, b) for k in 1..a;\n}\ntable w(-9223372036854775807 - 1..9223372036854775807, 0..1);\n' >hugebox.game
T=20 run huge_table_range hugebox.game
if [ $rc -eq 2 ] || [ $rc -eq 3 ]; then stdout_empty && ok; else expect_status 3; fi
# Hackenbush figures and coin positions: the theory (fusion, colon principle, coin-turning
# theorem) and the position graph (--no-theory) agree on outcome, value and winning moves.
for ex in hackenbush turning; do
    run "${ex}_theory" "$examples/$ex.game" && cp out theory.out
    run "${ex}_graph" "$examples/$ex.game" --no-theory
    if expect_status 0; then
        if diff <(sed 's/, remoteness [0-9]*//' out) theory.out >/dev/null; then ok; else bad "--no-theory answers differ"; fi
    fi
done

echo
if [ $fail -gt 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
