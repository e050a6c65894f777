/* unit_boxteam: the retrograde analysis of a translation box across threads (densepar.h) gives
 * what the serial analysis gives. Random token games (random translations, 'where' with holes,
 * terminal conditions that win, lose or end the game, cycles, normal and misere play; some
 * 'where' and terminal conditions the row evaluator declines, so the caller evaluates them; some
 * boxes that moves leave, so they grow; some with a move that is no translation, whose edges
 * the box stores) are solved with one thread (the serial analysis) and
 * with 2, 3 and 4 (the team, its thresholds lowered so every pass is threaded and every member
 * takes small pieces): the outcome, remoteness and SG value of every position, whether the box
 * has a cycle, its size after growing and the number of positions valued must be the same, and
 * a failure (division by zero in 'where') must give the same message. The same for one position
 * alone (gr_dense_at: a walk, then the whole box if the walk meets a cycle). The serial analysis
 * itself is checked against the position graph in unit_box. */
#include "eval/box/dense.h"
#include "gamefix.h"
#include "eval/rules.h"

#ifdef T_SANITIZED
enum { CASES = 120 };
#else
enum { CASES = 200 };
#endif

typedef struct result {
    int ok, loopy;
    uint64_t size, valued;
    int64_t *vals;    /* outcome, remoteness, SG of every position of the asked box */
    int64_t at[4];    /* gr_dense_at of the box's middle: size, valued, cyclic, a hash of its values */
    char msg[1024];
} result;

typedef struct job { gr_game *g; gr_conv conv; int64_t lo[3], hi[3]; int a; result *out; } job;

static void solve_body(gf *f, void *arg) {
    job *j = arg;
    gr_dense *b = gr_dense_range(&f->c, j->g, j->conv, j->lo, j->hi);
    result *r = j->out;
    r->loopy = gr_dense_cyclic(b);
    r->size = gr_dense_size(b);
    r->valued = gr_dense_evaluated(b);
    int64_t p[3];
    size_t i = 0;
    memcpy(p, j->lo, sizeof p);
    for (;;) {
        int in = gr_dense_valid(b, p);
        r->vals[i++] = in ? (int64_t)gr_dense_outcome(b, p) : -9;
        r->vals[i++] = in ? gr_dense_remoteness(b, p) : -9;
        r->vals[i++] = in ? gr_dense_sg(b, p) : -9;
        int k = j->a - 1;
        while (k >= 0 && p[k] == j->hi[k]) { p[k] = j->lo[k]; k--; }
        if (k < 0) break;
        p[k]++;
    }
    gr_dense_free(b);
    /* One position alone (gr_dense_at): a depth-first walk, and the retrograde analysis of the
     * whole box below it if the walk meets a cycle. */
    for (int k = 0; k < j->a; k++) p[k] = (j->lo[k] + j->hi[k]) / 2;
    if (gr_rules_valid(&f->c, j->g, p)) {
        gr_dense *one = gr_dense_at(&f->c, j->g, j->conv, p);
        int64_t lo[3], hi[3];
        gr_dense_grown(one, lo, hi);
        r->at[0] = (int64_t)gr_dense_size(one);
        r->at[1] = (int64_t)gr_dense_evaluated(one);
        r->at[2] = gr_dense_cyclic(one);
        int64_t q[3];
        memcpy(q, lo, sizeof q);
        for (uint64_t h = 0;;) {
            h = h * 31 + (uint64_t)gr_dense_outcome(one, q) * 7 + (uint64_t)(gr_dense_remoteness(one, q) + 1) * 3 + (uint64_t)(gr_dense_sg(one, q) + 1);
            r->at[3] = (int64_t)h;
            int k = j->a - 1;
            while (k >= 0 && q[k] == hi[k]) { q[k] = lo[k]; k--; }
            if (k < 0) break;
            q[k]++;
        }
        gr_dense_free(one);
    }
    r->ok = 1;
}

static int stats_cyclic, stats_draws, stats_failed, stats_grown, stats_sg, stats_far, stats_walked;

