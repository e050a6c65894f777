/* unit_pgteam: the position graph's stored-edges solve across threads (pgteam.h) gives what the
 * serial solve gives. Random graphs of a few hundred to tens of thousands of positions (acyclic
 * and cyclic, long chains with hundreds of levels, terminal positions that win or lose, a
 * misere-like mix where every position without moves wins, duplicate moves) are solved with one
 * thread (the serial queue) and with 2, 3 and 4 (the team, its thresholds lowered so every pass
 * is threaded and members take pieces of one or a few positions): the outcome, remoteness and
 * SG value of every position must be the serial ones, and so must the counts; a second solve
 * after more starts too. A failure raised between the team's jobs (a limit) leaves through the
 * caller's handler with the team joined. The serial solve itself is checked against reference
 * computations in unit_posgraph. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "eval/graph/posgraph.h"
#include "testlib.h"

#ifdef T_SANITIZED
enum { CASES = 24, MAXN = 6000 };
#else
enum { CASES = 90, MAXN = 40000 };
#endif

/* A graph given by a seed: vertex v (4 bytes, little endian) has deg(v) moves, each a hash of
 * (seed, v, k) (3% have none): to one of the next 64 vertices (acyclic), anywhere, or mostly to v + 1 .. v + 3 (chains);
 * some vertices are terminals that win or lose, or (misere-like) every vertex without moves
 * wins. */
typedef struct rgraph {
    uint64_t seed;
    uint32_t n, maxdeg;
    int mode;                 /* 0 acyclic, 1 cyclic, 2 chains (cyclic now and then) */
    int win_pct, loss_pct, misere;
    uint64_t expands, arm_at; /* expand calls; arm the failure at this many (0: never) */
    gr_ctx *c;
    int armed;
} rgraph;

/* A hash of x: one step of the tests' generator from state x. */
static uint64_t mix(uint64_t x) {
    t_rng r = { t_seed(x) };
    return t_next(&r);
}

static gr_expand_kind r_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    rgraph *r = user;
    if (++r->expands == r->arm_at) {
        r->armed = 1;
        r->c->poll_left = r->c->poll_every = 1;   /* the clock is read at the next poll */
    }
    uint32_t v;
    if (len != 4) { CHECK(0); return GR_EXPAND_LOSS; }
    memcpy(&v, pos, 4);
    uint64_t h = mix(r->seed ^ (uint64_t)v * 0x9e3779b97f4a7c15ULL);
    int roll = (int)(h % 100);
    if (roll < r->win_pct) return GR_EXPAND_WIN;
    if (roll < r->win_pct + r->loss_pct) return GR_EXPAND_LOSS;
    uint32_t deg = (h >> 8) % 100 < 3 ? 0 : 1 + (uint32_t)((h >> 16) % r->maxdeg);
    if (r->mode == 0 && v + 1 >= r->n) deg = 0;
    uint32_t out[16];
    for (uint32_t k = 0; k < deg; k++) {
        uint64_t x = mix(h + k + 1);
        uint32_t to;
        if (r->mode == 0) to = v + 1 + (uint32_t)((x >> 8) % (r->n - v - 1 < 64 ? r->n - v - 1 : 64));
        else if (r->mode == 2 && x % 97) to = v + 1 + (uint32_t)((x >> 8) % 3);
        else to = (uint32_t)((x >> 8) % r->n);
        if (to >= r->n) to = (uint32_t)((x >> 8) % r->n);
        if (k && x % 5 == 0) to = out[(x >> 40) % k];   /* a repeated move */
        out[k] = to;
        gr_pg_emit(sink, (const uint8_t *)&to, 4);
    }
    if (r->misere && deg == 0) return GR_EXPAND_WIN;
    return GR_EXPAND_MOVES;
}

typedef struct answer {
    uint32_t first, count;    /* positions after the first solve, and after both */
    uint64_t edges;
    int64_t *v;               /* outcome, remoteness, SG of every position, by id */
    int failed;
    char msg[1024];
} answer;

/* Solves the graph from vertex 0, then from more starts, with threads; both solves' values. */
static void solve(rgraph *r, int threads, answer *a) {
    memset(a, 0, sizeof *a);
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    c.threads = threads;
    r->c = &c;
    r->expands = 0;
    r->armed = 0;
    gr_pg *g = gr_pg_new(&c, r_expand, r, 0);
    jmp_buf jb;
    c.on_fail = &jb;
    if (setjmp(jb)) {
        a->failed = 1;
        snprintf(a->msg, sizeof a->msg, "%s", c.fail_msg);
        gr_ctx_free(&c);
        return;
    }
    uint32_t start = 0;
    gr_pg_add(g, (const uint8_t *)&start, 4);
    gr_pg_solve(g);
    a->first = gr_pg_count(g);
    for (uint32_t k = 1; k <= 32; k++) {
        start = (uint32_t)(mix(r->seed + k) % r->n);
        gr_pg_add(g, (const uint8_t *)&start, 4);
    }
    gr_pg_solve(g);
    a->count = gr_pg_count(g);
    a->edges = gr_pg_edges(g);
    a->v = malloc(3 * ((size_t)a->count + 1) * sizeof *a->v);
    for (uint32_t id = 0; id < a->count; id++) {
        a->v[3 * id] = gr_pg_outcome(g, id);
        a->v[3 * id + 1] = gr_pg_remoteness(g, id);
        a->v[3 * id + 2] = gr_pg_sg(g, id);
    }
    gr_pg_free(g);
    CHECK_EQ(c.store.mem_used, 0);
    gr_ctx_free(&c);
}

