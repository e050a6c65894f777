/* sparsevec: the rare-value kernel's pair search (sparsescan.c) with AVX2 and AVX-512, chosen at
 * run time (core/simd.h). x86-64 only, and not under Emscripten: elsewhere this file is empty.
 *
 * The search looks, among the pairs (a, m - a), for the values x = t[a] ^ t[m - a] still needed
 * (need[x]); per heap it starts with dozens of them and ends when none is left, which takes
 * hundreds to thousands of pairs. The portable paths test a pair's value against the need
 * bytes one at a time, or, once few are left, compare a vector of values with each one still
 * needed. Here the needed set is a bitset held in registers, and a lane's bit is fetched by a
 * permute, so a vector of pairs costs the same few instructions however many values are needed:
 *   AVX-512, u16 table (values below 1024): 32 pairs; the bitset is 32 (or 64) words, lane
 *     x's word x >> 4 by vpermw (vpermi2w over two registers past 512), its bit x & 15 by a
 *     variable shift; with larger values (0.04 from about heap 2^19, P = 2048) while the values
 *     needed are below 2048: two registers (or four, two vpermi2w and a blend by bit 10) and
 *     the lanes past the bitset masked off by a compare;
 *   AVX-512 (VBMI), u8 table: 64 pairs; 32 bytes of bitset, byte x >> 3 by vpermb, its bit
 *     1 << (x & 7) from a vpshufb table;
 *   AVX2, u8 table: 32 pairs; the bitset's bytes by two vpshufb (16 bytes each) and a blend;
 *   AVX2, u16 table (values below 512): 16 pairs; the bitset as 64 bytes, byte x >> 3 by four
 *     vpshufb and two blends.
 * A vector with a lane hit (about once per value found) is looked at lane by lane, in order,
 * exactly as the scalar loop would: the value's need and bit are cleared, it is marked, counted
 * off, and the search returns just past the pair that found the last one. So `a`, the budget
 * and the marks come out as the scalar loop leaves them. The second part's lanes are loaded
 * from t[m - a - W + 1 ..] and reversed. */
#include "eval/heap/sparseint.h"
#include "eval/heap/sparsehits.h"

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi,bmi2")))
#define AVX2 __attribute__((target("avx2")))

/* The first min(left, 64) lanes of a 64-byte vector: the part of a chunk before a limit. */
AVX512 static inline __mmask64 first_lanes(uint64_t left) {
    return left >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
}
/* Bit i: need[y + i] is set, for y + i < lim (no read past lim). */
AVX512 static inline __mmask64 need_word(const uint8_t *need, uint64_t y, uint64_t lim) {
    __m512i v = _mm512_maskz_loadu_epi8(first_lanes(lim - y), need + y);
    return _mm512_test_epi8_mask(v, v);
}

/* The bitset of need[0 .. lim) as 64-bit words (bits past lim clear), lim <= 8192 (bits: 128
 * words; those past 1024 are cleared only when lim is past 1024, those past 4096 only when lim
 * is past 4096: every caller passes 128 words, or 16 with lim below 256, as GCC can see). */
AVX512 static void need_bits512(const uint8_t *need, uint64_t lim, uint64_t *bits) {
    memset(bits, 0, lim > 4096 ? 1024 : lim > 1024 ? 512 : 128);
    for (uint64_t y = 0; y < lim; y += 64) bits[y / 64] = need_word(need, y, lim);
}

/* Bit y (below 512) of a register bitset, set, cleared: dword y >> 5, bit y & 31 (the same bit as
 * word y >> 4's bit y & 15, or byte y >> 3's bit y & 7, on this little-endian machine). */
AVX512 static inline __m512i clear_bit(__m512i v, unsigned y, unsigned h) {
    return _mm512_mask_xor_epi32(v, (__mmask16)(1u << (y >> 5)), v, _mm512_set1_epi32((int)(h << (y & 31))));
}

enum { CMP_TAIL = 4 };   /* values left when the searches past 2048 turn to compares */
/* two vectors a step while 64 pairs are left (one branch for both: most steps of the
 * long tail hit nothing), then one; P <= 512: one register of bitset, else two */
#define TEST16(X, OFF, LOOKUP, RANGE)                                                                 \
        __m512i X = _mm512_xor_si512(_mm512_loadu_si512((const void *)(t + a + (OFF))),              \
                                     _mm512_permutexvar_epi16(rev, _mm512_loadu_si512((const void *)(tm - a - (OFF) - 31)))); \
        __mmask32 k##X;                                                                               \
        {                                                                                             \
            __m512i x = X, w = LOOKUP;                                                                \
            k##X = _mm512_mask_test_epi16_mask(RANGE, _mm512_srlv_epi16(w, _mm512_and_si512(x, fifteen)), one); \
        }
#define LOOP16(LOOKUP, CLEAR) LOOP16R(LOOKUP, CLEAR, (__mmask32)~0u)
#define LOOP16R(LOOKUP, CLEAR, RANGE) LOOP16T(LOOKUP, CLEAR, RANGE, 1)
#define LOOP16T(LOOKUP, CLEAR, RANGE, MORE)                                                           \
        while ((MORE) && a + 63 <= hi && bud >= 64) {                                                 \
            TEST16(x0, 0, LOOKUP, RANGE)                                                              \
            TEST16(x1, 32, LOOKUP, RANGE)                                                             \
            if (kx0 | kx1) {                                                                          \
                _mm512_store_si512((void *)xs, x0);                                                   \
                _mm512_store_si512((void *)(xs + 32), x1);                                            \
                HITS((uint64_t)kx0 | (uint64_t)kx1 << 32, 0, xs, CLEAR);                              \
            }                                                                                         \
            a += 64;                                                                                  \
            bud -= 64;                                                                                \
        }                                                                                             \
        while ((MORE) && a + 31 <= hi && bud >= 32) {                                                 \
            TEST16(x0, 0, LOOKUP, RANGE)                                                              \
            if (kx0) {                                                                                \
                _mm512_store_si512((void *)xs, x0);                                                   \
                HITS(kx0, 0, xs, CLEAR);                                                              \
            }                                                                                         \
            a += 32;                                                                                  \
            bud -= 32;                                                                                \
        }
