/* sparsewasm: the rare-value kernel's pair search (sparsescan.c) with WebAssembly SIMD, for the
 * web page's build (Emscripten, -msimd128). Elsewhere this file is empty.
 *
 * As sparsevec.c's AVX2 paths, 16 bytes wide: the values still needed are a bitset held in
 * registers and a lane's byte of it is fetched by i8x16.swizzle, so a vector of pairs costs the
 * same dozen instructions however many values are needed (the portable path, SSE2's
 * intrinsics translated, reads need[] pair by pair until only 12 are left, and that head is
 * most of a heap's pairs). Swizzle gives 0 for an index of 16 or more, so the bitset's byte
 * x >> 3 is the OR of one swizzle per 16-byte table with the index moved down 16 each time (an
 * index below 16 wraps past 240): no blends.
 *   u8 table: 16 pairs; a 32-byte bitset in two registers;
 *   u16 table, values below 512: 8 pairs; a 64-byte bitset in four, each lane's high byte
 *     0x80 so that it reads 0.
 * A vector with a hit is looked at lane by lane in order (sparsehits.h's HITS), so `a`, the
 * count, the budget, need and the marks come out exactly as the scalar loop leaves them
 * (tests/web/wasm_golden.mjs compares the page's answers with the command's, byte for byte). */
#include "eval/heap/sparseint.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#include "eval/heap/sparsehits.h"

/* 1 << (x & 7) by a swizzle */
#define BIT_TABLE wasm_i8x16_const(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128)

int64_t gr_sparse_pairs_wasm_u8(const uint8_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                int64_t *budget, uint64_t lim) {
    const uint8_t *restrict tm = t + m;
    int64_t cnt = *count, bud = *budget;
    if (cnt && a + 15 <= hi && bud >= 16) {
        uint8_t bytes[64];
        need_bytes(need, lim < 256 ? lim : 256, bytes);
        v128_t n0 = wasm_v128_load(bytes), n1 = wasm_v128_load(bytes + 16);
        const v128_t bit = BIT_TABLE, seven = wasm_i8x16_splat(7), sixteen = wasm_i8x16_splat(16);
        uint8_t xs[16] __attribute__((aligned(16)));
        while (a + 15 <= hi && bud >= 16) {
            v128_t va = wasm_v128_load(t + a);
            v128_t vb = wasm_v128_load(tm - a - 15);
            vb = wasm_i8x16_shuffle(vb, vb, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
            v128_t x = wasm_v128_xor(va, vb);
            v128_t idx = wasm_u8x16_shr(x, 3);
            v128_t byte = wasm_v128_or(wasm_i8x16_swizzle(n0, idx), wasm_i8x16_swizzle(n1, wasm_i8x16_sub(idx, sixteen)));
            v128_t got = wasm_v128_and(byte, wasm_i8x16_swizzle(bit, wasm_v128_and(x, seven)));
            if (wasm_v128_any_true(got)) {
                uint32_t k = wasm_i8x16_bitmask(wasm_i8x16_ne(got, wasm_i8x16_splat(0)));
                wasm_v128_store(xs, x);
                HITS(k, 0, xs, bytes[y >> 3] &= (uint8_t)~(h << (y & 7)));
                /* the tables again once per vector (not per lane) */
                n0 = wasm_v128_load(bytes);
                n1 = wasm_v128_load(bytes + 16);
            }
            a += 16;
            bud -= 16;
        }
    }
    SCALAR_REST(uint8_t)
}

int64_t gr_sparse_pairs_wasm_u16(const uint16_t *restrict t, int64_t m, int64_t a, int64_t hi,
                                 uint8_t *restrict need, uint8_t *restrict mark, int64_t *count,
                                 int64_t *budget, uint64_t lim) {
    const uint16_t *restrict tm = t + m;
    int64_t cnt = *count, bud = *budget;
    if (cnt && a + 7 <= hi && bud >= 8) {
        uint8_t bytes[64];
        need_bytes(need, lim < 512 ? lim : 512, bytes);
        v128_t n[4];
#define LOAD_TABLES                                                                                   \
        for (int q = 0; q < 4; q++) n[q] = wasm_v128_load(bytes + 16 * q);
        LOAD_TABLES
        const v128_t bit = BIT_TABLE, hib = wasm_i16x8_splat((short)0x8000), low6 = wasm_i16x8_splat(63),
                     seven = wasm_i16x8_splat(7), sixteen = wasm_i8x16_splat(16);
        uint16_t xs[8] __attribute__((aligned(16)));
        while (a + 7 <= hi && bud >= 8) {
            v128_t va = wasm_v128_load(t + a);
            v128_t vb = wasm_v128_load(tm - a - 7);
            vb = wasm_i8x16_shuffle(vb, vb, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
            v128_t x = wasm_v128_xor(va, vb);
            /* index x >> 3 in the low byte (bits 4, 5 pick the table), 0x80 in the high byte */
            v128_t i0 = wasm_v128_or(wasm_v128_and(wasm_u16x8_shr(x, 3), low6), hib);
            v128_t i1 = wasm_i8x16_sub(i0, sixteen), i2 = wasm_i8x16_sub(i1, sixteen), i3 = wasm_i8x16_sub(i2, sixteen);
            v128_t byte = wasm_v128_or(wasm_v128_or(wasm_i8x16_swizzle(n[0], i0), wasm_i8x16_swizzle(n[1], i1)),
                                       wasm_v128_or(wasm_i8x16_swizzle(n[2], i2), wasm_i8x16_swizzle(n[3], i3)));
            v128_t sel = wasm_i8x16_swizzle(bit, wasm_v128_or(wasm_v128_and(x, seven), hib));
            v128_t got = wasm_v128_and(byte, sel);   /* high bytes zero */
            if (wasm_v128_any_true(got)) {
                uint32_t k = wasm_i16x8_bitmask(wasm_i16x8_ne(got, wasm_i16x8_splat(0)));
                wasm_v128_store(xs, x);
                HITS(k, 0, xs, bytes[y >> 3] &= (uint8_t)~(h << (y & 7)));
                LOAD_TABLES
            }
            a += 8;
            bud -= 8;
        }
#undef LOAD_TABLES
    }
    SCALAR_REST(uint16_t)
}
#else
typedef int gr_sparsewasm_empty;   /* ISO C: a translation unit is not empty */
#endif
