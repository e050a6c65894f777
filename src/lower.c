/* lower: kernel choice and the IR of each rule set; see lower.h. */
#include "lower.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_EXPLICIT_SUBTRACTION = 1 << 22 };  /* elements of a finite subtraction set */

static void sub_push(gr_ctx *c, gr_game *g, int64_t v) {
    if (g->nsub == g->subcap) {
        size_t ncap = g->subcap ? g->subcap * 2 : 16;
        g->sub = gr_realloc(c, g->sub, gr_size_mul(c, ncap, sizeof *g->sub));
        g->subcap = ncap;
    }
    g->sub[g->nsub++] = v;
}

void gr_lower_subtract_begin(gr_ctx *c, gr_game *g) {
    (void)c;
    g->shape = SHAPE_HEAP;
    g->arity = 1;
    g->sub_open_from = 0;
}

void gr_lower_subtract_range(gr_ctx *c, gr_game *g, gr_loc loc, int64_t lo, int64_t hi, int open) {
    if (lo < 1) gr_fail_at(c, loc, GR_EXIT_INPUT, "a subtraction set holds positive amounts; %lld is not", (long long)lo);
    if (open) {
        if (g->sub_open_from == 0 || lo < g->sub_open_from) g->sub_open_from = lo;
        return;
    }
    if (hi < lo) return;   /* an empty range adds nothing */
    if ((uint64_t)(hi - lo) >= MAX_EXPLICIT_SUBTRACTION || g->nsub + (size_t)(hi - lo) >= MAX_EXPLICIT_SUBTRACTION)
        gr_fail_at(c, loc, GR_EXIT_LIMIT, "this subtraction set has more than %d elements; grundy keeps finite sets explicit (an open range 'lo..' has no such limit)",
                   MAX_EXPLICIT_SUBTRACTION);
    for (int64_t v = lo; v <= hi; v++) sub_push(c, g, v);
}

