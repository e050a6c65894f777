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
# the public header, is allowed everywhere. Besides, the house's rules: no two modules (NAME.c
# and its NAME.h) include each other, directly or through other headers; no file of src/ past
# 800 lines and no function past 150; no kernel id (KER_*) outside lower/, period/ and eval/.
# Prints every violation and exits 1 if there is one.
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
# Circles between modules (a module: NAME.c and its NAME.h): a module whose .c includes another
# module's header while that header includes, itself or through others, the first module's header
# back (sgtable.c including tablefile.h, which includes sgtable.h) makes the two one module in
# two files. A header with no .c of its own (the inside of a module, such as sparseint.h, or a
# capability of the interface) is no module and is not counted; such headers are checked by the
# circles above.
declare -A reach
reach_of() {   # every header h includes, itself or through others, in reach[h]
    local h=$1 d
    [ -n "${reach[$h]+x}" ] && return
    reach[$h]=" "
    local all=" "
    for d in ${deps[$h]}; do
        reach_of "$d"
        all+="$d ${reach[$d]} "
    done
    reach[$h]=$all
}
while IFS= read -r f; do
    rel=${f#"$src"/}
    mine=${rel%.c}.h
    [ -e "$src/$mine" ] || continue
    while IFS= read -r name; do
        if [ -e "$src/$name" ]; then to=$name
        elif [ -n "${home[$name]+x}" ] && [ -e "$src/${home[$name]}/$name" ]; then to=${home[$name]}/$name
        else continue
        fi
        [ "$to" != "$mine" ] && [ -e "$src/${to%.h}.c" ] || continue
        reach_of "$to"
        case " ${reach[$to]} " in
        *" $mine "*) echo "modules include each other in a circle: src/$rel includes $to, which includes $mine (itself or through others)"; bad=1 ;;
        esac
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find "$src" -name '*.c' | sort)
# Sizes: no file of src/ past MAX_LINES lines, no function past MAX_FUNC lines (a function: from
# a line at column 0 that opens a definition, not a declaration nor a type nor an initialiser,
# to the next '}' at column 0, as every function of src/ is written).
MAX_LINES=800 MAX_FUNC=150
while IFS= read -r f; do
    n=$(wc -l < "$f")
    [ "$n" -le "$MAX_LINES" ] || { echo "src/${f#"$src"/} has $n lines, past $MAX_LINES: split it"; bad=1; }
done < <(find "$src" -name '*.[ch]' | sort)
long=$(find "$src" -name '*.[ch]' | sort | xargs awk -v max="$MAX_FUNC" -v src="$src/" '
    FNR == 1 { infn = 0; cand = 0 }
    !infn && /^[A-Za-z_]/ && !/^(typedef|struct|enum|union|extern)[^A-Za-z_0-9]/ && /\(/ && !/=/ && !/;[[:space:]]*$/ {
        cand = 1; start = FNR; name = $0 }
    !infn && cand && !/\{/ && /;[[:space:]]*(\/[*\/].*)?$/ { cand = 0 }
    !infn && cand && /\{/ { infn = 1; cand = 0 }
    infn && /^}/ {
        infn = 0
        if (FNR - start + 1 > max) {
            # its name: the identifier before a "(" outside parentheses (not __attribute__((...)))
            fn = "?"; depth = 0
            for (i = 1; i <= length(name); i++) {
                ch = substr(name, i, 1)
                if (ch == "(") {
                    if (depth == 0 && match(substr(name, 1, i - 1), /[A-Za-z_][A-Za-z_0-9]*[[:space:]]*$/)) {
                        id = substr(name, RSTART, RLENGTH); sub(/[[:space:]]+$/, "", id)
                        if (id != "__attribute__") fn = id
                    }
                    depth++
                } else if (ch == ")") depth--
            }
            f = FILENAME; sub("^" src, "", f)
            printf "src/%s:%d: %s has %d lines, past %d: split it\n", f, start, fn, FNR - start + 1, max
        }
    }')
[ -z "$long" ] || { echo "$long"; bad=1; }
# Kernel ids (KER_*, lower/game.h) are lowering's choice of how eval/ computes a game: only
# lower/ (which chooses them), period/ (before eval/: which theorem of periodicity a rule
# set's form allows) and eval/ name them; the stages after eval/ ask eval/ a question
# (evaluator.h) instead, so a new kernel changes no sum or query.
while IFS= read -r hit; do
    echo "src/${hit#"$src"/}: a kernel id outside lower/, period/ and eval/: ask eval/ a question (evaluator.h)"
    bad=1
done < <(find "$src" -name '*.[ch]' -not -path "$src/eval/*" -not -path "$src/lower/*" -not -path "$src/period/*" \
             -exec grep -Hno '\bKER_[A-Za-z0-9_]*' {} + | sort)
[ "$bad" = 0 ] && echo "stage order of #includes: ok (${order[*]}; ${interface_only[*]} see eval/ through $interface and eval/cap_*.h; no circles of headers or modules); sizes: files <= $MAX_LINES lines, functions <= $MAX_FUNC; kernel ids only in lower/, period/, eval/"
exit "$bad"
