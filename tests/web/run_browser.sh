#!/usr/bin/env bash
# The web page's build and browser test, as ctest runs them (tests/CMakeLists.txt):
#
#   run_browser.sh build SRC WEBBUILD
#       builds the page: emcmake cmake -S SRC -B WEBBUILD && cmake --build WEBBUILD
#       (ctest's fixture web_build; the wasm test and the browser test both use WEBBUILD/web)
#   run_browser.sh test SRC WEBBUILD NPMDIR GRUNDY CHROMIUM [SCREENSHOTS]
#       installs tests/web's packages (playwright-core) with npm ci into NPMDIR (only when the
#       lock changed), then runs tests/web/browser.mjs against WEBBUILD/web with the native
#       command GRUNDY and the browser CHROMIUM; screenshots go to SCREENSHOTS when given.
set -euo pipefail
# (Debian's emcc needs node-acorn on NODE_PATH: web/CMakeLists.txt sets it for the link when it
# is not set, so the build here is exactly the documented command.)

mode=${1:-}
case "$mode" in
build)
    [ $# -eq 3 ] || { echo "usage: $0 build SRC WEBBUILD" >&2; exit 2; }
    src=$2 out=$3
    jobs=${GRUNDY_WEB_JOBS:-2}
    start=$(date +%s)
    echo "web_build: emcmake cmake -S $src -B $out && cmake --build $out -j$jobs"
    # The native build's compiler settings are not the wasm build's.
    unset CC CXX CFLAGS LDFLAGS
    # exactly the documented command (docs/web.md), its log beside the build folder
    mkdir -p "$out"
    emcmake cmake -S "$src" -B "$out" >"$out/web_build.log" 2>&1 \
        || { tail -n 40 "$out/web_build.log"; echo "web_build: emcmake cmake failed (log: $out/web_build.log)" >&2; exit 1; }
    cmake --build "$out" -j"$jobs" >>"$out/web_build.log" 2>&1 \
        || { tail -n 40 "$out/web_build.log"; echo "web_build: cmake --build failed (log: $out/web_build.log)" >&2; exit 1; }
    for f in index.html grundy.js grundy.wasm worker.js; do
        [ -s "$out/web/$f" ] || { echo "web_build: $out/web/$f is missing" >&2; exit 1; }
    done
    echo "web_build: $out/web/ ($(du -sh "$out/web" | cut -f1)) in $(( $(date +%s) - start )) s"
    ;;
test)
    [ $# -ge 6 ] && [ $# -le 7 ] || { echo "usage: $0 test SRC WEBBUILD NPMDIR GRUNDY CHROMIUM [SCREENSHOTS]" >&2; exit 2; }
    src=$2 out=$3 npm=$4 grundy=$5 chromium=$6 shots=${7:-}
    [ -s "$out/web/index.html" ] || { echo "web_browser: $out/web/index.html is missing (the fixture web_build did not build the page)" >&2; exit 1; }
    # npm ci into the build folder, never into the source tree; again only when the lock changed.
    mkdir -p "$npm"
    if ! cmp -s "$src/tests/web/package-lock.json" "$npm/package-lock.json" || [ ! -d "$npm/node_modules/playwright-core" ]; then
        echo "web_browser: npm ci (playwright-core) into $npm"
        rm -f "$npm/package-lock.json"
        cp "$src/tests/web/package.json" "$src/tests/web/package-lock.json" "$npm/"
        (cd "$npm" && npm ci --no-audit --no-fund --ignore-scripts) || { rm -f "$npm/package-lock.json"; exit 1; }
    fi
    export NODE_PATH=$npm/node_modules${NODE_PATH:+:$NODE_PATH}
    echo "web_browser: node tests/web/browser.mjs against $out/web"
    exec node "$src/tests/web/browser.mjs" --web "$out/web" --grundy "$grundy" --chromium "$chromium" \
        ${shots:+--screenshots "$shots"}
    ;;
*)
    echo "usage: $0 build SRC WEBBUILD | test SRC WEBBUILD NPMDIR GRUNDY CHROMIUM [SCREENSHOTS]" >&2
    exit 2
    ;;
esac
