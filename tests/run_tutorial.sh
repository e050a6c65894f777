#!/usr/bin/env bash
# run_tutorial.sh GRUNDY SOURCE_DIR: docs/tutorial.md must be what docs/tutorial/make.sh
# writes today (the pictures are regenerated too, into a temporary folder, not compared:
# their bytes depend on the cairo and font versions).
set -u
grundy=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$src/docs/tutorial/make.sh" "$grundy" "$tmp" || { echo "FAIL: make.sh failed"; exit 1; }
for f in nim.png wythoff-outcome.png wythoff-sg.png kayles.png kayles-misere.png wythoff23.dot kayles4.dot; do
    [ -s "$tmp/tutorial/$f" ] || { echo "FAIL: make.sh did not write $f"; exit 1; }
done
if ! diff -u "$src/docs/tutorial.md" "$tmp/tutorial.md"; then
    echo "FAIL: docs/tutorial.md is stale; run: bash docs/tutorial/make.sh build/grundy"
    exit 1
fi
echo "tutorial: up to date"
