/* optset: shared option sets. A move whose targets depend on only some coordinates of the
 * position (E&D's 'move -> (i, x - i) for i in 1..x-1' reads x alone) reaches the same options
 * from every position that agrees on those coordinates, so what the options contribute (the set
 * of their SG values as a bitset, whether one is a loss, the nearest losing and farthest option)
 * is summarised once per value of those coordinates and reused.
 *
 * The dependency comes from the compiled code (expr.h): the coordinate slots read by the move's
 * 'for' bounds, its guard and its target; never from the rule set's name. Targets are checked
 * against the rule set's 'where', which reads only the target, so it adds no dependency. */
#ifndef GRUNDY_OPTSET_H
#define GRUNDY_OPTSET_H
#include <stddef.h>
#include <stdint.h>
#include "game.h"

/* The coordinates (0-based) that move mv of r reads, as a bit mask. */
uint32_t gr_move_coord_deps(const gr_rules *r, const gr_rmove *mv);

/* What a set of options contributes to the value of a position. */
typedef struct gr_optacc {
    uint64_t *bits; size_t nwords, cap;   /* SG values of the options (bit v: some option has v) */
    uint32_t nopt;                        /* options seen */
    int has_loss;                         /* some option is a loss for its mover */
    int undef;                            /* some option has no SG value */
    uint32_t min_loss_rem, max_rem;       /* remoteness: nearest losing option, farthest option */
} gr_optacc;
void gr_optacc_clear(gr_optacc *a);
/* sg < 0: undefined. */
void gr_optacc_add(gr_ctx *c, gr_optacc *a, int64_t sg, int is_loss, uint32_t rem);
void gr_optacc_merge(gr_ctx *c, gr_optacc *a, const gr_optacc *b);
uint64_t gr_optacc_mex(const gr_optacc *a);
void gr_optacc_free(gr_ctx *c, gr_optacc *a);

/* A table of summaries, one per key (the mixed-radix index of the coordinates read). */
typedef struct gr_optset {
    uint64_t nkeys;
    uint8_t *ready;
    gr_optacc *sum;
} gr_optset;
void gr_optset_init(gr_ctx *c, gr_optset *s, uint64_t nkeys);
void gr_optset_free(gr_ctx *c, gr_optset *s);
#endif