/* The values past 2048 (lim > 2048) of gr_sparse_pairs_avx512_u16, where its other cases
 * leave off: eight or sixteen registers of bitset, then the last few values by compares. Apart
 * so that the search reads as its cases; always inlined, so that the code is what it was in one
 * function. It works on the search's a, cnt and bud, stored back through pa, pcnt and pbud when
 * it returns -1 (the caller goes on to its scalar rest), and returns what the search returns
 * when the last value is found in a vector (HITS: count and budget stored). */
AVX512 static inline __attribute__((always_inline)) int64_t pairs_u16_wide(
    const uint16_t *restrict t, const uint16_t *restrict tm, int64_t *pa, int64_t hi, uint8_t *restrict need,
    uint8_t *restrict mark, int64_t *count, int64_t *budget, int64_t *pcnt, int64_t *pbud, const uint64_t *bits,
    uint64_t lim) {
    int64_t a = *pa, cnt = *pcnt, bud = *pbud;
    __m512i lo = _mm512_load_si512(bits), hi2 = _mm512_load_si512(bits + 8);
    const __m512i rev = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                         20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const __m512i fifteen = _mm512_set1_epi16(15), one = _mm512_set1_epi16(1);
    uint16_t xs[64] __attribute__((aligned(64)));
    {
            /* 2048 < lim <= 4096 (the plain kernel's search of every value, octneed.c): eight
             * registers, four lookups and blends by bits 10 and 11; 4096 < lim <= 8192 (a
             * rare-value search with values past 4096, 0.764's): sixteen, eight lookups and
             * blends by bits 10, 11 and 12 (the scalar byte marks before, 3 times the cost) */
            __m512i b2 = _mm512_load_si512(bits + 16), b3 = _mm512_load_si512(bits + 24);
            __m512i b4 = _mm512_load_si512(bits + 32), b5 = _mm512_load_si512(bits + 40);
            __m512i b6 = _mm512_load_si512(bits + 48), b7 = _mm512_load_si512(bits + 56);
            const __m512i b10 = _mm512_set1_epi16(1024), b11 = _mm512_set1_epi16(2048);
#define PAIR4(X, R0, R1, R2, R3)                                                                      \
            _mm512_mask_blend_epi16(_mm512_test_epi16_mask(X, b10),                                   \
                                    _mm512_permutex2var_epi16(R0, _mm512_srli_epi16(X, 4), R1),       \
                                    _mm512_permutex2var_epi16(R2, _mm512_srli_epi16(X, 4), R3))
#define PAIR8(X, R0, R1, R2, R3, R4, R5, R6, R7)                                                      \
            _mm512_mask_blend_epi16(_mm512_test_epi16_mask(X, b11), PAIR4(X, R0, R1, R2, R3), PAIR4(X, R4, R5, R6, R7))
#define CLEAR8(R0, R1, R2, R3, R4, R5, R6, R7, FROM)                                                  \
                    case FROM / 512: R0 = clear_bit(R0, y - (FROM), h); break;                        \
                    case FROM / 512 + 1: R1 = clear_bit(R1, y - (FROM) - 512, h); break;              \
                    case FROM / 512 + 2: R2 = clear_bit(R2, y - (FROM) - 1024, h); break;             \
                    case FROM / 512 + 3: R3 = clear_bit(R3, y - (FROM) - 1536, h); break;             \
                    case FROM / 512 + 4: R4 = clear_bit(R4, y - (FROM) - 2048, h); break;             \
                    case FROM / 512 + 5: R5 = clear_bit(R5, y - (FROM) - 2560, h); break;             \
                    case FROM / 512 + 6: R6 = clear_bit(R6, y - (FROM) - 3072, h); break;             \
                    case FROM / 512 + 7: R7 = clear_bit(R7, y - (FROM) - 3584, h); break;
            if (lim <= 4096) {
                const __m512i top = _mm512_set1_epi16(4096);
                LOOP16T(PAIR8(x, lo, hi2, b2, b3, b4, b5, b6, b7),
                        switch (y >> 9) { CLEAR8(lo, hi2, b2, b3, b4, b5, b6, b7, 0) default: break; },
                        _mm512_cmplt_epu16_mask(x, top), cnt > CMP_TAIL)
            } else {
                __m512i b8 = _mm512_load_si512(bits + 64), b9 = _mm512_load_si512(bits + 72);
                __m512i ba = _mm512_load_si512(bits + 80), bb = _mm512_load_si512(bits + 88);
                __m512i bc = _mm512_load_si512(bits + 96), bd = _mm512_load_si512(bits + 104);
                __m512i be = _mm512_load_si512(bits + 112), bf = _mm512_load_si512(bits + 120);
                const __m512i top = _mm512_set1_epi16(8192), b12 = _mm512_set1_epi16(4096);
                LOOP16T(_mm512_mask_blend_epi16(_mm512_test_epi16_mask(x, b12), PAIR8(x, lo, hi2, b2, b3, b4, b5, b6, b7),
                                                PAIR8(x, b8, b9, ba, bb, bc, bd, be, bf)),
                        switch (y >> 9) {
                            CLEAR8(lo, hi2, b2, b3, b4, b5, b6, b7, 0)
                            CLEAR8(b8, b9, ba, bb, bc, bd, be, bf, 4096)
                            default: break;
                        },
                        _mm512_cmplt_epu16_mask(x, top), cnt > CMP_TAIL)
            }
            /* The last few values (a deep search spends most of its pairs on them): each is
             * compared for, two or four compares a vector against four to eight look-ups and
             * their blends. The list is made again after every vector with a hit. */
            uint16_t yv[CMP_TAIL];
            int nv = 0;
            if (cnt && a + 31 <= hi && bud >= 32)
                for (uint64_t y = 0; y < lim && nv < cnt; y += 64)
                    for (uint64_t k = need_word(need, y, lim); k && nv < cnt; k &= k - 1)
                        yv[nv++] = (uint16_t)(y + (uint64_t)__builtin_ctzll(k));
            while (cnt && a + 31 <= hi && bud >= 32) {
                int kept = 0;
                for (int i = 0; i < nv; i++)
                    if (need[yv[i]]) yv[kept++] = yv[i];
                nv = kept;
                const __m512i y0 = _mm512_set1_epi16((short)yv[0]), y1 = _mm512_set1_epi16((short)yv[nv > 1]);
                const __m512i y2 = _mm512_set1_epi16((short)yv[nv > 2 ? 2 : 0]);
                const __m512i y3 = _mm512_set1_epi16((short)yv[nv > 3 ? 3 : 0]);
#define CMP_RUN(HIT)                                                                                  \
                while (a + 31 <= hi && bud >= 32) {                                                   \
                    __m512i x = _mm512_xor_si512(_mm512_loadu_si512((const void *)(t + a)),           \
                                                 _mm512_permutexvar_epi16(rev, _mm512_loadu_si512((const void *)(tm - a - 31)))); \
                    __mmask32 k = HIT;                                                                \
                    if (k) {                                                                          \
                        _mm512_store_si512((void *)xs, x);                                            \
                        HITS(k, 0, xs, (void)0);                                                      \
                        a += 32;                                                                      \
                        bud -= 32;                                                                    \
                        break;                                                                        \
                    }                                                                                 \
                    a += 32;                                                                          \
                    bud -= 32;                                                                        \
                }
                if (nv <= 2) {
                    CMP_RUN(_mm512_cmpeq_epi16_mask(x, y0) | _mm512_cmpeq_epi16_mask(x, y1))
                } else {
                    CMP_RUN(_mm512_cmpeq_epi16_mask(x, y0) | _mm512_cmpeq_epi16_mask(x, y1) |
                            _mm512_cmpeq_epi16_mask(x, y2) | _mm512_cmpeq_epi16_mask(x, y3))
                }
#undef CMP_RUN
            }
#undef CLEAR8
#undef PAIR8
#undef PAIR4
    }
    *pa = a;
    *pcnt = cnt;
    *pbud = bud;
    return -1;
}

