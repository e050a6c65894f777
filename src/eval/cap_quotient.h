/* cap_quotient: the capability of the misere quotient of the heaps 0..n of one heap rule set (Plambeck 2005; Plambeck
 * and Siegel 2008): the commutative monoid Q of the sums of those heaps under misere
 * indistinguishability (x ~ y iff x + z and y + z have the same misere outcome for every z),
 * its P-portion, and the pretending function heap -> element. Computed once per rule set and
 * kept on the game (the evaluators' cache, eval/cache.h), grown on demand like an SG table.
 *
 * How it is computed: heap by heap, by Plambeck and Siegel's algorithm (2008, Appendix; the
 * method of Siegel's MisereSolver), each step proved:
 *   same        heap n whose option images are an earlier heap's is that heap's element;
 *   conserve    else heap n may be an element x of Q_{n-1} (same outcome, no z with x z and
 *               some option t z both in P), proved by the check (qcheck.h);
 *   grow        else a candidate is made from Q_{n-1} + C(2, 2), heap n the new cyclic
 *               generator (qmonoid.h: each element marked through its least sum, elements no
 *               sum tells apart merged); the check proves it or returns the least sum it
 *               misclassifies (whose true outcome is the opposite of its image's), and the
 *               candidate is recalibrated there: the fewest heaps of that sum get free cyclic
 *               generators of their own beside the submonoid the other heaps generate (a heap
 *               of Q_{n-1} can split: Kayles' 5 + 5 and 0 are one element of Q_8, yet 9 + 5 + 5
 *               is N and 9 is P), until the check passes. Past the limits (quotient.c) the
 *               quotient stops at heap n (q->failed, q->why_failed).
 * A checked candidate is the quotient: its map is onto, every sum is classified right, and
 * its elements are pairwise told apart by some sum.
 * Where the pretending function turns periodic, a theorem extends it to every heap (see
 * prove). The algorithm lives in eval/heap/quotient.c; sums/misquot.c and the quotient query
 * reach it through gr_cap_quotient (evaluator.h explains capabilities). */
#ifndef GRUNDY_CAP_QUOTIENT_H
#define GRUNDY_CAP_QUOTIENT_H
#include <stdint.h>
#include "eval/evaluator.h"

typedef struct gr_quotient {
    gr_game *game;           /* games[0] */
    /* A union of rule sets: each rule set's heaps only up to the largest a sum asked for (the
     * quotient of kayles(0..50) and nim(0..7), not nim(0..50)); its atoms are added one rule
     * set after another, atom_gi[a] and atom_heap[a] say which heap atom a is, atom[gi][h] the atom
     * of heap h of games[gi] for h < count[gi] (one game: atom = heap, no tables); every option
     * of an atom is an earlier atom. */
    gr_game *games[8]; int ngames;
    int64_t count[8];
    int64_t *atom[8];
    int8_t *atom_gi; int64_t *atom_heap;
    struct gr_quotient *unions;   /* unions with this game first (kept on the game's own quotient) */
    /* bound > 0: checked only on sums of weight <= bound (a union made for one sum: see
     * union_of), not the quotient; weight[a]: the most moves atom a lasts */
    int64_t bound; int64_t *weight;
    uint64_t used_call;      /* a union: the call that last asked for it (gr_ctx.store.calls) */
    int64_t nheaps;          /* atoms 0..nheaps-1 are in */
    int32_t order;           /* |Q| */
    int32_t p_order;         /* |P| */
    uint8_t *inP;            /* [order] */
    int32_t *mul;            /* [order * order]; element 0 is the identity */
    int32_t *pret;           /* [nheaps]: the element of each heap */
    int64_t last_growth;     /* the heap where |Q| last grew (0: never past heap 0) */
    int32_t *order_at;       /* [nheaps]: |Q| once atom a was in (how the order grew) */
    /* the options of each heap, as heap words: opt_off[h] .. opt_off[h + 1] index into words,
     * each word its length then its heaps */
    int64_t *opt_off; int32_t *words; int64_t nwords, wcap;
    /* a proved period: pret[n + per] = pret[n] for every n >= pre, Q never grows again */
    int proved; int64_t pre, per, proof_to;
    char theorem[256];       /* the theorem that proved it and the heaps it needed */
    int64_t failed;          /* >0: heap `failed` could not be added (the quotient stops there) */
    char why_failed[200];    /* why heap `failed` could not be added */
    int64_t checked_states;  /* states the checks visited and elements the candidates marked
                              * (the cost of the proofs) */
    int64_t budget;          /* >0: a heap whose search would pass this cost is left out ... */
    int over_budget;         /* ... and this says so (the caller clears both) */
    int no_grow;             /* set: a heap that would make Q grow is left out as over budget
                              * (heaps added only to prove a period, at the cost of a check) */
    /* heap cert_heap's search refuted candidates whose sums still proved (eval/heap/qbound.h)
     * that Q, with that heap, has at least cert_order elements and that heap's element at
     * least cert_powers distinct powers */
    int64_t cert_heap, cert_order; int32_t cert_powers;
    int64_t adding;          /* the heap being added (its search may be cut short by a limit), -1: none */
    char stage[200];         /* the progress label: the heap being added and what its search is
                              * doing (a heap can take minutes) */
    int64_t refused[8];      /* a union: the heap of games[i] a caller's budget once left out
                              * (0: none), for that caller not to pay for it again */
} gr_quotient;

