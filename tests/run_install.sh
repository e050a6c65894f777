#!/usr/bin/env bash
# run_install: installs the build into a temporary prefix, checks the installed files, then
# builds examples/c against the install twice (pkg-config, and CMake's find_package(grundy)),
# runs both programs and compares their answers with the Kayles values and the solved sum.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/grundy include/grundy.h lib/libgrundy.a lib/pkgconfig/grundy.pc \
         lib/cmake/grundy/grundyConfig.cmake lib/cmake/grundy/grundyConfigVersion.cmake \
         share/man/man1/grundy.1 share/man/man5/grundy-game.5 share/doc/grundy/examples/c/kayles.c; do
    [ -e "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
# grundy-mpi and its man page, when the build made it.
if [ -x "$build/grundy-mpi" ]; then
    for f in bin/grundy-mpi share/man/man1/grundy-mpi.1; do
        [ -e "$prefix/$f" ] || { echo "not installed: $f (grundy-mpi was built)"; exit 1; }
    done
fi
# Every doc the README or a man page names (docs/NAME.md, or NAME.md in the man pages' text) is
# installed in the doc directory, and at least the ones named today are among them.
named=$( { grep -oE 'docs/[a-z_-]+\.md' "$src/README.md"; sed 's/\\-/-/g' "$src"/docs/man/*.[0-9] | grep -oE '[a-z_/-]+\.md'; } |
         sed 's|.*/||' | sort -u)
for d in language design periodicity tutorial python census quotients; do
    grep -qx "$d.md" <<<"$named" || { echo "$d.md is named by neither the README nor a man page"; exit 1; }
done
for d in $named; do
    [ -f "$prefix/share/doc/grundy/$d" ] || { echo "named but not installed: share/doc/grundy/$d"; exit 1; }
done
soname=$(objdump -p "$prefix"/lib/libgrundy.so | awk '/SONAME/ { print $2 }')
[ "$soname" = libgrundy.so.0 ] || { echo "SONAME is '$soname', not libgrundy.so.0"; exit 1; }
# Only the public API is exported.
bad=$(nm -D --defined-only "$prefix"/lib/libgrundy.so | awk '{ print $3 }' | grep -v -E '^(gr_(version|strerror|compile|program_free|program_reset|program_stats|program_games|set_limits|last_error|last_diagnostic|solve|winning_moves|table|table_outcomes|run|explain_program|free|interrupt|call_progress|run_one|solve_full|table_box|options|check|check_to|plot)|_init|_fini)$' || true)
[ -z "$bad" ] || { echo "exported beyond the API: $bad"; exit 1; }

expected='grundy 0.1.0
kayles(0..20): 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2 1
kayles(5) + nim(3): N, sg 7
  -> kayles(3) + nim(3)
  -> kayles(1) + kayles(2) + nim(3)
misere: N
bad position: bad input (position:1:13: error: unknown game '"'"'nimm'"'"' (did you mean '"'"'nim'"'"'?))'

# 1. pkg-config
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc=${CC:-cc}
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Wextra -Werror "$src/examples/c/kayles.c" -o "$tmp/kayles_pc" $(pkg-config --cflags --libs grundy)
# The .pc file's Libs carries an rpath: the program runs from the prefix with no LD_LIBRARY_PATH.
got=$(env -u LD_LIBRARY_PATH "$tmp/kayles_pc")
# --cflags names only what grundy.h needs: the prefix's include directory, no cairo or glib.
read -r -a cflags <<<"$(pkg-config --cflags grundy)"
[ ${#cflags[@]} -eq 1 ] && [ "$(readlink -f "${cflags[0]#-I}")" = "$(readlink -f "$prefix/include")" ] ||
    { echo "pkg-config --cflags grundy: '${cflags[*]}'"; exit 1; }
# The tutorial and its pictures are installed beside each other.
[ -f "$prefix/share/doc/grundy/tutorial.md" ] && [ -f "$prefix/share/doc/grundy/tutorial/wythoff-sg.png" ] ||
    { echo "the tutorial is not installed"; exit 1; }
[ "$got" = "$expected" ] || { echo "pkg-config build answered:"; echo "$got"; exit 1; }

# 2. find_package(grundy)
cmake -S "$src/examples/c" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/cm" >/dev/null
got=$("$tmp/cm/kayles")
[ "$got" = "$expected" ] || { echo "find_package build answered:"; echo "$got"; exit 1; }
# The installed command runs too.
"$prefix/bin/grundy" "$src/examples/kayles.game" >/dev/null
echo "install: both builds against $prefix answer correctly"
