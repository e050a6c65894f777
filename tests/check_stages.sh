#!/usr/bin/env bash
# check_stages: no stage of src/ includes a header of a later stage (src/README.md gives the
# order). Headers are found by name in src/*/; a name found nowhere there (generated parser
# headers, system headers) is not checked. include/grundy.h, the public header, is allowed
# everywhere. Prints every violation and exits 1 if there is one.
set -euo pipefail
src=${1:-$(dirname "$0")/../src}
order=(core front lower eval sums period query api cli)
declare -A rank home
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done
for dir in "$src"/*/; do
    stage=$(basename "$dir")
    [ -n "${rank[$stage]+x}" ] || { echo "src/$stage/ is not a known stage: add it to tests/check_stages.sh and src/README.md"; exit 1; }
    for h in "$dir"*.h; do
        [ -e "$h" ] || continue
        name=$(basename "$h")
        [ -z "${home[$name]+x}" ] || { echo "header $name is in two stages: ${home[$name]} and $stage"; exit 1; }
        home[$name]=$stage
    done
done
bad=0
for dir in "$src"/*/; do
    stage=$(basename "$dir")
    for f in "$dir"*.[ch]; do
        [ -e "$f" ] || continue
        while IFS= read -r name; do
            [ -n "${home[$name]+x}" ] || continue
            to=${home[$name]}
            if [ "${rank[$to]}" -gt "${rank[$stage]}" ]; then
                echo "src/$stage/$(basename "$f") includes $name of the later stage $to/"
                bad=1
            fi
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    done
done
[ "$bad" = 0 ] && echo "stage order of #includes: ok (${order[*]})"
exit "$bad"
