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

# No file, standard input not a terminal: it holds the program (a terminal opens a session).
printf 'solve kayles(4) + *3;\n' >in
run no_input_file_reads_stdin
expect_status 0 && stdout_has "outcome N (the player to move wins), sg 2" && ok

run misspelt_option ok.game --max-memroy 1G
expect_status 2 && stdout_empty && stderr_has "unknown option '--max-memroy' (did you mean '--max-memory'?)" && ok

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

# ---- resource limits: status 3, a message, every finished answer kept, none half-written ----
stdout_lacks() { if grep -q -- "$1" out; then bad "standard output has '$1'"; return 1; fi; }
printf 'game nim = subtract 1..;\nsolve nim(1) + nim(2);\nsolve misere nim(5) + nim(6) + nim(7) + nim(3);\n' >misere.game
run max_positions misere.game --max-positions 100 --no-theory
expect_status 3 && stdout_has "solve nim(1) + nim(2)" && stdout_lacks "misere" && stderr_has "grundy: error:" && stderr_has "100" && ok

run max_positions_enough misere.game --max-positions 100000
expect_status 0 && stdout_has "outcome" && ok

# Misere sums the quotient decides carry the remoteness of its search (sums/misremote.h), the
# graph's (--no-theory); past the search's budget the text says so and JSON has null.
printf 'game kayles = octal "0.77";\nsolve misere kayles(3) + kayles(5);\nsolve misere kayles(5) + kayles(7) + kayles(9) + kayles(11);\nsolve misere kayles(20) + kayles(25) + kayles(31) + kayles(33);\n' >mrem.game
run misere_remoteness mrem.game
expect_status 0 && stdout_has "outcome N (the player to move wins), remoteness 6$" && stdout_has "remoteness 28$" \
    && stdout_has "outcome N (the player to move wins), remoteness not computed (over [0-9]* [a-z]*)$" && ok
run misere_remoteness_json mrem.game --format json
expect_status 0 && stdout_has '"remoteness":6,' && stdout_has '"remoteness":28,' && stdout_has 'kayles(33)","convention":"misere","outcome":"N","sg":null,"remoteness":null,' && ok
head -n 3 mrem.game >mrem_small.game
run misere_remoteness_graph mrem_small.game --no-theory
expect_status 0 && stdout_has "remoteness 6$" && stdout_has "remoteness 28$" && ok
run misere_remoteness_capped mrem_small.game --max-positions 1000
expect_status 0 && stdout_has "remoteness 6$" && stdout_has "remoteness not computed (over 1000 positions)$" && ok
# a memory limit met by the search alone leaves the answer standing, without its remoteness
{ printf 'game kayles = octal "0.77";\nsolve misere kayles(15) + kayles(18) + kayles(20)'
  for ((i = 3; i < 12; i++)); do printf ' + kayles(%d)' $i; done; printf ';\nsolve misere kayles(3) + kayles(5);\n'; } >mrem_mem.game
run misere_remoteness_memory mrem_mem.game --max-memory 8M
expect_status 0 && stdout_has "remoteness not computed (the memory limit met at [0-9]* positions)$" && stdout_has "remoteness 6$" && ok

# A table of general rules holds its cells: past the memory limit, status 3, the finished table kept.
printf 'game s {\n    heap n;\n    move -> n - k for k in 1..n where k * k <= n;\n}\ntable s(0..10);\ntable s(0..100000000);\n' >huge.game
run max_memory huge.game --max-memory 1M
expect_status 3 && stdout_has "table s(0..10)" && stdout_lacks "100000000" && stderr_has "grundy: error:" && stderr_has "memory" && ok

run max_memory_json huge.game --max-memory 1M --format json
expect_status 3 && [ "$(wc -l <out)" = 1 ] && stdout_has '"to":\[10\]' && ok

# A table of a subtraction game is streamed from its proved period: no memory per cell.
printf 'game s = subtract {1, 3, 4};\ntable s(0..10000000);\n' >streamed.game
run streamed_table streamed.game --max-memory 1M
expect_status 0 && stdout_has "9999990 |  0  1  0  1  2  3  2  0  1  0  1" && stdout_has "period 7 from n = 0" && ok

# --max-time: a run that would go on for ever stops within a second past the limit, prints
# the answers finished before it, and names the query and how far it got.
# (with a tuple game in the sum no misere quotient answers it: the position graph runs into the limit)
{ printf 'game kayles = octal "0.77";\ngame tk { position (x, y) where x >= 0 && y >= 0; move -> (x - 1, y); move -> (x, y - 1); }\n'
  printf 'solve kayles(3) + kayles(4);\nsolve misere kayles(5)'
  for ((i = 6; i < 35; i++)); do printf ' + kayles(%d)' $i; done; printf ' + tk(2, 2);\n'; } >slow.game
t0=$(date +%s%N)
run max_time slow.game --max-time 1
t1=$(date +%s%N)
expect_status 3 && stdout_has "kayles(3) + kayles(3)" && ! grep -q misere out && stderr_has "time limit of 1 s reached in query 2 (solve misere kayles(5)" \
    && stderr_has "positions" && [ $(( (t1 - t0) / 1000000 )) -lt 2500 ] && ok