int64_t gr_sparse_pairs_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                   uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                   int64_t *budget, uint64_t lim, uint64_t P) AVX512;
int64_t gr_sparse_pairs_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                   uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                   int64_t *budget, uint64_t lim, uint64_t P) {
    const uint16_t *restrict tm = t + m;
    int64_t cnt = *count, bud = *budget;
    if (cnt && a + 31 <= hi && bud >= 32) {
        uint64_t bits[128] __attribute__((aligned(64)));
        need_bits512(need, lim, bits);
        __m512i lo = _mm512_load_si512(bits), hi2 = _mm512_load_si512(bits + 8);
        const __m512i rev = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                             20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
        const __m512i fifteen = _mm512_set1_epi16(15), one = _mm512_set1_epi16(1);
        uint16_t xs[64] __attribute__((aligned(64)));
        if (P <= 512) {
            LOOP16(_mm512_permutexvar_epi16(_mm512_srli_epi16(x, 4), lo), lo = clear_bit(lo, y, h))
        } else if (P <= 1024) {
            /* 512 <= P <= 1024: two registers */
            LOOP16(_mm512_permutex2var_epi16(lo, _mm512_srli_epi16(x, 4), hi2),
                   if (y < 512) lo = clear_bit(lo, y, h); else hi2 = clear_bit(hi2, y - 512, h))
        } else if (lim <= 1024) {
            /* values past 1024 (P > 1024) but none of them needed: the two registers, and the
             * lanes from 1024 on (whose word index wraps) masked off */
            const __m512i top = _mm512_set1_epi16(1024);
            LOOP16R(_mm512_permutex2var_epi16(lo, _mm512_srli_epi16(x, 4), hi2),
                    if (y < 512) lo = clear_bit(lo, y, h); else hi2 = clear_bit(hi2, y - 512, h),
                    _mm512_cmplt_epu16_mask(x, top))
        } else if (lim <= 2048) {
            /* 1024 < lim <= 2048: four registers, two lookups and a blend by the value's bit 10;
             * the lanes from 2048 on masked off */
            __m512i b2 = _mm512_load_si512(bits + 16), b3 = _mm512_load_si512(bits + 24);
            const __m512i top = _mm512_set1_epi16(2048), b10 = _mm512_set1_epi16(1024);
            LOOP16R(_mm512_mask_blend_epi16(_mm512_test_epi16_mask(x, b10),
                                            _mm512_permutex2var_epi16(lo, _mm512_srli_epi16(x, 4), hi2),
                                            _mm512_permutex2var_epi16(b2, _mm512_srli_epi16(x, 4), b3)),
                    switch (y >> 9) {
                    case 0: lo = clear_bit(lo, y, h); break;
                    case 1: hi2 = clear_bit(hi2, y - 512, h); break;
                    case 2: b2 = clear_bit(b2, y - 1024, h); break;
                    default: b3 = clear_bit(b3, y - 1536, h); break;
                    },
                    _mm512_cmplt_epu16_mask(x, top))
        } else {
            int64_t r = pairs_u16_wide(t, tm, &a, hi, need, mark, count, budget, &cnt, &bud, bits, lim);
            if (r >= 0) return r;
        }
    }
    SCALAR_REST(uint16_t)
}
#undef TEST16
#undef LOOP16
#undef LOOP16R
#undef LOOP16T

/* The plain kernel's search for every value below lim (octneed.c): no budget, no marks, and no
 * need to stop just past the pair that met the last value, so the hits are not looked at lane
 * by lane as they come (a branch per lane and one on the value's register, mispredicted about
 * once a hit: as much time as the vector loop itself, a few thousand hits a heap). A vector pair
 * with hits appends its hit lanes' values to a list (compressed), and every ALL_GROUP vector
 * pairs the list's values leave need and the bitset, which is kept in memory and loaded into
 * the registers again. A value met twice in a group is on the list twice: the second finds its
 * need clear. Returns how many values are still needed (need's ones). lim <= 4096. A window
 * [base, base + lim) of the values: a pair's value x is looked for as x - base (need and the
 * bitset start at base; below base it wraps past lim, never a hit), base + lim <= 65536. */
