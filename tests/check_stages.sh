#!/usr/bin/env bash
# check_stages: no stage of src/ includes a header of a later stage (src/README.md gives the
# order); the stages after eval/ (sums/, query/, api/, cli/; period/ comes before it) reach
# eval/ through its interface alone: of eval/ they include eval/evaluator.h and the capability
# headers beside it (eval/cap_*.h) and nothing else; the interface includes no header of an
# evaluator's room (eval/heap/, eval/box/, ...); and no headers include each other in a circle
# (the interface and its capabilities included). A stage may have
# rooms (eval/heap/, eval/box/, ...); their headers are included by path from src/
# ("eval/heap/heap.h"), a stage's own top-level headers by name or by path. A name found
# nowhere in src/ (generated parser headers, system headers) is not checked; include/grundy.h,
# the public header, is allowed everywhere. Prints every violation and exits 1 if there is one.
set -euo pipefail
src=${1:-$(dirname "$0")/../src}
order=(core front lower period eval sums query api cli)
interface_only=(period sums query api cli)   # these include of eval/ only its interface
interface=eval/evaluator.h
# The interface: evaluator.h and the capability headers beside it.
is_interface() { case "$1" in eval/evaluator.h|evaluator.h|eval/cap_*.h) return 0 ;; esac; return 1; }
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
            elif [ "$only" = 1 ] && [ "$to" = eval ] && ! is_interface "$name"; then
                echo "src/$rel includes $name: $stage/ reaches eval/ only through $interface and eval/cap_*.h"
                bad=1
            elif is_interface "$rel" && [ "$to" = eval ] && ! is_interface "$name" && [ "$name" != "${name#eval/*/}" ]; then
                echo "src/$rel includes $name: the interface of eval/ includes no evaluator's header"
                bad=1
            fi
        done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    done < <(find "$dir" -name '*.[ch]' | sort)
done
# Circles among headers: each header's includes resolved to paths under src/ (a room's by its
# path, a stage's own by its name), then a depth-first search that reports each circle.
declare -A deps state
while IFS= read -r h; do
    rel=${h#"$src"/}
    list=""
    while IFS= read -r name; do
        if [ -e "$src/$name" ]; then list+=" $name"
        elif [ -n "${home[$name]+x}" ] && [ -e "$src/${home[$name]}/$name" ]; then list+=" ${home[$name]}/$name"
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$h")
    deps[$rel]=$list
done < <(find "$src" -name '*.h' | sort)
visit() {   # state 1: on the path now, 2: done; the path so far in $2
    local h=$1 path=$2 d
    state[$h]=1
    for d in ${deps[$h]}; do
        if [ "${state[$d]:-0}" = 1 ]; then
            echo "headers include each other in a circle: $path -> $d"
            bad=1
        elif [ "${state[$d]:-0}" = 0 ]; then
            visit "$d" "$path -> $d"
        fi
    done
    state[$h]=2
}
for h in $(printf '%s\n' "${!deps[@]}" | sort); do
    [ "${state[$h]:-0}" = 0 ] && visit "$h" "$h"
done
[ "$bad" = 0 ] && echo "stage order of #includes: ok (${order[*]}; ${interface_only[*]} see eval/ through $interface and eval/cap_*.h; no circles)"
exit "$bad"