printf 'game k = octal "0.007";\ntable k(0..100000000);\n' >slowtable.game
run max_time_kernel slowtable.game --max-time 0.5
expect_status 3 && stdout_empty && stderr_has "in query 1 (table k(0..100000000)); k: [0-9]* of [0-9]* done" && ok
run max_time_bad slowtable.game --max-time -1
expect_status 2 && stderr_has "max-time" && ok

# Issue 28: limits hold, and never silent. A table of a proved period reads its cells from the
# period, yet its writer polls the clock (it ran 7-10 s past --max-time 0.5); the bound on the
# wall time only catches a hang.
printf 'game s = subtract {1, 3};\ntable s(0..99999999);\n' >periodic.game
for fmt in text csv json; do
    t0=$(date +%s%N)
    run max_time_periodic_$fmt periodic.game --max-time 0.5 --format $fmt
    t1=$(date +%s%N)
    expect_status 3 && stderr_has "time limit of 0.5 s reached in query 1 (table s(0..99999999)); cells read: [0-9]* of 100000000 done" \
        && [ $(( (t1 - t0) / 1000000 )) -lt 20000 ] && ok
done
# A table whose array of cells passes --max-memory is refused before any work.
printf 'table wythoff(0..99999, 0..99999);\n' >bigbox2.game
t0=$(date +%s%N)
run max_memory_table bigbox2.game --max-memory 100M
t1=$(date +%s%N)
expect_status 3 && stdout_empty && stderr_has "the table's 10000000000 cells need 76294 MiB (8 bytes each) before any work, more than the memory limit of 100 MiB (raise it with --max-memory" \
    && [ $(( (t1 - t0) / 1000000 )) -lt 20000 ] && ok
# A query no theory answers, whose position graph is expected to be large, says so on standard
# error before the search, terminal or not (the misere sum of slow.game above).
run fallback_note slow.game --max-time 1 --query 2
expect_status 3 && stderr_has "^grundy: note: solve misere kayles(5) + .* + tk(2, 2): no theory applies (.*), searching the position graph (more than 10^18 positions expected; --max-positions and --max-time bound it)$" && ok
run fallback_note_small slow.game --query 1
expect_status 0 && { [ ! -s err ] || bad "standard error is not empty"; } && ok
# JSON costs what text costs: its remoteness only within a budget; outcome and moves the same.
{ for ((b = 1; b <= 40; b++)); do printf 'solve kayles(2000) + kayles(%d);\n' $b; done; } >kay.game
run json_solve kay.game --format json
expect_status 0 && ok
grep -o '"outcome":"[PND]"' out | cut -c12 >json.outcomes
grep -o '"winning_moves":\[[^]]*\]' out | sed 's/"winning_moves":\[//; s/\]$//' | tr ',' '\n' | tr -d '"' | sed '/^$/d' >json.moves
run text_solve kay.game
expect_status 0 && sed -n 's/^  outcome \([PND]\).*/\1/p' out | cmp -s - json.outcomes && sed -n 's/^    -> //p' out | cmp -s - json.moves \
    && [ "$(wc -l <json.outcomes)" = 40 ] && [ -s json.moves ] && ok || { [ $rc -eq 0 ] && bad "JSON and text differ in outcomes or moves"; }

# Dense boxes of 1.1 million positions (with and without cycles): their retrograde analysis is
# split across threads (densepar.h) and prints the same bytes for every --threads; a larger box
# stops at --max-time with the threads as without.
{ printf 'game token { position (x, y) where x >= 0 && y >= 0 && x < 1100 && y < 1000 && (x < 5 || x > 1000 || (x * 7 + y * 3) %% 11 != 0);\n'
  printf '  move -> (x - 1, y + 1); move -> (x, y - 1); move -> (x - 2, y); move -> (x - 1, y - 3); }\n'
  printf 'game loop { position (x, y) where x >= 0 && y >= 0 && x < 1100 && y < 1000 && (x < 5 || x > 1000 || (x * 7 + y * 3) %% 11 != 0);\n'
  printf '  move -> (x - 1, y + 1); move -> (x + 1, y - 2); move -> (x, y + 1); move -> (x - 3, y - 1); }\n'
  printf 'table misere token(1095..1099, 990..999) remoteness;\ntable loop(1095..1099, 0..9) remoteness;\n'
  printf 'table loop(1095..1099, 995..999) outcome;\n'
  # a swap is no translation: the box stores its edges (its levels are split all the same)
  printf 'game sw { position (x, y) where x >= 0 && y >= 0 && x < 1100 && y < 1000;\n'
  printf '  move -> (x - 1, y); move -> (x + 1, y - 1); move -> (y, x) where x > y + 3; }\n'
  printf 'table misere sw(1095..1099, 990..999) remoteness;\ntable sw(1095..1099, 995..999) outcome;\n'; } >box.game
run box_threads_1 box.game --threads 1
cp out box1.txt
expect_status 0 && stdout_has "1099 | 2002 2004 2005 2006 2007 2004 2008 2006 2006 2007" \
    && stdout_has "1099 | 4079 4081 4083 4085 4087 4089 4091 4093 4095 4097" && ok
for th in 2 3 4; do
    run box_threads_$th box.game --threads $th
    expect_status 0 && { cmp -s out box1.txt || bad "--threads $th prints other bytes than --threads 1"; } && ok
