/* posgraph: the explicit position graph: interning of canonical encodings, breadth-first
 * expansion into CSR arrays, retrograde analysis (outcome and remoteness), Sprague-Grundy
 * values on the acyclic part and generalised Sprague-Grundy values (gamma); and the
 * values-only path, a depth-first search that stores no edges; see posgraph.h.
 *
 * Layout. Position ids are assigned in discovery order. Encodings live back to back, each
 * after its length, in chunks of bytes that never move (key_off[id] locates id's; see
 * reserve_keys). The hash table is open addressing with linear
 * probing over 64-bit slots holding (upper 32 bits of the hash) << 32 | (id + 1), so a probe
 * rejects almost every non-matching slot without touching the key buffer, and 0 means empty;
 * a hash's home slot is its top bits, so doubling the table never rereads a key. The
 * per-position arrays (key_off, outc, rem, sg) are chunked (see AT): they never move.
 * With stored edges, expansion runs in id order and the children of position id are appended
 * to one array right after those of id - 1: the CSR offsets fall out for free. On the
 * values-only path (sums' solves and tables) there is no edge array, no kind and no
 * child_off at all: a position costs its key, 17 bytes of arrays and its share of the hash
 * table, about 45 bytes for a sum of a few heaps, where stored edges, their reverse and the
 * retrograde counters cost about 140.
 *
 * With --threads > 1 a graph of at least 2^20 positions is solved with stored edges by the
 * thread team (pgteam.h: the first pass, the retrograde levels, Kahn's levels; the same answers);
 * the expansion, the reverse edges, gamma and the values-only path stay serial.
 *
 * Every array is tracked memory of the context (gr_alloc and friends), so --max-memory is
 * enforced and a failure that longjmps out of here leaks nothing once gr_ctx_free runs. */
#define _DEFAULT_SOURCE 1   /* madvise(MADV_HUGEPAGE) where the C library has it */
#include "eval/graph/posgraph.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eval/graph/pgteam.h"
#include "pool.h"
#include "progress.h"
#include "worker.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

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

static void dfs_release(gr_pg *g);

/* ---- hashing ---------------------------------------------------------------------------- */

static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* The murmur3 finaliser: every input bit affects every output bit. */
static uint64_t fmix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* Keys are a few bytes long, and a library call per key copy or compare (tens of millions of
 * them) costs more than the bytes: these move 8, 4, 2, 1 bytes at a time with fixed-size
 * accesses the compiler inlines. */
static uint64_t load_tail(const uint8_t *p, size_t len) {   /* len < 8, as memcpy into 0 */
    uint64_t w = 0;
    int shift = 0;
    if (len & 4) { uint32_t x; memcpy(&x, p, 4); w = x; p += 4; shift = 32; }
    if (len & 2) { uint16_t x; memcpy(&x, p, 2); w |= (uint64_t)x << shift; p += 2; shift += 16; }
    if (len & 1) w |= (uint64_t)p[0] << shift;
    return w;
}

static void copy_bytes(uint8_t *d, const uint8_t *s, size_t len) {
    for (; len >= 8; d += 8, s += 8, len -= 8) memcpy(d, s, 8);
    if (len & 4) { memcpy(d, s, 4); d += 4; s += 4; }
    if (len & 2) { memcpy(d, s, 2); d += 2; s += 2; }
    if (len & 1) *d = *s;
}

static int same_bytes(const uint8_t *a, const uint8_t *b, size_t len) {
    for (; len >= 8; a += 8, b += 8, len -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) return 0;
    }
    return load_tail(a, len) == load_tail(b, len);
}

/* Eight bytes per multiply-rotate step, then a full avalanche. The length is folded into the
 * seed so encodings that differ only by trailing zero bytes hash apart. */
static uint64_t hash_bytes(const uint8_t *p, size_t len) {
    const uint64_t k1 = 0x87c37b91114253d5ULL, k2 = 0x4cf5ad432745937fULL;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)len * k2);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = rotl64(h ^ (w * k1), 31) * k2;
        p += 8;
        len -= 8;
    }
    if (len) h = rotl64(h ^ (load_tail(p, len) * k1), 31) * k2;
    return fmix64(h);
}

/* ---- growth ------------------------------------------------------------------------------ */

/* Large arrays of the graph are read at random (a hash probe, a child's value), so on a big
 * graph nearly every access misses the TLB as well as the cache; asking for transparent huge
 * pages (2 MiB) makes those misses far cheaper. Advice only: nothing changes where the system
 * declines. */
static void advise_huge(void *p, size_t bytes) {
#if defined(MADV_HUGEPAGE)
    enum { HUGE = 2u << 20 };
    if (bytes < 2 * (size_t)HUGE) return;
    uintptr_t lo = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE - 1);
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

static void *resize(gr_ctx *c, void *p, size_t elem, uint64_t count) {
    if (count > SIZE_MAX) gr_fail(c, GR_EXIT_LIMIT, "position graph too large for this machine");
    size_t bytes = gr_size_mul(c, elem, (size_t)count);
    p = gr_realloc(c, p, bytes);
    advise_huge(p, bytes);
    return p;
}

static uint64_t grown(uint64_t cap, uint64_t need, uint64_t floor) {
    uint64_t n = cap < floor ? floor : cap;
    while (n < need) n += n / 2 + 1; /* 1.5x: less slack than doubling on huge graphs */
    return n;
}

/* Before each growth of an array (rare: geometric), says in c->limit_note how far the graph
 * got, so that a memory limit reached while it grows says so too. A note of someone else (a
 * growing heap) is left alone; ours is cleared by the graph's own limit messages and free. */
static const char PG_NOTE[] = "the position graph had ";

static int note_is_ours(const gr_pg *g) {
    return g->noted && strncmp(g->c->limit_note, PG_NOTE, sizeof PG_NOTE - 1) == 0;
}

static void note_growth(gr_pg *g) {
    gr_ctx *c = g->c;
    if (c->limit_note[0] && !note_is_ours(g)) return;
    g->noted = 1;
    snprintf(c->limit_note, sizeof c->limit_note, "%s%u positions and %llu edges explored "
             "(%u positions expanded, %zu moves of the next one listed)", PG_NOTE, g->n, (unsigned long long)g->nedges,
             g->n_expanded, g->batch_n);
}

static void unnote(gr_pg *g) {
    if (note_is_ours(g)) g->c->limit_note[0] = '\0';   /* a growing heap's note stays */
    g->noted = 0;
}

/* On the values-only path the positions are nearly all the memory: reaching the limit derived
 * from --max-memory, or a growth of the position store past --max-memory, says so. */