enum { ALL_GROUP = 16 };
int64_t gr_sparse_pairs_all_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                       uint8_t *restrict need, int64_t cnt, uint64_t lim, uint64_t base) AVX512;
int64_t gr_sparse_pairs_all_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                       uint8_t *restrict need, int64_t cnt, uint64_t lim, uint64_t base) {
    const uint16_t *restrict tm = t + m;
    if (cnt && a + 63 <= hi) {
        uint64_t bits[128] __attribute__((aligned(64)));
        uint16_t list[ALL_GROUP * 64 + 32];
        need_bits512(need, lim, bits);
        if (lim <= 1024) memset(bits + 16, 0, 384);   /* (need_bits512 clears 16 words then) */
        const __m512i rev = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                             20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
        const __m512i fifteen = _mm512_set1_epi16(15), one = _mm512_set1_epi16(1);
        const __m512i b10 = _mm512_set1_epi16(1024), b11 = _mm512_set1_epi16(2048);
        /* registers by how many values: 2 (below 1024), 4 (2048) or 8 (4096), the lanes past
         * them masked off (their word index would wrap) */
        const int regs = lim <= 1024 ? 2 : lim <= 2048 ? 4 : 8;
        const __m512i top = _mm512_set1_epi16((short)(regs * 512)), from = _mm512_set1_epi16((short)base);
        __m512i r0, r1, r2, r3, r4, r5, r6, r7;
#define ALL_LOAD()                                                                                    \
        do {                                                                                          \
            r0 = _mm512_load_si512(bits); r1 = _mm512_load_si512(bits + 8);                           \
            r2 = _mm512_load_si512(bits + 16); r3 = _mm512_load_si512(bits + 24);                     \
            r4 = _mm512_load_si512(bits + 32); r5 = _mm512_load_si512(bits + 40);                     \
            r6 = _mm512_load_si512(bits + 48); r7 = _mm512_load_si512(bits + 56);                     \
        } while (0)
#define ALL_PAIR(X, R0, R1, R2, R3)                                                                   \
        _mm512_mask_blend_epi16(_mm512_test_epi16_mask(X, b10),                                       \
                                _mm512_permutex2var_epi16(R0, _mm512_srli_epi16(X, 4), R1),           \
                                _mm512_permutex2var_epi16(R2, _mm512_srli_epi16(X, 4), R3))
#define ALL_TEST(X, K, OFF, LOOKUP)                                                                   \
        __m512i X = _mm512_sub_epi16(_mm512_xor_si512(_mm512_loadu_si512((const void *)(t + a + (OFF))), \
                                     _mm512_permutexvar_epi16(rev, _mm512_loadu_si512((const void *)(tm - a - (OFF) - 31)))), from); \
        __mmask32 K = _mm512_mask_test_epi16_mask(_mm512_cmplt_epu16_mask(X, top),                    \
                                                  _mm512_srlv_epi16(LOOKUP(X), _mm512_and_si512(X, fifteen)), one)
#define ALL_LOOP(LOOKUP)                                                                              \
        while (a + 63 <= hi) {                                                                        \
            int64_t nl = 0;                                                                           \
            for (int g = 0; g < ALL_GROUP && a + 63 <= hi; g++, a += 64) {                           \
                ALL_TEST(x0, k0, 0, LOOKUP);                                                          \
                ALL_TEST(x1, k1, 32, LOOKUP);                                                         \
                if (k0 | k1) {                                                                        \
                    _mm512_storeu_si512((void *)(list + nl), _mm512_maskz_compress_epi16(k0, x0));    \
                    nl += __builtin_popcount(k0);                                                     \
                    _mm512_storeu_si512((void *)(list + nl), _mm512_maskz_compress_epi16(k1, x1));    \
                    nl += __builtin_popcount(k1);                                                     \
                }                                                                                     \
            }                                                                                         \
            if (nl) {                                                                                 \
                for (int64_t i = 0; i < nl; i++) {                                                    \
                    unsigned y = list[i];                                                             \
                    cnt -= need[y];                                                                   \
                    need[y] = 0;                                                                      \
                    bits[y >> 6] &= ~((uint64_t)1 << (y & 63));                                       \
                }                                                                                     \
                if (!cnt) return 0;                                                                   \
                ALL_LOAD();                                                                           \
            }                                                                                         \
        }
#define ALL_2(X) _mm512_permutex2var_epi16(r0, _mm512_srli_epi16(X, 4), r1)
#define ALL_4(X) ALL_PAIR(X, r0, r1, r2, r3)
#define ALL_8(X) _mm512_mask_blend_epi16(_mm512_test_epi16_mask(X, b11), ALL_PAIR(X, r0, r1, r2, r3), ALL_PAIR(X, r4, r5, r6, r7))
        ALL_LOAD();
        if (regs == 2) {
            ALL_LOOP(ALL_2)
        } else if (regs == 4) {
            ALL_LOOP(ALL_4)
        } else {
            ALL_LOOP(ALL_8)
        }
#undef ALL_2
#undef ALL_4
#undef ALL_8
#undef ALL_LOOP
#undef ALL_TEST
#undef ALL_PAIR
#undef ALL_LOAD
    }
    for (; a <= hi && cnt; a++) {
        uint64_t x = (uint64_t)(t[a] ^ tm[-a]) - base;
        if (x < lim) {
            cnt -= need[x];
            need[x] = 0;
        }
    }
    return cnt;
}

