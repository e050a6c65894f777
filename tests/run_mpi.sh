#!/usr/bin/env bash
# run_mpi.sh GRUNDY GRUNDY_MPI RANKS: grundy-mpi under mpirun -n RANKS (src/cli/mpi.h).
#  - the same bytes as grundy, in text, CSV and JSON, for a file with a census, a family check
#    over codes, a check over numbers and a table; independent queries dealt round the ranks
#    (a refuted check, a query failing on another rank);
#  - a failing member: status 3 on every rank, the member and its rank named;
#  - a resumed job: a run stopped by --max-memory (which only the longest member needs) leaves
#    its finished members in --checkpoint; the run again (any number of ranks) takes them from
#    there, prints grundy's bytes and removes the file; a foreign checkpoint is refused.
source "$(dirname "$0")/scriptlib.sh"
mpi=$2 ranks=$3
case $mpi in /*) ;; *) mpi=$OLDPWD/$mpi ;; esac
run() { mpirun --allow-run-as-root --oversubscribe -n "$ranks" "$mpi" "$@"; }

cat > job.game <<'G'
game g[c] = octal c;
census g[c] for c in octal(2) to 10000;
check g[c] periodic for c in {"0.77", "0.07", "0.15"};
game b[k] = subtract 1..k;
check b[k] periodic for k in 1..6;
table g2(0..20);
game g2 = octal "0.137";
G
for fmt in text csv json; do
    "$grundy" job.game --format $fmt --threads 1 > want.$fmt 2> err || bad "grundy $fmt"
    run job.game --format $fmt --threads 1 > out 2> err
    st=$?
    if [ $st = 0 ] && cmp -s want.$fmt out; then pass=$((pass + 1)); else bad "mpirun -n $ranks, $fmt: status $st or bytes differ"; diff want.$fmt out | head -5; fi
done
grep -q " 0.07 0.4(-1) 0.42(-1)$" want.text && pass=$((pass + 1)) || bad "the census's 0.07 class"

# Independent queries dealt round the ranks: the same bytes, a refuted check's status (1), and a
# query failing on another rank stops where grundy stops, with its message and status.
cat > multi.game <<'G'
game a = octal "0.77";
game b = subtract {1, 3, 4};
game g[c] = octal c;
table a(0..30);
solve b(10) + b(7);
census g[c] for c in octal(1) to 100;
check a: P(n) <=> n == 0 for n in 0..100;
table b(0..20) outcome;
check b: P(n) <=> n % 7 == 0 || n % 7 == 2 for n in 0..1000;
G
cat > qfail.game <<'G'
game a = octal "0.77";
game f { heap n; move -> n - 1 where 1 / (n - 5) >= 0; }
table a(0..10);
table f(0..10);
table a(0..5);
G
for game in multi qfail; do
    for fmt in text json; do
        "$grundy" $game.game --format $fmt --threads 1 > want 2> want.err
        want_st=$?
        run $game.game --format $fmt > out 2> err
        st=$?
        if [ $st = $want_st ] && cmp -s want out && { [ ! -s want.err ] || grep -qF "$(head -n 1 want.err)" err; }; then pass=$((pass + 1))
        else bad "$game $fmt: status $st (want $want_st) or bytes differ"; fi
    done
done

# A member that fails: division by zero in f[3] only.
cat > fail.game <<'G'
game f[k] { heap n; move -> n - j for j in 1..k where n / (k - 3) >= 0; }
census f[k] for k in 1..5 to 200;
G
run fail.game > out 2> err
st=$?
if [ $st = 3 ] && grep -q "error: member f\[3\] failed on rank [0-9]: division by zero" err && [ ! -s out ]; then pass=$((pass + 1))
else bad "a failing member: status $st"; fi

# Resumed: 0.6 (Officers, no known period) needs more than 2 MiB to 600000 on any rank (the detector
# keeps 4 bytes a heap besides the 1-byte table); the rest are
# proved periodic within a few hundred heaps.
cat > long.game <<'G'
game g[c] = octal c;
census g[c] for c in {"0.7", "0.15", "0.6", "0.77", "0.07"} to 600000;
G
"$grundy" long.game --threads 1 > want 2> err || bad "grundy long"
run long.game --threads 1 --max-memory 2M --checkpoint ck > out 2> err
st=$?
if [ $st = 3 ] && grep -q "member g\[0.6\] failed on rank" err && [ -s ck ]; then pass=$((pass + 1)); else bad "stopped job: status $st"; fi
run long.game --threads 1 --checkpoint ck > out 2> err
st=$?
if [ $st = 0 ] && cmp -s want out && grep -q "ck holds [1-4] finished member" err && [ ! -e ck ]; then pass=$((pass + 1))
else bad "resumed job: status $st"; cat err; fi
printf 'game g[c] = octal c;\ncensus g[c] for c in octal(1) to 100;\n' > other.game
run long.game --threads 1 --max-memory 2M --checkpoint ck > /dev/null 2>&1
run other.game --checkpoint ck > out 2> err
st=$?
if [ $st = 2 ] && grep -q "ck is not a checkpoint of this program" err && [ ! -s out ]; then pass=$((pass + 1)); else bad "foreign checkpoint: status $st"; fi

echo "mpi ($ranks ranks): $pass passed, $fail failed"
[ "$fail" = 0 ]
