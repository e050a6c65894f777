/* unit_caps: the capability getters of eval/ (evaluator.h, eval/cap_*.h) say which games have
 * what: a heap recurrence has ready values, a heap table and moves to a value; a table
 * recurrence ready values only; Green Hackenbush moves to a value only; an explicit graph none;
 * the anyleaf/every kernels exist for heap rule sets that never split, the misere quotient for
 * heap rule sets (with the reason otherwise). Values read through the heap table as plain
 * integers agree with the evaluator's, in 16 and in 64 bits, and nim's period says sg(n) = n. */
#include <string.h>
#include "gamefix.h"
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"
#include "eval/cap_moves.h"
#include "eval/cap_convkernel.h"
#include "eval/cap_quotient.h"

static const char *src =
    "game kayles = octal \"0.77\";\n"
    "game s = subtract {2, 5, 7};\n"
    "game nim = subtract 1..;\n"
    "game wythoff {\n"
    "    position (a, b);\n"
    "    move -> (a - k, b)     for k in 1..a;\n"
    "    move -> (a, b - k)     for k in 1..b;\n"
    "    move -> (a - k, b - k) for k in 1..min(a, b);\n"
    "}\n"
    "hackenbush h { ground - a - b; a - c; }\n"
    "graph g { a -> b, c; b -> d; c -> d; }\n";

static void getters(gf *f) {
    gr_game *kay = gf_game(f, "kayles"), *s = gf_game(f, "s"), *w = gf_game(f, "wythoff");
    gr_game *h = gf_game(f, "h"), *g = gf_game(f, "g");
    if (!CHECK(kay && s && w && h && g)) return;
    CHECK(gr_cap_ready(kay) && gr_cap_heap_table(kay) && gr_cap_moves(kay));
    CHECK(gr_cap_ready(w) && !gr_cap_heap_table(w) && !gr_cap_moves(w));
    CHECK(gr_cap_ready(w)->ensure_ahead && !gr_cap_ready(kay)->ensure_ahead);
    CHECK(!gr_cap_ready(h) && !gr_cap_heap_table(h) && gr_cap_moves(h));
    CHECK(!gr_cap_ready(g) && !gr_cap_heap_table(g) && !gr_cap_moves(g));
    CHECK(gr_cap_convkernel(s) != NULL);         /* subtraction never splits */
    CHECK(gr_cap_convkernel(kay) == NULL);       /* 0.77 splits a heap */
    CHECK(gr_cap_convkernel(w) == NULL);
    char why[256] = "";
    CHECK(gr_cap_quotient(kay, why, sizeof why) != NULL);
    CHECK(gr_cap_quotient(w, why, sizeof why) == NULL);
    CHECK(strstr(why, "not a heap rule set") != NULL);
    /* what the getters stand for: an evaluator with ready values answers a value itself
     * (kayles(3) = 3, wythoff(1, 2) = 0, a P-position); the position graph's evaluator answers
     * none (the graph over sums does) but lists an explicit graph's options (a -> b, c) */
    gr_value v;
    int64_t pos[2] = { 3, 0 };
    CHECK(gr_evaluator_of(kay)->value(&f->c, kay, CONV_NORMAL, pos, GR_KIND_SG, kay->decl->name_loc, &v) == 1);
    CHECK_EQ(v.sg, 3);
    pos[0] = 1, pos[1] = 2;
    CHECK(gr_eval_value(&f->c, w, CONV_NORMAL, pos, GR_KIND_SG, w->decl->name_loc, &v) == 1);
    CHECK_EQ(v.sg, 0);
    CHECK(gr_eval_answers(g, CONV_NORMAL, NULL, 0) == 0);
    int64_t a = -1;
    for (int64_t i = 0; i < g->nvertices; i++) if (!strcmp(g->vertices[i], "a")) a = i;
    if (!CHECK(a >= 0)) return;
    CHECK_EQ((int64_t)gr_eval_count_options(&f->c, g, &a), 2);
}

static void heap_values(gf *f) {
    gr_game *kay = gf_game(f, "kayles"), *nim = gf_game(f, "nim");
    const gr_heap_table_cap *t = gr_cap_heap_table(kay);
    if (!CHECK(t && nim)) return;
    int64_t lo = 0, hi = 999;
    CHECK(gr_eval_ensure(&f->c, kay, &lo, &hi, GR_KIND_SG));
    int64_t p = 0, e = 0, sal = -1;    /* Kayles: period 12 from 71, proved while filling */
    CHECK(t->period(kay, &p, &e, &sal));
    CHECK_EQ(p, 12);
    CHECK_EQ(e, 71);
    CHECK_EQ(sal, 0);
    int64_t n = t->filled(kay);
    CHECK(n >= 71 + 2 * 12);
    if (n > 200) n = 200;
    int64_t v64[200];
    uint16_t v16[200];
    t->read(kay, 0, n, v64);
    CHECK(t->read16(kay, 0, n, v16));
    for (int64_t i = 0; i < n; i++) {
        int64_t r = -1;
        CHECK(gr_eval_ready(kay, &i, GR_KIND_SG, &r));
        CHECK_EQ(v64[i], r);
        CHECK_EQ((int64_t)v16[i], r);
    }
    const gr_heap_table_cap *tn = gr_cap_heap_table(nim);
    if (!CHECK(tn != NULL)) return;
    CHECK(tn->period(nim, &p, &e, &sal));
    CHECK_EQ(p, 1);
    CHECK_EQ(e, 0);
    CHECK_EQ(sal, 1);
}

int main(void) {
    gf f;
    if (!CHECK(gf_open(&f, src))) return t_finish("unit_caps");
    getters(&f);
    heap_values(&f);
    gf_close(&f);
    return t_finish("unit_caps");
}
