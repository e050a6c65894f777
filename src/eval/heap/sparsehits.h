/* sparsehits: what the vector paths of the rare-value kernel's pair search share (sparsevec.c:
 * AVX2 and AVX-512; sparsewasm.c: WebAssembly SIMD): the needed values as a bitset of bytes,
 * a vector's hits taken lane by lane as the scalar loop would, and that loop over the pairs
 * left. The macros read the search's locals: t, tm, a, hi, need, mark, cnt, bud, count,
 * budget. */
#ifndef GRUNDY_EVAL_HEAP_SPARSEHITS_H
#define GRUNDY_EVAL_HEAP_SPARSEHITS_H
#include <stdint.h>
#include <string.h>

/* The lanes of one vector that hit (bit k << SH: lane k, pair a + k): each needed value among them,
 * in lane order, leaves need and the bitset (CLEAR: bit y off when h), is marked and counted off;
 * the last one returns from the search. xs holds the lanes' values. */
#define HITS(KMASK, SH, XS, CLEAR)                                                                    \
    do {                                                                                              \
        uint64_t k_ = (KMASK);                                                                        \
        while (k_) {                                                                                  \
            int l_ = __builtin_ctzll(k_) >> (SH);   /* SH 1: a lane's mask bits are two */          \
            k_ &= k_ - 1;                                                                             \
            unsigned y = (XS)[l_];                                                                    \
            /* h = 0: a value an earlier lane of the vector found (no branch: they are common) */   \
            unsigned h = need[y];                                                                     \
            need[y] = 0;                                                                              \
            if (mark) mark[y] |= (uint8_t)h;                                                          \
            CLEAR;                                                                                    \
            if (!(cnt -= h)) {                                                                        \
                *count = 0;                                                                           \
                *budget = bud - (l_ + 1);                                                             \
                return a + l_ + 1;                                                                    \
            }                                                                                         \
        }                                                                                             \
    } while (0)

/* The scalar loop over the pairs left (fewer than a vector's), as sparsescan.c's. The count
 * and budget are kept in locals (cnt, bud) and stored on return: a store to need (bytes) may
 * alias them, so through the pointers every pair would wait on memory. */
#define SCALAR_REST(T)                                                                                \
    for (; a <= hi && bud > 0 && cnt; a++) {                                                          \
        --bud;                                                                                        \
        unsigned x_ = (unsigned)(t[a] ^ tm[-a]);                                                      \
        if (need[x_]) {                                                                               \
            need[x_] = 0;                                                                             \
            if (mark) mark[x_] = 1;                                                                   \
            --cnt;                                                                                    \
        }                                                                                             \
    }                                                                                                 \
    *count = cnt;                                                                                     \
    *budget = bud;                                                                                    \
    return a;

/* The bitset of need[0 .. lim) as bytes (lim <= 512). */
static inline void need_bytes(const uint8_t *need, uint64_t lim, uint8_t *bytes) {
    memset(bytes, 0, 64);
    for (uint64_t y = 0; y < lim; y++) bytes[y >> 3] |= (uint8_t)(need[y] << (y & 7));
}

#endif
