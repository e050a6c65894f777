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

# What a new user reads names only what is in the repository (the language contract the
# project was built from lives outside it) and says where to run the tutorial from and what
# `grundy` means before it is installed.
if grep -rn '\.\./shared/' "$src/examples" "$src/docs" "$src/README.md" >/dev/null; then
    bad "a user-facing file names ../shared/, which is not in the repository: $(grep -rln '\.\./shared/' "$src/examples" "$src/docs" "$src/README.md" | tr '\n' ' ')"
else pass=$((pass + 1)); fi
if grep -q 'cd docs/tutorial' "$src/docs/tutorial.md" && grep -q '\.\./\.\./build/grundy' "$src/docs/tutorial.md"; then
    pass=$((pass + 1)); else bad "docs/tutorial.md does not say to run from docs/tutorial with ../../build/grundy"; fi
# The README's test time is a measurement, and says on what (wall clock and user CPU).
if tr '\n' ' ' <"$src/README.md" | grep -Eq 'measured once on a two-core[^.]*[0-9.]+ minutes of wall clock, [0-9.]+ minutes of user CPU'; then
    pass=$((pass + 1)); else bad "README.md's test time is not a measurement on two cores of wall clock and user CPU"; fi

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
