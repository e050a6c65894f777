/* unit_hackenbush: Green Hackenbush and coin turning against brute force.
 * Hackenbush: random small figures (cycles, loops, parallel edges, parts that fall away): the
 * value by fusion and the colon principle equals the SG value of the position graph over edge
 * subsets, for the whole figure and for random cut positions; the winning cuts gr_hb_moves
 * lists are exactly the cuts the graph finds; a path of 10^5 edges is worth 10^5 (no deep
 * recursion). Coin turning: Mock Turtles are the odious numbers, Ruler the largest power of
 * two dividing the place (as the contract writes it, 'k in 1..x', place 0 has no move; with
 * 'k in 1..x+1' the run may reach place 0 and the value is that of x + 1), Twins is x; and
 * on random rule sets the xor of single heads equals the position graph over sets of heads. */
#include "gamefix.h"
#include "eval/figure/hackenbush.h"
#include "eval/figure/turning.h"

enum { MAXE = 11 };

/* Brute force: edges present as a bit mask; a cut drops what is no longer joined to ground. */
typedef struct brute { int nv, ne; int eu[MAXE], ev[MAXE]; int sg[1 << MAXE]; } brute;

static unsigned reach(const brute *b, unsigned present) {
    unsigned seen = 1, keep = 0;   /* vertex 0 is ground */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int e = 0; e < b->ne; e++)
            if (present >> e & 1 && ((seen >> b->eu[e] | seen >> b->ev[e]) & 1)) {
                keep |= 1u << e;
                unsigned add = (1u << b->eu[e]) | (1u << b->ev[e]);
                if ((seen | add) != seen) { seen |= add; changed = 1; }
            }
    }
    return keep;
}

static void brute_solve(brute *b) {
    for (unsigned m = 0; m < 1u << b->ne; m++) {   /* children are subsets: smaller masks */
        unsigned seen = 0;
        unsigned p = reach(b, m);
        for (int e = 0; e < b->ne; e++)
            if (p >> e & 1) {
                int v = b->sg[reach(b, p & ~(1u << e))];
                if (v < 32) seen |= 1u << v;
            }
        int v = 0;
        while (seen >> v & 1) v++;
        b->sg[m] = v;
    }
}

typedef struct cuts { unsigned got; } cuts;
static void got_cut(void *user, int e) { ((cuts *)user)->got |= 1u << e; }

static void test_random_figures(void) {
    t_rng r = { t_seed(4242) };
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    static brute b;
    int moves_checked = 0;
    for (int iter = 0; iter < 1500; iter++) {
        b.nv = (int)t_range(&r, 1, 6);
        b.ne = (int)t_range(&r, 1, MAXE);
        for (int e = 0; e < b.ne; e++) {
            b.eu[e] = (int)t_range(&r, 0, b.nv - 1);
            b.ev[e] = t_range(&r, 0, 5) == 0 ? b.eu[e] : (int)t_range(&r, 0, b.nv - 1);   /* some loops */
            if (e > 0 && t_range(&r, 0, 6) == 0) { b.eu[e] = b.eu[e - 1]; b.ev[e] = b.ev[e - 1]; }   /* parallel */
        }
        brute_solve(&b);
        const char *names[6] = { "ground", "a", "b", "c", "d", "e" };
        int32_t eu[MAXE], ev[MAXE];
        for (int e = 0; e < b.ne; e++) { eu[e] = b.eu[e]; ev[e] = b.ev[e]; }
        gr_figure f = { .names = names, .nv = b.nv, .eu = eu, .ev = ev, .ne = b.ne, .ground = 0, .c = &c };
        gr_hb_prepare(&c, &f);
        for (int k = 0; k < 4; k++) {
            unsigned present = k == 0 ? (1u << b.ne) - 1 : (unsigned)t_range(&r, 0, (1 << b.ne) - 1);
            int64_t mask[GR_HB_WORDS] = { 0 };
            mask[0] = (int64_t)(~present & ((1u << b.ne) - 1));
            int64_t v = gr_hb_value(&c, &f, mask);
            if (!CHECK_EQ(v, b.sg[present])) { fprintf(stderr, "  figure %d, position %u\n", iter, present); continue; }
            /* The canonical child and its value. */
            int64_t child[GR_HB_WORDS];
            unsigned p = reach(&b, present);
            for (int e = 0; e < b.ne; e++)
                if (p >> e & 1) {
                    gr_hb_child(&c, &f, mask, e, child);
                    CHECK_EQ(gr_hb_value(&c, &f, child), b.sg[reach(&b, p & ~(1u << e))]);
                }
            /* Winning cuts to a random target value, against the graph. Parallel edges are
             * listed separately here (the query folds equal texts). */
            int64_t want = t_range(&r, 0, 4);
            unsigned expect = 0;
            for (int e = 0; e < b.ne; e++)
                if (p >> e & 1 && b.sg[reach(&b, p & ~(1u << e))] == want) expect |= 1u << e;
            cuts got = { 0 };
            gr_hb_moves(&c, &f, mask, want, got_cut, &got);
            CHECK_EQ(got.got, expect);
            moves_checked++;
        }
    }
    fprintf(stderr, "  1500 random figures, %d positions with their winning cuts checked\n", moves_checked);
    gr_ctx_free(&c);
}

