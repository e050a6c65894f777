/* sparsebatch: the rare-value kernel's batched look-ups and a batched heap's marks with AVX-512
 * (sparseheap.c calls them through sparseint.h): the
 * look-ups of rare heaps for 32 heaps at once, a batch's bits into a heap's marks in one pass
 * with its least common value and need, least_common and needed 64 bytes at a time, and
 * bytes 0 or 1 packed to bits and back (a speculated heap's need, sparsespec.c). Apart from the pair searches (sparsevec.c), which
 * share nothing with them but the target attribute and first_lanes, so that neither file passes
 * the length a reader takes in. x86-64 only, and not under Emscripten: elsewhere this file is
 * empty. */
#include "eval/heap/sparseint.h"

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi,bmi2")))

/* The first min(left, 64) lanes of a 64-byte vector: the part of a chunk before a limit. */
AVX512 static inline __mmask64 first_lanes(uint64_t left) {
    return left >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
}

/* The look-ups of rare heaps i in [i0, i1) for the 32 heaps n0 .. n0 + 31 at once (one thread,
 * sparseheap.c): a rare heap a's 32 look-ups t[n0 + k - s - a] are
 * 32 consecutive entries, one load; and each lane is one heap, so its options can be collected
 * as bits in the lane, with no store. Only common-class values are wanted here (the caller
 * picks rare heaps whose other part is of the common class, so all of them are), and those
 * below 256 are half of 256: value v's index drops bit b (the mask's lowest), which the class
 * fixes. In 16-bit lanes, each of eight registers collects 16 of the 128 indices: bits[q][k]
 * holds heap n0 + k's indices 16q .. 16q + 15; an index of 128 or more (a value of 256 or more)
 * shifts past every lane, no bit. (Before, 16 heaps in 32-bit lanes, four registers: about a
 * fifth more operations a look-up; a 16-bit variable shift costs here no more than a 32-bit
 * one, 2.3 against 2.9 cycles for four.) The caller makes sure every t read is below n0. */
/* rare heap i's 32 indices: its value (the entry's high half) xor the 32 look-ups; bits below b
 * as they are, those above b one down (0xe2: low ? x : x >> 1, into x) */
#define IDX32(NAME, T, ZEXT)                                                                          \
    AVX512 static inline __m512i NAME(const T *tb, const uint64_t *rk, int64_t i, __m512i low, __m128i sh) { \
        int32_t v;                                                                                    \
        memcpy(&v, (const char *)(rk + i) + 4, 4);                                                    \
        __m512i x = _mm512_xor_si512(ZEXT(tb + (int32_t)(uint32_t)rk[i]), _mm512_set1_epi16((short)v)); \
        return _mm512_ternarylogic_epi32(x, low, _mm512_srl_epi16(x, sh), 0xe2);                      \
    }
/* The nine accumulators are named variables, not an array: with an array GCC kept two copies of
 * each and moved one into the other every step (18 register moves a step beside 58 operations). */
#define ACC_OR2(A, K) A = _mm512_ternarylogic_epi32(A, _mm512_sllv_epi16(one, _mm512_sub_epi16(p, K)),             \
                                                    _mm512_sllv_epi16(one, _mm512_sub_epi16(q, K)), 0xfe)
#define ACC_OR1(A, K) A = _mm512_or_si512(A, _mm512_sllv_epi16(one, _mm512_sub_epi16(p, K)))
#define ACC_ALL(OP, R)                                                                                \
    do {                                                                                              \
        OP(a0, k0); OP(a1, k1); OP(a2, k2); OP(a3, k3);                                               \
        OP(a4, k4); OP(a5, k5); OP(a6, k6); OP(a7, k7);                                               \
        if ((R) > 8) OP(a8, k8);                                                                      \
    } while (0)
