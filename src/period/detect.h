/* detect: every period of a finite sequence of heap values at once, in time linear in its
 * length. For the values v[0..n) of a table and every 1 <= p < n it gives the saltus of the
 * last pair, s(p) = v[n-1] - v[n-1-p], and the least e such that v[i+p] - v[i] = s(p) for
 * every e <= i < n - p: the least preperiod of (p, s(p)) over the values seen. That is the
 * state the incremental tracker of period.h keeps, but found afresh from the table by the
 * Z-function (Gusfield) of the reversed difference sequence r[k] = v[n-1-k] - v[n-2-k]:
 * v[i+p] - v[i] is constant for i >= e exactly when the differences repeat with period p from
 * e, i.e. when r[0..] and r[p..] agree on their first n-1-p-e places, so e = n-1-p-z[p].
 *
 * A check that doubles its range and scans again after each stage thus costs at most twice a
 * scan of the final range, about 10 ns per heap: negligible next to computing the values. The
 * memory is one 32-bit entry per heap (64-bit past 2^31 heaps), besides the values themselves.
 *
 * The values are plain integer arrays: the heap kernels scan their own arrays in place at the
 * width they keep (uint8_t .. int64_t, gr_detect_scan_u8 ..), so the proof while filling
 * (proved.h) costs no copy; queries read a heap table through its capability into a gr_values
 * (16 bits a value while they fit, else 64) and scan that. */
#ifndef GRUNDY_DETECT_H
#define GRUNDY_DETECT_H
#include <stdint.h>
#include "ctx.h"

/* Values v[0..n) as plain integers, 16 bits each while every value fits, 64 bits for good
 * after the first that does not (SG values are small nearly always). */
typedef struct gr_values {
    gr_ctx *c;
    int64_t n, cap;
    uint16_t *v16;             /* in use while v64 is NULL */
    int64_t *v64;
} gr_values;

void gr_values_init(gr_values *v, gr_ctx *c);
void gr_values_free(gr_values *v);
/* Room for values up to n (v->n of them are there): where values v->n..n-1 are to be written,
 * at 16 bits (NULL once the values are 64-bit) or at 64 bits (widening what is there). The
 * writer then sets v->n = n. */
uint16_t *gr_values_room16(gr_values *v, int64_t n);
int64_t *gr_values_room64(gr_values *v, int64_t n);
void gr_values_push(gr_values *v, int64_t x);
static inline int64_t gr_values_get(const gr_values *v, int64_t i) { return v->v64 ? v->v64[i] : v->v16[i]; }

typedef struct gr_detect {
    gr_ctx *c;
    int64_t n;                 /* the values scanned last */
    int64_t last;              /* v[n - 1] */
    const void *v;             /* the values scanned last (read for the saltus) ... */
    int width;                 /* ... bytes per value: 1, 2, 4 unsigned, 8 signed */
    int32_t *z32;              /* z[p] for 1 <= p < n - 1, 32-bit while n < 2^31 */
    int64_t *z64;
    int64_t cap;
} gr_detect;

void gr_detect_init(gr_detect *d, gr_ctx *c);
void gr_detect_free(gr_detect *d);
/* Scans the first n values of an array. The values must stay unchanged while the results below
 * are read. */
void gr_detect_scan_u8(gr_detect *d, const uint8_t *v, int64_t n);
void gr_detect_scan_u16(gr_detect *d, const uint16_t *v, int64_t n);
void gr_detect_scan_u32(gr_detect *d, const uint32_t *v, int64_t n);
void gr_detect_scan_i64(gr_detect *d, const int64_t *v, int64_t n);
/* The first n values of vals (n <= vals->n). */
void gr_detect_scan(gr_detect *d, const gr_values *vals, int64_t n);

/* For 1 <= p < n: the saltus of the last pair and the least preperiod of (p, saltus). */
int64_t gr_detect_saltus(const gr_detect *d, int64_t p);
int64_t gr_detect_start(const gr_detect *d, int64_t p);

/* The research tables' columns over heaps 0..n-1 of the values: the largest value and the least
 * heap holding it; with a rare-value classification (has_rare: a mask, heap-parity bit and
 * common class as sparse.h chooses them) also how many heaps are rare, heap 0 included as
 * the published tables count it, and the last of them (-1: none). */
typedef struct gr_value_columns {
    int64_t upto;                      /* the last heap counted */
    int64_t largest, largest_at;
    int has_rare;
    int rare_kernel;                   /* the classes are the rare-value kernel's own (it ran) */
    uint64_t rare_mask;
    int rare_heap_parity, rare_common;
    int64_t rare_count, last_rare;
} gr_value_columns;
void gr_detect_columns(const gr_values *vals, int64_t n, gr_value_columns *col);
/* The rare classes of heaps 0..n-1 when no kernel chose them (the plain kernels): the split of
 * the heaps by the parity of (value & mask) xor (heap parity, if taken) that leaves the fewest
 * on one side, found for every mask at once by the Walsh-Hadamard transform of the counts of
 * (value, heap parity) (bit k of the index the heap's parity, k the values' bit length). 0 when
 * some value is past 2^20 (or negative): no columns then. */
int gr_detect_rare_classes(gr_ctx *c, const gr_values *vals, int64_t n, gr_value_columns *col);
/* The same with the orientation the rare-value kernel takes (eval/heap/sparse.h) and the
 * published tables count (tczajka's, Flammenkamp's): kappa, the parity of every split place of
 * the code (0 or 1) or -1 when they differ, fixes the common class as 1 xor (hp and kappa), hp
 * the heap-parity bit, allowed only when kappa >= 0; of those, the mask with the fewest rare
 * heaps (the first in the order (mask << 1) | hp, as the kernel takes it). GR_RARE_ANY: the
 * rule above. */
enum { GR_RARE_ANY = -2 };
int gr_detect_rare_classes_as(gr_ctx *c, const gr_values *vals, int64_t n, int kappa, gr_value_columns *col);
/* The same from the counts themselves (query/longrun.c keeps them as it goes): h[v | parity << k]
 * heaps of value v < 2^k and that heap parity among n heaps (2^(k+1) entries, overwritten by
 * their transform); sets the classes of col. */
int gr_detect_rare_classes_of(int64_t *h, int k, int64_t n, int kappa, gr_value_columns *col);
#endif