static void test_long_path(void) {
    gr_ctx c;
    gr_ctx_init(&c, "t", "", 0);
    int n = 100000;
    int32_t *eu = malloc(sizeof *eu * (size_t)n * 2), *ev = malloc(sizeof *ev * (size_t)n * 2);
    for (int i = 0; i < n; i++) { eu[i] = i; ev[i] = i + 1; }
    const char **names = calloc((size_t)n + 1, sizeof *names);
    for (int i = 0; i <= n; i++) names[i] = "v";
    gr_figure f = { .names = names, .nv = n + 1, .eu = eu, .ev = ev, .ne = n, .ground = 0, .c = &c };
    CHECK_EQ(gr_hb_value(&c, &f, NULL), n);   /* a stalk of n edges is a nim heap of n */
    /* Close it into one cycle through ground: n + 1 edges fused into loops at ground. */
    eu[n] = n; ev[n] = 0;
    f.ne = n + 1;
    CHECK_EQ(gr_hb_value(&c, &f, NULL), (n + 1) & 1);
    free(names);
    free(eu); free(ev);
    gr_ctx_free(&c);
}

/* ---- coin turning ---- */
static void test_known_coins(void) {
    gf f;
    const char *src =
        "game mock = turning { flip x; flip y, x for y in 0..x-1; flip z, y, x for y in 1..x-1, z in 0..y-1; }\n"
        "game ruler = turning { flip x-k+1 .. x for k in 1..x; }\n"
        "game ruler0 = turning { flip x-k+1 .. x for k in 1..x+1; }\n"
        "game twins = turning { flip y, x for y in 0..x-1; }\n";
    if (!gf_open(&f, src)) { CHECK(0); return; }
    gr_game *mock = gf_game(&f, "mock"), *ruler = gf_game(&f, "ruler"), *ruler0 = gf_game(&f, "ruler0"), *twins = gf_game(&f, "twins");
    int64_t odious = 0;
    for (int64_t x = 0; x < 300; x++) {
        do odious++; while (__builtin_popcountll((unsigned long long)odious) % 2 == 0);
        CHECK_EQ(gr_turning_value(&f.c, mock, x), odious);          /* 1, 2, 4, 7, 8, 11, ... */
        CHECK_EQ(gr_turning_value(&f.c, ruler, x), x & -x);         /* 0 at place 0 */
        CHECK_EQ(gr_turning_value(&f.c, ruler0, x), (x + 1) & -(x + 1));
        CHECK_EQ(gr_turning_value(&f.c, twins, x), x);
    }
    gf_close(&f);
}

/* The position graph over sets of heads on places 0..P-1: a flip at heads x leaves a smaller
 * mask, so values fill in increasing masks. */
enum { P = 8 };
typedef struct cg { gr_ctx *c; gr_game *g; int sg[1 << P]; unsigned mask; int x; uint64_t seen; } cg;
static void cg_flip(void *user, const int64_t *others, int n) {
    cg *k = user;
    unsigned m = k->mask ^ (1u << k->x);
    for (int i = 0; i < n; i++) m ^= 1u << others[i];
    if (k->sg[m] < 64) k->seen |= UINT64_C(1) << k->sg[m];
}

static void test_random_turning(void) {
    t_rng r = { t_seed(777) };
    int checked = 0;
    for (int iter = 0; iter < 1000; iter++) {
        char src[2048];
        size_t pos = (size_t)snprintf(src, sizeof src, "game t = turning {");
        int lines = (int)t_range(&r, 1, 3);
        for (int i = 0; i < lines; i++) {
            pos += (size_t)snprintf(src + pos, sizeof src - pos, " ");
            int a = (int)t_range(&r, 0, 5), b = (int)t_range(&r, 0, 5), m = (int)t_range(&r, 2, 5);
            size_t left = sizeof src - pos;
            switch (t_range(&r, 0, 4)) {
            case 0: pos += (size_t)snprintf(src + pos, left, "flip x where (x * %d + %d) %% %d != 0;", a, b, m); break;
            case 1: pos += (size_t)snprintf(src + pos, left, "flip y, x for y in 0..x-1 where (x * %d + y * %d) %% %d != 0;", a, b, m); break;
            case 2: pos += (size_t)snprintf(src + pos, left, "flip z, y, x for y in 1..x-1, z in 0..y-1 where (x + y * %d + z * %d) %% %d != 1;", a, b, m); break;
            case 3: pos += (size_t)snprintf(src + pos, left, "flip x-k+1 .. x for k in 1..x+1 where (k * %d + x * %d) %% %d != 2;", a, b, m); break;
            default: pos += (size_t)snprintf(src + pos, left, "flip y, y+1, x for y in 0..x-2 where (y * %d + x * %d) %% %d == 0;", a, b, m); break;
            }
        }
        snprintf(src + pos, sizeof src - pos, " }\n");
        gf f;
        if (!gf_open(&f, src)) { CHECK(0); continue; }
        static cg k;
        k.c = &f.c;
        k.g = gf_game(&f, "t");
        for (unsigned m = 0; m < 1u << P; m++) {
            k.mask = m;
            k.seen = 0;
            for (k.x = 0; k.x < P; k.x++) if (m >> k.x & 1) gr_turning_flips(&f.c, k.g, k.x, cg_flip, &k);
            int v = 0;
            while (k.seen >> v & 1) v++;
            k.sg[m] = v;
            int64_t x = 0;
            for (int i = 0; i < P; i++) if (m >> i & 1) x ^= gr_turning_value(&f.c, k.g, i);
            if (!CHECK_EQ(x, v)) { fprintf(stderr, "  %s  position %u\n", src, m); break; }
            checked++;
        }
        gf_close(&f);
    }
    fprintf(stderr, "  1000 random coin-turning rule sets, %d positions checked\n", checked);
}

int main(void) {
    test_random_figures();
    test_long_path();
    test_known_coins();
    test_random_turning();
    return t_finish("unit_hackenbush");
}