static void run(const char *src, int threads, gr_conv conv, const int64_t *lo, const int64_t *hi, int a, size_t cells, result *r) {
    memset(r, 0, sizeof *r);
    r->vals = calloc(3 * cells, sizeof *r->vals);
    gf f;
    if (!CHECK(gf_open(&f, src))) { gf_close(&f); return; }
    f.c.threads = threads;
    job j = { gf_game(&f, "t"), conv, { 0 }, { 0 }, a, r };
    memcpy(j.lo, lo, (size_t)a * sizeof *lo);
    memcpy(j.hi, hi, (size_t)a * sizeof *hi);
    if (!gf_run(&f, solve_body, &j)) snprintf(r->msg, sizeof r->msg, "%s", f.c.fail_msg);
    gf_close(&f);
}

static void random_boxes(void) {
    t_rng rng = { t_seed(20261123) };
    for (int t = 0; t < CASES; t++) {
        char src[2048];
        size_t n = 0;
        int a = (int)t_range(&rng, 2, 3);
        int64_t ext[3], lo[3], hi[3];
        size_t cells = 1;
        int longrow = a == 2 && t_range(&rng, 0, 4) == 0;   /* remoteness past a byte */
        for (int k = 0; k < a; k++) {
            ext[k] = longrow ? (k ? t_range(&rng, 300, 700) : t_range(&rng, 2, 6)) : a == 2 ? t_range(&rng, 2, 90) : t_range(&rng, 2, 20);
            lo[k] = t_range(&rng, -3, 0);
            hi[k] = lo[k] + ext[k] - 1;
            cells *= (size_t)ext[k];
        }
        static const char *names[3] = { "x", "y", "z" };
        n += (size_t)snprintf(src + n, sizeof src - n, "game t {\n  position (%s", names[0]);
        for (int k = 1; k < a; k++) n += (size_t)snprintf(src + n, sizeof src - n, ", %s", names[k]);
        n += (size_t)snprintf(src + n, sizeof src - n, ") where 1");
        /* the box, or (grow) a 'where' twice as high in the first coordinate: the box grows */
        int grow = t_range(&rng, 0, 5) == 0;
        for (int k = 0; k < a; k++)
            n += (size_t)snprintf(src + n, sizeof src - n, " && %s >= %lld && %s <= %lld", names[k], (long long)lo[k], names[k],
                                  (long long)(k == 0 && grow ? hi[k] + ext[k] : hi[k]));
        int holes = (int)t_range(&rng, 0, 4);
        int64_t m = t_range(&rng, 3, 13), cx = t_range(&rng, 1, 9), cy = t_range(&rng, 1, 9);
        if (holes == 1 || holes == 2)
            n += (size_t)snprintf(src + n, sizeof src - n, " && (%lld * x + %lld * y) %% %lld != %lld", (long long)cx, (long long)cy,
                                  (long long)m, (long long)(holes - 1));
        if (holes == 3)   /* a shift by a coordinate: the row evaluator declines it */
            n += (size_t)snprintf(src + n, sizeof src - n, " && ((x + 3) << 1) %% %lld != y %% %lld", (long long)m, (long long)m);
        int fails = t_range(&rng, 0, 24) == 0;
        if (fails)   /* division by zero at x == lo + 1 */
            n += (size_t)snprintf(src + n, sizeof src - n, " && 100 / (x - (%lld)) != 1000", (long long)(lo[0] + 1));
        n += (size_t)snprintf(src + n, sizeof src - n, ";\n");
        int nm = (int)t_range(&rng, 1, 5), close = t_range(&rng, 0, 1);
        int64_t sum[3] = { 0, 0, 0 };
        for (int mv = 0; mv < nm; mv++) {
            int64_t d[3];
            for (int k = 0; k < a; k++) d[k] = t_range(&rng, -3, 3);
            if (close && mv == nm - 1 && mv > 0)   /* the translations so far undone: a cycle */
                for (int k = 0; k < a; k++) d[k] = -sum[k];
            else if (t_range(&rng, 0, 3) == 0) {
                n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x - k, y + %lld%s) for k in 1..%lld;\n", (long long)d[1],
                                      a == 3 ? ", z" : "", (long long)t_range(&rng, 1, 3));
                continue;
            }
            for (int k = 0; k < a; k++) sum[k] += d[k];
            n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x + %lld, y + %lld", (long long)d[0], (long long)d[1]);
            if (a == 3) n += (size_t)snprintf(src + n, sizeof src - n, ", z + %lld", (long long)d[2]);
            n += (size_t)snprintf(src + n, sizeof src - n, ");\n");
        }
        int stored = t_range(&rng, 0, 2) == 0;   /* a move that is no translation: the box stores its edges */
        if (stored) {
            const char *z = a == 3 ? ", z" : "";
            switch (t_range(&rng, 0, 2)) {
            case 0: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (y, x%s);\n", z); break;
            case 1: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x - k, y + 1%s) for k in 1..x %% 4;\n", z); break;
            default: n += (size_t)snprintf(src + n, sizeof src - n, "  move -> (x + 1, y - 2%s) where x < y;\n", z); break;
            }
        }
        int term = (int)t_range(&rng, 0, 6);
        if (term == 1) n += (size_t)snprintf(src + n, sizeof src - n, "  terminal when x == y;\n");
        if (term == 2) n += (size_t)snprintf(src + n, sizeof src - n, "  terminal when (x + y) %% 7 == 2 wins;\n");
        if (term == 3) n += (size_t)snprintf(src + n, sizeof src - n, "  terminal when x + y == 3 loses;\n  terminal when x == 0 wins;\n");
        if (term == 4) n += (size_t)snprintf(src + n, sizeof src - n, "  terminal when (y << 1) == x + 4 loses;\n");
        snprintf(src + n, sizeof src - n, "}\n");
        gr_conv conv = t_range(&rng, 0, 1) ? CONV_MISERE : CONV_NORMAL;
        result ref;
        gr_dense_team_tune(UINT64_MAX, 1 << 14, 1 << 12);
        run(src, 1, conv, lo, hi, a, cells, &ref);
        for (int th = 2; th <= 4; th++) {
            result r;
            gr_dense_team_tune(0, (uint64_t)t_range(&rng, 1, 200), (uint64_t)t_range(&rng, 0, 3));
            run(src, th, conv, lo, hi, a, cells, &r);
            int bad = !CHECK_EQ(r.ok, ref.ok) + !CHECK(!strcmp(r.msg, ref.msg));
            if (ref.ok && r.ok) {
                bad += !CHECK_EQ(r.loopy, ref.loopy) + !CHECK_EQ(r.size, ref.size) + !CHECK_EQ(r.valued, ref.valued);
                for (size_t i = 0; i < 3 * cells && !bad; i++) bad += !CHECK_EQ(r.vals[i], ref.vals[i]);
                for (int i = 0; i < 4 && !bad; i++) bad += !CHECK_EQ(r.at[i], ref.at[i]);
            }
            if (bad) fprintf(stderr, "  %d threads, %s play, box from (%lld, %lld) of\n%s\n", th, conv == CONV_NORMAL ? "normal" : "misere",
                             (long long)lo[0], (long long)lo[1], src);
            free(r.vals);
        }
        if (ref.ok) {
            stats_cyclic += ref.loopy;
            stats_grown += ref.size > cells;
            for (size_t i = 0; i < cells; i++) {
                stats_draws += ref.vals[3 * i] == GR_DRAW;
                stats_sg += ref.loopy && ref.vals[3 * i + 2] >= 0;
                stats_far += ref.vals[3 * i + 1] > 255;
            }
            stats_walked += ref.at[0] > 0;
        } else stats_failed++;
        free(ref.vals);
    }
    gr_dense_team_tune(1u << 20, 1 << 14, 1 << 12);
    printf("random boxes: %d with cycles, %d draws, %d SG values beside cycles, %d remoteness past 255, %d grown, %d failed alike, "
           "%d walks\n", stats_cyclic, stats_draws, stats_sg, stats_far, stats_grown, stats_failed, stats_walked);
    CHECK(stats_far > 0);
    CHECK(stats_walked > CASES / 2);
    CHECK(stats_cyclic > CASES / 4);
    CHECK(stats_draws > 100);
    CHECK(stats_sg > CASES);
    CHECK(stats_grown > 0);
    CHECK(stats_failed > 0);
}

int main(void) {
    random_boxes();
    return t_finish("unit_boxteam");
}