static _Noreturn void fail_memory(gr_pg *g) {
    if (g->prog) gr_progress_end(g->prog);
    unnote(g);
    gr_fail(g->c, GR_EXIT_LIMIT,
            "position graph too large for --max-memory: %u positions and %llu edges explored "
            "(%u positions expanded); the limit is %zu MiB; raise --max-memory or analyse a "
            "smaller game",
            g->n, (unsigned long long)g->nedges, g->n_expanded, g->c->mem_limit >> 20);
}

/* Before the position store (the chunked arrays, the keys) grows by `bytes` on the values-only
 * path; the hash table's doubling and the search stack are left to the memory limit itself. */
static void store_budget(gr_pg *g, uint64_t bytes) {
    gr_ctx *c = g->c;
    if (!g->store_edges && (uint64_t)c->mem_used + bytes > c->mem_limit) fail_memory(g);
}

static _Noreturn void fail_limit(gr_pg *g) {
    if (g->limit_derived && !g->store_edges) fail_memory(g);
    if (g->prog) gr_progress_end(g->prog);
    unnote(g);
    if (g->limit_derived)
        gr_fail(g->c, GR_EXIT_LIMIT,
                "position graph limit reached: %u positions and %llu edges explored "
                "(%u positions expanded; the default limit of %llu positions follows from "
                "--max-memory); raise --max-positions or --max-memory, or analyse a smaller game",
                g->n, (unsigned long long)g->nedges, g->n_expanded,
                (unsigned long long)g->limit);
    gr_fail(g->c, GR_EXIT_LIMIT,
            "position graph limit reached: %u positions and %llu edges explored "
            "(%u positions expanded; --max-positions %llu); raise --max-positions or "
            "analyse a smaller game",
            g->n, (unsigned long long)g->nedges, g->n_expanded, (unsigned long long)g->limit);
}

/* Makes room for one more position in every per-position array. */
/* Room for `need` entries in every chunked array. */
static void grow_chunks(gr_pg *g, uint64_t need) {
    gr_ctx *c = g->c;
    note_growth(g);
    if (g->chunks_cap == 0) {
        g->chunks_cap = 4;
        g->key_off = resize(c, NULL, sizeof *g->key_off, 4);
        g->outc = resize(c, NULL, sizeof *g->outc, 4);
        g->rem = resize(c, NULL, sizeof *g->rem, 4);
        g->sg = resize(c, NULL, sizeof *g->sg, 4);
    }
    if (g->room < CHUNK) {   /* chunk 0, grown in place up to a whole chunk */
        uint64_t room = grown(g->room, need, MIN_CAP);
        if (room > CHUNK || need > CHUNK) room = CHUNK;
        store_budget(g, (room - g->room) * (sizeof **g->key_off + sizeof **g->outc + sizeof **g->rem + sizeof **g->sg));
        g->key_off[0] = resize(c, g->nchunks ? g->key_off[0] : NULL, sizeof **g->key_off, room);
        g->outc[0] = resize(c, g->nchunks ? g->outc[0] : NULL, sizeof **g->outc, room);
        g->rem[0] = resize(c, g->nchunks ? g->rem[0] : NULL, sizeof **g->rem, room);
        g->sg[0] = resize(c, g->nchunks ? g->sg[0] : NULL, sizeof **g->sg, room);
        g->nchunks = 1;
        g->room = room;
    }
    while (g->room < need) {
        store_budget(g, CHUNK * (sizeof **g->key_off + sizeof **g->outc + sizeof **g->rem + sizeof **g->sg));
        if (g->nchunks == g->chunks_cap) {
            g->chunks_cap *= 2;
            g->key_off = resize(c, g->key_off, sizeof *g->key_off, g->chunks_cap);
            g->outc = resize(c, g->outc, sizeof *g->outc, g->chunks_cap);
            g->rem = resize(c, g->rem, sizeof *g->rem, g->chunks_cap);
            g->sg = resize(c, g->sg, sizeof *g->sg, g->chunks_cap);
        }
        size_t k = g->nchunks;
        g->key_off[k] = NULL;   /* each allocation below may fail: free sees what exists */
        g->outc[k] = NULL;
        g->rem[k] = NULL;
        g->sg[k] = NULL;
        g->nchunks = k + 1;
        g->key_off[k] = resize(c, NULL, sizeof **g->key_off, CHUNK);
        g->outc[k] = resize(c, NULL, sizeof **g->outc, CHUNK);
        g->rem[k] = resize(c, NULL, sizeof **g->rem, CHUNK);
        g->sg[k] = resize(c, NULL, sizeof **g->sg, CHUNK);
        g->room += CHUNK;
    }
}

/* Makes room for one more position in every per-position array. */
static void reserve_position(gr_pg *g) {
    if ((uint64_t)g->n + 1 > g->room) grow_chunks(g, (uint64_t)g->n + 1);
    if (!g->store_edges || g->n < g->cap) return;
    note_growth(g);
    uint64_t cap = grown(g->cap, (uint64_t)g->n + 1, MIN_CAP);
    if (cap > g->limit) cap = g->limit;
    g->child_off = resize(g->c, g->child_off, sizeof *g->child_off, cap + 1);
    g->kind = resize(g->c, g->kind, sizeof *g->kind, cap);
    g->cap = (uint32_t)cap;
}

static void free_chunks(gr_pg *g) {
    for (size_t k = 0; k < g->nchunks; k++) {
        gr_free(g->c, g->key_off[k]);
        gr_free(g->c, g->outc[k]);
        gr_free(g->c, g->rem[k]);
        gr_free(g->c, g->sg[k]);
    }
    gr_free(g->c, g->key_off);
    gr_free(g->c, g->outc);
    gr_free(g->c, g->rem);
    gr_free(g->c, g->sg);
}

/* Keys are records (a varint length, then the bytes) in chunks of KCHUNK bytes that never
 * move: chunk 0 grows by realloc up to KCHUNK, then a record that does not fit in the last
 * chunk starts a new one (of its own size if larger). key_off[id] is (chunk << 32) | offset. */
#define KCHUNK ((uint64_t)4 << 20)

/* Room for a record of rec bytes at (the last chunk, kpos). */
static void reserve_keys(gr_pg *g, uint64_t rec) {
    if (g->ksize - g->kpos >= rec) return;
    note_growth(g);
    if (g->nkch == 1 && g->kpos + rec <= KCHUNK) {   /* chunk 0 grows in place */
        uint64_t size = grown(g->ksize, g->kpos + rec, 4096);
        if (size > KCHUNK) size = KCHUNK;
        store_budget(g, size - g->ksize);
        g->keys[0] = resize(g->c, g->keys[0], 1, size);
        g->kbytes += size - g->ksize;
        g->ksize = size;
        return;
    }
    uint64_t size = rec > KCHUNK ? rec : KCHUNK;
    store_budget(g, size);
    if (g->nkch == g->kch_cap) {
        g->kch_cap *= 2;
        g->keys = resize(g->c, g->keys, sizeof *g->keys, g->kch_cap);
    }
    g->keys[g->nkch] = resize(g->c, NULL, 1, size);
    g->nkch++;
    g->kbytes += size;
    g->ksize = size;
    g->kpos = 0;
}