#define BATCH32(NAME, T, IDX, R)                                                                      \
    void NAME(const T *t, int64_t base, const uint64_t *rk, int64_t i0, int64_t i1, int b,           \
              uint16_t bits[R][32]) AVX512;                                                           \
    void NAME(const T *t, int64_t base, const uint64_t *rk, int64_t i0, int64_t i1, int b,           \
              uint16_t bits[R][32]) {                                                                 \
        const T *tb = t + base;                                                                       \
        const __m512i one = _mm512_set1_epi16(1), low = _mm512_set1_epi16((short)((1 << b) - 1));   \
        const __m512i k0 = _mm512_setzero_si512(), k1 = _mm512_set1_epi16(16), k2 = _mm512_set1_epi16(32); \
        const __m512i k3 = _mm512_set1_epi16(48), k4 = _mm512_set1_epi16(64), k5 = _mm512_set1_epi16(80); \
        const __m512i k6 = _mm512_set1_epi16(96), k7 = _mm512_set1_epi16(112), k8 = _mm512_set1_epi16(128); \
        const __m128i sh = _mm_cvtsi32_si128(1);                                                      \
        __m512i a0 = k0, a1 = k0, a2 = k0, a3 = k0, a4 = k0, a5 = k0, a6 = k0, a7 = k0, a8 = k0;      \
        /* two rare heaps a step: each register ORs both in one ternary-logic op (0xfe) */         \
        int64_t i = i0;                                                                               \
        for (; i + 2 <= i1; i += 2) {                                                                 \
            __m512i p = IDX(tb, rk, i, low, sh), q = IDX(tb, rk, i + 1, low, sh);                     \
            ACC_ALL(ACC_OR2, R);                                                                      \
        }                                                                                             \
        for (; i < i1; i++) {                                                                         \
            __m512i p = IDX(tb, rk, i, low, sh);                                                      \
            ACC_ALL(ACC_OR1, R);                                                                      \
        }                                                                                             \
        __m512i acc[9] = { a0, a1, a2, a3, a4, a5, a6, a7, a8 };                                      \
        for (int r = 0; r < R; r++) _mm512_storeu_si512((void *)bits[r], acc[r]);                     \
    }
#define ZEXT16_u16(p) _mm512_loadu_si512((const void *)(p))
#define ZEXT16_u8(p) _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
IDX32(idx32_u16, uint16_t, ZEXT16_u16)
IDX32(idx32_u8, uint8_t, ZEXT16_u8)
BATCH32(gr_sparse_batch32_u16, uint16_t, idx32_u16, 8)
BATCH32(gr_sparse_batch32_u16x9, uint16_t, idx32_u16, 9)
BATCH32(gr_sparse_batch32_u8, uint8_t, idx32_u8, 8)

/* A batch's 128 bits of one heap (lo: indices 0..63, hi: 64..127) into its marks: mark[v] |= 1
 * for each common value v below min(P, 256) whose index is set (ix[v]: v's index, cm[v]: 1 if v
 * is of the common class; bits to bytes, bytes to values by vpermi2b: no branch per bit), in one
 * pass with the least common value missing and the rare-class values needed below it (as
 * least_common and needed):
 * each chunk of 64 values is read and written once, and the loads after the marks' stores do
 * not wait for them. Returns the least value below top = min(P, 256) that is neither marked
 * nor of the rare class (rc), with need set below it and *count its ones (the marks past it
 * are not written: the heap has no use for them); or top when there is
 * none below top (marks and need written to top, *count the need's ones below top). */
uint64_t gr_sparse_batch_least(uint8_t *mark, uint64_t lo, uint64_t hi, uint32_t w9, uint32_t pos9, const uint8_t *ix,
                               const uint8_t *cm, uint64_t P, const uint8_t *rc, uint8_t *need, int64_t *count) AVX512;
uint64_t gr_sparse_batch_least(uint8_t *mark, uint64_t lo, uint64_t hi, uint32_t w9, uint32_t pos9, const uint8_t *ix,
                               const uint8_t *cm, uint64_t P, const uint8_t *rc, uint8_t *need, int64_t *count) {
    const __m512i one = _mm512_set1_epi8(1);
    /* the ninth register's marks, 256 .. 287: its bits deposited on the places of its values,
     * one masked store (was a loop over the bits, its exit mispredicted: 2% of 0.6's time) */
    if (pos9 && P >= 320) _mm512_mask_storeu_epi8(mark + 256, (__mmask64)_pdep_u32(w9, pos9), one);
    __m512i b0 = _mm512_maskz_mov_epi8((__mmask64)lo, one), b1 = _mm512_maskz_mov_epi8((__mmask64)hi, one);
    uint64_t top = P < 256 ? P : 256;
    int64_t c = 0;
    for (uint64_t q = 0; q < top; q += 64) {
        __mmask64 in = top - q >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (top - q)) - 1);
        __m512i v = _mm512_permutex2var_epi8(b0, _mm512_loadu_si512((const void *)(ix + q)), b1);
        v = _mm512_and_si512(v, _mm512_loadu_si512((const void *)(cm + q)));
        __m512i mk = _mm512_or_si512(_mm512_maskz_loadu_epi8(in, mark + q), v);
        __m512i r = _mm512_maskz_loadu_epi8(in, rc + q);
        _mm512_mask_storeu_epi8(mark + q, in, mk);
        __m512i h = _mm512_andnot_si512(mk, r);
        __mmask64 free = _mm512_testn_epi8_mask(_mm512_or_si512(mk, r), _mm512_or_si512(mk, r)) & in;
        __mmask64 below = free ? (((__mmask64)1 << __builtin_ctzll(free)) - 1) : in;
        _mm512_mask_storeu_epi8(need + q, below, h);
        c += __builtin_popcountll(_mm512_test_epi8_mask(h, h) & below);
        if (free) {
            *count = c;
            return q + (uint64_t)__builtin_ctzll(free);
        }
    }
    *count = c;
    return top;
}

