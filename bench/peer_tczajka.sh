#!/usr/bin/env bash
# peer_tczajka: builds T. Czajka's octal-games analyzer (the C++ program `analyze` of his
# repository's old/src, MIT licence) so that bench/bench_rare can time it beside our kernel
# (`bench_rare --peer OUT_DIR/tczajka-analyze`, or GRUNDY_PEER_TCZAJKA). Nothing of it is kept
# in this repository: the script compiles it from a snapshot of its own source, wherever that
# is, into OUT_DIR.
#
# Getting the snapshot:
#     git clone https://github.com/tczajka/octal-games /tmp/octal-games
# (or, from a bare mirror: git -C MIRROR archive HEAD | tar -x -C /tmp/octal-games). The
# googletest submodule is not needed: only the files analyze_exec.cc uses are compiled, with
# g++ -O3 -march=native (his Makefile says -O2; -O3 -march=native is the fairer peer of our
# Release build, which uses this processor's vector paths).
#
# The program takes one argument, the game ("0.6", ".6", or "grundy" for Grundy's game: it
# does not read '!' codes such as 4!.0). It has no heap limit on its command line: it runs to
# 2^28 heaps or a period, printing a line "n=2^K largest G[i]=v rare_mask=m num_rare=r
# last_rare=l" at each power of two, so bench_rare stops it at the line it needs.
#
# usage: bench/peer_tczajka.sh SRC_DIR OUT_DIR   (SRC_DIR: the snapshot's top folder, or its
#        old/src); exit 2 when the sources are not there or do not build.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 SRC_DIR OUT_DIR" >&2; exit 2; }
src=$1 out=$2
# The top of a clone holds old/src; accept old/src itself too.
[ -d "$src/old/src" ] && src=$src/old/src
files="analyze_exec.cc game.cc hadamard.cc game.h hadamard.h bit_util.h"
for f in $files; do
    [ -f "$src/$f" ] || {
        echo "peer_tczajka: $src/$f missing: SRC_DIR must be a snapshot of" \
             "https://github.com/tczajka/octal-games (its top folder or old/src)" >&2
        exit 2
    }
done
mkdir -p "$out"
CXX=${CXX:-g++}
# His code is C++11; its warnings are his, so none are made errors here.
if ! "$CXX" -std=c++11 -O3 -march=native -DNDEBUG -I"$src" \
        "$src/analyze_exec.cc" "$src/game.cc" "$src/hadamard.cc" -o "$out/tczajka-analyze"; then
    echo "peer_tczajka: the analyzer did not build with $CXX" >&2
    exit 2
fi
echo "$out/tczajka-analyze"
