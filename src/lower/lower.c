/* lower: kernel choice and the IR of each rule set; see lower.h. */
#include "lower.h"
#include "ir.h"
#include "lineshape.h"
#include "grow.h"
#include "figure.h"
#include "board.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_EXPLICIT_SUBTRACTION = 1 << 22 };  /* elements of a finite subtraction set */

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
    for (int64_t v = lo;; v++) {   /* stops at hi before v++ could pass INT64_MAX */
        gr_sub_push(c, g, v);
        if (v == hi) break;
    }
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
        if (t->d[i].mask == 3) gr_sub_push(c, g, i);
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
    for (int64_t v = lov; v <= hiv; v++) gr_sub_push(c, g, v);
    snprintf(why, cap, "the move 'n - k for k in %lld..%lld' is a finite subtraction set", (long long)lov, (long long)hiv);
    return 1;
}

/* ---- take-and-break codes written as rules ----
 * Each move must be one of (n the heap, K a constant, k and a bound variables):
 *   n - K                                   place K: leave one heap or none
 *   n - k for k in LO..HI  (HI constant or n)  places LO..HI (or LO and every place after)
 *   {a, n - K - a} for a in 1..HI           place K: two nonempty heaps; HI = (n - K)/2 or
 *                                           n - K - 1 allows any pair, (n - K - 1)/2 unequal ones
 *   {a, n - k - a} for k in LO..HI, a in 1..HI'   the same over places LO..HI
 * Anything else (a guard, a terminal, another shape) keeps the general interpreter. */
enum { TB_MAX_PLACE = 4096 };
typedef struct tb_build {
    uint8_t bits[TB_MAX_PLACE];      /* 1|2: leave none or one heap; 4: two, any; 8: two, unequal */
    int64_t max_place;
    int64_t tail_take, tail_split;   /* every place from here on (-1: none) */
} tb_build;

static int aff_is(const gr_affine *f, int64_t cn, int n_slot, int64_t ck, int k_slot, int64_t ca, int a_slot,
                  int64_t konst, int64_t div) {
    for (int i = 0; i < GR_AFFINE_SLOTS; i++) {
        int64_t want = (i == n_slot ? cn : 0) + (i == k_slot ? ck : 0) + (i == a_slot ? ca : 0);
        if (f->coef[i] != want) return 0;
    }
    return f->k == konst && f->div == div;
}

static int aff_const(const gr_affine *f, int64_t *v) {
    for (int i = 0; i < GR_AFFINE_SLOTS; i++) if (f->coef[i]) return 0;
    if (f->div != 1) return 0;
    *v = f->k;
    return 1;
}

static int mark_places(tb_build *b, int64_t lo, int64_t hi, uint8_t bits) {
    if (lo < 0 || hi >= TB_MAX_PLACE) return 0;
    for (int64_t p = lo; p <= hi; p++) b->bits[p] |= bits;
    if (hi > b->max_place) b->max_place = hi;
    return 1;
}

/* The split bound a <= HI for place offset K (k_slot >= 0: K is that variable): 4 any, 8 unequal. */
static uint8_t split_kind(const gr_affine *hi, int n_slot, int k_slot, int64_t K) {
    int64_t ck = k_slot >= 0 ? -1 : 0;
    int64_t base = k_slot >= 0 ? 0 : -K;
    if (aff_is(hi, 1, n_slot, ck, k_slot, 0, -1, base, 2)) return 4;
    if (aff_is(hi, 1, n_slot, ck, k_slot, 0, -1, base - 1, 1)) return 4;
    if (aff_is(hi, 1, n_slot, ck, k_slot, 0, -1, base - 1, 2)) return 8;
    return 0;
}

