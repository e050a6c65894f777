#!/usr/bin/env bash
# check_calls: no calls in a circle inside a stage of src/ (its rooms included). A file that
# calls a function (or names an object) defined in another file of its stage depends on it;
# those dependencies must not come back round (a helper both sides need goes in its own file).
# Read from the symbols of the compiled objects (nm): check_calls.sh BUILD_DIR SRC_DIR. Objects
# of sources that no longer exist (left in the build folder by a move) are skipped. Prints every
# file on a circle and exits 1 if there is one.
set -euo pipefail
build=$1 src=$2
list=$(mktemp)
trap 'rm -f "$list"' EXIT
while IFS= read -r o; do
    rel=${o#*/src/}
    rel=${rel%.o}
    [ -e "$src/$rel" ] || continue
    nm "$o" | awk -v f="$rel" '
        NF == 3 && $2 ~ /^[TDBR]$/ { print "D", f, $3 }
        NF == 2 && $1 == "U" { print "U", f, $2 }'
done < <(find "$build/CMakeFiles/grundy_obj.dir" "$build/CMakeFiles/grundy.dir" -name '*.c.o' | sort) > "$list"
awk '
    function stage(f) { split(f, p, "/"); return p[1] }
    $1 == "D" { def[$3] = $2; next }
    $1 == "U" { use[++nu] = $2 SUBSEP $3 }
    END {
        for (i = 1; i <= nu; i++) {
            split(use[i], u, SUBSEP)
            d = def[u[2]]
            if (d != "" && d != u[1] && stage(d) == stage(u[1]) && !((u[1], d) in edge)) {
                edge[u[1], d] = 1
                out[u[1]] = out[u[1]] " " d
                node[u[1]] = 1
            }
        }
        bad = 0
        for (s in node) {                   # does s reach itself?
            delete seen; n = 0
            k = split(out[s], q, " ")
            for (j = 1; j <= k; j++) queue[++n] = q[j]
            for (h = 1; h <= n; h++) {
                v = queue[h]
                if (v == s) { print "src/" s " is on a circle of calls inside " stage(s) "/"; bad = 1; break }
                if (v in seen) continue
                seen[v] = 1
                k = split(out[v], q, " ")
                for (j = 1; j <= k; j++) queue[++n] = q[j]
            }
        }
        if (!bad) print "calls inside each stage: no circles"
        exit bad
    }' "$list"
