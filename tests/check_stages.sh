#!/usr/bin/env bash
# check_stages: no stage of src/ includes a header of a later stage (src/README.md gives the
# order), and the stages after eval/ that answer queries (sums/, query/) reach eval/ through its
# interface alone: of eval/ they include eval/evaluator.h and nothing else. A stage may have
# rooms (eval/heap/, eval/box/, ...); their headers are included by path from src/
# ("eval/heap/heap.h"), a stage's own top-level headers by name or by path. A name found
# nowhere in src/ (generated parser headers, system headers) is not checked; include/grundy.h,
# the public header, is allowed everywhere. Prints every violation and exits 1 if there is one.
set -euo pipefail
src=${1:-$(dirname "$0")/../src}
order=(core front lower eval sums period query api cli)
interface_only=(sums query)          # these include of eval/ only its interface
interface=eval/evaluator.h
declare -A rank home roomed
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done
for dir in "$src"/*/; do
    stage=$(basename "$dir")
    [ -n "${rank[$stage]+x}" ] || { echo "src/$stage/ is not a known stage: add it to tests/check_stages.sh and src/README.md"; exit 1; }
    while IFS= read -r h; do
        rel=${h#"$src"/}
        home[$rel]=$stage
        if [ "$(dirname "$rel")" = "$stage" ]; then   # a top-level header: also by its name
            name=$(basename "$h")
            [ -z "${home[$name]+x}" ] || { echo "header $name is in two stages: ${home[$name]} and $stage"; exit 1; }
            home[$name]=$stage
        else
            roomed[$(basename "$h")]=$rel
        fi
    done < <(find "$dir" -name '*.h' | sort)
done
bad=0
for dir in "$src"/*/; do
    stage=$(basename "$dir")
    only=0
    for s in "${interface_only[@]}"; do [ "$s" = "$stage" ] && only=1; done
    while IFS= read -r f; do
        rel=${f#"$src"/}
        while IFS= read -r name; do
            if [ -z "${home[$name]+x}" ] && [ -n "${roomed[$name]+x}" ]; then
                echo "src/$rel includes $name: a room's header is included by its path, \"${roomed[$name]}\""
                bad=1
                continue
            fi
            if [ -z "${home[$name]+x}" ]; then
                found=0
                for s in "${order[@]}"; do    # a path from a stage's folder ("heap/heap.h")
                    if [ -e "$src/$s/$name" ]; then
                        echo "src/$rel includes $name: by its path from src/, \"$s/$name\""
                        bad=1 found=1
                    fi
                done
                case "$name" in
                */*) [ "$found" = 1 ] || [ -e "$src/$name" ] || { echo "src/$rel includes $name, which is not in src/"; bad=1; } ;;
                esac
                continue
            fi
            to=${home[$name]}
            if [ "${rank[$to]}" -gt "${rank[$stage]}" ]; then
                echo "src/$rel includes $name of the later stage $to/"
                bad=1
            elif [ "$only" = 1 ] && [ "$to" = eval ] && [ "$name" != "$interface" ] && [ "$name" != evaluator.h ]; then
                echo "src/$rel includes $name: $stage/ reaches eval/ only through $interface"
                bad=1
            fi
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    done < <(find "$dir" -name '*.[ch]' | sort)
done
[ "$bad" = 0 ] && echo "stage order of #includes: ok (${order[*]}; ${interface_only[*]} see eval/ through $interface)"
exit "$bad"