/* The bytes of id's key, and their number in *len. */
static const uint8_t *key_at(const gr_pg *g, uint32_t id, size_t *len) {
    uint64_t o = AT(g->key_off, id);
    const uint8_t *p = g->keys[o >> 32] + (uint32_t)o;
    uint64_t v = *p & 0x7f;
    for (int shift = 7; *p++ & 0x80; shift += 7) v |= (uint64_t)(*p & 0x7f) << shift;
    *len = (size_t)v;
    return p;
}

/* Appends id to a growable array of ids (the edges, or the values-only path's stack). */
static void push_id(gr_pg *g, uint32_t **arr, uint64_t *len, uint64_t *cap, uint32_t id) {
    if (*len == *cap) {
        note_growth(g);
        *cap = grown(*cap, *len + 1, 1024);
        *arr = resize(g->c, *arr, sizeof **arr, *cap);
    }
    (*arr)[(*len)++] = id;
}

/* ---- the hash table ----------------------------------------------------------------------- */


/* A hash's home slot: its top slot_bits bits. */
static uint64_t home_of(const gr_pg *g, uint64_t h) { return h >> (64 - g->slot_bits); }

/* Doubles the table. Homes are the top bits of the hash and tags its top 32 bits, so while
 * the table has at most 2^32 slots a slot's new home follows from its tag alone: the old
 * table is read in order and the new one written almost in order (homes keep their order),
 * with no key read and no hash recomputed. Beyond that the hashes are recomputed from the
 * keys. */
static void rehash(gr_pg *g) {
    note_growth(g);
    uint64_t *old = g->slots, nold = g->nslots, nslots = nold * 2, mask = nslots - 1;
    int bits = g->slot_bits + 1;
    uint64_t *slots = resize(g->c, NULL, sizeof *slots, nslots);   /* zeroed: all empty */
    if (bits <= 32) {
        for (uint64_t j = 0; j < nold; j++) {
            uint64_t s = old[j];
            if (!s) continue;
            uint64_t i = (s >> 32) >> (32 - bits);
            while (slots[i]) i = (i + 1) & mask;
            slots[i] = s;
        }
    } else {
        for (uint32_t id = 0; id < g->n; id++) {
            size_t len;
            const uint8_t *key = key_at(g, id, &len);
            uint64_t h = hash_bytes(key, len);
            uint64_t i = h >> (64 - bits);
            while (slots[i]) i = (i + 1) & mask;
            slots[i] = (h >> 32 << 32) | ((uint64_t)id + 1);
        }
    }
    gr_free(g->c, old);
    g->slots = slots;
    g->nslots = nslots;
    g->slot_bits = bits;
}

static uint32_t add_position(gr_pg *g, const uint8_t *key, size_t len) {
    if (g->n >= g->limit) fail_limit(g);
    reserve_position(g);
    uint8_t head[10];
    size_t nhead = 0;
    for (uint64_t v = len; ; v >>= 7) {
        head[nhead++] = (uint8_t)(v >= 0x80 ? (v & 0x7f) | 0x80 : v);
        if (v < 0x80) break;
    }
    reserve_keys(g, nhead + (uint64_t)len);
    uint32_t id = g->n;
    uint8_t *rec = g->keys[g->nkch - 1] + g->kpos;
    copy_bytes(rec, head, nhead);
    copy_bytes(rec + nhead, key, len);
    AT(g->key_off, id) = (uint64_t)(g->nkch - 1) << 32 | g->kpos;
    g->kpos += nhead + len;
    if (g->store_edges) g->kind[id] = GR_EXPAND_MOVES;
    AT(g->outc, id) = ST_NEW;
    g->n = id + 1;
    return id;
}

/* The id of an encoding with hash h, adding it as a new (unexpanded) position if it is not
 * known. */
static uint32_t intern_hashed(gr_pg *g, const uint8_t *key, size_t len, uint64_t h) {
    /* Grow before probing so the slot found below stays valid for the insertion. */
    if (((uint64_t)g->n + 1) * 10 > g->nslots * 7) rehash(g);
    uint64_t tag = h >> 32 << 32, mask = g->nslots - 1, i = home_of(g, h);
    for (;;) {
        uint64_t s = g->slots[i];
        if (!s) break;
        if ((s & 0xffffffff00000000ULL) == tag) {
            uint32_t id = (uint32_t)s - 1;
            size_t klen;
            const uint8_t *k = key_at(g, id, &klen);
            if (klen == len && same_bytes(k, key, len))
                return id;
        }
        i = (i + 1) & mask;
    }
    uint32_t id = add_position(g, key, len);
    g->slots[i] = tag | ((uint64_t)id + 1);
    return id;
}

static uint32_t intern(gr_pg *g, const uint8_t *key, size_t len) {
    return intern_hashed(g, key, len, hash_bytes(key, len));
}

int64_t gr_pg_find(const gr_pg *g, const uint8_t *pos, size_t len) {
    uint64_t h = hash_bytes(pos, len);
    uint64_t tag = h >> 32 << 32, mask = g->nslots - 1, i = home_of(g, h);
    for (;;) {
        uint64_t s = g->slots[i];
        if (!s) return -1;
        if ((s & 0xffffffff00000000ULL) == tag) {
            uint32_t id = (uint32_t)s - 1;
            size_t klen;
            const uint8_t *k = key_at(g, id, &klen);
            if (klen == len && same_bytes(k, pos, len))
                return id;
        }
        i = (i + 1) & mask;
    }
}

/* ---- construction ------------------------------------------------------------------------- */

void gr_pg_limit_work(gr_pg *g, uint64_t max_bytes) { g->max_emitted = max_bytes; }

gr_pg *gr_pg_new(gr_ctx *c, gr_pg_expand_fn expand, void *user, uint64_t max_positions) {
    gr_pg *g = gr_alloc(c, sizeof *g);
    g->c = c;
    g->expand = expand;
    g->user = user;
    if (max_positions == 0) {
        /* About what a position costs with its share of edges and the solve temporaries. */
        max_positions = c->mem_limit / 64;
        g->limit_derived = 1;
        if (max_positions < 1) max_positions = 1;
    }
    g->limit = max_positions < GR_PG_MAX_IDS ? max_positions : GR_PG_MAX_IDS;
    /* Non-empty buffers from the start: pointers returned to clients are never NULL + k. */
    g->kch_cap = 4;
    g->keys = gr_alloc(c, g->kch_cap * sizeof *g->keys);
    g->ksize = g->kbytes = 4096;
    g->keys[0] = gr_alloc(c, (size_t)g->ksize);
    g->nkch = 1;
    g->edges_cap = 1024;
    g->children = gr_alloc(c, (size_t)g->edges_cap * sizeof *g->children);
    g->store_edges = 1;
    reserve_position(g);
    g->child_off[0] = 0;
    g->nslots = MIN_SLOTS;
    g->slot_bits = MIN_SLOT_BITS;
    g->slots = gr_alloc(c, MIN_SLOTS * sizeof *g->slots);
    return g;
}

