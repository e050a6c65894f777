/* pgsolve: the position graph's analyses: retrograde analysis (outcome, remoteness) and SG
 * values over stored edges, serial or by the thread team, and the values-only depth-first
 * search that stores no edges; and the answers read from them. See posgraph.h. */
#include "eval/graph/pgint.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "worker.h"

/* ---- analysis ------------------------------------------------------------------------------ */

uint32_t gr_pgi_degree(const gr_pg *g, uint32_t id) {
    return (uint32_t)(g->child_off[id + 1] - g->child_off[id]);
}

/* The reverse graph in CSR form: the parents of v are rev[roff[v] .. roff[v + 1]). Built by a
 * counting sort of the edges on their heads; the caller frees both arrays. */
void gr_pgi_build_reverse(gr_pg *g, uint32_t n, uint64_t **roff_out, uint32_t **rev_out) {
    uint64_t *roff = gr_pgi_resize(g->c, NULL, sizeof *roff, (uint64_t)n + 1);
    uint32_t *rev = gr_pgi_resize(g->c, NULL, sizeof *rev, g->child_off[n] ? g->child_off[n] : 1);
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
        if (gr_pgi_degree(g, v) > m) m = gr_pgi_degree(g, v);
    return m;
}

/* Sprague-Grundy values by Kahn's algorithm on the reverse graph: a position is valued once
 * all its children are. Positions on or above a cycle never get there, and neither do WIN
 * terminals (never seeded) or their ancestors: those stay undefined. */
static void grundy_values(gr_pg *g, gr_pgpass *J, uint32_t n) {
    uint64_t *bits = gr_pgi_resize(g->c, NULL, sizeof *bits, (uint64_t)max_degree(g, n) / 64 + 1);
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
    J->scratch = gr_pgi_resize(c, NULL, sizeof *J->scratch, (uint64_t)gr_pool_size(pool) * J->swords);
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
        g->bits = gr_pgi_resize(g->c, g->bits, sizeof *g->bits, words);
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
    gr_expand_kind kind = gr_pgi_call_expand(g, v);
    if ((g->n_expanded++ & 1023) == 0) gr_progress_update(bar, g->n_expanded);
    uint64_t base = g->dstk_len;
    uint32_t deg = kind == GR_EXPAND_MOVES ? gr_pgi_insert_batch(g, &g->dstk, &g->dstk_len, &g->dstk_cap) : 0;
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
        gr_pgi_note_growth(g);
        g->frames_cap = (size_t)gr_pgi_grown(g->frames_cap, (uint64_t)g->nframes + 1, 64);
        g->frames = gr_pgi_resize(g->c, g->frames, sizeof *g->frames, g->frames_cap);
    }
    g->frames[g->nframes++] = (struct dfs_frame){ v, 0, deg, base };
    AT(g->outc, v) = ST_OPEN;
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
    gr_pgi_dfs_release(g);
    return acyclic;
}

/* From the values-only path to stored edges, for good: every position is expanded again by
 * the next expand_pending (ids stay). */
static void switch_to_edges(gr_pg *g) {
    if (g->store_edges) return;
    g->store_edges = 1;
    uint64_t cap = gr_pgi_grown(0, (uint64_t)g->n + 1, MIN_CAP);
    if (cap > g->limit) cap = g->limit;
    if (cap < g->n) cap = g->n;
    g->child_off = gr_pgi_resize(g->c, g->child_off, sizeof *g->child_off, cap + 1);
    g->kind = gr_pgi_resize(g->c, g->kind, sizeof *g->kind, cap ? cap : 1);
    g->cap = (uint32_t)cap;
    g->child_off[0] = 0;
    memset(g->kind, GR_EXPAND_MOVES, (size_t)g->n);
    g->n_expanded = 0;
    g->nedges = 0;
}

/* Stored children for a graph solved on the values-only path: one more expansion of every
 * position (the values are kept; the graph has stored edges from now on). */
void gr_pgi_materialize(gr_pg *g) {
    if (g->store_edges) return;
    switch_to_edges(g);
    gr_pgi_expand_pending(g);
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
    gr_pgi_expand_pending(g);
    uint32_t n = g->n;
    uint64_t *roff;
    uint32_t *rev;
    gr_pgi_build_reverse(g, n, &roff, &rev);
    uint32_t *cnt = gr_pgi_resize(g->c, NULL, sizeof *cnt, n ? n : 1);
    uint32_t *queue = gr_pgi_resize(g->c, NULL, sizeof *queue, n ? n : 1);
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

/* ---- queries ------------------------------------------------------------------------------- */

const uint8_t *gr_pg_key(const gr_pg *g, uint32_t id, size_t *len) {
    return gr_pgi_key_at(g, id, len);
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
    if (!g->store_edges) gr_pgi_materialize((gr_pg *)(uintptr_t)g);
    return g;
}

uint32_t gr_pg_nchildren(const gr_pg *g, uint32_t id) {
    g = with_edges(g);
    return id < g->n_expanded ? gr_pgi_degree(g, id) : 0;
}

const uint32_t *gr_pg_children(const gr_pg *g, uint32_t id) {
    g = with_edges(g);
    return id < g->n_expanded ? g->children + g->child_off[id] : g->children;
}
