#!/usr/bin/env bash
# pip install --no-build-isolation of python/ (offline, the system's setuptools), as the README
# says, into a scratch folder: a copy of python/ is built, linking the build's libgrundy.a, so
# the source tree gets no build files; then the installed package answers from there.
# Usage: run_pip.sh PYTHON SOURCE_DIR BUILD_DIR
set -euo pipefail
python=$1 src=$2 build=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/python" "$tmp/python"
rm -rf "$tmp/python/build" "$tmp/python"/*.egg-info
GRUNDY_SOURCE_DIR=$src GRUNDY_BUILD_DIR=$build "$python" -m pip install -q --no-build-isolation --no-deps \
    --no-index --target "$tmp/site" "$tmp/python" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
for f in __init__.py _grundy.pyi py.typed; do
    [ -e "$tmp/site/grundy/$f" ] || { echo "not installed: grundy/$f"; exit 1; }
done
cd "$tmp"
got=$(PYTHONPATH="$tmp/site" "$python" -c '
import grundy
p = grundy.compile("game kayles = octal \"0.77\";")
c = grundy.compile("game a = octal \"0.6\";").check("a periodic", to=20000, threads=1)
print(grundy.__file__.startswith("'"$tmp/site"'"), list(p.table("kayles", range(12))), p.solve("kayles(4) + kayles(7)").sg,
      c.largest, c.largest_at, c.rare_mask, c.rare_count, c.last_rare)')
want="True [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6] 3 284 18855 494 1583 18833"
[ "$got" = "$want" ] || { echo "installed package answered '$got', not '$want'"; exit 1; }
echo "pip install: ok"