/* sparseint.h's least_common and needed, 64 bytes at a time (a heap's values run to 300 and more
 * in 0.6: 40 steps of 8 bytes each, twice, were a sixth of the finish). */
uint64_t gr_sparse_least_common_avx512(const uint8_t *mark, const uint8_t *rc, uint64_t P) AVX512;
uint64_t gr_sparse_least_common_avx512(const uint8_t *mark, const uint8_t *rc, uint64_t P) {
    for (uint64_t x = 0; x < P; x += 64) {
        __mmask64 in = first_lanes(P - x);
        __m512i u = ~in ? _mm512_or_si512(_mm512_maskz_loadu_epi8(in, mark + x), _mm512_maskz_loadu_epi8(in, rc + x))
                        : _mm512_or_si512(_mm512_loadu_si512((const void *)(mark + x)), _mm512_loadu_si512((const void *)(rc + x)));
        __mmask64 free = _mm512_testn_epi8_mask(u, u) & in;
        if (free) return x + (uint64_t)__builtin_ctzll(free);
    }
    return P;
}
int64_t gr_sparse_needed_avx512(const uint8_t *mark, const uint8_t *rc, uint8_t *need, uint64_t vlim) AVX512;
int64_t gr_sparse_needed_avx512(const uint8_t *mark, const uint8_t *rc, uint8_t *need, uint64_t vlim) {
    int64_t count = 0;
    for (uint64_t x = 0; x < vlim; x += 64) {
        __mmask64 in = first_lanes(vlim - x);
        __m512i h;
        if (~in) {
            h = _mm512_andnot_si512(_mm512_maskz_loadu_epi8(in, mark + x), _mm512_maskz_loadu_epi8(in, rc + x));
            _mm512_mask_storeu_epi8(need + x, in, h);
        } else {
            h = _mm512_andnot_si512(_mm512_loadu_si512((const void *)(mark + x)), _mm512_loadu_si512((const void *)(rc + x)));
            _mm512_storeu_si512((void *)(need + x), h);
        }
        count += __builtin_popcountll(_mm512_test_epi8_mask(h, h));
    }
    return count;
}

/* Bytes 0 or 1 to bits and back, 64 at a time (P a multiple of 64): a speculated heap's need is
 * packed by the speculating member and unpacked by the one that checks it (sparsespec.c). */
void gr_sparse_pack_avx512(uint8_t *restrict bits, const uint8_t *restrict mark, size_t P) AVX512;
void gr_sparse_pack_avx512(uint8_t *restrict bits, const uint8_t *restrict mark, size_t P) {
    for (size_t x = 0; x < P; x += 64) {
        __m512i v = _mm512_loadu_si512((const void *)(mark + x));
        uint64_t k = _mm512_test_epi8_mask(v, v);
        memcpy(bits + x / 8, &k, 8);
    }
}
void gr_sparse_unpack_avx512(uint8_t *restrict mark, const uint8_t *restrict bits, size_t P) AVX512;
void gr_sparse_unpack_avx512(uint8_t *restrict mark, const uint8_t *restrict bits, size_t P) {
    const __m512i one = _mm512_set1_epi8(1);
    for (size_t x = 0; x < P; x += 64) {
        uint64_t k;
        memcpy(&k, bits + x / 8, 8);
        _mm512_storeu_si512((void *)(mark + x), _mm512_maskz_mov_epi8((__mmask64)k, one));
    }
}
#endif