static int stats_threaded, stats_draws, stats_sg, stats_deep;

static void random_graphs(void) {
    t_rng rng = { t_seed(20261123) };
    for (int t = 0; t < CASES; t++) {
        rgraph r;
        memset(&r, 0, sizeof r);
        r.seed = t_next(&rng);
        r.n = (uint32_t)t_range(&rng, 200, MAXN);
        r.mode = t % 3;
        r.maxdeg = (uint32_t)t_range(&rng, 1, r.mode == 2 ? 3 : 6);
        int mix_kind = (int)t_range(&rng, 0, 3);
        r.win_pct = mix_kind == 1 || mix_kind == 3 ? (int)t_range(&rng, 1, 10) : 0;
        r.loss_pct = mix_kind == 2 || mix_kind == 3 ? (int)t_range(&rng, 1, 10) : 0;
        r.misere = t_range(&rng, 0, 3) == 0;
        answer serial;
        solve(&r, 1, &serial);
        if (!CHECK(!serial.failed)) continue;
        int64_t most = 0;
        for (uint32_t id = 0; id < serial.count; id++) {
            stats_draws += serial.v[3 * id] == GR_DRAW;
            stats_sg += serial.v[3 * id + 2] > 0;
            if (serial.v[3 * id + 1] > most) most = serial.v[3 * id + 1];
        }
        stats_deep += most >= 100;
        for (int threads = 2; threads <= 4; threads++) {
            /* every pass on the team in pieces of one position (or a few), or small frontiers
             * left to the caller */
            uint64_t grain = (uint64_t)t_range(&rng, 1, 256), level = t_range(&rng, 0, 1) ? 0 : (uint64_t)t_range(&rng, 1, 64);
            gr_pg_team_tune(1, grain, level);
            answer team;
            solve(&r, threads, &team);
            gr_pg_team_tune(1u << 20, 1u << 14, 1u << 12);
            stats_threaded++;
            if (!CHECK(!team.failed) || !CHECK_EQ(team.count, serial.count) || !CHECK_EQ(team.edges, serial.edges)) {
                free(team.v);
                continue;
            }
            size_t bad = 0;
            for (size_t i = 0; i < 3 * (size_t)serial.count; i++) bad += team.v[i] != serial.v[i];
            if (!CHECK_EQ(bad, 0))
                fprintf(stderr, "  case %d (n %u, mode %d), %d threads, grain %llu, level %llu\n", t, r.n, r.mode, threads,
                        (unsigned long long)grain, (unsigned long long)level);
            free(team.v);
        }
        free(serial.v);
    }
    /* the cases reach what they are meant to */
    CHECK(stats_draws > 0);
    CHECK(stats_sg > 0);
    CHECK(stats_deep > 0);
    CHECK_EQ(stats_threaded, 3 * CASES);
}

/* A limit raised by a poll between the team's jobs or levels: the same failure as the serial
 * solve's, through the caller's handler (the team joined first; the sanitizers see the rest). */
static int64_t stop_calls;
static void stop(gr_ctx *c) {
    stop_calls++;
    gr_fail(c, GR_EXIT_LIMIT, "stopped by the test");
}

static gr_expand_kind armed_expand(void *user, const uint8_t *pos, size_t len, gr_pg_sink *sink) {
    rgraph *r = user;
    gr_expand_kind k = r_expand(user, pos, len, sink);
    if (r->armed) r->c->interrupted = stop;
    return k;
}

static void failure_in_team(void) {
    rgraph r;
    memset(&r, 0, sizeof r);
    r.seed = 7;
    r.n = 5000;
    r.mode = 1;
    r.maxdeg = 4;
    answer a;
    solve(&r, 1, &a);
    uint32_t count = a.first;
    free(a.v);
    for (int threads = 1; threads <= 4; threads += 3) {
        gr_pg_team_tune(1, 8, 0);
        gr_ctx c;
        gr_ctx_init(&c, "t", "", 0);
        c.threads = threads;
        r.c = &c;
        r.expands = 0;
        r.armed = 0;
        r.arm_at = 0;
        gr_pg *g = gr_pg_new(&c, armed_expand, &r, 0);
        jmp_buf jb;
        c.on_fail = &jb;
        volatile int failed = 0;
        stop_calls = 0;
        if (setjmp(jb)) failed = 1;
        else {
            uint32_t start = 0;
            gr_pg_add(g, (const uint8_t *)&start, 4);
            /* arm at the last expansion of the first solve: the failure comes in the analysis */
            r.arm_at = count ? count : 1;
            gr_pg_solve(g);
        }
        gr_pg_team_tune(1u << 20, 1u << 14, 1u << 12);
        CHECK(failed);
        CHECK_EQ(stop_calls, 1);
        CHECK_EQ(r.expands, count);   /* the expansion had ended: the analysis failed */
        CHECK(strstr(c.fail_msg, "stopped by the test") != NULL);
        gr_ctx_free(&c);
    }
}

int main(void) {
    random_graphs();
    failure_in_team();
    return t_finish("unit_pgteam");
}