int64_t gr_sparse_pairs_avx512_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                  uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                  int64_t *budget, uint64_t lim) AVX512;
int64_t gr_sparse_pairs_avx512_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                  uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                  int64_t *budget, uint64_t lim) {
    const uint8_t *restrict tm = t + m;
    int64_t cnt = *count, bud = *budget;
    if (cnt && a + 63 <= hi && bud >= 64) {
        uint64_t bits[16] __attribute__((aligned(64)));
        need_bits512(need, lim < 256 ? lim : 256, bits);
        __m512i ns = _mm512_load_si512(bits);   /* bytes 0..31: values 0..255 */
        __m512i rev = _mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                      21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                                      40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
                                      59, 60, 61, 62, 63);
        const __m512i bit = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128));
        const __m512i seven = _mm512_set1_epi8(7), low5 = _mm512_set1_epi8(31);
        uint8_t xs[64] __attribute__((aligned(64)));
        while (a + 63 <= hi && bud >= 64) {
            __m512i va = _mm512_loadu_si512((const void *)(t + a));
            __m512i vb = _mm512_loadu_si512((const void *)(tm - a - 63));
            __m512i x = _mm512_xor_si512(va, _mm512_permutexvar_epi8(rev, vb));
            __m512i byte = _mm512_permutexvar_epi8(_mm512_and_si512(_mm512_srli_epi16(x, 3), low5), ns);
            __mmask64 k = _mm512_test_epi8_mask(byte, _mm512_shuffle_epi8(bit, _mm512_and_si512(x, seven)));
            if (k) {
                _mm512_store_si512((void *)xs, x);
                HITS(k, 0, xs, ns = clear_bit(ns, y, h));
            }
            a += 64;
            bud -= 64;
        }
    }
    SCALAR_REST(uint8_t)
}

/* The search of a range of pairs [*a, *hi] from both ends at once: a block of 64 pairs from
 * the bottom (a up), then one from the top (hi down), and so on. The ends find different
 * values: near the bottom a pair is a small heap and one of the newest, whose values are
 * unrelated; near the middle both parts are heaps of about half the size, close to each other,
 * whose values are often close too, so their xor is small, and the small values are the ones
 * the bottom finds last. Counted to 2^22 (the values to 2^32 read back): 0.6 needs 1,446 pairs
 * a heap this way against 2,806 from the bottom alone, Grundy's game 2,111 against 3,044.
 * The lanes that hit are not looked at one by one as they come (a branch each, mispredicted as
 * often as not): each vector's are compressed into a list (VBMI2), and the list is gone through
 * after a group of vectors with no branch per lane; the bitset then loses the values found. A
 * group is 64 pairs from each end at first (the first pairs find many values), then 128 from
 * each; the next group's pairs are read and xored before the last group's values leave the
 * bitset, as they do not need it. (Groups of 256 pairs from each end were 4% slower on both
 * games: more pairs read past the last value needed; of 64, 2% slower on 0.6: more groups.)
 * When the ends are closer than a group, or the budget is short of one, the one-ended search
 * goes on from the bottom. Values found leave need and are set in mark (when given: at the
 * end, see mark_found); the budget loses the pairs looked at; [*a, *hi] is left as the range
 * not looked at. Returns how many values are still needed. */
enum { BOTH_FIRST = 64, BOTH_EACH = 128 };   /* pairs from each end: the first group, the others */

/* The values found, set in mark at the end rather than one by one in the list's loop (one
 * store less a lane there): those in the bitset at the start (bits, lim <= 1024) and not in
 * need now. */
AVX512 static void mark_found(uint8_t *mark, const uint8_t *need, const uint64_t *bits, uint64_t lim) {
    const __m512i one = _mm512_set1_epi8(1);
    for (uint64_t y = 0; y < lim; y += 64) {
        __mmask64 in = first_lanes(lim - y);
        __m512i v = _mm512_maskz_loadu_epi8(in, need + y);
        __mmask64 found = (__mmask64)bits[y / 64] & ~_mm512_test_epi8_mask(v, v) & in;
        _mm512_mask_storeu_epi8(mark + y, found, one);
    }
}
/* need[0 .. lim) again from the bitset the search kept (words now[], lim <= 1024), whose values are
 * those of need at the start less the ones found; returns how many are still needed. */
AVX512 static int64_t need_from_bits(uint8_t *need, const uint64_t *now, uint64_t lim) {
    const __m512i one = _mm512_set1_epi8(1);
    int64_t c = 0;
    for (uint64_t y = 0; y < lim; y += 64) {
        __mmask64 in = first_lanes(lim - y);
        _mm512_mask_storeu_epi8(need + y, in, _mm512_maskz_mov_epi8(now[y / 64], one));
        c += __builtin_popcountll(now[y / 64] & in);
    }
    return c;
}
/* A register bitset's bit y off (y < 1024, the bitset of two registers LO, HI: dword y >> 5, bit
 * y & 31), by and-not with a one-hot vector loaded from a table, with no shuffle: the shuffle
 * port is the search's bottleneck (two permutes and a compress a vector of pairs), and a mask
 * and a broadcast from a general register (the obvious way) are two more on it a value met,
 * more than a hundred a heap. one_hot[b] is zero but for 1 << b at dword 31: the 16 dwords
 * from dword 31 - j are bit b of dword j alone when j < 16 (none when j >= 16), and those from
 * 47 - j are bit b of dword j - 16 when j >= 16. Off again is still off: a value met twice
 * needs no test. (8 KB, read-only.) */
#define ONE_HOT_ROW(b) { [31] = 1u << (b) }
#define ONE_HOT_ROWS8(b) ONE_HOT_ROW(b), ONE_HOT_ROW(b + 1), ONE_HOT_ROW(b + 2), ONE_HOT_ROW(b + 3), \
                         ONE_HOT_ROW(b + 4), ONE_HOT_ROW(b + 5), ONE_HOT_ROW(b + 6), ONE_HOT_ROW(b + 7)