void gr_pg_free(gr_pg *g) {
    if (!g) return;
    unnote(g);
    gr_ctx *c = g->c;
    for (size_t k = 0; k < g->nkch; k++) gr_free(c, g->keys[k]);
    gr_free(c, g->keys);
    free_chunks(g);
    gr_free(c, g->slots);
    gr_free(c, g->kind);
    gr_free(c, g->child_off);
    gr_free(c, g->children);
    gr_free(c, g->batch);
    gr_free(c, g->batch_end);
    gr_free(c, g->batch_hash);
    gr_free(c, g->dset);
    dfs_release(g);
    gr_free(c, g->gamma);
    gr_free(c, g);
}

uint32_t gr_pg_add(gr_pg *g, const uint8_t *pos, size_t len) {
    g->prog = NULL; /* no expansion is running */
    return intern(g, pos, len);
}

/* ---- expansion ----------------------------------------------------------------------------- */

void gr_pg_emit(gr_pg_sink *sink, const uint8_t *child, size_t len) {
    gr_pg *g = sink->g;
    g->emitted += len + 1;
    if (g->max_emitted && g->emitted > g->max_emitted) {
        if (g->prog) gr_progress_end(g->prog);
        gr_fail(g->c, GR_EXIT_LIMIT, "position graph limit reached: %llu bytes of children written "
                "(%u positions, %llu edges)", (unsigned long long)g->emitted, g->n, (unsigned long long)g->nedges);
    }
    if (g->batch_cap - g->batch_len < len) {
        note_growth(g);
        g->batch_cap = (size_t)grown(g->batch_cap, (uint64_t)g->batch_len + len, 256);
        g->batch = resize(g->c, g->batch, 1, g->batch_cap);
    }
    if (g->batch_n == g->batch_max) {
        note_growth(g);
        g->batch_max = (size_t)grown(g->batch_max, (uint64_t)g->batch_n + 1, 64);
        g->batch_end = resize(g->c, g->batch_end, sizeof *g->batch_end, g->batch_max);
        g->batch_hash = resize(g->c, g->batch_hash, sizeof *g->batch_hash, g->batch_max);
    }
    copy_bytes(g->batch + g->batch_len, child, len);
    g->batch_len += len;
    g->batch_end[g->batch_n++] = g->batch_len;
}

/* Prefetches what looking up hash h will touch first: its home slot, and (once that is
 * cached) the key offsets or key bytes of the id a matching tag there points at. */
static void prefetch_slot(const gr_pg *g, uint64_t h) {
    __builtin_prefetch(&g->slots[home_of(g, h)]);
}

static void prefetch_key(const gr_pg *g, uint64_t h, int bytes) {
    uint64_t s = g->slots[home_of(g, h)];
    if (!s || (s ^ h) >> 32) return;
    uint32_t id = (uint32_t)s - 1;
    if (bytes) __builtin_prefetch(g->keys[AT(g->key_off, id) >> 32] + (uint32_t)AT(g->key_off, id));
    else __builtin_prefetch(&AT(g->key_off, id));
}

/* Makes the duplicate filter an empty set of at least 2n slots (a power of two). */
static void dset_clear(gr_pg *g, size_t n) {
    size_t want = 16;
    while (want < 2 * n) want *= 2;
    if (want > g->dset_cap) {
        g->dset = resize(g->c, g->dset, sizeof *g->dset, want);
        g->dset_cap = want;
    }
    g->dset_mask = want - 1;
    memset(g->dset, 0, want * sizeof *g->dset);
}

/* 1 if id was not in the set yet (and adds it). */
static int dset_add(gr_pg *g, uint32_t id) {
    size_t i = (size_t)(id * 0x9e3779b1u) & g->dset_mask;
    while (g->dset[i]) {
        if (g->dset[i] == id + 1) return 0;
        i = (i + 1) & g->dset_mask;
    }
    g->dset[i] = id + 1;
    return 1;
}

/* Interns the emitted children of the position being expanded and appends the distinct ones,
 * in first-emission order, to *arr (its edges, or the values-only path's stack); returns how
 * many. The passes before the real lookups only issue prefetches, so the cache misses of the
 * whole batch overlap. */
static uint32_t insert_batch(gr_pg *g, uint32_t **arr, uint64_t *len, uint64_t *cap) {
    size_t n = g->batch_n;
    uint32_t distinct = 0;
    if (n > 1) dset_clear(g, n);
    for (size_t k = 0, start = 0; k < n; start = g->batch_end[k++]) {
        g->batch_hash[k] = hash_bytes(g->batch + start, g->batch_end[k] - start);
        prefetch_slot(g, g->batch_hash[k]);
    }
    for (size_t k = 0; k < n; k++) prefetch_key(g, g->batch_hash[k], 0);
    for (size_t k = 0; k < n; k++) prefetch_key(g, g->batch_hash[k], 1);
    for (size_t k = 0, start = 0; k < n; start = g->batch_end[k++]) {
        uint32_t id = intern_hashed(g, g->batch + start, g->batch_end[k] - start, g->batch_hash[k]);
        if (n > 1 && !dset_add(g, id)) continue; /* a duplicate move of this parent */
        push_id(g, arr, len, cap, id);
        g->nedges += !g->store_edges; /* stored edges are counted by their array */
        distinct++;
    }
    g->batch_n = 0;
    g->batch_len = 0;
    return distinct;
}

/* Stops the expansion as soon as the graph cannot be solved within --max-memory: solving adds
 * the reverse edges (4 bytes an edge, 8 a position) and two 4-byte arrays a position, so a graph
 * whose edges outgrow the memory stops here, with how far it got, instead of filling memory
 * first (a wide game adds millions of edges while adding few positions). */
static void check_budget(gr_pg *g) {
    gr_ctx *c = g->c;
    uint64_t need = (uint64_t)c->mem_used + g->nedges * 4 + (uint64_t)g->n * 16;
    if (need <= c->mem_limit) return;
    if (g->prog) gr_progress_end(g->prog);
    unnote(g);
    gr_fail(c, GR_EXIT_LIMIT,
            "position graph too large for --max-memory: %u positions and %llu edges explored "
            "(%u positions expanded); solving them needs about %llu MiB, the limit is %zu MiB; "
            "raise --max-memory or analyse a smaller game",
            g->n, (unsigned long long)g->nedges, g->n_expanded, (unsigned long long)(need >> 20), c->mem_limit >> 20);
}

