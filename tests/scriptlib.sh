# scriptlib.sh: sourced by the shell tests that run grundy (run_play.sh, run_stream.sh) with
# the path of grundy in $1: sets $grundy (absolute), works in a temporary folder removed at
# exit, and counts results in $pass and $fail; bad MESSAGE reports a failure with the end of
# the files out and err.
set -u
export LC_ALL=C
grundy=$1
case $grundy in /*) ;; *) grundy=$PWD/$grundy ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
pass=0 fail=0
bad() { fail=$((fail + 1)); echo "FAIL $*"; tail -n 8 out 2>/dev/null | sed 's/^/    out: /'; head -n 4 err 2>/dev/null | sed 's/^/    err: /'; }
