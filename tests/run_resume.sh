#!/usr/bin/env bash
# run_resume.sh GRUNDY: long runs with --checkpoint and --threads.
#   - a run interrupted by SIGINT (status 130) or SIGTERM (status 143) and run again with the
#     same command prints exactly the bytes of an uninterrupted run, and removes its checkpoint
#   - a damaged checkpoint, one of another program, and a file that is no checkpoint are refused
#     with status 2 and a message, and nothing is printed
#   - a `check G periodic` stopped at --to keeps its checkpoint, and a larger --to goes on from
#     it with the bytes of a fresh run; a proved one removes it
#   - a run stopped by --max-time saves its work first (exit 3, a message), and resumes
#   - --threads 1, 2, 3 and 8 print the same bytes on several games
# The size is chosen so an uninterrupted run takes about a second on this build (sanitizers
# included). The signal is sent once the run has its handler (read from /proc), so it arrives
# with the work ahead; a run that finishes anyway is tried again, and fails the test if it
# is never interrupted. --max-time is a quarter of a fresh run's time, halved while the run
# finishes anyway; one that 1 ms does not stop fails the test. Prints "N passed, M failed".
set -u
export LC_ALL=C
grundy=$1
case $grundy in /*) ;; *) grundy=$PWD/$grundy ;; esac
[ -x "$grundy" ] || { echo "$0: $grundy is not an executable" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; sed -n '1,3s/^/    stderr: /p' err 2>/dev/null; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }
program() {   # program N: 0.007 and Grundy's game past the threaded and rare-value kernels
    printf 'game g = octal "0.007";\ngame k = octal "4!.0";\nsolve g(%d);\ntable k(%d..%d);\nsolve k(%d) + g(77);\n' \
        "$1" "$(($1 - 20))" "$1" "$(($1 / 2))"
}

# ---- the size: an uninterrupted run of about a second ----
n=8000
for _ in 1 2 3 4 5 6 7; do
    program $n >run.game
    t0=$(ms)
    "$grundy" run.game --no-progress >whole.txt 2>err || { bad "uninterrupted run failed"; break; }
    [ $(( $(ms) - t0 )) -ge 1000 ] && break
    n=$((n * 3 / 2))
done

# ---- interrupted and resumed ----
# Does process $1 catch signal $2 (its handler is installed: bit $2 - 1 of SigCgt)? Without
# /proc, after 0.2 s it is taken to. Only once it runs grundy: before its exec the process is
# a copy of this shell, which catches SIGINT and SIGTERM itself (seen in CI on a loaded
# machine: a SIGTERM that reached the shell's copy as it reset its handlers for the exec
# killed it, with no message and no checkpoint).
grundy_exe=$(readlink -f "$grundy")
catches() {
    local mask
    [ -d /proc/self ] && [ "$(readlink "/proc/$1/exe" 2>/dev/null)" != "$grundy_exe" ] && return 1
    mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null) || mask=
    if [ -z "$mask" ]; then [ -d /proc/self ] && return 1; sleep 0.2; return 0; fi
    [ $(( 0x$mask >> ($2 - 1) & 1 )) -eq 1 ]
}
for sig in INT TERM; do
    want=$([ $sig = INT ] && echo 130 || echo 143)
    num=$([ $sig = INT ] && echo 2 || echo 15)
    # A non-interactive shell starts a background job with SIGINT ignored: a signal before the
    # run installs its handler would be lost (or, SIGTERM, kill it unsaved). Sent as soon as the
    # handler is there, it finds the run's work ahead, and a safe point stops it.
    for attempt in 1 2 3; do
        rm -f ck ck.tmp
        "$grundy" run.game --no-progress --checkpoint ck >part.txt 2>err &
        pid=$!
        for _ in $(seq 1000); do catches $pid $num && break; kill -0 $pid 2>/dev/null || break; sleep 0.005; done
        kill -s $sig $pid 2>/dev/null
        wait $pid
        rc=$?
        [ $rc -ne 0 ] && break
        echo "note: attempt $attempt: the run of size $n finished before SIG$sig reached it; again"
    done
    if [ $rc -eq 0 ]; then
        bad "SIG$sig: the run was never interrupted (3 attempts): nothing was tested"
    elif [ $rc -ne "$want" ]; then
        bad "SIG$sig: status $rc, expected $want"
    elif [ "$(head -c "$(stat -c %s part.txt)" whole.txt)" != "$(cat part.txt)" ] || ! grep -q "saved in ck" err || [ ! -s ck ]; then
        bad "SIG$sig: output other than finished answers, no message, or no checkpoint"
    else
        ok
        cp ck saved.ck
        "$grundy" run.game --no-progress --checkpoint ck --threads 2 >resumed.txt 2>err
        rc=$?
        if [ $rc -ne 0 ]; then bad "SIG$sig: the resumed run exited with $rc"
        elif ! cmp -s whole.txt resumed.txt; then bad "SIG$sig: the resumed run printed other bytes"
        elif [ -e ck ]; then bad "SIG$sig: the finished run left its checkpoint"
        else ok; fi
    fi
done

# ---- refused checkpoints ----
if [ -s saved.ck ]; then
    # damaged: one byte of the values changed
    cp saved.ck ck
    size=$(stat -c %s ck)
    byte=$(od -An -tu1 -j $((size - 3)) -N1 ck | tr -d ' ')
    printf "\\$(printf %03o $(( (byte + 1) % 256 )))" | dd of=ck bs=1 seek=$((size - 3)) conv=notrunc 2>/dev/null
    cmp -s ck saved.ck && bad "the damaged copy is not damaged"
    "$grundy" run.game --no-progress --checkpoint ck >out 2>err
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s out ] && grep -q "damaged" err && [ -e ck ]; then ok; else bad "damaged checkpoint: status $rc"; fi
    # truncated
    head -c $((size / 2)) saved.ck >ck
    "$grundy" run.game --no-progress --checkpoint ck >out 2>err
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s out ] && grep -q "damaged" err; then ok; else bad "truncated checkpoint: status $rc"; fi
    # another program: the same games, another query
    cp saved.ck ck
    program $((n + 1)) >other.game
    "$grundy" other.game --no-progress --checkpoint ck >out 2>err
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s out ] && grep -q "another program" err; then ok; else bad "foreign checkpoint: status $rc"; fi
fi
echo 'not a checkpoint at all' >ck
"$grundy" run.game --no-progress --checkpoint ck >out 2>err
rc=$?
if [ $rc -eq 2 ] && [ ! -s out ] && grep -q "not a grundy checkpoint" err; then ok; else bad "text file as checkpoint: status $rc"; fi

# ---- a periodic search stopped at --to keeps its values; a larger --to goes on from them ----
# (0.56 is proved from heap 653569: to 300000 and 450000 no period is found (none), to 700000 it is proved)
printf 'game g = octal "0.56";\ncheck g periodic;\n' >p.game
rm -f pk
"$grundy" p.game --no-progress --to 300000 --checkpoint pk --format json >p1.json 2>err
if [ -s pk ] && grep -q '"checked_to":300000' p1.json; then ok; else bad "the stopped search did not keep pk"; fi
"$grundy" p.game --no-progress --to 450000 --checkpoint pk --format json >p2.json 2>err
t0=$(ms)
"$grundy" p.game --no-progress --to 450000 --format json >f2.json 2>err
fresh=$(( $(ms) - t0 ))   # ms: --max-time below is a quarter of it
if [ -s pk ] && cmp -s p2.json f2.json && grep -q '"status":"none","period":null' p2.json; then ok
else bad "--to 450000 from the kept values printed other bytes than a fresh run"; fi
"$grundy" p.game --no-progress --to 700000 --checkpoint pk --format json >p3.json 2>err
"$grundy" p.game --no-progress --to 700000 --format json >f3.json 2>err
if [ ! -e pk ] && cmp -s p3.json f3.json && grep -q '"period":144,"preperiod":326640' p3.json; then ok
else bad "the proved search from the kept values differs, or left its checkpoint"; fi

# ---- --max-time with a checkpoint saves the work before it stops; the same command resumes ----
# (a time limit hit inside a kernel would lose it: the run stops at the next safe point instead)
if [ -s f2.json ]; then
    # a quarter of a fresh run (in ms), so the rest is left to do; a machine that happens to
    # be faster now halves it, down to 1 ms (the first safe point, a few thousand heaps in)
    q=$((fresh / 4))
    while :; do
        [ $q -lt 1 ] && q=1
        limit=$(printf '%d.%03d' $((q / 1000)) $((q % 1000)))
        rm -f mk
        "$grundy" p.game --no-progress --to 450000 --checkpoint mk --format json --max-time "$limit" >m1.json 2>err
        rc=$?
        [ $rc -ne 0 ] || [ $q -eq 1 ] && break
        echo "note: --to 450000 finished within --max-time $limit s; again with half"
        q=$((q / 2))
    done
    if [ $rc -eq 0 ]; then bad "--to 450000 finished within --max-time 0.001 s: nothing was tested"
    elif [ $rc -eq 3 ] && [ ! -s m1.json ] && [ -s mk ] && grep -q "time limit of [0-9.]* s reached.*the work so far is saved in mk" err; then
        ok
        "$grundy" p.game --no-progress --to 450000 --checkpoint mk --format json >m2.json 2>err
        if cmp -s m2.json f2.json; then ok; else bad "resumed after --max-time: other bytes than a fresh run"; fi
    else bad "--max-time with --checkpoint: status $rc, output, no checkpoint or no message"; fi
fi

# ---- every --threads value prints the same bytes ----
printf 'game kayles = octal "0.77";\ngame g = octal "4!.0";\ngame s = octal "0.16";\ngame d = octal "0.6";\n' >t.game
printf 'game e = octal "4.07!";\ntable g(0..9000);\ntable s(8000..9000);\ntable d(8900..9100);\n' >>t.game
printf 'solve g(9000) + s(9001) + d(8999);\ntable e(0..100);\nsolve kayles(1000000000000) + e(7000);\n' >>t.game
"$grundy" t.game --no-progress --threads 1 >t1.txt 2>err || bad "threads 1 failed"
"$grundy" t.game --no-progress --threads 1 --format json >t1.json 2>err || bad "threads 1 json failed"
for th in 2 3 8; do
    "$grundy" t.game --no-progress --threads $th >tn.txt 2>err
    if cmp -s t1.txt tn.txt; then ok; else bad "--threads $th prints other bytes than --threads 1"; fi
    "$grundy" t.game --no-progress --threads $th --format json >tn.json 2>err
    if cmp -s t1.json tn.json; then ok; else bad "--threads $th --format json differs"; fi
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