static const uint32_t one_hot[32][64] __attribute__((aligned(64))) = {
    ONE_HOT_ROWS8(0), ONE_HOT_ROWS8(8), ONE_HOT_ROWS8(16), ONE_HOT_ROWS8(24)
};
#undef ONE_HOT_ROWS8
#undef ONE_HOT_ROW
/* For values below 512 (the u8 search, the u16 one packed into bytes, and the u16 one with one
 * register: most of the searches; the window above serves the two registers of values to 1024),
 * a whole row a value, one_hot9[y] zero but for bit y: the address is y * 64, one shift, where
 * the window takes six operations a lane to find
 * (32 KB, read-only; the bytes search reads only its first half; measured: the loop over the
 * list was a quarter of the u16 search's time, twelve instructions a lane). */
#define ONE_HOT9_ROW(y) { [(y) >> 3] = (uint8_t)(1u << ((y) & 7)) }
#define ONE_HOT9_ROWS8(y) ONE_HOT9_ROW(y), ONE_HOT9_ROW(y + 1), ONE_HOT9_ROW(y + 2), ONE_HOT9_ROW(y + 3), \
                          ONE_HOT9_ROW(y + 4), ONE_HOT9_ROW(y + 5), ONE_HOT9_ROW(y + 6), ONE_HOT9_ROW(y + 7)
#define ONE_HOT9_ROWS64(y) ONE_HOT9_ROWS8(y), ONE_HOT9_ROWS8(y + 8), ONE_HOT9_ROWS8(y + 16), ONE_HOT9_ROWS8(y + 24), \
                           ONE_HOT9_ROWS8(y + 32), ONE_HOT9_ROWS8(y + 40), ONE_HOT9_ROWS8(y + 48), ONE_HOT9_ROWS8(y + 56)
static const uint8_t one_hot9[512][64] __attribute__((aligned(64))) = {
    ONE_HOT9_ROWS64(0), ONE_HOT9_ROWS64(64), ONE_HOT9_ROWS64(128), ONE_HOT9_ROWS64(192),
    ONE_HOT9_ROWS64(256), ONE_HOT9_ROWS64(320), ONE_HOT9_ROWS64(384), ONE_HOT9_ROWS64(448)
};
#undef ONE_HOT9_ROWS64
#undef ONE_HOT9_ROWS8
#undef ONE_HOT9_ROW
#define BIT_OFF9(V, Y) V = _mm512_andnot_si512(_mm512_load_si512((const void *)one_hot9[Y]), V)
#define BIT_OFF2(LO, HI, Y)                                                                           \
    do {                                                                                              \
        const uint32_t *row_ = one_hot[(Y) & 31];                                                     \
        LO = _mm512_andnot_si512(_mm512_loadu_si512((const void *)(row_ + 31 - ((Y) >> 5))), LO);     \
        HI = _mm512_andnot_si512(_mm512_loadu_si512((const void *)(row_ + 47 - ((Y) >> 5))), HI);     \
    } while (0)
/* X's 64 byte lanes looked up in the bitset BITS (bytes 0..31, values 0..255: byte x >> 3, bit x &
 * 7; its constants from BYTE_CONSTANTS), the hits compressed onto LIST at nl: the u8 search's,
 * and the u16 one's when its values are packed into bytes */
#define BYTE_CONSTANTS                                                                                \
    const __m512i bit = _mm512_broadcast_i32x4(_mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128)); \
    const __m512i seven = _mm512_set1_epi8(7), low5 = _mm512_set1_epi8(31)
#define LOOK_BYTES(X, BITS, LIST)                                                                     \
    do {                                                                                              \
        __m512i x_ = (X);                                                                             \
        __m512i byte_ = _mm512_permutexvar_epi8(_mm512_and_si512(_mm512_srli_epi16(x_, 3), low5), BITS); \
        __mmask64 k_ = _mm512_test_epi8_mask(byte_, _mm512_shuffle_epi8(bit, _mm512_and_si512(x_, seven))); \
        _mm512_storeu_si512((void *)((LIST) + nl), _mm512_maskz_compress_epi8(k_, x_));              \
        nl += __builtin_popcountll(k_);                                                               \
    } while (0)
/* The groups: the list's values leave the bitset in the registers only (a value's word is
 * found by the permute, no byte of need is read or written a lane: a group's list holds dozens
 * of lanes, many of them values an earlier vector of the group found); need is made again from
 * the bitset when the groups end (need_from_bits). W: pairs a vector; XAT(B): the values of
 * the W pairs from B; LOOK(X): X's hits onto the list LIST; CLEAR takes y; EMPTY: no value is left. */
#define BOTH_GROUPS(W, XAT, LOOK, CLEAR, EMPTY, LIST)                                                 \
    if (hi - a + 1 >= 2 * BOTH_FIRST && bud >= 2 * BOTH_FIRST) {                                     \
        int nl = 0;                                                                                   \
        for (int v = 0; v < BOTH_FIRST / (W); v++) {                                                  \
            LOOK(XAT(a + (W) * v));                                                                   \
            LOOK(XAT(hi - (W) + 1 - (W) * v));                                                        \
        }                                                                                             \
        a += BOTH_FIRST; hi -= BOTH_FIRST; bud -= 2 * BOTH_FIRST;                                     \
        for (;;) {                                                                                    \
            int more = hi - a + 1 >= 2 * BOTH_EACH && bud >= 2 * BOTH_EACH;                         \
            __m512i xs[2 * BOTH_EACH / (W)];                                                          \
            for (int v = 0; v < BOTH_EACH / (W); v++) {                                               \
                xs[2 * v] = more ? XAT(a + (W) * v) : _mm512_setzero_si512();                         \
                xs[2 * v + 1] = more ? XAT(hi - (W) + 1 - (W) * v) : _mm512_setzero_si512();          \
            }                                                                                         \
            for (int i = 0; i < nl; i++) {                                                            \
                unsigned y = (LIST)[i];                                                               \
                CLEAR;                                                                                \
            }                                                                                         \
            if (EMPTY || !more) break;                                                                \
            nl = 0;                                                                                   \
            for (int v = 0; v < 2 * BOTH_EACH / (W); v++) LOOK(xs[v]);                               \
            a += BOTH_EACH; hi -= BOTH_EACH; bud -= 2 * BOTH_EACH;                                    \
        }                                                                                             \
    }

