/* detect: all periods of a table's values by one Z-function pass; see detect.h. */
#include "detect.h"
#include <string.h>

void gr_values_init(gr_values *v, gr_ctx *c) {
    *v = (gr_values){ .c = c };
}

void gr_values_free(gr_values *v) {
    gr_ctx *c = v->c;
    gr_free(c, v->v16);
    gr_free(c, v->v64);
    *v = (gr_values){ .c = c };
}

/* Capacity for n values at `size` bytes each, doubling. */
static void *grow_to(gr_values *v, void *data, int64_t n, size_t size) {
    if (n <= v->cap && data) return data;
    int64_t cap = v->cap > 0 ? v->cap : 1024;
    while (cap < n) cap *= 2;
    void *to = gr_alloc(v->c, gr_size_mul(v->c, (size_t)cap, size));
    if (data) memcpy(to, data, (size_t)v->n * size);
    gr_free(v->c, data);
    v->cap = cap;
    return to;
}

uint16_t *gr_values_room16(gr_values *v, int64_t n) {
    if (v->v64) return NULL;
    v->v16 = grow_to(v, v->v16, n, sizeof *v->v16);
    return v->v16;
}

int64_t *gr_values_room64(gr_values *v, int64_t n) {
    if (!v->v64) {   /* widen what is there, for good */
        int64_t cap = v->cap > n ? v->cap : n;
        int64_t *w = gr_alloc(v->c, gr_size_mul(v->c, (size_t)(cap > 0 ? cap : 1), sizeof *w));
        for (int64_t i = 0; i < v->n; i++) w[i] = v->v16[i];
        gr_free(v->c, v->v16);
        v->v16 = NULL;
        v->v64 = w;
        v->cap = cap > 0 ? cap : 1;
    }
    v->v64 = grow_to(v, v->v64, n, sizeof *v->v64);
    return v->v64;
}

void gr_values_push(gr_values *v, int64_t x) {
    uint16_t *s = x >= 0 && x <= UINT16_MAX ? gr_values_room16(v, v->n + 1) : NULL;
    if (s) s[v->n] = (uint16_t)x;
    else gr_values_room64(v, v->n + 1)[v->n] = x;
    v->n++;
}

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

/* The value i of the array scanned last. */
static int64_t value_at(const gr_detect *d, int64_t i) {
    switch (d->width) {
    case 1: return ((const uint8_t *)d->v)[i];
    case 2: return ((const uint16_t *)d->v)[i];
    case 4: return ((const uint32_t *)d->v)[i];
    default: return ((const int64_t *)d->v)[i];
    }
}

static void scan(gr_detect *d, const void *v, int width, int64_t n) {
    gr_ctx *c = d->c;
    d->n = n;
    d->v = v;
    d->width = width;
    d->last = n > 0 ? value_at(d, n - 1) : 0;
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
    if (!wide) {
        switch (width) {
        case 1: z_u8_32(v, top, d->z32); break;
        case 2: z_u16_32(v, top, d->z32); break;
        case 4: z_u32_32(v, top, d->z32); break;
        default: z_i64_32(v, top, d->z32); break;
        }
    } else {
        switch (width) {
        case 1: z_u8_64(v, top, d->z64); break;
        case 2: z_u16_64(v, top, d->z64); break;
        case 4: z_u32_64(v, top, d->z64); break;
        default: z_i64_64(v, top, d->z64); break;
        }
    }
}

void gr_detect_scan_u8(gr_detect *d, const uint8_t *v, int64_t n) { scan(d, v, 1, n); }
void gr_detect_scan_u16(gr_detect *d, const uint16_t *v, int64_t n) { scan(d, v, 2, n); }
void gr_detect_scan_u32(gr_detect *d, const uint32_t *v, int64_t n) { scan(d, v, 4, n); }
void gr_detect_scan_i64(gr_detect *d, const int64_t *v, int64_t n) { scan(d, v, 8, n); }

void gr_detect_scan(gr_detect *d, const gr_values *vals, int64_t n) {
    if (vals->v64) scan(d, vals->v64, 8, n);
    else scan(d, vals->v16, 2, n);
}

int64_t gr_detect_saltus(const gr_detect *d, int64_t p) {
    return (int64_t)((uint64_t)d->last - (uint64_t)value_at(d, d->n - 1 - p));
}