done
# A loopy rule set through the position graph (--no-theory): 1.2 million positions, a cycle at
# x = 5, a terminal that wins; its stored-edges solve is split across threads (pgteam.h) above
# 2^20 positions and prints the same bytes for every --threads (a loss 3080 moves deep: as many
# levels).
{ printf 'game loop {\n  position (x, y) where x >= 0 && y >= 0;\n'
  printf '  move -> (x - 1, y + 1); move -> (x + 1, y - 2); move -> (x, y - 1); move -> (x - 2, y);\n'
  printf '  move -> (x - 1, y + 2) where x == 5;\n  terminal when x == 1 && y == 1 wins;\n}\n'
  printf 'solve loop(1500, 50);\nsolve loop(5, 4);\n'; } >pgloop.game
run pg_threads_1 pgloop.game --no-theory --threads 1
cp out pg1.txt
expect_status 0 && stdout_has "outcome P (the player to move loses), remoteness 3080" \
    && stdout_has "outcome N (the player to move wins), remoteness 17" && stdout_has "-> loop(6, 2)" && ok
for th in 2 3 4; do
    run pg_threads_$th pgloop.game --no-theory --threads $th
    expect_status 0 && { cmp -s out pg1.txt || bad "--threads $th prints other bytes than --threads 1"; } && ok
done
{ printf 'game token { position (x, y) where x >= 0 && y >= 0 && x < 6000 && y < 3000 && (x * 7 + y * 3) %% 11 != 5;\n'
  printf '  move -> (x - 1, y + 1); move -> (x, y - 1); move -> (x - 2, y); move -> (x - 1, y - 3); move -> (x + 1, y - 2); }\n'
  printf 'table misere token(5995..5999, 2990..2999) remoteness;\n'; } >bigbox.game
for th in 1 2; do
    t0=$(date +%s%N)
    run max_time_box_$th bigbox.game --max-time 0.3 --threads $th
    t1=$(date +%s%N)
    expect_status 3 && stdout_empty && stderr_has "time limit of 0.3 s reached in query 1 (table misere token" \
        && [ $(( (t1 - t0) / 1000000 )) -lt 2500 ] && ok
done
run max_memory_box bigbox.game --max-memory 64M --threads 2
expect_status 3 && stdout_empty && stderr_has "positions, about 100 MiB at 8 bytes each, over the 63 MiB left of --max-memory" && ok
run max_positions_box bigbox.game --max-positions 2000000 --threads 2
expect_status 3 && stdout_empty && stderr_has "3276800 positions, over --max-positions 2000000" && ok

# A front end linear in its input: 10^5 declarations (quadratic name checks took minutes).
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "game g%d = subtract {1, %d};\n", i, i % 7 + 2; print "solve g99999(10) + g5(3);" }' >many.game
T=60 run many_declarations many.game
expect_status 0 && stdout_has "outcome P" && ok
awk 'BEGIN { print "game g {\n    heap n;"; for (i = 1; i <= 20000; i++) printf "    move -> n - %d;\n", i; print "}\ntable g(0..3);" }' >items.game
T=60 run many_items items.game
expect_status 0 && stdout_has "0 | 0 1 2 3" && ok
awk 'BEGIN { printf "game nim = subtract 1..;\nsolve nim("; for (i = 0; i < 1000; i++) printf "("; printf "1"; for (i = 0; i < 1000; i++) printf ")"; print ");" }' >nest1000.game
run nesting_1000 nest1000.game
expect_status 0 && stdout_has "winning moves (1)" && ok

# The command line is input too: one clear line and status 2 for each bad option or file.
one_line() { if [ "$(wc -l <err)" -ne 1 ]; then bad "more than one line on standard error"; return 1; fi; }
run opt_negative_to ok.game --to -5
expect_status 2 && stdout_empty && one_line && stderr_has "^grundy: error: --to needs a non-negative whole number" && ok
run opt_bad_size ok.game --max-memory 5Q
expect_status 2 && stdout_empty && one_line && stderr_has "'5Q'" && ok
run opt_binary_option ok.game $'--\xff\xfe'
expect_status 2 && stdout_empty && one_line && stderr_has "'--\\\\xff\\\\xfe'" && ok
run file_missing no-such-file.game
expect_status 2 && stdout_empty && one_line && stderr_has "cannot read no-such-file.game" && ok
mkdir -p adir.game
run file_directory adir.game
expect_status 2 && stdout_empty && one_line && stderr_has "cannot read adir.game: Is a directory" && ok
head -c 2000 "$grundy" >garbage.game
run file_binary garbage.game
expect_status 2 && stdout_empty && stderr_has "^garbage.game:1:1: error: unexpected character byte 0x7f" && ok
printf 'game \xc3\x28 = subtract 1..;\n' >utf8.game
run file_bad_utf8 utf8.game
expect_status 2 && stdout_empty && stderr_has "^utf8.game:1:6: error: unexpected character byte 0xc3" && ok

# A reader that goes away ends the run at once and quietly (SIGPIPE), even mid-computation.
t0=$(date +%s%N)
timeout 60 "$grundy" --no-progress slow.game 2>err | true
t1=$(date +%s%N)
name=sigpipe_quiet
if [ -s err ]; then bad "standard error is not empty"; elif [ $(( (t1 - t0) / 1000000 )) -gt 5000 ]; then bad "took $(( (t1 - t0) / 1000000 )) ms"; else ok; fi

