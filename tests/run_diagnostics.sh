#!/usr/bin/env bash
# run_diagnostics.sh GRUNDY DIR: the malformed-input suite.
#
# Every DIR/*.game is wrong in one way and starts with a line "# expect: LINE:COL", the
# 1-based location of the error as grundy must print it. For each file this checks that
#   - grundy exits with status 2 (bad input), within a time limit and without a crash;
#   - standard output is empty;
#   - the first line of standard error is "FILE:LINE:COL: error: ..." with that location;
#   - the second line is the source line, printed as "%5d | text";
#   - the third line is "      | ", the line's prefix blanked (tabs kept), then '^' (then '~'s).
# Prints "N passed, M failed" and exits non-zero if anything failed.
set -u
export LC_ALL=C            # columns are counted in bytes, as grundy counts them

if [ $# -ne 2 ]; then
    echo "usage: $0 GRUNDY DIR" >&2
    exit 2
fi
grundy=$1
dir=$2
[ -x "$grundy" ] || { echo "$0: $grundy is not an executable" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
failed_names=()

# fail_case NAME WHY...: records a failure and prints what grundy said.
fail_case() {
    local name=$1; shift
    fail=$((fail + 1))
    failed_names+=("$name")
    echo "FAIL $name: $*"
    sed -n '1,3s/^/    stderr: /p' "$tmp/err"
    if [ -s "$tmp/out" ]; then sed -n '1,3s/^/    stdout: /p' "$tmp/out"; fi
}

shopt -s nullglob
files=("$dir"/*.game)
if [ ${#files[@]} -eq 0 ]; then
    echo "$0: no .game files in $dir" >&2
    exit 2
fi

for f in "${files[@]}"; do
    name=$(basename "$f" .game)
    first=$(head -n 1 "$f")
    # "# expect: LINE:COL" (bad input, status 2) or "# expect: LINE:COL status 3" (an
    # arithmetic limit met at run time: the message also names the position)
    if [[ ! $first =~ ^#\ expect:\ ([0-9]+):([0-9]+)(\ status\ 3)?[[:space:]]*$ ]]; then
        : >"$tmp/err"; : >"$tmp/out"
        fail_case "$name" "the first line is not '# expect: LINE:COL'"
        continue
    fi
    line=${BASH_REMATCH[1]}
    col=${BASH_REMATCH[2]}
    status=2
    [ -n "${BASH_REMATCH[3]}" ] && status=3

    timeout 60 "$grundy" "$f" --no-progress >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ $rc -eq 124 ]; then fail_case "$name" "timed out"; continue; fi
    if [ $rc -gt 128 ]; then fail_case "$name" "crashed (status $rc, signal $((rc - 128)))"; continue; fi
    if [ $rc -ne $status ]; then fail_case "$name" "exit status $rc, expected $status"; continue; fi
    if [ -s "$tmp/out" ]; then fail_case "$name" "standard output is not empty"; continue; fi

    e1=$(sed -n 1p "$tmp/err")
    e2=$(sed -n 2p "$tmp/err")
    e3=$(sed -n 3p "$tmp/err")
    want="$f:$line:$col: error: "
    if [ "${e1:0:${#want}}" != "$want" ]; then
        fail_case "$name" "expected the first line to start with '$want'"
        continue
    fi
    if [ $status = 3 ] && [[ ! $e1 =~ \ at\ position\ \(-?[0-9]+(,\ -?[0-9]+)*\)$ ]]; then
        fail_case "$name" "a run-time arithmetic error names its position"
        continue
    fi

    src=$(sed -n "${line}p" "$f")
    src=${src%$'\r'}
    # A line over 200 bytes is shown as a window around the caret, "..." marking each cut
    # (60 bytes before the caret when it is more than 80 in, at most 160 bytes shown).
    from=0; to=${#src}; left=""; right=""
    if [ ${#src} -gt 200 ]; then
        if [ $((col - 1)) -gt 80 ]; then from=$((col - 1 - 60)); left="..."; fi
        if [ $((to - from)) -gt 160 ]; then to=$((from + 160)); right="..."; fi
    fi
    want2=$(printf '%5d | %s%s%s' "$line" "$left" "${src:from:to-from}" "$right")
    if [ "$e2" != "$want2" ]; then
        fail_case "$name" "the second line is not the source line '$want2'"
        continue
    fi

    # The caret line: every byte before the column becomes a space, except tabs.
    pad=${left:+   }
    for ((i = from; i < col - 1; i++)); do
        ch=${src:i:1}
        if [ "$ch" = $'\t' ]; then pad+=$'\t'; else pad+=" "; fi
    done
    want3="      | $pad^"
    rest=${e3:${#want3}}
    if [ "${e3:0:${#want3}}" != "$want3" ] || [[ ! $rest =~ ^~*$ ]]; then
        fail_case "$name" "the caret is not at column $col"
        continue
    fi
    pass=$((pass + 1))
done

if [ $fail -gt 0 ]; then
    echo "failed: ${failed_names[*]}"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
