#!/usr/bin/env bash
# run_docs.sh GRUNDY SRC: the docs in step with the command.
#   - every option that `grundy --help` or `grundy play --help` names is in docs/man/grundy.1;
#   - the README's usage block (the indented block under "## Using it") is `grundy --help`;
#   - every relative link of the Markdown docs (README.md, docs/*.md, src/README.md) resolves
#     to a file of the repository (anchors ignored).
# Prints "N passed, M failed".
set -u
grundy=$1 src=$2
pass=0 fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

man=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$src/docs/man/grundy.1")
opts=$( { "$grundy" --help; "$grundy" play --help; } | grep -oE '(^|[ [,])--?[a-z][a-z-]*' | sed 's/^[ [,]//' | sort -u)
[ -n "$opts" ] || bad "no options found in --help"
for o in $opts; do
    if grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" <<<"$man"; then pass=$((pass + 1)); else bad "grundy.1 lacks $o (named by --help)"; fi
done

# The README's block, its 4-space indent removed, against --help line for line.
readme_usage=$(awk '/^## Using it/ { on = 1; next } on && /^    / { sub(/^    /, ""); print; seen = 1; next }
                    on && seen && !/^$/ { exit } on && seen { print }' "$src/README.md" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}')
if [ "$readme_usage" = "$("$grundy" --help)" ]; then pass=$((pass + 1)); else
    bad "README.md's usage block differs from grundy --help:"; diff <(echo "$readme_usage") <("$grundy" --help); fi

for md in "$src/README.md" "$src"/docs/*.md "$src/src/README.md"; do
    dir=$(dirname "$md")
    # [text](target): relative targets only
    while IFS= read -r target; do
        t=${target%%#*}
        [ -z "$t" ] && continue
        case $t in http://*|https://*|mailto:*) continue ;; esac
        if [ -e "$dir/$t" ]; then pass=$((pass + 1)); else bad "$md links to $target, which does not exist"; fi
    done < <(sed 's/`[^`]*`//g' "$md" | grep -oE '\]\([^) ]+\)' | sed -E 's/^\]\(//; s/\)$//')
done

echo "docs: $pass passed, $fail failed"
[ $fail -eq 0 ]
