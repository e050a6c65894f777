#!/usr/bin/env bash
# check_stages_selftest: proves that check_stages.sh fails where it must. It copies src/ to a
# temporary folder, checks that the copy passes, then injects one forbidden #include at a time
# into a fresh copy and expects exit status 1 and a message naming the file:
#   query/check.c   includes eval/heap/heap.h      (a room's header past the interface)
#   cli/main.c      includes eval/heap/checkpoint.h
#   eval/evaluator.h includes eval/heap/heap.h     (the interface includes an evaluator's header)
#   period/detect.h includes eval/evaluator.h      (an earlier stage includes a later one)
#   eval/evaluator.h includes eval/cap_ready.h     (a circle: cap_ready.h includes evaluator.h)
#   eval/heap/sgtable.c includes eval/heap/tablefile.h (modules in a circle: tablefile.h
#                                                   includes sgtable.h)
#   query/formula.h includes check.h               (modules in a circle: check.c includes formula.h)
#   eval/evaluator.c includes eval/heap/convkernel.h (modules in a circle through a third header:
#                                                   convkernel.h -> cap_convkernel.h -> evaluator.h)
# and then plants one violation of each other rule, expecting the same refusal:
#   core/hash.h grown past 800 lines; period/period.c given a function of 151 lines (its
#   signature over two lines, its brace alone on a line) and eval/box/lines.c one of 200 in
#   the usual style; sums/solve.c and query/check.c naming a kernel id (KER_NIM, KER_TB); and
#   that a function of exactly 150 lines, a declaration and an initialiser pass.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../src}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

cp -r "$src" "$tmp/pristine"
if ! out=$(bash "$here/check_stages.sh" "$tmp/pristine" 2>&1); then
    echo "the unchanged copy of src/ fails:"; echo "$out"; exit 1
fi

# inject FILE INCLUDE: the include goes after the file's first #include line.
inject() {
    local file=$1 inc=$2 dir="$tmp/case"
    rm -rf "$dir"
    cp -r "$src" "$dir"
    awk -v inc="$inc" '{ print } !done && /^#include/ { print "#include \"" inc "\""; done = 1 }' \
        "$dir/$file" > "$dir/$file.new"
    mv "$dir/$file.new" "$dir/$file"
    grep -q "#include \"$inc\"" "$dir/$file" || { echo "could not inject $inc into $file"; fails=1; return; }
    local rc=0
    out=$(bash "$here/check_stages.sh" "$dir" 2>&1) || rc=$?
    if [ "$rc" != 1 ] || ! grep -q "$file\|${file##*/}" <<<"$out"; then
        echo "check_stages.sh did not refuse $file including $inc (exit $rc):"; echo "$out"
        fails=1
    else
        echo "refused as it must: $file includes $inc: $(head -1 <<<"$out")"
    fi
}

inject query/check.c eval/heap/heap.h
inject cli/main.c eval/heap/checkpoint.h
inject eval/evaluator.h eval/heap/heap.h
inject period/detect.h eval/evaluator.h
inject eval/evaluator.h eval/cap_ready.h
inject eval/heap/sgtable.c eval/heap/tablefile.h
inject query/formula.h check.h
inject eval/evaluator.c eval/heap/convkernel.h

# plant FILE EXPECT WHAT: appends the text on standard input to a fresh copy's FILE, then
# expects exit status EXPECT (1: refused, with a message naming the file; 0: passed).
plant() {
    local file=$1 expect=$2 what=$3 dir="$tmp/case" rc=0
    rm -rf "$dir"
    cp -r "$src" "$dir"
    cat >> "$dir/$file"
    out=$(bash "$here/check_stages.sh" "$dir" 2>&1) || rc=$?
    if [ "$expect" = 1 ] && { [ "$rc" != 1 ] || ! grep -q "$file" <<<"$out"; }; then
        echo "check_stages.sh did not refuse $file with $what (exit $rc):"; echo "$out"
        fails=1
    elif [ "$expect" = 0 ] && [ "$rc" != 0 ]; then
        echo "check_stages.sh refused $file with $what, which is allowed (exit $rc):"; echo "$out"
        fails=1
    elif [ "$expect" = 1 ]; then
        echo "refused as it must: $file with $what: $(grep "$file" <<<"$out" | head -1)"
    else
        echo "passed as it must: $file with $what"
    fi
}
# body N: N lines of a function's body
body() { for ((i = 0; i < $1; i++)); do echo "    (void)0;"; done; }

for ((i = 0; i < 801; i++)); do echo "/* planted */"; done | plant core/hash.h 1 "801 lines more"
{ echo "static int planted_long(int a,"; echo "                        int b)"; echo "{"; body 147; echo "}"; } |
    plant period/period.c 1 "a function of 151 lines"
{ echo "void gr_planted(void) {"; body 198; echo "}"; } | plant eval/box/lines.c 1 "a function of 200 lines"
{ echo "void gr_planted(void);"; echo "static const int planted[] = {"; body 0; echo "    1,"; echo "};";
  echo "static int planted_ok(int a) {"; body 147; echo "    return a + planted[0];"; echo "}"; } |
    plant eval/box/lines.c 0 "a declaration, an initialiser and a function of 150 lines"
echo "static const int planted_kernel = KER_NIM;" | plant sums/solve.c 1 "a kernel id"
echo "/* as KER_TB does */" | plant query/check.c 1 "a kernel id in a comment"
exit "$fails"