# Heaps that grow: found when lowered (--explain says so), solved by the position graph, and
# stopped early with the move that grows and the largest heap reached.
printf 'game up {\n    heap n;\n    move -> n + k for k in 1..2;\n    move -> n - 3 where n >= 3;\n}\ntable up(0..5);\n' >up.game
run grow_explain up.game --explain
expect_status 0 && stdout_has "^up: position graph: heaps can grow, since the move at line 3 ('move -> n + k for k in 1..2;')" && ok
run grow_default_cap up.game
expect_status 3 && stdout_empty && stderr_has "position graph stopped at 1048577 positions" \
    && stderr_has "the heaps of 'up' grow: the move at line 3 ('move -> n + k for k in 1..2;') leads to larger heaps, and the largest heap reached is [0-9]" && ok
run grow_max_positions up.game --max-positions 3000
expect_status 3 && stderr_has "--max-positions 3000" && stderr_has "largest heap reached is 29[0-9][0-9]" && ok
# bounded growth (a guard): a recurrence no more, but the graph answers
printf 'game b {\n    heap n;\n    move -> n + 1 where n < 3;\n    move -> n - 2 where n >= 2;\n}\nsolve b(0);\nsolve b(1);\n' >bounded.game
run grow_bounded bounded.game
expect_status 0 && stdout_has "solve b(0)" && ok

# A 'for' range wider than grundy enumerates: a limit (status 3), never an endless loop.
printf 'game g {\n    heap n;\n    move -> n - k for k in -10..9223372036854775807;\n}\ntable g(0..3);\n' >wide.game
T=20 run wide_binding_range wide.game
expect_status 3 && stdout_empty && stderr_has "wide.game:3:" && ok

# A table whose size does not fit in 64 bits: an error (status 2 or 3), never an empty table.
printf 'game w {\n    position (a, b);\n    move -> (a - k, b) for k in 1..a;\n}\ntable w(-9223372036854775807 - 1..9223372036854775807, 0..1);\n' >hugebox.game
T=20 run huge_table_range hugebox.game
if [ $rc -eq 2 ] || [ $rc -eq 3 ]; then stdout_empty && ok; else expect_status 3; fi
# Found by fuzzing: a take move from a huge amount up to n ('for k in 555555555555555522..n')
# was read as a take-and-break code with that many digits and allocated them all.
printf 'game s { heap n; move -> n - k for k in 555555555555555522..n; move -> {a, n - a} for a in 1..n/2; }\ntable s(0..9);\n' >hugetail.game
run huge_take_tail hugetail.game --format csv
expect_status 0 && [ "$(tr '\n' ' ' <out)" = "n,value 0,0 1,0 2,1 3,0 4,1 5,0 6,1 7,0 8,1 9,0 " ] && ok

# Found by fuzzing: a subtraction set holding INT64_MAX stepped past it (signed overflow).
printf 'game s = subtract {9223372036854775807};\ntable s(0..3);\n' >int64max.game
run subtract_int64_max int64max.game --format csv
expect_status 0 && [ "$(tr '\n' ' ' <out)" = "n,value 0,0 1,0 2,0 3,0 " ] && ok

# A heap of 10^12 has about 2.5 * 10^11 winning moves: the first 100 are listed, the rest
# counted; JSON lists positions only (no note among them) and names the count apart.
printf 'game kayles = octal "0.77";\nsolve kayles(1000000000000) + kayles(3);\n' >hugemoves.game
run huge_moves_json hugemoves.game --format json
expect_status 0 && stdout_has '"winning_moves_not_listed":249999999900}' && ! grep -q '"\.\.\.' out \
    && [ "$(grep -o '"kayles([0-9]*) + kayles([0-9]*) + kayles(3)"' out | wc -l)" -eq 100 ] && stdout_has '"kayles(1000000000000) + kayles(1)"' && ok
run huge_moves_text hugemoves.game
expect_status 0 && stdout_has "winning moves (250000000001; 101 listed)" && stdout_has "and 249999999900 more, not listed" && ok

# Hackenbush figures and coin positions: the theory (fusion, colon principle, coin-turning
# theorem) and the position graph (--no-theory) agree on outcome, value and winning moves.
for ex in hackenbush turning; do
    run "${ex}_theory" "$examples/$ex.game" && cp out theory.out
    run "${ex}_graph" "$examples/$ex.game" --no-theory
    if expect_status 0; then
        # equal but for remoteness, which the theory's answer finds only where its graph is
        # small; where it does, the same number as the graph's (line by line)
        if diff <(sed -E 's/, remoteness [0-9]+//' out) <(sed -E 's/, remoteness ([0-9]+|not computed \([^)]*\))//' theory.out) >/dev/null &&
           [ -z "$(comm -23 <(grep -n -o '.*, remoteness [0-9]*' theory.out | sort) <(grep -n -o '.*, remoteness [0-9]*' out | sort))" ]
        then ok; else bad "--no-theory answers differ"; fi
    fi
done

