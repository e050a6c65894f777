/* qmonoid: the finite commutative monoids a misere quotient is searched in (quotient.h): an
 * explicit monoid with a P-portion, the submonoid some heap images generate, a direct sum of
 * an explicit monoid with free cyclic monoids, and the candidate such a sum gives once each of
 * its elements is marked P or N through its least sum of heaps and indistinguishable elements
 * are merged (the step of Plambeck and Siegel's algorithm, 2008, Appendix; Siegel's
 * MisereSolver). */
#ifndef GRUNDY_QMONOID_H
#define GRUNDY_QMONOID_H
#include <stdint.h>
#include "core/ctx.h"

/* An explicit commutative monoid: n elements, 0 the identity, the elements whose sums are
 * P-positions, and its products in one of two forms:
 * - the full product table (mul), n^2 entries: what the check and the stored quotient read;
 * - its generators only (ng of them): gnext[x * ng + j] = x times generator j, and a normal
 *   form of each element, the word of generators on its path from 0 in a breadth-first walk
 *   (x = par[x] times generator pgen[x]). n * ng entries: a candidate of tens of thousands of
 *   elements costs megabytes, not gigabytes, and most candidates are thrown away before
 *   anything needs more than products by generators. gr_qmon_table makes the table from them
 *   when a candidate is to be checked. */
typedef struct gr_qmon {
    int32_t n;
    int32_t *mul;            /* [n * n], or NULL (then the generator form is there) */
    uint8_t *P;              /* [n] */
    int32_t ng;              /* generators; 0 when only the table is there */
    int32_t *gnext;          /* [n * ng] */
    int32_t *par, *pgen;     /* [n]: par[0] = -1 */
} gr_qmon;

void gr_qmon_free(gr_ctx *c, gr_qmon *k);
/* a times b: a look-up in the table, else b's normal form applied to a (one step for a
 * generator, the length of b's shortest word in general). */
static inline int32_t gr_qmon_mul(const gr_qmon *k, int32_t a, int32_t b) {
    if (k->mul) return k->mul[(size_t)a * (size_t)k->n + (size_t)b];
    for (; b; b = k->par[b]) a = k->gnext[(size_t)a * (size_t)k->ng + (size_t)k->pgen[b]];
    return a;
}
/* The bytes the full table of an n-element monoid takes. */
static inline double gr_qmon_table_bytes(int32_t n) { return (double)n * (double)n * 4.0; }
/* Makes k's full table from its generator form if it has none (n^2 look-ups, by the normal
 * forms: a * x = (a * par[x]) * generator pgen[x]). */
void gr_qmon_table(gr_ctx *c, gr_qmon *k);
/* The index and period of x: the least i, p >= 1 with x^(i + p) = x^i. */
void gr_qmon_cycle(gr_ctx *c, const gr_qmon *k, int32_t x, int32_t *index, int32_t *period);

/* Heaps (atoms) 0..n-1 and their options, each option a word of smaller atoms: opt_off[a] ..
 * opt_off[a + 1] index into words, each word its length then its atoms. An atom without an
 * option is the zero game (image: the identity). */
typedef struct gr_qatoms {
    int64_t n;
    const int64_t *opt_off;
    const int32_t *words;
    /* bound > 0: only sums whose weight (the sum of weight[a], a bound on the moves left, which
     * every option lowers) is at most bound count (qcheck.h); 0: every sum */
    const int64_t *weight; int64_t bound;
} gr_qatoms;

/* The submonoid of k the images img[0..n) generate (atoms without options left out); out gets
 * it with its own numbering, and img is rewritten into it. */
void gr_qmon_regenerate(gr_ctx *c, const gr_qmon *k, const gr_qatoms *at, int32_t *img, gr_qmon *out);

/* A direct sum R + C(i_1, p_1) + ... : R explicit, each C(i, p) the cyclic monoid of g^0 ..
 * g^(i+p-1) with g^(i+p) = g^i. An element is r + |R| (e_1 + (i_1 + p_1) (e_2 + ...)). */
enum { GR_QSUM_MAX = 16 };
typedef struct gr_qsum {
    const gr_qmon *R;
    int m;
    int32_t index[GR_QSUM_MAX], period[GR_QSUM_MAX];
    int64_t size;
} gr_qsum;

/* The element of component j's generator (j = 0 .. m-1). */
int64_t gr_qsum_gen(const gr_qsum *d, int j);

/* The candidate of sum d under the atom images img (elements of d): every element reached by
 * a sum of atoms is marked through the least such sum (atoms' types ordered by their least
 * atom, each sum's options reaching earlier elements): P when it has a move and no option's
 * element is P. Then elements no sum of atoms tells apart (x ~ y iff P(xz) = P(yz) for every z)
 * are merged. out gets the result (0 the identity), out_img the atoms' images in it. 0 when
 * the sum or the result passes the limits (max_sum elements to mark, max_out in the result)
 * or the work (added to *work: option images handled) passes work_cap (0: no cap). */
int gr_qsum_candidate(gr_ctx *c, const gr_qsum *d, const gr_qatoms *at, const int64_t *img,
                      int64_t max_sum, int32_t max_out, gr_qmon *out, int32_t *out_img,
                      int64_t *work, int64_t work_cap);
#endif