int64_t gr_detect_start(const gr_detect *d, int64_t p) {
    int64_t top = d->n - 1;
    if (p >= top) return 0;                  /* one pair at most: its own run */
    int64_t z = d->z64 ? d->z64[p] : d->z32[p];
    return top - p - z;
}

void gr_detect_columns(const gr_values *vals, int64_t n, gr_value_columns *col) {
    if (n > vals->n) n = vals->n;
    col->upto = n - 1;
    col->largest = -1;
    col->largest_at = -1;
    col->rare_count = 0;
    col->last_rare = -1;
    for (int64_t x = 0; x < n; x++) {
        int64_t v = gr_values_get(vals, x);
        if (v > col->largest) { col->largest = v; col->largest_at = x; }
        if (col->has_rare &&   /* heap 0 too, as the published tables count it */
            (__builtin_parityll((uint64_t)v & col->rare_mask) ^ (col->rare_heap_parity & (int)(x & 1))) != col->rare_common) {
            col->rare_count++;
            col->last_rare = x;
        }
    }
}

int gr_detect_rare_classes(gr_ctx *c, const gr_values *vals, int64_t n, gr_value_columns *col) {
    return gr_detect_rare_classes_as(c, vals, n, GR_RARE_ANY, col);
}

int gr_detect_rare_classes_as(gr_ctx *c, const gr_values *vals, int64_t n, int kappa, gr_value_columns *col) {
    if (n > vals->n) n = vals->n;
    if (n < 1) return 0;
    int64_t largest = 0;
    for (int64_t x = 0; x < n; x++) {
        int64_t v = gr_values_get(vals, x);
        if (v < 0 || v >= ((int64_t)1 << 20)) return 0;
        if (v > largest) largest = v;
    }
    int k = 0;
    while (((int64_t)1 << k) <= largest) k++;
    size_t size = (size_t)1 << (k + 1);
    int64_t *h = gr_alloc(c, size * sizeof *h);
    memset(h, 0, size * sizeof *h);
    for (int64_t x = 0; x < n; x++) h[(size_t)gr_values_get(vals, x) | ((size_t)(x & 1) << k)]++;
    int r = gr_detect_rare_classes_of(h, k, n, kappa, col);
    gr_free(c, h);
    return r;
}

/* The Walsh-Hadamard transform in place (size a power of two): h[m] becomes the sum over i of
 * h[i] times -1 to the parity of (i & m). */
static void gr_detect_walsh(int64_t *h, size_t size) {
    for (size_t len = 1; len < size; len <<= 1)
        for (size_t i = 0; i < size; i += 2 * len)
            for (size_t j = i; j < i + len; j++) {
                int64_t a = h[j], b = h[j + len];
                h[j] = a + b;
                h[j + len] = a - b;
            }
}

int gr_detect_rare_classes_of(int64_t *h, int k, int64_t n, int kappa, gr_value_columns *col) {
    size_t size = (size_t)1 << (k + 1);
    gr_detect_walsh(h, size);   /* h[m] becomes (heaps of parity 0) - (of parity 1) */
    size_t best = 0;
    if (kappa == GR_RARE_ANY) {
        for (size_t m = 1; m < size; m++) {
            int64_t d = h[m] < 0 ? -h[m] : h[m], bd = best ? (h[best] < 0 ? -h[best] : h[best]) : -1;
            if (d > bd) best = m;
        }
    } else {
        /* as the rare-value kernel chooses (sparse.c): the common class is 1 xor (hp and kappa),
         * a heap-parity bit only when every split place has the parity kappa; the first of the
         * least in its order, (mask << 1) | hp */
        int64_t least = INT64_MAX;
        for (size_t mask = 1; mask < ((size_t)1 << k); mask++)
            for (int hp = 0; hp < 2; hp++) {
                if (hp && kappa < 0) continue;
                size_t m = mask | ((size_t)hp << k);
                int cc = 1 ^ (hp & kappa);
                int64_t rare = cc ? (n + h[m]) / 2 : (n - h[m]) / 2;   /* h[m]: class 0 - class 1 */
                if (rare < least) { least = rare; best = m; }
            }
    }
    col->has_rare = best != 0;
    col->rare_mask = best & (((size_t)1 << k) - 1);
    col->rare_heap_parity = (int)(best >> k) & 1;
    col->rare_common = kappa == GR_RARE_ANY ? best && h[best] < 0   /* more heaps of parity 1: the common class */
                                            : 1 ^ (col->rare_heap_parity & kappa);
    return col->has_rare;
}
