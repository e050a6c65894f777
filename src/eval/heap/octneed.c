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

void gr_octneed_splits(const uint16_t *t, int64_t r, int64_t a0, int64_t half, uint8_t *need, int64_t *count, uint64_t w,
                       uint64_t base) {
    if (a0 > half || !*count) return;
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    *count = gr_sparse_pairs_all_avx512_u16(t, r, a0, half, need, *count, w, base);
#else
    for (int64_t a = a0; a <= half && *count; a++) {
        uint64_t x = (uint64_t)(t[a] ^ t[r - a]) - base;
        if (x < w) {
            *count -= need[x];
            need[x] = 0;
        }
    }
#endif
}

/* value x met: its need cleared (need: the window [base, base + w)) */
static void met(uint8_t *need, int64_t *count, uint64_t x, uint64_t base, uint64_t w) {
    x -= base;
    if (x >= w) return;
    *count -= need[x];
    need[x] = 0;
}

uint64_t gr_octneed_value(const gr_tbcode *code, const uint16_t *t, int64_t n, uint64_t P, uint8_t *need) {
    uint64_t w = gr_octneed_window(P);
    /* the previous heap's value past the windows: this one's most likely too (the values grow
     * slowly), and the byte marks' one pass is cheaper than four passes before it */
    if (n >= 1 && P > GR_OCTNEED_WINDOWS * w && t[n - 1] >= GR_OCTNEED_WINDOWS * w) return UINT64_MAX;
    int k0 = code->d[0].mask ? 0 : 1;
    int64_t last = code->last_place < n ? code->last_place : n;
    /* window by window: the first with a value no option has holds the heap's value (every one
     * below it is an option) */
    for (uint64_t base = 0; base < P && base < GR_OCTNEED_WINDOWS * w; base += w) {
        uint64_t len = P - base < w ? P - base : w;
        uint8_t *nd = need + base;
        memset(nd, 1, (size_t)len);
        int64_t count = (int64_t)len;
        for (int64_t k = k0; k <= last && count; k++) {
            uint32_t d = code->d[k].mask;
            int64_t r = n - k;
            if (r == 0) { if (d & 1u) met(nd, &count, 0, base, len); continue; }
            if (d & 2u) met(nd, &count, t[r], base, len);
            if (!(d & 4u)) continue;
            if (code->d[k].constraint == TB_EQUAL) { if (r % 2 == 0) met(nd, &count, 0, base, len); continue; }
            int64_t half = code->d[k].constraint ? (r - 1) / 2 : r / 2;
            gr_octneed_splits(t, r, 1, half, nd, &count, len, base);
        }
        if (count) {
            uint64_t v = 0;
            while (!nd[v]) v++;
            return base + v;
        }
    }
    /* every value of the windows is an option: P, or not decided here (the byte marks) */
    return P <= GR_OCTNEED_WINDOWS * w ? P : UINT64_MAX;
}
