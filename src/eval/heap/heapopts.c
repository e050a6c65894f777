/* heapopts: the options of a heap; see heapopts.h. */
#include "eval/heap/heapopts.h"
#include "ir.h"
#include "eval/rules.h"
#include <string.h>

/* ---- subtraction sets ------------------------------------------------------------------ */
void gr_sub_extend(gr_ctx *c, gr_game *g, int64_t upto) {
    if (!g->sub_gen) return;
    int64_t frame[72] = { 0 };
    memcpy(frame, g->params, (size_t)g->nparams * sizeof *frame);
    while (!g->gen_done && (g->nsub == 0 || g->sub[g->nsub - 1] <= upto)) {
        gr_poll(c);
        if (g->gen_has_hi && g->gen_next > g->gen_hi) { g->gen_done = 1; break; }
        int64_t i = g->gen_next;
        frame[g->gen_slot] = i;
        int64_t v = gr_eval(c, g->gen_elem, frame, NULL);
        if (v < 1)
            gr_fail_at(c, g->sub_gen->loc, GR_EXIT_INPUT, "the set gives %lld at %s = %lld; a subtraction set holds positive amounts",
                       (long long)v, g->sub_gen->var, (long long)i);
        if (g->nsub && v <= g->sub[g->nsub - 1])
            gr_fail_at(c, g->sub_gen->loc, GR_EXIT_INPUT, "the set is not increasing: %s = %lld gives %lld after %lld",
                       g->sub_gen->var, (long long)i, (long long)v, (long long)g->sub[g->nsub - 1]);
        gr_sub_push(c, g, v);
        if (g->gen_next == INT64_MAX) g->gen_done = 1; else g->gen_next++;
    }
}

static void subtraction_options(gr_ctx *c, gr_game *g, int64_t n, gr_heap_option_fn fn, void *user) {
    gr_sub_extend(c, g, n);
    for (size_t j = 0; j < g->nsub && g->sub[j] <= n; j++) {
        gr_poll(c);
        int64_t h = n - g->sub[j];
        fn(user, &h, 1);
    }
    if (g->sub_open_from)
        for (int64_t s = g->sub_open_from; s <= n; s++) {
            gr_poll(c);
            int64_t h = n - s;
            fn(user, &h, 1);
        }
}

/* ---- take-and-break codes --------------------------------------------------------------- */
static int parts_allowed(const int64_t *p, int h, int constraint) {
    if (h <= 1 || constraint == TB_ANY) return 1;
    int all_equal = p[0] == p[h - 1];   /* parts are nondecreasing */
    if (constraint == TB_EQUAL) return all_equal;
    if (constraint == TB_SOMEUNEQUAL) return !all_equal;
    for (int i = 1; i < h; i++) if (p[i] == p[i - 1]) return 0;
    return 1;
}

/* Every way to write r as h nondecreasing parts >= 1, in lexicographic order. */
static void partitions(gr_ctx *c, int64_t r, int h, int constraint, gr_heap_option_fn fn, void *user) {
    int64_t p[32];
    if (r < h) return;
    for (int i = 0; i < h - 1; i++) p[i] = 1;
    p[h - 1] = r - (h - 1);
    for (;;) {
        gr_poll(c);
        if (parts_allowed(p, h, constraint)) fn(user, p, h);
        /* Advance: the rightmost part that can grow does, and the parts after it restart
         * at its new size with the remainder in the last. */
        int64_t rest = p[h - 1];
        int i = h - 2;
        for (; i >= 0; i--) {
            rest += p[i];
            int64_t v = p[i] + 1;
            if (v * (h - i) <= rest) {
                for (int k = i; k < h - 1; k++) p[k] = v;
                p[h - 1] = rest - v * (h - 1 - i);
                break;
            }
        }
        if (i < 0) return;
    }
}

static void tb_options(gr_ctx *c, gr_game *g, int64_t n, gr_heap_option_fn fn, void *user) {
    const gr_tbcode *t = &g->tb;
    int64_t last = t->last_place == INT32_MAX ? n : (t->last_place < n ? t->last_place : n);
    for (int64_t k = 0; k <= last; k++) {
        gr_poll(c);
        gr_tbdigit d = gr_tb_digit(t, k);
        int64_t r = n - k;
        for (int h = 0; h < 32; h++) {
            if (!(d.mask >> h & 1u)) continue;
            if (h == 0) {
                if (r == 0) { int64_t zero = 0; fn(user, &zero, 1); }  /* nothing left: shown as a heap of 0 */
            } else if (h == 1) {
                if (r >= 1) fn(user, &r, 1);
            } else {
                partitions(c, r, h, d.constraint, fn, user);
            }
        }
    }
}

/* ---- options of any heap game ------------------------------------------------------- */
typedef struct rules_adapter { gr_heap_option_fn fn; void *user; } rules_adapter;
static void rules_move(void *user, const int64_t *parts, int nparts, const gr_rmove *mv) {
    (void)mv;
    rules_adapter *a = user;
    a->fn(a->user, parts, nparts);
}

void gr_heap_options(gr_ctx *c, gr_game *g, int64_t n, gr_heap_option_fn fn, void *user) {
    switch (g->kernel) {
    case KER_NIM: case KER_SUBTRACT: case KER_SUBTRACT_INF:
        subtraction_options(c, g, n, fn, user);
        break;
    case KER_OCTAL: case KER_TB:
        tb_options(c, g, n, fn, user);
        break;
    default: {
        rules_adapter a = { fn, user };
        gr_rules_moves(c, g, &n, rules_move, &a);
        break;
    }
    }
}
