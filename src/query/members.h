/* members: the members of a census or of a family's periodicity check, computed one by one or
 * spread over worker processes (--threads) or MPI ranks (grundy-mpi). A member's result is a
 * plain fixed-size record (no pointers), so it crosses a process boundary, an MPI message and a
 * checkpoint file as bytes: the check's result, and for a census the fingerprints of its value
 * sequence, from which census.c groups the members. However the members were spread, the
 * records are the same, so the printed answer is the same bytes. */
#ifndef GRUNDY_MEMBERS_H
#define GRUNDY_MEMBERS_H
#include "check.h"
#include "query.h"
#include "worker.h"

enum { GR_MEMBER_TODO = 0, GR_MEMBER_DONE = 1, GR_MEMBER_FAILED = 2 };

/* A member of a misere census: its quotient of heaps 0..to (eval/cap_quotient.h), or as far as
 * the member's budget took it; fp_all of the record is the fingerprint of the quotient and its
 * pretending function up to renaming of elements (census.c groups by it). */
enum { GR_MISERE_STABLE = 0, GR_MISERE_GROWING = 1, GR_MISERE_LIMIT = 2 };
enum { GR_GROWTH_MAX = 256 };      /* heaps of the growth kept (each heap to 256, else changes) */
typedef struct gr_misere_member {
    int32_t status;                /* GR_MISERE_* */
    int32_t order, p_order;        /* of the quotient of heaps 0..to, or reached */
    int32_t tame_k;                /* T_k, 0 wild, -1 trivial */
    int64_t last_growth;
    int64_t reached;               /* the last heap in the quotient */
    int64_t periodic_from, period; /* stable: the pretending function's proved period */
    int32_t ngrowth, pad;
    int64_t growth[GR_GROWTH_MAX][2];   /* [heap, order] */
    char limit[200];               /* GR_MISERE_LIMIT: which limit ended it */
} gr_misere_member;

typedef struct gr_member_result {
    int32_t state;                 /* GR_MEMBER_* */
    int32_t rank;                  /* the MPI rank that computed it (0 elsewhere) */
    gr_check_result check;         /* the periodicity check (to the census's bound) */
    /* census only: the values of heaps 0..to */
    int64_t largest, largest_at;   /* the largest value and the first heap that has it */
    uint64_t fp_all[2];            /* fingerprints of heaps 0..to, */
    uint64_t fp_head[2];           /*   of heaps 0..to-1 */
    uint64_t fp_tail[2];           /*   and of heaps 1..to (for the shift of one heap) */
    gr_failure failure;            /* GR_MEMBER_FAILED: why */
    gr_misere_member misere;       /* census misere only */
} gr_member_result;

/* How members are spread: run fills res[i] for every i of q whose state is GR_MEMBER_TODO (in
 * any order, failures recorded, not raised). cli/ provides the processes and MPI ranks. */
typedef struct gr_spread {
    void (*run)(struct gr_spread *sp, gr_ctx *c, gr_module *m, int query, gr_member_result *res);
    void *user;
} gr_spread;

/* The same, its failure caught into out (state GR_MEMBER_FAILED): for workers. */
void gr_member_compute_caught(gr_ctx *c, gr_rquery *q, int i, gr_member_result *out);
/* order[0..n-1]: the members, those estimated longest first (ties in member order). */
void gr_member_order(gr_ctx *c, gr_rquery *q, int *order);
/* Every member of query qi, by c->spread (when set and q has two members or more), else here
 * in member order; the first failure in member order is raised. res has q->nmembers records. */
void gr_members_run(gr_ctx *c, gr_module *m, int qi, gr_member_result *res);
#endif
