#!/usr/bin/env bash
# check_stages_selftest: proves that check_stages.sh fails where it must. It copies src/ to a
# temporary folder, checks that the copy passes, then injects one forbidden #include at a time
# into a fresh copy and expects exit status 1 and a message naming the file:
#   query/check.c   includes eval/heap/heap.h      (a room's header past the interface)
#   cli/main.c      includes eval/heap/checkpoint.h
#   eval/evaluator.h includes eval/heap/heap.h     (the interface includes an evaluator's header)
#   period/detect.h includes eval/evaluator.h      (an earlier stage includes a later one)
#   eval/evaluator.h includes eval/cap_ready.h     (a circle: cap_ready.h includes evaluator.h)
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
exit "$fails"
