#!/usr/bin/env bash
# make.sh GRUNDY [OUTDIR]: regenerates the tutorial from tutorial.in.md. Each "@game FILE" line
# becomes the file's text, each "@run ARGS" the command and what grundy prints, each
# "@play CMD" a shell pipeline into "grundy play" and its transcript. Plots and DOT files are
# written into OUTDIR/tutorial/ (DOT files also drawn as PNG when Graphviz is installed), the
# text to OUTDIR/tutorial.md. OUTDIR defaults to docs/; the test writes elsewhere and compares.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
grundy=$1
case $grundy in /*) ;; *) grundy=$PWD/$grundy ;; esac
out=${2:-$here/..}
mkdir -p "$out/tutorial"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*.game "$work"/
cd "$work"
# The command is named 'grundy' in the text, whatever path ran it.
grundy() { "$grundy" "$@"; }
{
    while IFS= read -r line; do
        case $line in
        "@game "*)
            f=${line#@game }
            printf '```\n# %s\n' "$f"; cat "$f"; printf '```\n' ;;
        "@run "*)
            args=${line#@run }
            printf '```\n$ grundy %s\n' "$args"
            # shellcheck disable=SC2086
            grundy $args --no-progress
            printf '```\n' ;;
        "@play "*)
            cmd=${line#@play }
            printf '```\n$ %s\n' "$cmd"
            eval "$cmd"
            printf '```\n' ;;
        *) printf '%s\n' "$line" ;;
        esac
    done < "$here/tutorial.in.md"
} > "$out/tutorial.md"
for f in *.png *.dot; do
    [ -e "$f" ] || continue
    cp "$f" "$out/tutorial/"
    case $f in *.dot) command -v dot >/dev/null 2>&1 && dot -Tpng "$f" -o "$out/tutorial/${f%.dot}.png" ;; esac
done
true