/* Its presentation (for output). */
typedef struct gr_presentation {
    int ngens;
    int64_t *gen_heap;       /* the heap that introduced each generator */
    int32_t *gen_elem;
    char **words;            /* [order]: each element's normal form ("1", "a", "ab^2") */
    char **relations; int nrel;   /* "a^2 = 1" */
    int tame_k;              /* T_k it is isomorphic to, 0: wild */
} gr_presentation;

typedef struct gr_quotient_cap {
    /* The quotient of g's heaps 0..upto (grown from what the cache holds); fails with status 3
     * at the limits (--max-memory, --max-time), naming the heap and the order reached. NULL
     * (and why) when g is not a heap rule set whose moves lead to smaller heaps. */
    gr_quotient *(*of)(gr_ctx *c, gr_game *g, int64_t upto, char *why, size_t cap);
    /* g's quotient as far as it got, with no work (NULL: none yet): after a limit stopped
     * `of`, what it had proved (heaps 0..reached, order_at) for the query to show. */
    gr_quotient *(*so_far)(gr_game *g, int64_t *reached);
    /* The quotient of heaps 0..upto only, from q computed at least that far (a new quotient
     * the caller frees with free; no proof or unions carried). */
    gr_quotient *(*restrict_to)(gr_ctx *c, const gr_quotient *q, int64_t upto);
    /* The element of a heap: from the table, through a proved period, or by growing. */
    int32_t (*elem)(gr_ctx *c, gr_quotient *q, int64_t heap);
    /* The quotient of the union of games[0..n) (at most 8 distinct rule sets), heaps 0..tops[i]
     * of games[i] at least (no periodicity theorem for unions); NULL with why as of. bound > 0:
     * a monoid proved to classify only the sums that last at most bound moves (the positions
     * of a sum that lasts bound moves at most), kept apart from the quotient (0). */
    gr_quotient *(*union_of)(gr_ctx *c, gr_game *const *games, int n, const int64_t *tops, int64_t bound, char *why, size_t cap);
    /* The element of heap `heap` of games[gi] in a union (grown on demand). */
    int32_t (*elem_of)(gr_ctx *c, gr_quotient *q, int gi, int64_t heap);
    /* The options of a huge heap (past 2^20) of q's one rule set, through its proved period:
     * those whose element times rest is in P (want_p 1), not in P (0), or all (-1); reports
     * the first `limit` to fn in the order of the options and returns how many there are in
     * all (saturating), without walking them. -1: not for this heap (no proved period, a union,
     * a small heap, a shape the residue classes do not cover): walk its options. */
    int64_t (*moves_where)(gr_ctx *c, gr_quotient *q, int64_t heap, int32_t rest, int want_p, int64_t limit,
                           gr_option_fn fn, void *user);
    /* Tries to prove that the pretending function stays periodic (q->proved and q->theorem). */
    void (*prove)(gr_ctx *c, gr_quotient *q);
    void (*free)(gr_ctx *c, gr_quotient *q);
    void (*present)(gr_ctx *c, const gr_quotient *q, gr_presentation *out);
    void (*presentation_free)(gr_ctx *c, gr_presentation *p);
} gr_quotient_cap;

/* g's capability: NULL, and why in a sentence, when g is not a heap rule set whose moves lead
 * to smaller heaps (then of would decline with the same why). */
const gr_quotient_cap *gr_cap_quotient(const gr_game *g, char *why, size_t cap);
#endif
