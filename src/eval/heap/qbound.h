/* qbound: what a refuted candidate still proves about the quotient being searched. The check
 * (qcheck.h) finds the least misclassified sum w in an order that compares the count of the
 * newest heap first, and every sum below w is classified right. So every sum with fewer copies
 * of the newest heap than w has its true outcome in the candidate, and two elements that such
 * sums tell apart are two elements of the true quotient: a lower bound on its order, and on how
 * many distinct powers the newest heap has, whatever the search does next (Siegel's
 * MisereSolver has the same idea, unused). */
#ifndef GRUNDY_QBOUND_H
#define GRUNDY_QBOUND_H
#include <stdint.h>
#include "eval/heap/qmonoid.h"

typedef struct gr_qbound {
    int64_t order;      /* the true quotient has at least this many elements */
    int32_t powers;     /* the newest heap's powers 0..e_w-1 fall into this many classes */
} gr_qbound;

/* Candidate k with images img of atoms 0..n (n the newest), refuted at a sum with e_w >= 1
 * copies of atom n; has_move[a]: atom a has an option. Work bounded by max_products (the
 * bound is then smaller, never wrong). */
gr_qbound gr_qbound_of(gr_ctx *c, const gr_qmon *k, const int32_t *img, const uint8_t *has_move, int64_t n,
                       int32_t e_w, int64_t max_products);
#endif