int64_t gr_sparse_both_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t *ap, int64_t *hip,
                                  uint8_t *restrict need, uint8_t *restrict mark, int64_t cnt,
                                  int64_t *budget, uint64_t lim, uint64_t P) AVX512;
int64_t gr_sparse_both_avx512_u16(const uint16_t *restrict t, int64_t m, int64_t *ap, int64_t *hip,
                                  uint8_t *restrict need, uint8_t *restrict mark, int64_t cnt,
                                  int64_t *budget, uint64_t lim, uint64_t P) {
    const uint16_t *restrict tm = t + m;
    int64_t a = *ap, hi = *hip, bud = *budget;
    uint64_t bits[128] __attribute__((aligned(64)));
    int started = cnt && P <= 1024;
    if (started) {
        need_bits512(need, lim, bits);
        __m512i lo = _mm512_load_si512(bits), hi2 = _mm512_load_si512(bits + 8);
        const __m512i rev = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                             20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
        const __m512i fifteen = _mm512_set1_epi16(15);
        uint16_t list[2 * BOTH_EACH + 32] __attribute__((aligned(64)));
        /* 32 pairs from B: their values; X's hits (LOOKUP: the bitset's word of each lane, its
         * bit x & 15 shifted to the top, the mask by vpmovw2m: not on the shuffle port as a
         * test would be), compressed onto the list */
#define XAT(B) _mm512_xor_si512(_mm512_loadu_si512((const void *)(t + (B))),                           \
                                _mm512_permutexvar_epi16(rev, _mm512_loadu_si512((const void *)(tm - (B) - 31))))
#define LOOK16(X, LOOKUP)                                                                             \
        do {                                                                                          \
            __m512i x_ = (X);                                                                         \
            __mmask32 k_ = _mm512_movepi16_mask(_mm512_sllv_epi16(LOOKUP, _mm512_andnot_si512(x_, fifteen))); \
            _mm512_storeu_si512((void *)(list + nl), _mm512_maskz_compress_epi16(k_, x_));            \
            nl += __builtin_popcount(k_);                                                             \
        } while (0)
#define LOOK_ONE(X) LOOK16(X, _mm512_permutexvar_epi16(_mm512_srli_epi16(x_, 4), lo))
#define LOOK_TWO(X) LOOK16(X, _mm512_permutex2var_epi16(lo, _mm512_srli_epi16(x_, 4), hi2))
        if (lim <= 255) {
            /* every value needed is below 255 (most heaps): two vectors' values packed into
             * bytes by vpackuswb (a value of 256 or more becomes 255, never needed here; the
             * values are below 2P, positive as 16-bit lanes; the lanes' order changes, a pair's
             * value does not) and looked up as the u8 search does, 64 pairs a look-up instead
             * of 32, in lo (the bitset's layout is the same; hi2 is empty). 0.6 to 2^22, one
             * thread, the census paused: 2.11 -> 2.02 s (92% of its searches are these) */
            BYTE_CONSTANTS;
            uint8_t list8[2 * BOTH_EACH + 64] __attribute__((aligned(64)));
#define XAT_PACKED(B) _mm512_packus_epi16(XAT(B), XAT((B) + 32))
#define LOOK_PACKED(X) LOOK_BYTES(X, lo, list8)
            BOTH_GROUPS(64, XAT_PACKED, LOOK_PACKED, BIT_OFF9(lo, y), !_mm512_test_epi64_mask(lo, lo), list8)
#undef XAT_PACKED
#undef LOOK_PACKED
        } else if (P <= 512) {
            BOTH_GROUPS(32, XAT, LOOK_ONE, BIT_OFF9(lo, y), !_mm512_test_epi64_mask(lo, lo), list)
        } else {
            /* values below 1024 in two registers, both and-ed (one with zeros), no branch */
            BOTH_GROUPS(32, XAT, LOOK_TWO, BIT_OFF2(lo, hi2, y),
                        !_mm512_test_epi64_mask(_mm512_or_si512(lo, hi2), _mm512_or_si512(lo, hi2)), list)
        }
#undef XAT
#undef LOOK16
#undef LOOK_ONE
#undef LOOK_TWO
        uint64_t now[16] __attribute__((aligned(64)));
        _mm512_store_si512(now, lo);
        _mm512_store_si512(now + 8, hi2);
        cnt = need_from_bits(need, now, lim);
    }
    if (cnt) a = gr_sparse_pairs_avx512_u16(t, m, a, hi, need, started ? NULL : mark, &cnt, &bud, lim, P);
    if (started && mark) mark_found(mark, need, bits, lim);
    *ap = a;
    *hip = hi;
    *budget = bud;
    return cnt;
}

int64_t gr_sparse_both_avx512_u8(const uint8_t *restrict t, int64_t m, int64_t *ap, int64_t *hip,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t cnt,
                                 int64_t *budget, uint64_t lim) AVX512;
int64_t gr_sparse_both_avx512_u8(const uint8_t *restrict t, int64_t m, int64_t *ap, int64_t *hip,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t cnt,
                                 int64_t *budget, uint64_t lim) {
    const uint8_t *restrict tm = t + m;
    int64_t a = *ap, hi = *hip, bud = *budget;
    uint64_t bits[16] __attribute__((aligned(64)));
    int started = cnt != 0;
    if (started) {
        need_bits512(need, lim < 256 ? lim : 256, bits);
        __m512i ns = _mm512_load_si512(bits);   /* bytes 0..31: values 0..255 */
        const __m512i rev = _mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                            21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                                            40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
                                            59, 60, 61, 62, 63);
        BYTE_CONSTANTS;
        uint8_t list[2 * BOTH_EACH + 64] __attribute__((aligned(64)));
        /* 64 pairs from B: their values; X's hits, compressed onto the list */
#define XAT8(B) _mm512_xor_si512(_mm512_loadu_si512((const void *)(t + (B))),                          \
                                 _mm512_permutexvar_epi8(rev, _mm512_loadu_si512((const void *)(tm - (B) - 63))))