# ---- checks over a family's parameters ----
# A formula over 50 members, each by its own subtraction kernel: bash[m] has P(n) iff (m+1) | n.
printf 'game bash[m] = subtract 1..m;\ncheck bash[m]: P(n) <=> n %% (m + 1) == 0 for m in 1..50, n in 0..100000;\n' >fam.game
T=30 run family_formula fam.game
expect_status 0 && stdout_has "holds (checked to 5000050)" && stdout_has "over 50 members, bash\[1\] to bash\[50\]" && ok
# A false claim is refuted at its first member and position, both named.
printf 'game bash[m] = subtract 1..m;\ncheck bash[m]: P(n) <=> n %% (m + 2) == 0 for m in 1..50, n in 0..100;\n' >famno.game
run family_formula_refuted famno.game --format json
expect_status 1 && stdout_has '"status":"refuted"' && stdout_has '"counterexample":{"m":1,"n":2,"lhs":1,"rhs":0}' && ok
# 'periodic' over a family: one line per member, bash[m] proved with period m + 1, preperiod 0.
printf 'game bash[m] = subtract 1..m;\ncheck bash[m] periodic for m in 1..50;\n' >famper.game
run family_periodic famper.game
if expect_status 0; then
    want=$(for m in $(seq 1 50); do echo "  bash[$m]: proved: period $((m + 1)), preperiod 0"; done)
    if [ "$(grep '^  bash' out | sed 's/ (checked.*//')" = "$want" ]; then ok; else bad "periods of bash[1..50]"; fi
fi
run family_periodic_json famper.game --format json
expect_status 0 && [ "$(grep -c '^{"query":"check","claim":"bash\[m\] periodic for m in 1..50","member":"bash\[[0-9]*\]","parameters":{"m":[0-9]*},"status":"proved"' out)" -eq 50 ] \
    && stdout_has '"member":"bash\[7\]","parameters":{"m":7},"status":"proved","period":8,"preperiod":0,' && ok || { [ $rc -ne 0 ] || bad "50 JSON lines"; }
run family_periodic_csv famper.game --format csv
expect_status 0 && [ "$(sed -n 1p out)" = "claim,member,status,period,preperiod,saltus,checked_to,largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare" ] \
    && [ "$(grep -c '^"bash\[m\] periodic for m in 1..50","bash\[[0-9]*\]",proved,' out)" -eq 50 ] && ok || { [ $rc -ne 0 ] || bad "50 CSV rows"; }
# Two parameters, the second's range reading the first; each member as its own check says.
printf 'game two[a, b] = subtract {a, b};\ncheck two[a, b] periodic for a in 1..4, b in a + 1..6;\n' >famtwo.game
run family_two famtwo.game
if expect_status 0; then
    ok=1
    for a in 1 2 3 4; do for b in $(seq $((a + 1)) 6); do
        printf 'game two[a, b] = subtract {a, b};\ncheck two[%d, %d] periodic;\n' $a $b >one.game
        line=$("$grundy" --no-progress one.game | sed -n 2p | sed 's/^  //')
        grep -qxF "  two[$a, $b]: $line" out || { ok=0; bad "two[$a, $b]: '$line' not in the family's lines"; }
    done; done
    [ $ok -eq 1 ] && ok
fi
# Located errors (caret, status 2, nothing printed): an unknown parameter, too many members, a
# family parameter after a position variable, a periodicity check over a non-parameter.
famerr() {
    printf 'game bash[m] = subtract 1..m;\n%s\n' "$2" >ferr.game
    run "$1" ferr.game
    expect_status 2 && stdout_empty && stderr_has "ferr.game:2:$3: error: .*$4" && stderr_has '\^' && ok
}
famerr family_unknown_param 'check bash[k]: P(n) for m in 1..5, n in 0..3;' 12 "unknown name 'k'"
famerr family_too_large 'check bash[m] periodic for m in 1..100000;' 28 "at most 10000 members"
famerr family_order 'check bash[m]: P(n) for n in 0..5, m in 1..3;' 36 "family's parameters come first"
famerr family_not_param 'check bash[3] periodic for m in 1..3;' 28 "family's parameters only"
famerr family_empty 'check bash[m] periodic for m in 5..1;' 28 "range is empty"

# Streaming checks: once a period is proved the values come from it, so a check far out holds
# no table (a table to 10^12 would pass --max-memory 16M by five orders of magnitude).
printf 'game kayles = octal "0.77";\ncheck kayles: sg(n) != 4 for n in 1000000000000..1000000000100;\n' >farkayles.game
T=30 run stream_far_refuted farkayles.game --max-memory 16M
# kayles' period 12 from 72 has sg(77) = 4, and 10^12 + 1 = 77 (mod 12)
expect_status 1 && stdout_has "counterexample: at n = 1000000000001: sg(n) != 4 is false (left 4, right 4)" && ok
printf 'game bash[m] = subtract 1..m;\ncheck bash[m]: P(n) <=> n %% (m + 1) == 0 for m in 1..20, n in 999999990000..1000000000000;\n' >farbash.game
T=30 run stream_far_family farbash.game --max-memory 16M
expect_status 0 && stdout_has "holds (checked to 200020)" && ok