/* The client's expansion of id, its children left in the batch. */
static gr_expand_kind call_expand(gr_pg *g, uint32_t id) {
    gr_poll(g->c);
    gr_pg_sink sink = { g, id };
    g->batch_n = 0;
    g->batch_len = 0;
    size_t len;
    const uint8_t *key = key_at(g, id, &len);
    return g->expand(g->user, key, len, &sink);
}

/* Expands every position not yet expanded, breadth first in id order. */
static void expand_pending(gr_pg *g) {
    gr_progress bar;
    gr_progress_begin(&bar, g->c, "exploring positions", 0);
    g->prog = &bar;
    while (g->n_expanded < g->n) {
        uint32_t id = g->n_expanded;
        gr_expand_kind kind = call_expand(g, id);
        /* Fixed outcomes have no moves by contract; drop any that were emitted. */
        if (kind == GR_EXPAND_MOVES) insert_batch(g, &g->children, &g->nedges, &g->edges_cap);
        g->kind[id] = (uint8_t)kind;
        g->child_off[id + 1] = g->nedges;
        g->n_expanded = id + 1;
        if ((id & 1023) == 0) gr_progress_update(&bar, id);
        if ((id & 63) == 0) check_budget(g);
    }
    gr_progress_end(&bar);
    g->prog = NULL;
}

/* ---- analysis ------------------------------------------------------------------------------ */

static uint32_t degree(const gr_pg *g, uint32_t id) {
    return (uint32_t)(g->child_off[id + 1] - g->child_off[id]);
}

/* The reverse graph in CSR form: the parents of v are rev[roff[v] .. roff[v + 1]). Built by a
 * counting sort of the edges on their heads; the caller frees both arrays. */
static void build_reverse(gr_pg *g, uint32_t n, uint64_t **roff_out, uint32_t **rev_out) {
    uint64_t *roff = resize(g->c, NULL, sizeof *roff, (uint64_t)n + 1);
    uint32_t *rev = resize(g->c, NULL, sizeof *rev, g->child_off[n] ? g->child_off[n] : 1);
    memset(roff, 0, ((size_t)n + 1) * sizeof *roff);
    for (uint64_t e = 0; e < g->child_off[n]; e++) roff[g->children[e] + 1]++;
    for (uint32_t v = 0; v < n; v++) roff[v + 1] += roff[v];
    /* Fill from the end of each bucket backwards, walking parents downwards, so each
     * bucket ends up in increasing parent order and roff[v] ends at the bucket start. */
    for (uint32_t v = 0; v < n; v++) roff[v] = roff[v + 1];
    for (uint32_t u = n; u-- > 0;)
        for (uint64_t e = g->child_off[u + 1]; e-- > g->child_off[u];) rev[--roff[g->children[e]]] = u;
    *roff_out = roff;
    *rev_out = rev;
}

/* A job of the analysis over the graph's arrays (pgteam.h): the passes below run it on the
 * caller alone, or on the thread team. */
static gr_pgpass *pass_new(gr_pg *g, const uint64_t *roff, const uint32_t *rev, uint32_t *cnt, uint32_t *queue) {
    gr_pgpass *J = gr_alloc(g->c, sizeof *J);
    J->off = g->child_off;
    J->fwd = g->children;
    J->kind = g->kind;
    J->roff = roff;
    J->rev = rev;
    J->outc = g->outc;
    J->rem = g->rem;
    J->sg = g->sg;
    J->cnt = cnt;
    J->lv.queue = queue;
    atomic_store(&J->lv.tail, 0);
    return J;
}

/* Runs fn over from..to (grain items a piece) on the team (NULL: on the caller). */
static void pass_run(gr_pool *pool, gr_pgpass *J, gr_pool_fn fn, uint64_t from, uint64_t to, uint64_t grain) {
    gr_level_run(pool, &J->lv, fn, J, from, to, grain);
}

/* Outcome and remoteness by retrograde analysis. The queue holds decided positions in order
 * of non-decreasing remoteness (every seed is 0, every push is one more than the position
 * being processed), so the first LOSS child to reach a parent is its nearest, and the last
 * WIN child to release a LOSS parent is its farthest: exactly the remoteness rules.
 * cnt[p] is the number of children of p not yet known to be WIN while p is undecided (never
 * 0 then), and 0 once p is decided, so the hot loop reads one array per edge. The first
 * frontier comes from gr_pgpass_start on the caller alone, in id order. */
static void retrograde(gr_pg *g, gr_pgpass *J, uint32_t n) {
    pass_run(NULL, J, gr_pgpass_start, 0, n, n);
    uint32_t head = 0, tail = atomic_load(&J->lv.tail), *cnt = J->cnt, *queue = J->lv.queue;
    const uint64_t *roff = J->roff;
    const uint32_t *rev = J->rev;
    while (head < tail) {
        gr_poll(g->c);
        uint32_t v = queue[head++];
        uint32_t r = AT(g->rem, v) + 1;
        int child_lost = AT(g->outc, v) == GR_LOSS;
        for (uint64_t e = roff[v]; e < roff[v + 1]; e++) {
            uint32_t p = rev[e];
            if (cnt[p] == 0) continue; /* decided already */
            if (child_lost) cnt[p] = 0;
            else if (--cnt[p] != 0) continue;
            AT(g->outc, p) = child_lost ? GR_WIN : GR_LOSS;
            AT(g->rem, p) = r;
            queue[tail++] = p;
        }
    }
}

static uint32_t max_degree(const gr_pg *g, uint32_t n) {
    uint32_t m = 0;
    for (uint32_t v = 0; v < n; v++)
        if (degree(g, v) > m) m = degree(g, v);
    return m;
}

/* Sprague-Grundy values by Kahn's algorithm on the reverse graph: a position is valued once
 * all its children are. Positions on or above a cycle never get there, and neither do WIN
 * terminals (never seeded) or their ancestors: those stay undefined. */
static void grundy_values(gr_pg *g, gr_pgpass *J, uint32_t n) {
    uint64_t *bits = resize(g->c, NULL, sizeof *bits, (uint64_t)max_degree(g, n) / 64 + 1);
    atomic_store(&J->lv.tail, 0);
    pass_run(NULL, J, gr_pgpass_kahn_start, 0, n, n);
    uint32_t head = 0, tail = atomic_load(&J->lv.tail), *cnt = J->cnt, *queue = J->lv.queue;
    while (head < tail) {
        gr_poll(g->c);
        uint32_t v = queue[head++];
        AT(g->sg, v) = gr_pgpass_mex(J, v, bits);
        for (uint64_t e = J->roff[v]; e < J->roff[v + 1]; e++)
            if (--cnt[J->rev[e]] == 0) queue[tail++] = J->rev[e];
    }
    gr_free(g->c, bits);
}

