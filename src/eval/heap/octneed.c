/* octneed: a heap of the plain octal kernel by a search for every value; see octneed.h. */
#include "eval/heap/octneed.h"
#include "eval/heap/sparseint.h"
#include "simd.h"

int gr_octneed_ok(uint64_t P) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    return P > 64 && P <= 65536 && gr_simd_level() >= GR_SIMD_AVX512;
#else
    (void)P;
    return 0;
#endif
}

static uint64_t window_cap = GR_OCTNEED_WINDOW;
void gr_octneed_test_window(uint64_t w) { window_cap = w ? w : GR_OCTNEED_WINDOW; }
uint64_t gr_octneed_window(uint64_t P) { return P < window_cap ? P : window_cap; }

void gr_octneed_splits(const uint16_t *t, int64_t r, int64_t a0, int64_t half, uint8_t *need, int64_t *count, uint64_t w) {
    if (a0 > half || !*count) return;
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    /* (the search's P: a bound above w that its lane masks need, the lanes past w being clear) */
    int64_t budget = INT64_MAX;
    gr_sparse_pairs_avx512_u16(t, r, a0, half, need, NULL, count, &budget, w, w);
#else
    for (int64_t a = a0; a <= half && *count; a++) {
        unsigned x = (unsigned)(t[a] ^ t[r - a]);
        *count -= need[x];
        need[x] = 0;
    }
    (void)w;
#endif
}

static void met(uint8_t *need, int64_t *count, uint64_t x, uint64_t w) {
    if (x >= w) return;
    *count -= need[x];
    need[x] = 0;
}

uint64_t gr_octneed_value(const gr_tbcode *code, const uint16_t *t, int64_t n, uint64_t P, uint8_t *need) {
    uint64_t w = gr_octneed_window(P);
    memset(need, 0, (size_t)P + 1);    /* values from w on are not looked for */
    memset(need, 1, (size_t)w);
    int64_t count = (int64_t)w;
    int k0 = code->d[0].mask ? 0 : 1;
    int64_t last = code->last_place < n ? code->last_place : n;
    for (int64_t k = k0; k <= last; k++) {
        uint32_t d = code->d[k].mask;
        int64_t r = n - k;
        if (r == 0) { if (d & 1u) met(need, &count, 0, w); continue; }
        if (d & 2u) met(need, &count, t[r], w);
        if (!(d & 4u)) continue;
        if (code->d[k].constraint == TB_EQUAL) { if (r % 2 == 0) met(need, &count, 0, w); continue; }
        int64_t half = code->d[k].constraint ? (r - 1) / 2 : r / 2;
        gr_octneed_splits(t, r, 1, half, need, &count, w);
    }
    uint64_t v = 0;
    while (v < w && !need[v]) v++;
    return v < w || w == P ? v : UINT64_MAX;   /* every value below the window met: not decided */
}