# Limits stop at once in a hashed position graph, with how far it got: Wythoff's whole box
# from (100000, 100000) by the position graph (--no-theory), and a misere sum of 8 kayles heaps.
# The bounds are generous (ASan, a loaded machine): in Release each stops in about a second.
printf 'game w {\n    position (a, b);\n    move -> (a - k, b) for k in 1..a;\n    move -> (a, b - k) for k in 1..b;\n    move -> (a - k, b - k) for k in 1..min(a, b);\n}\nsolve w(100000, 100000);\n' >wyth.game
{ printf 'game kayles = octal "0.77";\nsolve misere kayles(30)'; for ((i = 31; i < 38; i++)); do printf ' + kayles(%d)' $i; done; printf ';\n'; } >msum.game
limit_case() {   # NAME FILE OPTION VALUE PATTERN
    local t0 t1
    t0=$(date +%s%N)
    T=60 run "$1" "$2" --no-theory "$3" "$4"
    t1=$(date +%s%N)
    expect_status 3 && stdout_empty && stderr_has "$5" && stderr_has "[0-9]* positions and [0-9]* edges explored" \
        && { [ $(( (t1 - t0) / 1000000 )) -lt 20000 ] || { bad "took $(( (t1 - t0) / 1000000 )) ms"; false; }; } && ok
}
limit_case limit_wythoff_memory wyth.game --max-memory 64M "memory limit reached: .*; the position graph had"
limit_case limit_wythoff_positions wyth.game --max-positions 200000 "position graph limit reached: 200000 positions"
# The sum's graph stores no edges (about 45 bytes a position), so it meets a memory limit only
# after exploring about limit / 64 positions: 16M keeps that near a second.
limit_case limit_misere_memory msum.game --max-memory 16M "too large for --max-memory"
limit_case limit_misere_positions msum.game --max-positions 300000 "position graph limit reached: 300000 positions"

# E&D against its formula over 2000 x 2000 through 'check' (the dense box with shared option
# sets fills the values): sg(x, y) is the index of the lowest 0 bit of (x - 1) | (y - 1).
printf 'game ed {\n    position (x, y) where x >= 1 && y >= 1;\n    move -> (i, x - i) for i in 1..x-1;\n    move -> (i, y - i) for i in 1..y-1;\n}\ncheck ed: sg(x, y) == ctz(~((x - 1) | (y - 1))) for x in 1..2000, y in 1..2000;\ncheck ed: sg(x, y) == ctz(~((x - 1) | (y - 1))) %% 3 for x in 1..2000, y in 1..2000;\n' >edf.game
T=120 run ed_formula edf.game
# the second claim first fails where the value reaches 3: x = 1, y = 8 ((0 | 7) has lowest 0 bit 3)
expect_status 1 && stdout_has "holds (checked to 4000000)" && stdout_has "counterexample: at x = 1, y = 8: .* (left 3, right 0)" && ok

# Wythoff's P-positions through 'check' with P only (the line kernel's outcome pass, a bit a
# cell): the integer Beatty pairs (floor(k phi), floor(k phi^2)) with floor(k phi) =
# (k + isqrt(5 k^2)) / 2; and a claim one off, first refuted at (0, 0).
printf 'game w {\n    position (a, b);\n    move -> (a - k, b) for k in 1..a;\n    move -> (a, b - k) for k in 1..b;\n    move -> (a - k, b - k) for k in 1..min(a, b);\n}\ncheck w: P(a, b) <=> min(a, b) == (abs(a - b) + isqrt(5 * (a - b) * (a - b))) / 2 for a in 0..1500, b in 0..1500;\ncheck w: P(a, b) <=> min(a, b) == (abs(a - b) + isqrt(5 * (a - b) * (a - b))) / 2 + 1 for a in 0..1500, b in 0..1500;\n' >wpairs.game
T=60 run wythoff_pairs_check wpairs.game
expect_status 1 && stdout_has "holds (checked to 2253001)" && stdout_has "counterexample: at a = 0, b = 0: .* (left 1, right 0)" && ok

# Independent queries in worker processes (--threads N, src/cli/parallel.c): the same bytes on
# both streams and the same status for every N, in every format; a later query that fails (a
# run-time overflow, a time limit) stops the run at the same place with the same message; a
# query that needs more than a worker's share of --max-memory is run again with all of it.
printf 'game a = octal "0.6";\ngame b = octal "4!.0";\ngame kayles = octal "0.77";\ngame c = octal "0.007";\ntable a(0..40);\ncheck b periodic;\nsolve kayles(30) + kayles(17);\ntable c(0..30);\ncheck kayles: sg(n) == 0 for n in 0..5;\ntable a(41..60);\ncheck c periodic;\n' >pq.game
printf 'game a = octal "0.6";\ngame o { heap n; move -> n - 1 where n * n * n * n * n > 0; }\ngame b = subtract {1, 3, 4};\ntable a(0..20);\ntable b(0..20);\nsolve o(7000);\ntable a(21..30);\n' >pover.game
printf 'game a = octal "0.6";\ngame b = octal "4!.0";\ntable a(0..20);\ntable a(21..40);\ncheck b periodic;\ntable a(41..60);\n' >ptime.game
printf 'game a = octal "0.6";\ngame w { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b; move -> (a - k, b - k) for k in 1..min(a, b); }\ntable a(0..20);\nsolve w(150, 150);\ntable a(21..30);\nsolve w(3, 4);\n' >pmem.game
same_for_threads() {   # NAME WANT-STATUS ARGS...: --threads 1..4 agree with --threads 1
    local nm=$1 want=$2 t; shift 2
    T=120 run "$nm" --threads 1 "$@"
    expect_status "$want" || return
    cp out out.1; cp err err.1
    for t in 2 3 4; do
        T=120 run "$nm" --threads $t "$@"
        expect_status "$want" || return
        cmp -s out out.1 || { bad "standard output differs with --threads $t"; return; }
        cmp -s err err.1 || { bad "standard error differs with --threads $t"; return; }
    done
    ok
}
same_for_threads parallel_text 1 pq.game --to 20000
same_for_threads parallel_csv 1 pq.game --to 20000 --format csv
same_for_threads parallel_json 1 pq.game --to 20000 --format json
same_for_threads parallel_overflow 3 pover.game
stderr_has "at position (6209)" && stdout_has "table a(0..20)" && stdout_has "table b(0..20)" && ! grep -q "table a(21..30)" out && ok
same_for_threads parallel_memory 0 pmem.game --no-theory --max-memory 40M
T=120 run parallel_time --threads 2 ptime.game --to 100000000 --max-time 1
expect_status 3 && stderr_has "time limit of 1 s reached in query 3 (b periodic)" && stdout_has "table a(21..40)" \
    && ! grep -q "table a(41..60)" out && ok

