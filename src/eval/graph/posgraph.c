/* posgraph: the explicit position graph: interning of canonical encodings and breadth-first
 * expansion into CSR arrays (here); retrograde analysis (outcome and remoteness), Sprague-Grundy
 * values on the acyclic part and the values-only path, a depth-first search that stores no
 * edges (pgsolve.c); generalised Sprague-Grundy values (pggamma.c); see posgraph.h.
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
#include "eval/graph/pgint.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "worker.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

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

void *gr_pgi_resize(gr_ctx *c, void *p, size_t elem, uint64_t count) {
    if (count > SIZE_MAX) gr_fail(c, GR_EXIT_LIMIT, "position graph too large for this machine");
    size_t bytes = gr_size_mul(c, elem, (size_t)count);
    p = gr_realloc(c, p, bytes);
    advise_huge(p, bytes);
    return p;
}

uint64_t gr_pgi_grown(uint64_t cap, uint64_t need, uint64_t floor) {
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

void gr_pgi_note_growth(gr_pg *g) {
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
    if (!g->store_edges && (uint64_t)c->store.mem_used + bytes > c->mem_limit) fail_memory(g);
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
    gr_pgi_note_growth(g);
    if (g->chunks_cap == 0) {
        g->chunks_cap = 4;
        g->key_off = gr_pgi_resize(c, NULL, sizeof *g->key_off, 4);
        g->outc = gr_pgi_resize(c, NULL, sizeof *g->outc, 4);
        g->rem = gr_pgi_resize(c, NULL, sizeof *g->rem, 4);
        g->sg = gr_pgi_resize(c, NULL, sizeof *g->sg, 4);
    }
    if (g->room < CHUNK) {   /* chunk 0, grown in place up to a whole chunk */
        uint64_t room = gr_pgi_grown(g->room, need, MIN_CAP);
        if (room > CHUNK || need > CHUNK) room = CHUNK;
        store_budget(g, (room - g->room) * (sizeof **g->key_off + sizeof **g->outc + sizeof **g->rem + sizeof **g->sg));
        g->key_off[0] = gr_pgi_resize(c, g->nchunks ? g->key_off[0] : NULL, sizeof **g->key_off, room);
        g->outc[0] = gr_pgi_resize(c, g->nchunks ? g->outc[0] : NULL, sizeof **g->outc, room);
        g->rem[0] = gr_pgi_resize(c, g->nchunks ? g->rem[0] : NULL, sizeof **g->rem, room);
        g->sg[0] = gr_pgi_resize(c, g->nchunks ? g->sg[0] : NULL, sizeof **g->sg, room);
        g->nchunks = 1;
        g->room = room;
    }
    while (g->room < need) {
        store_budget(g, CHUNK * (sizeof **g->key_off + sizeof **g->outc + sizeof **g->rem + sizeof **g->sg));
        if (g->nchunks == g->chunks_cap) {
            g->chunks_cap *= 2;
            g->key_off = gr_pgi_resize(c, g->key_off, sizeof *g->key_off, g->chunks_cap);
            g->outc = gr_pgi_resize(c, g->outc, sizeof *g->outc, g->chunks_cap);
            g->rem = gr_pgi_resize(c, g->rem, sizeof *g->rem, g->chunks_cap);
            g->sg = gr_pgi_resize(c, g->sg, sizeof *g->sg, g->chunks_cap);
        }
        size_t k = g->nchunks;
        g->key_off[k] = NULL;   /* each allocation below may fail: free sees what exists */
        g->outc[k] = NULL;
        g->rem[k] = NULL;
        g->sg[k] = NULL;
        g->nchunks = k + 1;
        g->key_off[k] = gr_pgi_resize(c, NULL, sizeof **g->key_off, CHUNK);
        g->outc[k] = gr_pgi_resize(c, NULL, sizeof **g->outc, CHUNK);
        g->rem[k] = gr_pgi_resize(c, NULL, sizeof **g->rem, CHUNK);
        g->sg[k] = gr_pgi_resize(c, NULL, sizeof **g->sg, CHUNK);
        g->room += CHUNK;
    }
}

/* Makes room for one more position in every per-position array. */
static void reserve_position(gr_pg *g) {
    if ((uint64_t)g->n + 1 > g->room) grow_chunks(g, (uint64_t)g->n + 1);
    if (!g->store_edges || g->n < g->cap) return;
    gr_pgi_note_growth(g);
    uint64_t cap = gr_pgi_grown(g->cap, (uint64_t)g->n + 1, MIN_CAP);
    if (cap > g->limit) cap = g->limit;
    g->child_off = gr_pgi_resize(g->c, g->child_off, sizeof *g->child_off, cap + 1);
    g->kind = gr_pgi_resize(g->c, g->kind, sizeof *g->kind, cap);
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
    gr_pgi_note_growth(g);
    if (g->nkch == 1 && g->kpos + rec <= KCHUNK) {   /* chunk 0 grows in place */
        uint64_t size = gr_pgi_grown(g->ksize, g->kpos + rec, 4096);
        if (size > KCHUNK) size = KCHUNK;
        store_budget(g, size - g->ksize);
        g->keys[0] = gr_pgi_resize(g->c, g->keys[0], 1, size);
        g->kbytes += size - g->ksize;
        g->ksize = size;
        return;
    }
    uint64_t size = rec > KCHUNK ? rec : KCHUNK;
    store_budget(g, size);
    if (g->nkch == g->kch_cap) {
        g->kch_cap *= 2;
        g->keys = gr_pgi_resize(g->c, g->keys, sizeof *g->keys, g->kch_cap);
    }
    g->keys[g->nkch] = gr_pgi_resize(g->c, NULL, 1, size);
    g->nkch++;
    g->kbytes += size;
    g->ksize = size;
    g->kpos = 0;
}