void gr_lower_subtract_generator(gr_ctx *c, gr_game *g, const gr_set *set, gr_code *elem, int slot,
                                 int64_t lo, int64_t hi, int has_hi) {
    (void)c;
    g->sub_gen = set;
    g->gen_elem = elem;
    g->gen_slot = slot;
    g->gen_next = lo;
    g->gen_hi = hi;
    g->gen_has_hi = has_hi;
    g->gen_done = has_hi && hi < lo;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void sub_normalise(gr_game *g) {
    if (g->nsub) qsort(g->sub, g->nsub, sizeof *g->sub, cmp_i64);
    size_t k = 0;
    for (size_t i = 0; i < g->nsub; i++) {
        if (g->sub_open_from && g->sub[i] >= g->sub_open_from) break;
        if (k == 0 || g->sub[k - 1] != g->sub[i]) g->sub[k++] = g->sub[i];
    }
    g->nsub = k;
}

/* "{1, 3, 4}" or "{1, 2, ...}" for explanations */
static void format_set(const gr_game *g, char *buf, size_t cap) {
    size_t pos = (size_t)snprintf(buf, cap, "{");
    for (size_t i = 0; i < g->nsub && pos + 24 < cap; i++) {
        if (i == 8 && g->nsub > 10) { pos += (size_t)snprintf(buf + pos, cap - pos, ", ... (%zu elements)", g->nsub); break; }
        pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld", i ? ", " : "", (long long)g->sub[i]);
    }
    if (g->sub_open_from && pos + 40 < cap)
        pos += (size_t)snprintf(buf + pos, cap - pos, "%s%lld..", g->nsub ? ", " : "", (long long)g->sub_open_from);
    if (pos < cap) snprintf(buf + pos, cap - pos, "}");
}

void gr_tbcode_format(const gr_tbcode *code, char *buf, size_t cap) {
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
    static const char cons[] = { 0, '!', '?', '=' };
    size_t pos = 0;
    for (int i = 0; i < code->ndigits && pos + 16 < cap; i++) {
        if (code->period && i == code->ndigits - code->period) buf[pos++] = '[';
        if (code->d[i].mask < 32) buf[pos++] = digits[code->d[i].mask];
        else pos += (size_t)snprintf(buf + pos, cap - pos, "&%u;", code->d[i].mask);
        if (code->d[i].constraint) buf[pos++] = cons[code->d[i].constraint];
        if (i == 0) buf[pos++] = '.';
    }
    if (code->ndigits == 1 && pos + 1 < cap) buf[pos++] = '0';
    if (code->period && pos + 1 < cap) buf[pos++] = ']';
    buf[pos < cap ? pos : cap - 1] = '\0';
}

/* An octal code whose digits are all 0 or 3 (take k whether or not tokens remain) is the
 * subtraction game on the places of its 3s. */
static int octal_is_subtraction(gr_ctx *c, gr_game *g) {
    const gr_tbcode *t = &g->tb;
    if (t->period || t->d[0].mask) return 0;
    for (int i = 1; i < t->ndigits; i++)
        if ((t->d[i].mask != 0 && t->d[i].mask != 3) || t->d[i].constraint) return 0;
    for (int i = 1; i < t->ndigits; i++)
        if (t->d[i].mask == 3) sub_push(c, g, i);
    return 1;
}

/* A general heap block with the single move "n - k for k in LO..HI" (HI a constant or n)
 * is the subtraction set LO..HI (or LO.. when HI is n: amounts above n are never moves). */
static int rules_are_subtraction(gr_ctx *c, gr_game *g, char *why, size_t cap) {
    const gr_rules *r = g->rules;
    if (r->nmoves != 1 || r->nterms || r->where) return 0;
    const gr_rmove *mv = &r->moves[0];
    int a, b, slot;
    if (mv->nbinds != 1 || mv->guard || mv->is_sum || mv->nparts != 1) return 0;
    int heap_slot = r->nparams, k_slot = mv->binds[0].slot;
    if (!gr_code_is_slot_minus_slot(mv->parts[0].coords[0], &a, &b) || a != heap_slot || b != k_slot) return 0;
    const gr_code *lo = mv->binds[0].lo, *hi = mv->binds[0].hi;
    /* Bounds may read parameters (slots below the heap's) and, for hi, the heap itself. */
    if (gr_code_max_slot(lo) >= heap_slot) return 0;
    int64_t frame[64] = { 0 };
    memcpy(frame, g->params, (size_t)g->nparams * sizeof *frame);
    int64_t lov = gr_eval(c, lo, frame, NULL);
    if (lov < 1) return 0;
    if (gr_code_is_slot(hi, &slot) && slot == heap_slot) {
        g->sub_open_from = lov;
        snprintf(why, cap, "the move 'n - k for k in %lld..n' is the subtraction set {%lld..}", (long long)lov, (long long)lov);
        return 1;
    }
    if (gr_code_max_slot(hi) >= heap_slot) return 0;
    int64_t hiv = gr_eval(c, hi, frame, NULL);
    if (hiv >= lov && hiv - lov >= MAX_EXPLICIT_SUBTRACTION) return 0;
    for (int64_t v = lov; v <= hiv; v++) sub_push(c, g, v);
    snprintf(why, cap, "the move 'n - k for k in %lld..%lld' is a finite subtraction set", (long long)lov, (long long)hiv);
    return 1;
}

static void choose_subtraction_kernel(gr_game *g, const char *origin) {
    char set[256];
    sub_normalise(g);
    format_set(g, set, sizeof set);
    g->evaluator = EVAL_HEAP;
    if (g->sub_open_from == 1) {
        g->kernel = KER_NIM;
        snprintf(g->explain, sizeof g->explain, "heap recurrence, nim kernel: %s; subtracting any positive amount gives sg(n) = n", origin);
    } else if (g->sub_open_from || g->sub_gen) {
        g->kernel = KER_SUBTRACT_INF;
        snprintf(g->explain, sizeof g->explain, "heap recurrence, infinite subtraction kernel: %s, S = %s%s; "
                 "a mex over a bitset per heap, the open tail kept as a running set of earlier values",
                 origin, g->sub_gen ? "a generated increasing set" : set, "");
    } else {
        g->kernel = KER_SUBTRACT;
        snprintf(g->explain, sizeof g->explain, "heap recurrence, subtraction kernel: %s, S = %s; about |S| = %zu word operations per heap",
                 origin, set, g->nsub);
    }
}

void gr_lower(gr_ctx *c, gr_game *g) {
    gr_gdecl *d = g->decl;
    char why[256], code[128];
    switch (d->kind) {
    case GD_SUBTRACT:
        choose_subtraction_kernel(g, "declared 'subtract'");
        break;
    case GD_OCTAL:
        g->shape = SHAPE_HEAP;
        g->arity = 1;
        g->evaluator = EVAL_HEAP;
        gr_tbcode_format(&g->tb, code, sizeof code);
        if (octal_is_subtraction(c, g)) {
            snprintf(why, sizeof why, "take-and-break %s has only digits 0 and 3, so it is a subtraction game", code);
            choose_subtraction_kernel(g, why);
            break;
        }
        int constrained = 0;
        for (int i = 0; i < g->tb.ndigits; i++) constrained |= g->tb.d[i].constraint != 0;
        if (g->tb.max_heaps <= 2 && !constrained && !g->tb.period) {
            g->kernel = KER_OCTAL;
            snprintf(g->explain, sizeof g->explain, "heap recurrence, octal kernel: take-and-break %s, at most two heaps after a move; "
                     "splits scanned with the values at the narrowest width", code);
        } else {
            g->kernel = KER_TB;
            snprintf(g->explain, sizeof g->explain, "heap recurrence, general take-and-break kernel: %s%s%s%s", code,
                     g->tb.max_heaps > 2 ? "; moves may leave more than two heaps" : "",
                     constrained ? "; heap sizes constrained (! ? =)" : "",
                     g->tb.period ? "; repeating digits" : "");
        }
        break;
    case GD_BLOCK:
        g->arity = g->rules->arity;
        {
            int heap = 0;
            for (gr_item *it = d->items; it; it = it->next) heap |= it->kind == IT_HEAP;
            g->shape = heap ? SHAPE_HEAP : SHAPE_TUPLE;
        }
        if (g->shape == SHAPE_HEAP) {
            if (rules_are_subtraction(c, g, why, sizeof why)) {
                choose_subtraction_kernel(g, why);
                break;
            }
            g->evaluator = EVAL_HEAP;
            g->kernel = KER_RULES;
            snprintf(g->explain, sizeof g->explain, "heap recurrence, general rules interpreted (%d move line%s compiled to slot code)%s",
                     g->rules->nmoves, g->rules->nmoves == 1 ? "" : "s",
                     g->rules->nterms ? "; terminal conditions make it a position-graph game" : "");
            if (g->rules->nterms || g->rules->where) {
                g->evaluator = EVAL_GRAPH;
                snprintf(g->explain, sizeof g->explain, "position graph: heap rules with %s",
                         g->rules->nterms ? "'terminal' conditions" : "a 'where' restriction");
            }
        } else {
            g->evaluator = EVAL_TABLE;
            g->kernel = KER_TUPLE;
            snprintf(g->explain, sizeof g->explain, "table recurrence over %d-tuples: values filled in the order moves lead, "
                     "memoised; a move that leads back to a position under evaluation sends the query to the position graph",
                     g->arity);
            if (g->rules->nterms) {
                int fixed = 0;
                for (int i = 0; i < g->rules->nterms; i++) fixed |= g->rules->terms[i].kind != TERM_LEAF;
                if (fixed) {
                    g->evaluator = EVAL_GRAPH;
                    snprintf(g->explain, sizeof g->explain, "position graph: terminal positions with a fixed outcome ('wins'/'loses') have no SG value");
                }
            }
        }
        break;
    case GD_GRAPH:
        g->shape = SHAPE_GRAPH;
        g->arity = 1;
        g->evaluator = EVAL_GRAPH;
        g->kernel = KER_GRAPH;
        snprintf(g->explain, sizeof g->explain, "position graph: an explicit graph of %d vertices; outcomes by retrograde analysis, draws where play never ends",
                 g->nvertices);
        break;
    }
    if (g->play == CONV_MISERE) {
        size_t len = strlen(g->explain);
        snprintf(g->explain + len, sizeof g->explain - len, "; played misere alone: outcomes from the position graph");
    }
}