static int recognise_move(const gr_game *g, const gr_rmove *mv, tb_build *b) {
    const gr_rules *r = g->rules;
    int n = r->nparams;
    gr_affine f[2], lo, hi;
    int64_t v = 0, K = 0;
    if (mv->guard || mv->nbinds > 2) return 0;
    for (int i = 0; i < mv->nbinds; i++)
        if (mv->binds[i].slot >= GR_AFFINE_SLOTS) return 0;
    for (int i = 0; i < mv->nparts && i < 2; i++)
        if (!gr_code_affine(mv->parts[i].coords[0], g->params, r->nparams, &f[i])) return 0;
    if (mv->nparts == 1 && !mv->is_sum) {
        if (mv->nbinds == 0) {
            if (!aff_is(&f[0], 1, n, 0, -1, 0, -1, f[0].k, 1) || f[0].k >= 0 || f[0].k == INT64_MIN) return 0;
            return mark_places(b, -f[0].k, -f[0].k, 3);
        }
        if (mv->nbinds != 1) return 0;
        int k = mv->binds[0].slot;
        if (!aff_is(&f[0], 1, n, -1, k, 0, -1, 0, 1)) return 0;
        if (!gr_code_affine(mv->binds[0].lo, g->params, r->nparams, &lo) || !aff_const(&lo, &v) || v < 1) return 0;
        if (!gr_code_affine(mv->binds[0].hi, g->params, r->nparams, &hi)) return 0;
        if (aff_is(&hi, 1, n, 0, -1, 0, -1, 0, 1)) {          /* k in LO..n: every place from LO */
            if (v >= TB_MAX_PLACE) return 0;   /* a code's digits stop at TB_MAX_PLACE: general rules */
            if (b->tail_take < 0 || v < b->tail_take) b->tail_take = v;
            return 1;
        }
        if (!aff_const(&hi, &K)) return 0;
        return K < v || mark_places(b, v, K, 3);
    }
    if (mv->nparts != 2 || !mv->is_sum || mv->nbinds == 0) return 0;   /* a split needs its variable a */
    int a = mv->binds[mv->nbinds - 1].slot, k = mv->nbinds == 2 ? mv->binds[0].slot : -1;
    /* One part is a; the other is n - K - a (or n - k - a). */
    int which = aff_is(&f[0], 0, -1, 0, -1, 1, a, 0, 1) ? 1 : aff_is(&f[1], 0, -1, 0, -1, 1, a, 0, 1) ? 0 : -1;
    if (which < 0) return 0;
    const gr_affine *other = &f[which];
    if (k < 0) {
        if (!aff_is(other, 1, n, 0, -1, -1, a, other->k, 1) || other->k > 0 || other->k < -TB_MAX_PLACE) return 0;
        K = -other->k;
    } else if (!aff_is(other, 1, n, -1, k, -1, a, 0, 1)) {
        return 0;
    }
    const gr_rbinding *ab = &mv->binds[mv->nbinds - 1];
    if (!gr_code_affine(ab->lo, g->params, r->nparams, &lo) || !aff_const(&lo, &v) || v != 1) return 0;
    if (!gr_code_affine(ab->hi, g->params, r->nparams, &hi)) return 0;
    uint8_t kind = split_kind(&hi, n, k, k < 0 ? K : 0);
    if (!kind) return 0;
    if (k < 0) return mark_places(b, K, K, kind);
    int64_t klo;
    if (!gr_code_affine(mv->binds[0].lo, g->params, r->nparams, &lo) || !aff_const(&lo, &klo) || klo < 0) return 0;
    if (!gr_code_affine(mv->binds[0].hi, g->params, r->nparams, &hi)) return 0;
    if (aff_is(&hi, 1, n, 0, -1, 0, -1, 0, 1) && kind == 4) {
        if (klo >= TB_MAX_PLACE) return 0;
        if (b->tail_split < 0 || klo < b->tail_split) b->tail_split = klo;
        return 1;
    }
    int64_t khi;
    if (!aff_const(&hi, &khi)) return 0;
    return khi < klo || mark_places(b, klo, khi, kind);
}

