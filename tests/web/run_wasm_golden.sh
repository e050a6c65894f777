#!/usr/bin/env bash
# run_wasm_golden.sh SOURCE_DIR BUILD_DIR NATIVE_GRUNDY: the ctest "wasm_golden". Builds the
# WebAssembly module itself (emcmake, Release, into BUILD_DIR/web-build; only the module and
# the worker, not the page, so no npm), then runs tests/web/wasm_golden.mjs against it and the
# native command. Emscripten's first build may fill its cache: slow once.
set -u
src=$1 build=$2 native=$3
out=$build/web-build
log=$build/web-build.log
if ! { emcmake cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$out" -j2 --target grundy_wasm grundy_web_worker; } > "$log" 2>&1; then
    echo "FAIL: the WebAssembly build failed ($log):"
    tail -n 40 "$log"
    exit 1
fi
exec node "$src/tests/web/wasm_golden.mjs" "$out/web" "$src" "$native"
