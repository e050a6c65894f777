/* detect: all periods of a table's values by one Z-function pass; see detect.h. */
#include "detect.h"

void gr_detect_init(gr_detect *d, gr_ctx *c) {
    *d = (gr_detect){ .c = c };
}

void gr_detect_free(gr_detect *d) {
    gr_ctx *c = d->c;
    gr_free(c, d->z32);
    gr_free(c, d->z64);
    *d = (gr_detect){ .c = c };
}

/* The Z-function of r[k] = v[top - k] - v[top - 1 - k] (0 <= k < top): z[i] is the length of
 * the longest common prefix of r and r[i..]. Differences are compared modulo 2^64, which is
 * exact for values in [0, 2^63). Z-boxes [l, r) make it linear: each step either copies an
 * earlier entry or moves r right. */
#define DIFF(k) ((uint64_t)v[top - (k)] - (uint64_t)v[top - 1 - (k)])
#define ZFUNC(NAME, T, ZT)                                                                        \
    static void NAME(const T *restrict v, int64_t top, ZT *restrict z) {                         \
        int64_t l = 0, r = 0;                                                                     \
        for (int64_t i = 1; i < top; i++) {                                                       \
            int64_t k = 0;                                                                        \
            if (i < r) { k = z[i - l]; if (k > r - i) k = r - i; }                                \
            if (i + k >= r) {                                                                     \
                while (i + k < top && DIFF(k) == DIFF(i + k)) k++;                                \
                l = i;                                                                            \
                r = i + k;                                                                        \
            }                                                                                     \
            z[i] = (ZT)k;                                                                         \
        }                                                                                         \
    }
ZFUNC(z_u8_32, uint8_t, int32_t)
ZFUNC(z_u16_32, uint16_t, int32_t)
ZFUNC(z_u32_32, uint32_t, int32_t)
ZFUNC(z_i64_32, int64_t, int32_t)
ZFUNC(z_u8_64, uint8_t, int64_t)
ZFUNC(z_u16_64, uint16_t, int64_t)
ZFUNC(z_u32_64, uint32_t, int64_t)
ZFUNC(z_i64_64, int64_t, int64_t)
#undef ZFUNC
#undef DIFF

void gr_detect_scan(gr_detect *d, const gr_sgtable *tab, int64_t n) {
    gr_ctx *c = d->c;
    d->n = n;
    d->tab = tab;
    d->last = n > 0 ? gr_sgt_get(tab, n - 1) : 0;
    if (n < 3) return;                       /* no z entry is read: every p >= n - 1 */
    int wide = n > INT32_MAX || d->z64;     /* once 64-bit, for good */
    if (n > d->cap || (wide && !d->z64)) {
        gr_free(c, d->z32);
        gr_free(c, d->z64);
        d->z32 = NULL;
        d->z64 = NULL;
        if (wide) d->z64 = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *d->z64));
        else d->z32 = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *d->z32));
        d->cap = n;
    }
    int64_t top = n - 1;
    const void *v = tab->data;
    if (!wide) {
        switch (tab->width) {
        case 1: z_u8_32(v, top, d->z32); break;
        case 2: z_u16_32(v, top, d->z32); break;
        case 4: z_u32_32(v, top, d->z32); break;
        default: z_i64_32(v, top, d->z32); break;
        }
    } else {
        switch (tab->width) {
        case 1: z_u8_64(v, top, d->z64); break;
        case 2: z_u16_64(v, top, d->z64); break;
        case 4: z_u32_64(v, top, d->z64); break;
        default: z_i64_64(v, top, d->z64); break;
        }
    }
}

int64_t gr_detect_saltus(const gr_detect *d, int64_t p) {
    return (int64_t)((uint64_t)d->last - (uint64_t)gr_sgt_get(d->tab, d->n - 1 - p));
}

int64_t gr_detect_start(const gr_detect *d, int64_t p) {
    int64_t top = d->n - 1;
    if (p >= top) return 0;                  /* one pair at most: its own run */
    int64_t z = d->z64 ? d->z64[p] : d->z32[p];
    return top - p - z;
}

void gr_detect_columns(const gr_sgtable *tab, int64_t n, gr_value_columns *col) {
    if (n > tab->n) n = tab->n;
    col->upto = n - 1;
    col->largest = -1;
    col->largest_at = -1;
    col->rare_count = 0;
    col->last_rare = -1;
    for (int64_t x = 0; x < n; x++) {
        int64_t v = gr_sgt_get(tab, x);
        if (v > col->largest) { col->largest = v; col->largest_at = x; }
        if (col->has_rare && x >= 1 &&
            (__builtin_parityll((uint64_t)v & col->rare_mask) ^ (col->rare_heap_parity & (int)(x & 1))) != col->rare_common) {
            col->rare_count++;
            col->last_rare = x;
        }
    }
}