/* The bytes of id's key, and their number in *len. */
const uint8_t *gr_pgi_key_at(const gr_pg *g, uint32_t id, size_t *len) {
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
        gr_pgi_note_growth(g);
        *cap = gr_pgi_grown(*cap, *len + 1, 1024);
        *arr = gr_pgi_resize(g->c, *arr, sizeof **arr, *cap);
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
    gr_pgi_note_growth(g);
    uint64_t *old = g->slots, nold = g->nslots, nslots = nold * 2, mask = nslots - 1;
    int bits = g->slot_bits + 1;
    uint64_t *slots = gr_pgi_resize(g->c, NULL, sizeof *slots, nslots);   /* zeroed: all empty */
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
            const uint8_t *key = gr_pgi_key_at(g, id, &len);
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

/* The slot of the encoding with hash h: the one holding it, or the empty slot where it would go
 * (*id is then UINT32_MAX). */
static inline uint64_t probe(const gr_pg *g, const uint8_t *key, size_t len, uint64_t h, uint32_t *id) {
    uint64_t tag = h >> 32 << 32, mask = g->nslots - 1, i = home_of(g, h);
    for (;; i = (i + 1) & mask) {
        uint64_t s = g->slots[i];
        *id = UINT32_MAX;
        if (!s) return i;
        if ((s & 0xffffffff00000000ULL) != tag) continue;
        size_t klen;
        const uint8_t *k = gr_pgi_key_at(g, (uint32_t)s - 1, &klen);
        if (klen == len && same_bytes(k, key, len)) {
            *id = (uint32_t)s - 1;
            return i;
        }
    }
}

/* The id of an encoding with hash h, adding it as a new (unexpanded) position if it is not
 * known. */
static uint32_t intern_hashed(gr_pg *g, const uint8_t *key, size_t len, uint64_t h) {
    /* Grow before probing so the slot found below stays valid for the insertion. */
    if (((uint64_t)g->n + 1) * 10 > g->nslots * 7) rehash(g);
    uint32_t id;
    uint64_t i = probe(g, key, len, h, &id);
    if (id != UINT32_MAX) return id;
    id = add_position(g, key, len);
    g->slots[i] = (h >> 32 << 32) | ((uint64_t)id + 1);
    return id;
}

static uint32_t intern(gr_pg *g, const uint8_t *key, size_t len) {
    return intern_hashed(g, key, len, hash_bytes(key, len));
}

int64_t gr_pg_find(const gr_pg *g, const uint8_t *pos, size_t len) {
    uint32_t id;
    probe(g, pos, len, hash_bytes(pos, len), &id);
    return id == UINT32_MAX ? -1 : (int64_t)id;
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
    gr_pgi_dfs_release(g);
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
        gr_pgi_note_growth(g);
        g->batch_cap = (size_t)gr_pgi_grown(g->batch_cap, (uint64_t)g->batch_len + len, 256);
        g->batch = gr_pgi_resize(g->c, g->batch, 1, g->batch_cap);
    }
    if (g->batch_n == g->batch_max) {
        gr_pgi_note_growth(g);
        g->batch_max = (size_t)gr_pgi_grown(g->batch_max, (uint64_t)g->batch_n + 1, 64);
        g->batch_end = gr_pgi_resize(g->c, g->batch_end, sizeof *g->batch_end, g->batch_max);
        g->batch_hash = gr_pgi_resize(g->c, g->batch_hash, sizeof *g->batch_hash, g->batch_max);
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
        g->dset = gr_pgi_resize(g->c, g->dset, sizeof *g->dset, want);
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
uint32_t gr_pgi_insert_batch(gr_pg *g, uint32_t **arr, uint64_t *len, uint64_t *cap) {
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
    uint64_t need = (uint64_t)c->store.mem_used + g->nedges * 4 + (uint64_t)g->n * 16;
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
gr_expand_kind gr_pgi_call_expand(gr_pg *g, uint32_t id) {
    gr_poll(g->c);
    gr_pg_sink sink = { g, id };
    g->batch_n = 0;
    g->batch_len = 0;
    size_t len;
    const uint8_t *key = gr_pgi_key_at(g, id, &len);
    return g->expand(g->user, key, len, &sink);
}

/* Expands every position not yet expanded, breadth first in id order. */
void gr_pgi_expand_pending(gr_pg *g) {
    gr_progress bar;
    gr_progress_begin(&bar, g->c, "exploring positions", 0);
    g->prog = &bar;
    while (g->n_expanded < g->n) {
        uint32_t id = g->n_expanded;
        gr_expand_kind kind = gr_pgi_call_expand(g, id);
        /* Fixed outcomes have no moves by contract; drop any that were emitted. */
        if (kind == GR_EXPAND_MOVES) gr_pgi_insert_batch(g, &g->children, &g->nedges, &g->edges_cap);
        g->kind[id] = (uint8_t)kind;
        g->child_off[id + 1] = g->nedges;
        g->n_expanded = id + 1;
        if ((id & 1023) == 0) gr_progress_update(&bar, id);
        if ((id & 63) == 0) check_budget(g);
    }
    gr_progress_end(&bar);
    g->prog = NULL;
}

void gr_pgi_dfs_release(gr_pg *g) {
    gr_free(g->c, g->dstk);
    gr_free(g->c, g->frames);
    gr_free(g->c, g->bits);
    g->dstk = NULL;
    g->frames = NULL;
    g->bits = NULL;
    g->dstk_len = g->dstk_cap = 0;
    g->nframes = g->frames_cap = g->bits_cap = 0;
}