/* ---- the same across the thread team (pgteam.h) ---------------------------------------------
 * Graphs of at least team_knob.from positions are solved by the team when --threads > 1
 * (levels.h). The expansion, which assigns the ids, and the reverse edges (see team_solve)
 * stay serial. */
static gr_level_knob team_knob = GR_LEVEL_KNOB;
void gr_pg_team_tune(uint64_t from, uint64_t grain, uint64_t level) { gr_level_tune(&team_knob, from, grain, level); }

enum { TEAM_JOB = 1 << 22 };   /* positions per job: the caller polls --max-time between jobs */

/* fn over positions 0..n, in jobs of TEAM_JOB positions with a poll of the clock after each. */
static void team_sweep(gr_pg *g, gr_pool *pool, gr_pgpass *J, gr_pool_fn fn, uint32_t n) {
    for (uint64_t i = 0; i < n; i += TEAM_JOB) {
        pass_run(pool, J, fn, i, n - i < TEAM_JOB ? n : i + TEAM_JOB, atomic_load(&team_knob.grain));
        gr_poll(g->c);
    }
}

/* Frontier after frontier from queue[0..tail): fn on each (the remoteness it settles in
 * J->value when rem), polling between levels. */
static void team_levels(gr_pg *g, gr_pool *pool, gr_pgpass *J, gr_pool_fn fn, int rem) {
    uint64_t head = 0, tail = atomic_load(&J->lv.tail);
    for (uint32_t r = 1; head < tail; r++) {
        if (rem) J->value = r;
        uint64_t grain = atomic_load(&team_knob.grain) / 64;
        pass_run(tail - head < atomic_load(&team_knob.level) ? NULL : pool, J, fn, head, tail, grain);
        head = tail;
        tail = atomic_load(&J->lv.tail);
        gr_poll(g->c);
    }
}

/* Both analyses by the team, which is stopped again before any failure (--max-time, memory)
 * leaves. (The reverse edges are built serially: a fill by atomic places took longer on two
 * cores than the serial counting sort.) */
static void team_solve(gr_pg *g, gr_pgpass *J, uint32_t n) {
    gr_ctx *c = g->c;
    gr_pool *pool = gr_pool_new(c->threads);
    gr_guard guard;
    gr_guard_enter(c, &guard);
    if (setjmp(guard.jb)) {
        gr_pool_free(pool);
        gr_guard_rethrow(c, &guard);
    }
    team_sweep(g, pool, J, gr_pgpass_start, n);
    team_levels(g, pool, J, gr_pgpass_settle, 1);
    J->swords = (size_t)max_degree(g, n) / 64 + 1;
    J->scratch = resize(c, NULL, sizeof *J->scratch, (uint64_t)gr_pool_size(pool) * J->swords);
    atomic_store(&J->lv.tail, 0);
    team_sweep(g, pool, J, gr_pgpass_kahn_start, n);
    team_levels(g, pool, J, gr_pgpass_kahn, 0);
    gr_guard_leave(c, &guard);
    gr_pool_free(pool);
    gr_free(c, J->scratch);
}

/* ---- the values-only path: depth first ----------------------------------------------------
 * A client that needs values and gr_pg_find but not children (gr_pg_store_edges(g, 0)) gets
 * an iterative depth-first search that values each position from its children's values as
 * it leaves it (post-order). On an acyclic graph that is exactly what the retrograde analysis
 * and Kahn's algorithm give: a win is one more than its nearest losing child, a loss one more
 * than its farthest child, and the SG value is the mex, undefined if a child's is. No edges,
 * reverse edges or counters are stored; the only edges held are the children of the
 * positions on the stack. A child still on the stack closes a cycle: the search stops and the
 * graph switches to stored edges and retrograde analysis for good (re-expanding what the
 * search had expanded, at most once more). */

static void dfs_value(gr_pg *g, uint32_t v, const uint32_t *ch, uint32_t deg) {
    uint32_t nearest_loss = NONE, farthest = 0;
    int undefined = 0;
    for (uint32_t j = 0; j < deg; j++) {
        uint32_t c = ch[j], r = AT(g->rem, c);
        if (AT(g->outc, c) == GR_LOSS) {
            if (r < nearest_loss) nearest_loss = r;
        } else if (r > farthest) farthest = r;   /* every child is WIN or LOSS: acyclic */
        undefined |= AT(g->sg, c) == NONE;
    }
    AT(g->outc, v) = nearest_loss != NONE ? GR_WIN : GR_LOSS;
    AT(g->rem, v) = (nearest_loss != NONE ? nearest_loss : farthest) + 1;
    if (undefined) {
        AT(g->sg, v) = NONE;
        return;
    }
    /* mex: only values up to deg can matter */
    size_t words = (size_t)deg / 64 + 1;
    if (words > g->bits_cap) {
        g->bits = resize(g->c, g->bits, sizeof *g->bits, words);
        g->bits_cap = words;
    }
    uint64_t *bits = g->bits;
    memset(bits, 0, words * sizeof *bits);
    for (uint32_t j = 0; j < deg; j++)
        if (AT(g->sg, ch[j]) <= deg) bits[AT(g->sg, ch[j]) / 64] |= 1ULL << (AT(g->sg, ch[j]) % 64);
    for (size_t w = 0;; w++)
        if (~bits[w]) {
            AT(g->sg, v) = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(~bits[w]));
            return;
        }
}

/* Expands v: a position without moves is valued at once, one with moves goes on the stack. */
static void dfs_open(gr_pg *g, uint32_t v, gr_progress *bar) {
    gr_expand_kind kind = call_expand(g, v);
    if ((g->n_expanded++ & 1023) == 0) gr_progress_update(bar, g->n_expanded);
    uint64_t base = g->dstk_len;
    uint32_t deg = kind == GR_EXPAND_MOVES ? insert_batch(g, &g->dstk, &g->dstk_len, &g->dstk_cap) : 0;
    /* The search reads every child's state next, and its values when v is left: start those
     * misses together. */
    for (uint32_t j = 0; j < deg; j++) {
        uint32_t ch = g->dstk[base + j];
        __builtin_prefetch(&AT(g->outc, ch));
        __builtin_prefetch(&AT(g->rem, ch));
        __builtin_prefetch(&AT(g->sg, ch));
    }
    if (deg == 0) {   /* fixed outcomes have no moves by contract; any emitted were dropped */
        AT(g->outc, v) = kind == GR_EXPAND_WIN ? GR_WIN : GR_LOSS;
        AT(g->rem, v) = 0;
        AT(g->sg, v) = kind == GR_EXPAND_WIN ? NONE : 0;
        return;
    }
    if (g->nframes == g->frames_cap) {
        note_growth(g);
        g->frames_cap = (size_t)grown(g->frames_cap, (uint64_t)g->nframes + 1, 64);
        g->frames = resize(g->c, g->frames, sizeof *g->frames, g->frames_cap);
    }
    g->frames[g->nframes++] = (struct dfs_frame){ v, 0, deg, base };
    AT(g->outc, v) = ST_OPEN;
}

