/* pgteam: the stored-edges solve of the position graph (posgraph.c) split across the thread
 * team of --threads (pool.h): the first pass over the positions (terminal positions, counters),
 * the levels of the retrograde analysis (outcome and remoteness) and the levels of Kahn's
 * order (SG values). Pure array work on arrays the caller owns: workers never longjmp and
 * never allocate. The caller (posgraph.c) drives the passes, polls --max-time between jobs and
 * levels, and hands each job a range (positions, or a frontier of the queue) that the members
 * take in pieces from a shared counter (levels.h). The answers are the serial queue's, for
 * every number of threads: the argument is densepar.c's, and is repeated in pgteam.c. */
#ifndef GRUNDY_PGTEAM_H
#define GRUNDY_PGTEAM_H
#include <stddef.h>
#include <stdint.h>
#include "eval/levels.h"

/* The per-position result arrays of a graph are chunks of 2^GR_PG_CHUNK_BITS entries. */
#define GR_PG_CHUNK_BITS 20
#define GR_PG_AT(arr, i) ((arr)[(uint64_t)(i) >> GR_PG_CHUNK_BITS][(uint64_t)(i) & (((uint64_t)1 << GR_PG_CHUNK_BITS) - 1)])

typedef struct gr_pgpass {
    gr_level_job lv;              /* the job: positions, or a frontier of lv.queue */
    /* the graph: the children of v are fwd[off[v]..off[v + 1]), its parents
     * rev[roff[v]..roff[v + 1]); kind[v] its gr_expand_kind (eval/cap_graph.h) */
    const uint64_t *off, *roff;
    const uint32_t *fwd, *rev;
    const uint8_t *kind;
    uint8_t **outc;               /* chunked results (GR_PG_AT) */
    uint32_t **rem, **sg;
    uint32_t *cnt;                /* counters of undecided (unvalued) children */
    uint64_t *scratch;            /* per member swords words: a bitset of the children's SG values */
    size_t swords;
    uint32_t value;               /* the remoteness of the positions a level settles */
} gr_pgpass;

/* Positions from..to: no outcome yet (a draw, no remoteness) and counters of their children,
 * or, for a terminal or a position without children, outcome and remoteness 0, appended: the
 * first frontier. */
void gr_pgpass_start(void *J, int member, int members);
/* The frontier queue[from..to), settled: their parents that this settles (a lost child: won;
 * the last undecided child won: lost) get remoteness value, appended. */
void gr_pgpass_settle(void *J, int member, int members);
/* Positions from..to: SG undefined, counters of unvalued children, and those with none (not a
 * terminal that wins) appended: the first frontier of Kahn's order. */
void gr_pgpass_kahn_start(void *J, int member, int members);
/* The Kahn frontier queue[from..to): SG values from their children's, then parents whose last
 * unvalued child this was, appended. */
void gr_pgpass_kahn(void *J, int member, int members);
/* The mex of v's children's SG values (all defined: v is in Kahn's order); bits has room for
 * v's degree plus one bits. Only values up to the degree can matter. */
uint32_t gr_pgpass_mex(const gr_pgpass *J, uint32_t v, uint64_t *bits);
#endif