#define LOOK8(X) LOOK_BYTES(X, ns, list)
        BOTH_GROUPS(64, XAT8, LOOK8, BIT_OFF9(ns, y), !_mm512_test_epi64_mask(ns, ns), list)
#undef XAT8
#undef LOOK8
        uint64_t now[8] __attribute__((aligned(64)));
        _mm512_store_si512(now, ns);
        cnt = need_from_bits(need, now, lim < 256 ? lim : 256);
    }
    if (cnt) a = gr_sparse_pairs_avx512_u8(t, m, a, hi, need, started ? NULL : mark, &cnt, &bud, lim);
    if (started && mark) mark_found(mark, need, bits, lim < 256 ? lim : 256);
    *ap = a;
    *hip = hi;
    *budget = bud;
    return cnt;
}
#undef BOTH_GROUPS
#undef LOOK_BYTES
#undef BYTE_CONSTANTS
#undef BIT_OFF2
#undef BIT_OFF9

int64_t gr_sparse_pairs_avx2_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                int64_t *budget, uint64_t lim) AVX2;
int64_t gr_sparse_pairs_avx2_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                int64_t *budget, uint64_t lim) {
    const uint8_t *restrict tm = t + m;
    int64_t cnt = *count, bud = *budget;
    if (cnt && a + 31 <= hi && bud >= 32) {
        uint8_t bytes[64];
        need_bytes(need, lim < 256 ? lim : 256, bytes);
        __m256i n0 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)bytes));
        __m256i n1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(bytes + 16)));
        const __m256i rev = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                                             15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        const __m256i bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
                                             1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
        const __m256i seven = _mm256_set1_epi8(7), low5 = _mm256_set1_epi8(31), fifteen = _mm256_set1_epi8(15);
        const __m256i zero = _mm256_setzero_si256();
        uint8_t xs[32] __attribute__((aligned(32)));
        while (a + 31 <= hi && bud >= 32) {
            __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(t + a));
            __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(tm - a - 31));
            vb = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(vb, rev), 0x4e);
            __m256i x = _mm256_xor_si256(va, vb);
            __m256i idx = _mm256_and_si256(_mm256_srli_epi16(x, 3), low5);
            /* bytes 0..15 of the bitset, or 16..31 where idx has bit 4 */
            __m256i byte = _mm256_blendv_epi8(_mm256_shuffle_epi8(n0, idx), _mm256_shuffle_epi8(n1, idx),
                                              _mm256_cmpgt_epi8(idx, fifteen));
            __m256i got = _mm256_and_si256(byte, _mm256_shuffle_epi8(bit, _mm256_and_si256(x, seven)));
            uint32_t k = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(got, zero));
            if (k) {
                _mm256_store_si256((__m256i *)(void *)xs, x);
                HITS(k, 0, xs, bytes[y >> 3] &= (uint8_t)~(h << (y & 7)));
                /* the tables again once per vector (not per lane: a load that waits on stores) */
                n0 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)bytes));
                n1 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(bytes + 16)));
            }
            a += 32;
            bud -= 32;
        }
    }
    SCALAR_REST(uint8_t)
}

/* u16 values below 512: 16 pairs, the byte x >> 3 of a 64-byte bitset from four 16-byte tables
 * (vpshufb on each word's low byte; its high byte is zeroed by the index's sign bit). */
int64_t gr_sparse_pairs_avx2_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                 int64_t *budget, uint64_t lim) AVX2;
int64_t gr_sparse_pairs_avx2_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                 int64_t *budget, uint64_t lim) {
    const uint16_t *restrict tm = t + m;
    int64_t cnt = *count, bud = *budget;
    if (cnt && a + 15 <= hi && bud >= 16) {
        uint8_t bytes[64];
        need_bytes(need, lim < 512 ? lim : 512, bytes);
        __m256i n[4];
#define LOAD_TABLES                                                                                   \
        for (int q = 0; q < 4; q++)                                                                   \
            n[q] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(bytes + 16 * q)));
        LOAD_TABLES
        const __m256i rev = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
                                             14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
        const __m256i bit = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
                                             1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
        const __m256i hib = _mm256_set1_epi16((short)0x8000), low6 = _mm256_set1_epi16(63), seven = _mm256_set1_epi16(7);
        const __m256i zero = _mm256_setzero_si256();
        uint16_t xs[16] __attribute__((aligned(32)));
        while (a + 15 <= hi && bud >= 16) {
            __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(t + a));
            __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(tm - a - 15));
            vb = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(vb, rev), 0x4e);
            __m256i x = _mm256_xor_si256(va, vb);
            /* index x >> 3 in the low byte (bits 4, 5 pick the table), 0x80 in the high byte */
            __m256i idx = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(x, 3), low6), hib);
            __m256i b01 = _mm256_blendv_epi8(_mm256_shuffle_epi8(n[0], idx), _mm256_shuffle_epi8(n[1], idx),
                                             _mm256_slli_epi16(idx, 3));
            __m256i b23 = _mm256_blendv_epi8(_mm256_shuffle_epi8(n[2], idx), _mm256_shuffle_epi8(n[3], idx),
                                             _mm256_slli_epi16(idx, 3));
            __m256i byte = _mm256_blendv_epi8(b01, b23, _mm256_slli_epi16(idx, 2));
            __m256i sel = _mm256_shuffle_epi8(bit, _mm256_or_si256(_mm256_and_si256(x, seven), hib));
            __m256i got = _mm256_and_si256(byte, sel);   /* high bytes zero */
            uint32_t k = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(got, zero));
            if (k) {
                _mm256_store_si256((__m256i *)(void *)xs, x);
                HITS(k & 0x55555555u, 1, xs, bytes[y >> 3] &= (uint8_t)~(h << (y & 7)));
                LOAD_TABLES         /* once per vector, as in the u8 search */
            }
            a += 16;
            bud -= 16;
        }
#undef LOAD_TABLES
    }
    SCALAR_REST(uint16_t)
}
#endif