static void dfs_release(gr_pg *g) {
    gr_free(g->c, g->dstk);
    gr_free(g->c, g->frames);
    gr_free(g->c, g->bits);
    g->dstk = NULL;
    g->frames = NULL;
    g->bits = NULL;
    g->dstk_len = g->dstk_cap = 0;
    g->nframes = g->frames_cap = g->bits_cap = 0;
}

/* Values every position not valued yet; 0 if it found a cycle (values then incomplete). */
static int dfs_solve(gr_pg *g) {
    gr_progress bar;
    gr_progress_begin(&bar, g->c, "exploring positions", 0);
    g->prog = &bar;
    int acyclic = 1;
    for (uint32_t root = g->n_solved; root < g->n && acyclic; root++) {
        if (AT(g->outc, root) != ST_NEW) continue;
        dfs_open(g, root, &bar);
        while (g->nframes > 0) {
            struct dfs_frame *f = &g->frames[g->nframes - 1];
            if (f->next < f->deg) {
                uint32_t ch = g->dstk[f->base + f->next++];
                if (AT(g->outc, ch) == ST_NEW) dfs_open(g, ch, &bar);
                else if (AT(g->outc, ch) == ST_OPEN) {
                    acyclic = 0;
                    break;
                }
                continue;
            }
            dfs_value(g, f->id, g->dstk + f->base, f->deg);
            g->dstk_len = f->base;
            g->nframes--;
        }
    }
    gr_progress_end(&bar);
    g->prog = NULL;
    dfs_release(g);
    return acyclic;
}

/* From the values-only path to stored edges, for good: every position is expanded again by
 * the next expand_pending (ids stay). */
static void switch_to_edges(gr_pg *g) {
    if (g->store_edges) return;
    g->store_edges = 1;
    uint64_t cap = grown(0, (uint64_t)g->n + 1, MIN_CAP);
    if (cap > g->limit) cap = g->limit;
    if (cap < g->n) cap = g->n;
    g->child_off = resize(g->c, g->child_off, sizeof *g->child_off, cap + 1);
    g->kind = resize(g->c, g->kind, sizeof *g->kind, cap ? cap : 1);
    g->cap = (uint32_t)cap;
    g->child_off[0] = 0;
    memset(g->kind, GR_EXPAND_MOVES, (size_t)g->n);
    g->n_expanded = 0;
    g->nedges = 0;
}

/* Stored children for a graph solved on the values-only path: one more expansion of every
 * position (the values are kept; the graph has stored edges from now on). */
static void materialize(gr_pg *g) {
    if (g->store_edges) return;
    switch_to_edges(g);
    expand_pending(g);
}

int gr_pg_stores_edges(const gr_pg *g) { return g->store_edges; }

void gr_pg_store_edges(gr_pg *g, int store) {
    if (store) switch_to_edges(g);
    else if (g->n_expanded == 0 && g->store_edges) {   /* only before anything is expanded */
        g->store_edges = 0;
        gr_free(g->c, g->child_off);
        gr_free(g->c, g->kind);
        g->child_off = NULL;
        g->kind = NULL;
    }
}

void gr_pg_solve(gr_pg *g) {
    if (!g->store_edges) {
        if (dfs_solve(g)) {
            g->n_solved = g->n;
            g->n_gamma = 0;
            return;
        }
        switch_to_edges(g);
    }
    expand_pending(g);
    uint32_t n = g->n;
    uint64_t *roff;
    uint32_t *rev;
    build_reverse(g, n, &roff, &rev);
    uint32_t *cnt = resize(g->c, NULL, sizeof *cnt, n ? n : 1);
    uint32_t *queue = resize(g->c, NULL, sizeof *queue, n ? n : 1);
    gr_pgpass *J = pass_new(g, roff, rev, cnt, queue);
    if (g->c->threads > 1 && n >= atomic_load(&team_knob.from)) team_solve(g, J, n);
    else {
        retrograde(g, J, n);
        grundy_values(g, J, n);
    }
    gr_free(g->c, J);
    gr_free(g->c, queue);
    gr_free(g->c, cnt);
    gr_free(g->c, rev);
    gr_free(g->c, roff);
    g->n_solved = n;
    g->n_gamma = 0; /* stale: gr_pg_solve_gamma recomputes */
}

/* ---- generalised Sprague-Grundy values ------------------------------------------------------
 * The labelling algorithm of Fraenkel and Yesha, stage m = 0, 1, 2, ...:
 *   (a) while some unlabelled u has no child labelled m and every child of u that is
 *       unlabelled or labelled infinity has a child labelled m, label u with m;
 *   (b) label infinity every unlabelled u with no child labelled m.
 * Step (a) is a retrograde analysis in which "labelled m" plays LOSS and "has a child labelled
 * m" (hit) plays WIN, restricted to children that are unlabelled or infinite; it runs with
 * counters in time linear in the edges it touches. Each stage labels something m or ends the
 * loop, so there are at most (largest finite value) + 2 stages. Positions that reach a WIN
 * terminal are outside the theory (no game-sum meaning) and stay undefined. */

static int open_label(uint32_t l) { return l == GAMMA_UNL || l == GAMMA_INF; }

/* Marks undefined every position that reaches a WIN terminal (a search up the reverse graph);
 * everything else starts unlabelled. Returns the unlabelled ones in list. */
static uint32_t gamma_init(gr_pg *g, uint32_t n, const uint64_t *roff, const uint32_t *rev,
                           uint32_t *queue, uint32_t *list) {
    uint32_t head = 0, tail = 0, count = 0;
    for (uint32_t v = 0; v < n; v++) {
        g->gamma[v] = GAMMA_UNL;
        if (g->kind[v] == GR_EXPAND_WIN) {
            g->gamma[v] = NONE;
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint64_t e = roff[v]; e < roff[v + 1]; e++)
            if (g->gamma[rev[e]] != NONE) {
                g->gamma[rev[e]] = NONE;
                queue[tail++] = rev[e];
            }
    }
    for (uint32_t v = 0; v < n; v++)
        if (g->gamma[v] == GAMMA_UNL) list[count++] = v;
    return count;
}

/* One stage: labels m where step (a) allows and infinity where step (b) says; compacts list
 * to what is still unlabelled and returns its length. hit[v] == m + 1 means v has a child
 * labelled m (stamps, so nothing is cleared between stages). */