# --threads: every thread count prints the same bytes and exits with the same status. Long
# 'check' ranges (their claims tested in blocks across threads, values read ahead) with
# counterexamples deep in the range and a run-time failure at n = 30000; the general rule
# kernel across threads; and the examples (periodic.game, the slow one, is in the golden test).
printf 'game kayles = octal "0.77";\n' >ckt.game
printf 'game r {\n' >>ckt.game
printf '    heap n;\n' >>ckt.game
printf '    move -> {a, n - 1 - a} for a in 0..min(20, n - 1);\n' >>ckt.game
printf '    move -> n - 2 * k for k in 1..min(n / 2, 20);\n' >>ckt.game
printf '}\n' >>ckt.game
printf 'game t = octal "0.8F";\n' >>ckt.game
printf 'check kayles: sg(n) == sg(n + 12) for n in 71..200000;\n' >>ckt.game
printf 'check kayles: sg(n) != 4 || n < 150000 for n in 71..200000;\n' >>ckt.game
printf 'check r: sg(n) >= 0 && sg(n) < 64 for n in 0..40000;\n' >>ckt.game
printf 'check r: sg(n) != 7 || n < 25000 for n in 1..40000;\n' >>ckt.game
printf 'check t: sg(n / 16) < 1000000 && sg(n / 16) != 251 for n in 0..9000;\n' >>ckt.game
printf 'check r: sg(n) + 1 / (n - 30000) >= -1 for n in 0..40000;\n' >>ckt.game
for th in 1 2 3 4; do
    run "check_threads_$th" ckt.game --threads $th
    mv out "ckt.$th.out"; mv err "ckt.$th.err"; echo $rc >"ckt.$th.rc"
done
name=check_threads
if [ "$(cat ckt.1.rc)" = 3 ] && grep -q "counterexample: at n = 150000: sg(n) != 4 || n < 150000 is false" ckt.1.out \
    && grep -q "counterexample: at n = 25001: sg(n) != 7 || n < 25000 is false" ckt.1.out \
    && grep -q "counterexample: at n = 7056: " ckt.1.out && grep -q "division by zero at position (30000)" ckt.1.err; then ok
else bad "--threads 1: not the expected answers"; fi
for th in 2 3 4; do
    name=check_threads_$th
    if cmp -s ckt.1.out ckt.$th.out && cmp -s ckt.1.err ckt.$th.err && cmp -s ckt.1.rc ckt.$th.rc; then ok
    else bad "--threads $th: other bytes or status than --threads 1"; fi
done
printf 'game lasker {\n    heap n;\n    move -> n - k for k in 1..n;\n    move -> {a, n - a} for a in 1..n/2;\n}\ntable lasker(0..3000);\n' >lk.game
printf 'game g {\n    heap n;\n    move -> {a, n - a} for a in 1..n / 2 where a * n * n * n * n * n > 0;\n    move -> n - 1;\n}\ntable g(0..3000);\n' >ov.game
for f in lk ov; do
    for th in 1 3; do run "rules_threads_$th" $f.game --threads $th; mv out "$f.$th.out"; mv err "$f.$th.err"; echo $rc >"$f.$th.rc"; done
    name=rules_threads_$f
    if cmp -s $f.1.out $f.3.out && cmp -s $f.1.err $f.3.err && cmp -s $f.1.rc $f.3.rc; then ok; else bad "--threads 3 differs from --threads 1"; fi
