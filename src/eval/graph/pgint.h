/* pgint: the inside of the position graph (posgraph.h), shared by its files: posgraph.c
 * (interning and expansion), pgsolve.c (the analyses and the values-only search, the answers)
 * and pggamma.c (generalised Sprague-Grundy values). Not for other code. */
#ifndef GRUNDY_PGINT_H
#define GRUNDY_PGINT_H
#include "eval/graph/posgraph.h"
#include "eval/graph/pgteam.h"
#include "pool.h"
#include "progress.h"

/* Sentinels of the 32-bit per-position result arrays. Ids, remoteness, SG and gamma values
 * are all below GR_PG_MAX_IDS, so the top few values of uint32_t are free. */
#define NONE UINT32_MAX              /* rem: draw; sg and gamma: undefined */
#define GAMMA_INF (UINT32_MAX - 1)   /* gamma: infinity */
#define GAMMA_UNL (UINT32_MAX - 2)   /* gamma: not labelled yet (only while computing) */
#define GR_PG_MAX_IDS (UINT32_MAX - 3)

/* Search states in outc of positions the values-only path has not valued yet. */
#define ST_NEW 3                     /* discovered, not expanded */
#define ST_OPEN 4                    /* expanded, on the search stack */

/* The per-position arrays of every graph (key_off, outc, rem, sg) are chunked: chunk 0 grows
 * by realloc up to CHUNK entries, then whole chunks of CHUNK entries are added, never moved.
 * So a large graph never copies them and holds at most one chunk of slack, where a flat array
 * grown by 1.5x copies everything each time and holds up to half its size unused. */
#define CHUNK_BITS GR_PG_CHUNK_BITS
#define CHUNK ((uint64_t)1 << CHUNK_BITS)
#define AT(arr, i) ((arr)[(uint64_t)(i) >> CHUNK_BITS][(uint64_t)(i) & (CHUNK - 1)])

#define MIN_SLOT_BITS 10
#define MIN_SLOTS (1u << MIN_SLOT_BITS)
#define MIN_CAP 256u

/* A position on the values-only search stack: its children are dstk[base .. base + deg),
 * those before next already valued or being valued. */
struct dfs_frame {
    uint32_t id, next, deg;
    uint64_t base;
};

struct gr_pg_sink {
    gr_pg *g;
    uint32_t parent;
};

struct gr_pg {
    gr_ctx *c;
    gr_pg_expand_fn expand;
    void *user;
    uint64_t limit;          /* most positions allowed */
    int limit_derived;       /* limit came from the memory limit, not --max-positions */

    /* Positions: the chunked arrays have room for `room` entries (nchunks chunks of which the
     * table has chunks_cap); the flat arrays of stored edges for cap positions (child_off
     * cap + 1). */
    uint32_t n, cap;
    uint64_t room;
    size_t nchunks, chunks_cap;
    uint8_t **keys;
    size_t nkch, kch_cap;     /* key chunks: keys[0 .. nkch), the last filled to kpos of ksize */
    uint64_t kpos, ksize, kbytes;   /* kbytes: all key chunks together */
    uint64_t **key_off;       /* chunked, like outc, rem and sg: see AT */
    uint64_t *slots;
    uint64_t nslots;          /* a power of two: 2^slot_bits */
    int slot_bits;

    /* Expansion: positions [0, n_expanded) have children[child_off[id] .. child_off[id+1]). */
    uint32_t n_expanded;
    uint8_t *kind;            /* gr_expand_kind of expanded positions */
    uint64_t *child_off;
    uint32_t *children;
    uint64_t nedges, edges_cap;
    uint64_t emitted, max_emitted;  /* bytes of children emitted, duplicates too; the limit (0: none) */
    /* 1: children are stored (CSR above, kind, child_off) and solving is retrograde; 0: the
     * values-only path (see "depth first" below), until a cycle or a request for children
     * switches the graph to stored edges for good. */
    int store_edges;
    /* The distinct children of the batch being inserted: an open-addressing set of id + 1
     * (0 empty), at least twice the batch's size, cleared per batch. */
    uint32_t *dset;
    size_t dset_cap, dset_mask;
    /* The values-only search: the distinct children of every position on the stack, back to
     * back, and one frame per such position. Freed after each solve. */
    uint32_t *dstk;
    uint64_t dstk_len, dstk_cap;
    struct dfs_frame *frames;
    size_t nframes, frames_cap;
    uint64_t *bits;           /* mex scratch: one bit per value up to the largest degree */
    size_t bits_cap;
    /* The children emitted by the expansion in progress. They are inserted after expand
     * returns: the parent's encoding, which expand reads in place, cannot move under it, and
     * the batch's hash-table probes can be prefetched together instead of missing the cache
     * one at a time. Child k is batch[batch_end[k - 1] .. batch_end[k]). */
    uint8_t *batch;
    size_t batch_len, batch_cap;
    size_t *batch_end;
    uint64_t *batch_hash;
    size_t batch_n, batch_max;
    gr_progress *prog;        /* the bar of the running expansion, ended before a limit failure */
    int noted;                /* c->limit_note is this graph's (see note_growth) */

    /* Results for positions [0, n_solved). On the values-only path outc also holds the
     * search state of positions not yet valued (ST_NEW, ST_OPEN). */
    uint32_t n_solved;
    uint8_t **outc;
    uint32_t **rem, **sg;
    uint32_t *gamma;          /* NULL until gr_pg_solve_gamma; for [0, n_gamma) */
    uint32_t n_gamma, gamma_cap;
};

/* Shared between the files (see each definition). */
gr_expand_kind gr_pgi_call_expand(gr_pg *g, uint32_t id);
void gr_pgi_dfs_release(gr_pg *g);
void gr_pgi_expand_pending(gr_pg *g);
uint64_t gr_pgi_grown(uint64_t cap, uint64_t need, uint64_t floor);
uint32_t gr_pgi_insert_batch(gr_pg *g, uint32_t **arr, uint64_t *len, uint64_t *cap);
const uint8_t *gr_pgi_key_at(const gr_pg *g, uint32_t id, size_t *len);
void gr_pgi_note_growth(gr_pg *g);
void *gr_pgi_resize(gr_ctx *c, void *p, size_t elem, uint64_t count);
void gr_pgi_build_reverse(gr_pg *g, uint32_t n, uint64_t **roff_out, uint32_t **rev_out);
uint32_t gr_pgi_degree(const gr_pg *g, uint32_t id);
void gr_pgi_materialize(gr_pg *g);
#endif