static uint32_t gamma_stage(gr_pg *g, uint32_t m, const uint64_t *roff, const uint32_t *rev,
                            uint32_t *list, uint32_t count, uint32_t *cnt, uint32_t *hit,
                            uint32_t *queue) {
    uint32_t *lab = g->gamma, stamp = m + 1, head = 0, tail = 0;
    /* Count before seeding: a seed labelled m is no longer open, and counting after it would
     * let its parents (which have a child labelled m) reach zero as well. */
    for (uint32_t k = 0; k < count; k++) {
        uint32_t u = list[k], open = 0;
        const uint32_t *ch = g->children + g->child_off[u];
        for (uint32_t j = 0, deg = degree(g, u); j < deg; j++) open += open_label(lab[ch[j]]);
        cnt[u] = open;
    }
    for (uint32_t k = 0; k < count; k++)
        if (cnt[list[k]] == 0) {
            lab[list[k]] = m;
            queue[tail++] = list[k];
        }
    while (head < tail) {
        uint32_t x = queue[head++];
        for (uint64_t e = roff[x]; e < roff[x + 1]; e++) {
            uint32_t p = rev[e];
            if (!open_label(lab[p]) || hit[p] == stamp) continue;
            hit[p] = stamp; /* p has a child labelled m, so its open parents lose a need */
            for (uint64_t f = roff[p]; f < roff[p + 1]; f++) {
                uint32_t q = rev[f];
                if (lab[q] != GAMMA_UNL || hit[q] == stamp) continue;
                if (--cnt[q] == 0) {
                    lab[q] = m;
                    queue[tail++] = q;
                }
            }
        }
    }
    uint32_t left = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t u = list[k];
        if (lab[u] != GAMMA_UNL) continue;
        if (hit[u] == stamp) list[left++] = u;
        else lab[u] = GAMMA_INF;
    }
    return left;
}

void gr_pg_solve_gamma(gr_pg *g) {
    if (g->n_solved != g->n) gr_pg_solve(g);
    materialize(g);   /* the labelling walks edges both ways */
    uint32_t n = g->n;
    gr_ctx *c = g->c;
    if (!g->gamma || g->gamma_cap < n) {
        g->gamma_cap = n ? n : 1;
        g->gamma = resize(c, g->gamma, sizeof *g->gamma, g->gamma_cap);
    }
    uint64_t *roff;
    uint32_t *rev;
    build_reverse(g, n, &roff, &rev);
    uint32_t *queue = resize(c, NULL, sizeof *queue, n ? n : 1);
    uint32_t *list = resize(c, NULL, sizeof *list, n ? n : 1);
    uint32_t *cnt = resize(c, NULL, sizeof *cnt, n ? n : 1);
    uint32_t *hit = gr_alloc(c, gr_size_mul(c, sizeof *hit, n ? n : 1)); /* zeroed: no stamp */
    uint32_t count = gamma_init(g, n, roff, rev, queue, list);
    for (uint32_t m = 0; count > 0; m++) {
        gr_poll(c);
        count = gamma_stage(g, m, roff, rev, list, count, cnt, hit, queue);
    }
    gr_free(c, hit);
    gr_free(c, cnt);
    gr_free(c, list);
    gr_free(c, queue);
    gr_free(c, rev);
    gr_free(c, roff);
    g->n_gamma = n;
}

int64_t gr_pg_gamma(const gr_pg *g, uint32_t id) {
    if (id >= g->n_gamma) return -1;
    uint32_t v = g->gamma[id];
    return v == NONE ? -1 : v == GAMMA_INF ? GR_GAMMA_INF : (int64_t)v;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

size_t gr_pg_gamma_set(const gr_pg *g, uint32_t id, uint32_t *out, size_t cap) {
    if (id >= g->n_gamma || g->gamma[id] == NONE) return 0;
    uint32_t deg = degree(g, id), k = 0;
    uint32_t *vals = resize(g->c, NULL, sizeof *vals, deg ? deg : 1);
    const uint32_t *ch = g->children + g->child_off[id];
    for (uint32_t j = 0; j < deg; j++)
        if (g->gamma[ch[j]] < GAMMA_UNL) vals[k++] = g->gamma[ch[j]];
    qsort(vals, k, sizeof *vals, cmp_u32);
    size_t distinct = 0;
    for (uint32_t j = 0; j < k; j++) {
        if (j > 0 && vals[j] == vals[j - 1]) continue;
        if (distinct < cap) out[distinct] = vals[j];
        distinct++;
    }
    gr_free(g->c, vals);
    return distinct;
}

/* ---- queries ------------------------------------------------------------------------------- */

const uint8_t *gr_pg_key(const gr_pg *g, uint32_t id, size_t *len) {
    return key_at(g, id, len);
}

uint32_t gr_pg_count(const gr_pg *g) { return g->n; }
uint64_t gr_pg_edges(const gr_pg *g) { return g->nedges; }

size_t gr_pg_bytes(const gr_pg *g) {
    size_t per_pos = sizeof **g->key_off + sizeof **g->outc + sizeof **g->rem + sizeof **g->sg;
    size_t b = sizeof *g;
    b += (size_t)g->kbytes + g->kch_cap * sizeof *g->keys;
    b += (size_t)g->room * per_pos + g->chunks_cap * 4 * sizeof(void *);
    if (g->store_edges) b += ((size_t)g->cap + 1) * sizeof *g->child_off + (size_t)g->cap * sizeof *g->kind;
    b += g->dset_cap * sizeof *g->dset;
    b += (size_t)g->nslots * sizeof *g->slots;
    b += (size_t)g->edges_cap * sizeof *g->children;
    b += g->batch_cap + (size_t)g->batch_max * (sizeof *g->batch_end + sizeof *g->batch_hash);
    b += (size_t)g->gamma_cap * sizeof *g->gamma;
    return b;
}

gr_outcome gr_pg_outcome(const gr_pg *g, uint32_t id) {
    return id < g->n_solved ? (gr_outcome)AT(g->outc, id) : GR_DRAW;
}

int64_t gr_pg_remoteness(const gr_pg *g, uint32_t id) {
    return id < g->n_solved && AT(g->rem, id) != NONE ? (int64_t)AT(g->rem, id) : -1;
}

int64_t gr_pg_sg(const gr_pg *g, uint32_t id) {
    return id < g->n_solved && AT(g->sg, id) != NONE ? (int64_t)AT(g->sg, id) : -1;
}

/* Children of a graph solved on the values-only path are made on first request. The graph
 * is never defined const (gr_pg_new allocates it), and its answers do not change. */
static const gr_pg *with_edges(const gr_pg *g) {
    if (!g->store_edges) materialize((gr_pg *)(uintptr_t)g);
    return g;
}

uint32_t gr_pg_nchildren(const gr_pg *g, uint32_t id) {
    g = with_edges(g);
    return id < g->n_expanded ? degree(g, id) : 0;
}

const uint32_t *gr_pg_children(const gr_pg *g, uint32_t id) {
    g = with_edges(g);
    return id < g->n_expanded ? g->children + g->child_off[id] : g->children;
}