done
name=rules_threads_values
if grep -q "^  3000 | 2999" lk.1.out && [ "$(cat ov.1.rc)" = 3 ] && grep -q "arithmetic overflow (values are 64-bit signed integers) at position (1626)" ov.1.err; then ok
else bad "Lasker's Nim or the overflow at 1626 not as expected"; fi
# ---- anyleaf and every: heap kernels, limits known at once, split components in parentheses ----
printf 'game nim = subtract 1..;\ngame u = subtract 3..;\ngame k = octal "0.77";\ngame r {\n    heap n;\n    move -> n - k for k in 1..n where k %% 3 != 0;\n}\n' >conv.game
# a rule block under anyleaf keeps one entry per heap: 10^12 heaps is past any memory, said at once
cp conv.game in; echo 'solve anyleaf r(1000000000000);' >>in
run conv_dense_limit -
expect_status 3 && stdout_empty && stderr_has "r(1000000000000) under anyleaf or every needs the values of every heap below it" && ok
cp conv.game in; echo 'solve every u(1000000000000) + nim(2);' >>in
run conv_dense_limit_every -
expect_status 3 && stdout_empty && stderr_has "u(1000000000000) under anyleaf or every needs" && ok
# a splitting heap of 10^12 has more options than any component graph may hold
cp conv.game in; echo 'solve anyleaf k(598635796942);' >>in
run conv_split_limit -
expect_status 3 && stdout_empty && stderr_has "k(598635796942) has at least 299317898469 options" && ok
# the limit comes before a finished answer is lost: the first query's answer stays
cp conv.game in; printf 'solve anyleaf nim(598635796942) + nim(3);\nsolve anyleaf r(1000000000000);\n' >>in
run conv_limit_keeps_answers -
expect_status 3 && stdout_has "-> nim(3) + nim(3)" && stderr_has "r(1000000000000) under anyleaf" && ok
# one component that splits keeps its parentheses, by the theory and by the graph
for nt in "" --no-theory; do
    cp conv.game in; printf 'solve anyleaf k(7);\nsolve every k(6);\n' >>in
    run "conv_parentheses$nt" - $nt
    if expect_status 0 && stdout_has "-> (k(1) + k(5))" && stdout_has "-> (k(3) + k(3))" && stdout_has "-> (k(2) + k(2))"; then
        if grep -q -- "-> k(1) + k(5)" out; then bad "a split component without parentheses"; else ok; fi
    fi
done
# huge heaps by the kernels: the same answer at heap n and at n plus periods far beyond any table
cp conv.game in; printf 'solve anyleaf nim(5000000) + nim(1);\nsolve every nim(598635796942) + nim(7);\n' >>in
run conv_huge_nim - --format json
expect_status 0 && stdout_has '"winning_moves":\["nim(1) + nim(1)"\]' && stdout_has '"convention":"every","outcome":"N"' && ok

for ex in "$examples"/*.game; do
    [ "$(basename "$ex")" = periodic.game ] && continue
    name="examples_threads_$(basename "$ex" .game)"
    timeout 120 "$grundy" --no-progress --threads 1 "$ex" >ex1.out 2>ex1.err; r1=$?
    timeout 120 "$grundy" --no-progress --threads 3 "$ex" >ex3.out 2>ex3.err; r3=$?
    if [ $r1 = $r3 ] && cmp -s ex1.out ex3.out && cmp -s ex1.err ex3.err; then ok; else bad "--threads 3 differs from --threads 1"; fi
done

# A tuple rule set whose moves leave every bound: a modelling slip, located at the move, status
# 2, with the guard to add and the query it came from (it was a status-3 "box" limit).
printf 'game t { position (a, b); move -> (a - 1, b); }\ntable t(0..3, 0..3);\n' >unb.game
run unbounded_tuple unb.game
expect_status 2 && stdout_empty && stderr_has "^unb.game:1:27: error: this move of 't' leads out of every bound" &&
    stderr_has "guard the move with a 'where' that keeps a >= 0" && stderr_has "= in query 1: table t(0..3, 0..3)" && ok

# A binding over a set literal in a rule block is the same game as the subtraction set: a
# range from its least to its most item, and only its items (ranges inside it too).
cat >bset.game <<'GAME'
game t { heap n; move -> n - k for k in {1, 3, 4} where k <= n; }
game u { heap n; move -> n - k for k in {4, 1..1, 3}; }
game v = subtract {1, 3, 4};
table t(0..15);
table u(0..15);
table v(0..15);
GAME
run bind_set bset.game
if [ $rc = 0 ] && [ "$(grep -c '   0 | 0 1 0 1 2 3 2 0 1 0' out)" = 3 ] && [ "$(grep -c '  10 | 1 2 3 2 0 1' out)" = 3 ]; then ok; else bad "for k in {1, 3, 4} is subtract {1, 3, 4}"; fi
printf 'game t { heap n; move -> n - k for k in {1, 3..}; }\ntable t(0..3);\n' >bopen.game
run bind_set_open bopen.game
expect_status 2 && stderr_has "^bopen.game:1:42: error: a binding's set is finite" && ok
printf 'game s = subtract {1, 2};\ncheck s : sg(n) == n %% 3 for n in {2, 5, 9..11};\ncheck s : sg(n) == 1 for n in {1, 4, 7};\ncheck s : sg(n) == 1 for n in {1, 5};\n' >bcheck.game
run bind_set_check bcheck.game
if [ $rc = 1 ] && [ "$(grep -c 'holds' out)" = 2 ] && grep -q 'counterexample: at n = 5:' out; then ok; else bad "a check over a set of values (out: $(head -c 600 out))"; fi
# A family's parameter over a set of numbers: one member per value, each once, in order.
printf 'check bash[m] periodic for m in {5..6, 1, 3, 1};\n' >bfam.game
run bind_set_family bfam.game
if [ $rc = 0 ] && [ "$(grep -c 'proved: period' out)" = 4 ] && [ "$(grep -o 'bash\[[0-9]*\]' out | tr '\n' ' ')" = "bash[1] bash[3] bash[5] bash[6] " ]; then ok; else bad "a family over a set of numbers (out: $(head -c 600 out))"; fi

echo
if [ $fail -gt 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