static int rules_are_take_and_break(gr_ctx *c, gr_game *g) {
    const gr_rules *r = g->rules;
    if (r->nterms || r->where || r->nmoves == 0 || r->nparams + 1 > GR_AFFINE_SLOTS) return 0;
    tb_build *b = gr_alloc(c, sizeof *b);
    b->max_place = -1;
    b->tail_take = b->tail_split = -1;
    int ok = 1;
    for (int m = 0; m < r->nmoves && ok; m++) ok = recognise_move(g, &r->moves[m], b);
    if (ok && (b->bits[0] & 3)) ok = 0;   /* removing nothing and leaving the heap: not a move down */
    if (ok) {
        int64_t tail = b->tail_take > b->tail_split ? b->tail_take : b->tail_split;
        int periodic = b->tail_take >= 0 || b->tail_split >= 0;
        int64_t T = periodic ? (tail > b->max_place + 1 ? tail : b->max_place + 1) : b->max_place;
        if (T < 0) T = 0;
        gr_tbdigit *d = GR_NEWN(c, gr_tbdigit, T + 2);
        for (int64_t p = 0; p <= T; p++) {
            uint8_t bits = p < TB_MAX_PLACE ? b->bits[p] : 0;
            uint32_t mask = bits & 3u;
            if (b->tail_take >= 0 && p >= b->tail_take) mask |= 3u;
            if ((bits & 4u) || (b->tail_split >= 0 && p >= b->tail_split)) mask |= 4u;
            else if (bits & 8u) { mask |= 4u; d[p].constraint = TB_UNEQUAL; }
            d[p].mask = mask;
        }
        g->tb.d = d;
        g->tb.ndigits = (int)T + 1;
        g->tb.period = periodic ? 1 : 0;
        g->tb.max_heaps = 0;
        g->tb.last_place = -1;
        for (int64_t p = 0; p <= T; p++) {
            if (d[p].mask) g->tb.last_place = (int)p;
            if (d[p].mask & 4u) g->tb.max_heaps = 2;
            else if ((d[p].mask & 3u) && g->tb.max_heaps < 1) g->tb.max_heaps = 1;
        }
        if (periodic) g->tb.last_place = INT32_MAX;
    }
    gr_free(c, b);
    return ok;
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

/* Kernel choice for a take-and-break code (declared, or recognised in rules). */
static void lower_tbcode(gr_ctx *c, gr_game *g, const char *origin) {
    char code[128], why[384];
    g->evaluator = EVAL_HEAP;
    gr_tbcode_format(&g->tb, code, sizeof code);
    if (octal_is_subtraction(c, g)) {
        snprintf(why, sizeof why, "%stake-and-break %s has only digits 0 and 3, so it is a subtraction game", origin, code);
        choose_subtraction_kernel(g, why);
        return;
    }
    int constrained = 0;
    for (int i = 0; i < g->tb.ndigits; i++) constrained |= g->tb.d[i].constraint != 0;
    if (g->tb.max_heaps <= 2 && !g->tb.period) {
        g->kernel = KER_OCTAL;
        snprintf(g->explain, sizeof g->explain, "heap recurrence, octal kernel: %stake-and-break %s, at most two heaps after a move%s; "
                 "splits scanned with the values at the narrowest width", origin, code,
                 constrained ? " (pairs constrained: ! and ? unequal, = equal)" : "");
    } else {
        g->kernel = KER_TB;
        snprintf(g->explain, sizeof g->explain, "heap recurrence, general take-and-break kernel: %stake-and-break %s%s%s%s", origin, code,
                 g->tb.max_heaps > 2 ? "; moves may leave more than two heaps" : "",
                 constrained ? "; heap sizes constrained (! ? =)" : "",
                 g->tb.period ? "; repeating digits" : "");
    }
}

/* The form of a game lowered whole to one evaluator: its positions, and who values them. */
static void set_form(gr_game *g, gr_shape shape, int arity, gr_evaluator evaluator, gr_kernel kernel) {
    g->shape = shape;
    g->arity = arity;
    g->evaluator = evaluator;
    g->kernel = kernel;
}

void gr_lower(gr_ctx *c, gr_game *g) {
    gr_gdecl *d = g->decl;
    char why[256];
    switch (d->kind) {
    case GD_SUBTRACT:
        choose_subtraction_kernel(g, "declared 'subtract'");
        break;
    case GD_OCTAL:
        g->shape = SHAPE_HEAP;
        g->arity = 1;
        lower_tbcode(c, g, "");
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
            if (rules_are_take_and_break(c, g)) {
                snprintf(why, sizeof why, "rules recognised move by move as ");
                lower_tbcode(c, g, why);
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
            if ((g->state->grow_move = gr_rules_growing_move(g)) != NULL) {
                char mv[160];
                gr_grow_move_text(c, g, mv, sizeof mv);
                g->evaluator = EVAL_GRAPH;
                snprintf(g->explain, sizeof g->explain, "position graph: heaps can grow, since %s leads to larger "
                         "heaps, so this is no heap recurrence; its reachable positions may have no bound, and the "
                         "graph stops at the limits (at most %d positions unless --max-positions is given)",
                         mv, GR_GROW_MAX_POSITIONS);
            }
        } else if (gr_lines_recognise(g, why, sizeof why)) {
            g->evaluator = EVAL_TABLE;
            g->kernel = KER_LINES;
            snprintf(g->explain, sizeof g->explain, "table recurrence, per-line bitset kernel: %s; a table from (0, 0) keeps "
                     "one bitset of values per line, sg = mex of their OR; single positions by the memoised recurrence", why);
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
        set_form(g, SHAPE_GRAPH, 1, EVAL_GRAPH, KER_GRAPH);
        snprintf(g->explain, sizeof g->explain, "position graph: an explicit graph of %d vertices; outcomes by retrograde analysis, draws where play never ends",
                 g->nvertices);
        break;
    case GD_HACKENBUSH:
        set_form(g, SHAPE_FIGURE, GR_HB_WORDS, EVAL_FIGURE, KER_HACKENBUSH);
        snprintf(g->explain, sizeof g->explain, "Green Hackenbush figure of %d edges: cycles fused (fusion principle), the tree of "
                 "bridges valued by the colon principle, in time linear in the edges", g->figure->ne);
        break;
    case GD_BOARDRULE:
        set_form(g, SHAPE_BOARD, GR_BPOS_MASK + GR_BOARD_WORDS, EVAL_BOARD, KER_BOARD);
        snprintf(g->explain, sizeof g->explain, "games on boards (%s%s, within %d): a position is the sum of its connected "
                 "components, each valued once under its canonical form (%s), SG values by mex over the options",
                 g->board_rule->edge ? "an edge" : "a vertex", g->board_rule->deg_ok ? " of the degrees 'where' allows" : "",
                 g->board_rule->radius, gr_board_canon_name());
        break;
    case GD_BOARD: case GD_ALIAS: break;
    case GD_TURNING:
        set_form(g, SHAPE_COINS, GR_COIN_WORDS, EVAL_COINS, KER_TURNING);
        snprintf(g->explain, sizeof g->explain, "coin turning (%d flip line%s): single-head values by the recurrence over flip sets, "
                 "a position the xor of its heads (coin-turning theorem)", g->turning->rules->nmoves, g->turning->rules->nmoves == 1 ? "" : "s");
        break;
    }
    if (g->play == CONV_MISERE) {
        size_t len = strlen(g->explain);
        snprintf(g->explain + len, sizeof g->explain - len, "; played misere alone: outcomes from the position graph");
    }
}
