/* formula: formula checks over positions; see formula.h. */
#include "formula.h"
#include <string.h>
#include "checktext.h"
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"
#include "ir.h"
#include "progress.h"
#include "sums.h"
#include "worker.h"

/* ---- check G: FORMULA for x in lo..hi, ... ---------------------------------------------------- */

typedef struct formula_state {
    gr_ctx *c;
    gr_game *g;
    gr_sumgraph *graph;        /* the ground truth, made on first need */
    gr_module module;          /* for the sum graph: the games from g on */
} formula_state;

/* The box the bound variables span, when there is one variable per coordinate with constant
 * bounds (the usual 'for x in 0..N, y in 0..M'); 0 otherwise. */
static int binding_box(const gr_rquery *q, int arity, int64_t *lo, int64_t *hi) {
    const gr_rbinding *b = q->binds + q->nfam;     /* a family's parameters come first */
    if (q->nbinds - q->nfam != arity) return 0;
    for (int i = 0; i < arity; i++) {
        if (!b[i].lo->is_const || !b[i].hi->is_const) return 0;
        lo[i] = b[i].lo->value;
        hi[i] = b[i].hi->value;
        if (lo[i] > hi[i]) return 0;
    }
    return 1;
}

/* Makes the values the check will read ready with the fastest evaluator for the range, before
 * the pass over the claim: the line kernel for line-move rule sets (only their P-positions when
 * the claim asks no sg), the dense box for other tuple rule sets (heap games fill their table as
 * the hooks ask, in order). */
static void prefill(formula_state *st, const gr_rquery *q) {
    gr_game *g = st->g;
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY];
    const gr_ready_cap *ready = gr_cap_ready(g);
    if (g->play != CONV_NORMAL || g->shape != SHAPE_TUPLE || !ready || !ready->ensure_ahead) return;
    if (!binding_box(q, g->arity, lo, hi)) return;
    gr_eval_ensure(st->c, g, lo, hi, gr_code_hooks(q->formula) & (1u << GR_HOOK_SG) ? GR_KIND_SG : GR_KIND_OUTCOME);
}

static const char *hook_name(int hook) { return hook == GR_HOOK_P ? "P" : hook == GR_HOOK_N ? "N" : "sg"; }

/* The hook's answer from a recurrence (normal play only; P and N from an outcome the evaluator
 * has ready, else from the SG value): 1 and *out, or 0 if there is none. */
static int recurrence_hook(formula_state *st, int hook, const int64_t *pos, gr_loc loc, int64_t *out) {
    gr_game *g = st->g;
    gr_value v;
    int64_t o;
    if (hook != GR_HOOK_SG && gr_cap_ready(g) && !st->c->no_theory &&
        (gr_eval_answers(g, g->play, NULL, 0) & GR_KIND_OUTCOME)) {
        /* A recurrence that answers outcomes under the game's own play (a tuple rule set: P
         * and N from the outcomes of the box a table or a solve of the same positions reads too, under the game's own play, cycles included (the box
         * solves them as the position graph would, position by position here; under
         * --no-theory, as before, misere play and cycles go to the graph)). */
        if (g->play == CONV_NORMAL && gr_eval_ready(g, pos, GR_KIND_OUTCOME, &o)) {
            *out = hook == GR_HOOK_P ? o == GR_LOSS : o == GR_WIN;
            return 1;
        }
        if (!gr_eval_value(st->c, g, g->play, pos, GR_KIND_OUTCOME, loc, &v)) return 0;
        *out = hook == GR_HOOK_P ? v.outcome == GR_LOSS : v.outcome == GR_WIN;
        return 1;
    }
    if (g->play != CONV_NORMAL || !gr_cap_ready(g)) return 0;
    if (hook != GR_HOOK_SG && gr_eval_ready(g, pos, GR_KIND_OUTCOME, &o)) {
        *out = hook == GR_HOOK_P ? o == GR_LOSS : o == GR_WIN;
        return 1;
    }
    if (!gr_eval_value(st->c, g, CONV_NORMAL, pos, GR_KIND_SG, loc, &v)) return 0;
    *out = hook == GR_HOOK_SG ? v.sg : hook == GR_HOOK_P ? v.sg == 0 : v.sg != 0;
    return 1;
}

/* The position graph under the game's own convention: outcome, and sg where defined. */
static uint32_t graph_position(formula_state *st, const int64_t *pos) {
    gr_comp comp;
    memset(&comp, 0, sizeof comp);
    comp.game = st->g;
    memcpy(comp.c, pos, (size_t)st->g->arity * sizeof *pos);
    if (!st->graph) {
        st->module.games = st->g;
        st->graph = gr_sumgraph_new(st->c, &st->module, st->g->play);
    }
    uint32_t id = gr_sumgraph_id(st->graph, &comp, 1);
    if (id != UINT32_MAX) return id;    /* reached from an earlier start: already solved */
    gr_sumgraph_add(st->graph, &comp, 1);
    gr_sumgraph_solve(st->graph);
    return gr_sumgraph_id(st->graph, &comp, 1);
}

static void format_args(char *buf, size_t cap, const int64_t *args, int nargs) {
    size_t pos = 0;
    buf[0] = '\0';
    for (int i = 0; i < nargs; i++) gr_check_appendf(buf, cap, &pos, "%s%lld", i ? ", " : "", (long long)args[i]);
}

static const char *fmt_args(char *buf, size_t cap, const int64_t *args, int nargs) {
    format_args(buf, cap, args, nargs);
    return buf;
}

static int64_t hook_call(void *user, int hook, const int64_t *args, int nargs, gr_loc loc) {
    formula_state *st = user;
    gr_ctx *c = st->c;
    gr_game *g = st->g;
    char at[256];   /* the arguments as text, written only for a message */
    if (g->shape == SHAPE_HEAP && args[0] < 0)
        gr_fail_at(c, loc, GR_EXIT_INPUT, "%s(%s): a heap cannot be negative", hook_name(hook), fmt_args(at, sizeof at, args, nargs));
    if (g->rules && g->rules->where && !gr_rules_valid(c, g, args))
        gr_fail_at(c, loc, GR_EXIT_INPUT, "%s(%s): (%s) is not a position of '%s' (outside its 'where')",
                   hook_name(hook), fmt_args(at, sizeof at, args, nargs), at, g->name);
    /* A table filled on the way names its heaps in run-time errors (gr_eval_at); the formula's
     * own errors after this call name the assignment again, whether or not a fill was needed. */
    int at_n = c->eval_n;
    int64_t at_pos[16];
    memcpy(at_pos, c->eval_pos, sizeof at_pos);
    int64_t v;
    int known = recurrence_hook(st, hook, args, loc, &v);
    gr_eval_at(c, at_pos, at_n);
    if (known) return v;
    uint32_t id = graph_position(st, args);
    gr_pg *pg = gr_sumgraph_pg(st->graph);
    if (hook == GR_HOOK_SG) {
        int64_t sg = g->play == CONV_NORMAL ? gr_pg_sg(pg, id) : -1;
        if (sg < 0)
            gr_fail_at(c, loc, GR_EXIT_INPUT, "sg(%s) is undefined: %s", fmt_args(at, sizeof at, args, nargs),
                       g->play != CONV_NORMAL ? "Sprague-Grundy values are for normal play"
                                              : "the position can reach a cycle or a fixed outcome");
        return sg;
    }
    gr_outcome o = gr_pg_outcome(pg, id);
    return hook == GR_HOOK_P ? o == GR_LOSS : o == GR_WIN;
}

/* The source span of an expression: a binary node's own location is its operator, so the span
 * runs from its leftmost to its rightmost leaf. (Recursion over the expression's nesting, which
 * the parser bounded; never over heap sizes.) */
static void expr_span(const gr_expr *e, uint32_t *lo, uint32_t *hi) {
    if (e->loc.off < *lo) *lo = e->loc.off;
    if (e->loc.off + e->loc.len > *hi) *hi = e->loc.off + e->loc.len;
    if (e->a) expr_span(e->a, lo, hi);
    if (e->b) expr_span(e->b, lo, hi);
    for (int i = 0; i < e->nargs; i++) expr_span(e->args[i], lo, hi);
}

/* The formula as written, whitespace folded, for messages. Parentheses around its first or last
 * operand are outside the leaves' span; they are taken back in until the text balances. */
static void formula_text(const gr_ctx *c, const gr_expr *e, char *buf, size_t cap) {
    uint32_t lo = UINT32_MAX, hi = 0;
    expr_span(e, &lo, &hi);
    if (hi > c->src_len) hi = (uint32_t)c->src_len;
    if (lo > hi) lo = hi;
    int depth = 0;
    for (uint32_t i = lo; i < hi; i++) depth += (c->src[i] == '(') - (c->src[i] == ')');
    while (depth < 0 && lo > 0) depth += c->src[--lo] == '(';
    while (depth > 0 && hi < c->src_len) depth -= c->src[hi++] == ')';
    size_t k = 0;
    int space = 0;
    for (uint32_t i = lo; i < hi && k + 4 < cap; i++) {
        char ch = c->src[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') { space = k > 0; continue; }
        if (space) buf[k++] = ' ';
        space = 0;
        buf[k++] = ch;
    }
    if (k + 4 >= cap) { memcpy(buf + k, "...", 3); k += 3; }
    buf[k] = '\0';
}

static int is_two_sided(const gr_expr *e) {
    if (e->kind != EX_BINARY) return 0;
    switch (e->op) {
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_IFF: return 1;
    default: return 0;
    }
}

/* Writes the failing assignment (and both sides of a comparison) as JSON and as text. */
static void formula_refuted(gr_ctx *c, gr_rquery *q, const int64_t *frame, const gr_hooks *hooks, gr_check_result *out) {
    char *js = out->counterexample_json, *tx = out->counterexample_text, formula[400];
    size_t cj = sizeof out->counterexample_json, ct = sizeof out->counterexample_text, pj = 0, pt = 0;
    gr_check_appendf(js, cj, &pj, "{");
    if (q->nbinds) gr_check_appendf(tx, ct, &pt, "at ");
    for (int i = 0; i < q->nbinds; i++) {
        long long v = (long long)frame[q->binds[i].slot];
        gr_check_appendf(js, cj, &pj, "%s\"%s\":%lld", i ? "," : "", q->binds[i].name, v);
        gr_check_appendf(tx, ct, &pt, "%s%s = %lld", i ? ", " : "", q->binds[i].name, v);
    }
    if (q->nbinds) gr_check_appendf(tx, ct, &pt, ": ");
    formula_text(c, q->q->formula, formula, sizeof formula);
    gr_check_appendf(tx, ct, &pt, "%s is false", formula);
    const gr_expr *f = q->q->formula;
    if (is_two_sided(f)) {
        int64_t l = gr_eval(c, gr_expr_compile(c, f->a, &q->scope, q->game->arity), frame, hooks);
        int64_t r = gr_eval(c, gr_expr_compile(c, f->b, &q->scope, q->game->arity), frame, hooks);
        if (f->op == OP_IFF) { l = l != 0; r = r != 0; }
        gr_check_appendf(js, cj, &pj, "%s\"lhs\":%lld,\"rhs\":%lld", q->nbinds ? "," : "", (long long)l, (long long)r);
        gr_check_appendf(tx, ct, &pt, " (left %lld, right %lld)", (long long)l, (long long)r);
    }
    gr_check_appendf(js, cj, &pj, "}");
    out->has_counterexample = 1;
    out->status = GR_CHECK_REFUTED;
}

/* Enters binding k: its variable takes lo (bounds read the variables before it); 0 if empty. */
static int enter_binding(gr_ctx *c, const gr_rquery *q, int64_t *frame, int64_t *hi, int k) {
    const gr_rbinding *b = &q->binds[k];
    int64_t lo = gr_eval(c, b->lo, frame, NULL);
    hi[k] = gr_eval(c, b->hi, frame, NULL);
    frame[b->slot] = lo;
    return lo <= hi[k];
}

/* How many cases a formula check tests, for the progress bar: the product of the ranges when
 * no range depends on an earlier variable (each evaluated at both ends of the ranges before
 * it gives the same answer); 0 (unknown: a counter with a rate) otherwise. */
static uint64_t formula_total(gr_ctx *c, const gr_rquery *q, int64_t *frame) {
    /* computed with or without a bar: a limit's message names it too ("N of TOTAL done") */
    uint64_t total = 1;
    for (int k = 0; k < q->nbinds; k++) {
        const gr_rbinding *b = &q->binds[k];
        int64_t lo = gr_eval(c, b->lo, frame, NULL), hi = gr_eval(c, b->hi, frame, NULL);
        for (int i = 0; i < k; i++) {          /* the earlier variables at their far ends */
            int64_t keep = frame[q->binds[i].slot];
            frame[q->binds[i].slot] = gr_eval(c, q->binds[i].hi, frame, NULL);
            int same = gr_eval(c, b->lo, frame, NULL) == lo && gr_eval(c, b->hi, frame, NULL) == hi;
            frame[q->binds[i].slot] = keep;
            if (!same) return 0;
        }
        frame[b->slot] = lo;
        if (hi < lo) return 0;
        uint64_t n = (uint64_t)hi - (uint64_t)lo + 1;   /* 0..2^63 - 1 has 2^63 values: exact in 64 bits */
        if (n == 0 || __builtin_mul_overflow(total, n, &total)) return 0;   /* past 2^64: unknown */
    }
    return total;
}

/* ---- long ranges across threads ------------------------------------------------------------
 * The innermost binding's range, when it is long and the game is a heap recurrence, is tested
 * in blocks by a team (worker.h): each member evaluates the formula for its items with values
 * read from the table or the proved period only. An item that needs a value not computed yet
 * is left to the caller, which goes through the block in order, as the serial pass does: it
 * evaluates those itself (filling the table as the hooks ask), counts, reports the first false
 * item in order with the same text, and raises the first failure in order with the same text.
 * So the answer and every message are the same for every thread count. Before a block the
 * table is extended by as much as it grew over the last block (the claim reads ahead of its
 * variable at a steady rate): by the kernels that cannot fail at run time, and for general rules
 * (whose filling can) tentatively, stopping before any heap that would fail (the heap table's prefetch). */
enum { PAR_MIN = 8192, PAR_FIRST = 1024, PAR_BLOCK = 32768, R_NEED = 2 };

typedef struct par_member { gr_ctx *wc; const gr_game *g; } par_member;
typedef struct par_job {
    const gr_rquery *q;
    int slot, stride;       /* a member's frame: stride slots, no cache line shared with another's */
    int64_t x0;
    int64_t *frames;        /* a frame per member */
    par_member *pm;
} par_job;

/* hook_call for a member: the same checks and texts, values only where they are ready */
static int64_t par_hook(void *user, int hook, const int64_t *args, int nargs, gr_loc loc) {
    par_member *pm = user;
    char at[256];
    if (args[0] < 0)
        gr_fail_at(pm->wc, loc, GR_EXIT_INPUT, "%s(%s): a heap cannot be negative", hook_name(hook), fmt_args(at, sizeof at, args, nargs));
    int64_t v;
    if (!gr_eval_ready(pm->g, args, GR_KIND_SG, &v)) gr_team_leave(pm->wc, R_NEED);
    return hook == GR_HOOK_SG ? v : hook == GR_HOOK_P ? v == 0 : v != 0;
}

static int par_item(void *user, gr_ctx *wc, int member, int64_t i) {
    par_job *J = user;
    par_member *pm = &J->pm[member];
    int64_t *frame = J->frames + (size_t)member * (size_t)J->stride, at[16];
    int n = J->q->nbinds;
    frame[J->slot] = J->x0 + i;
    for (int k = 0; k < n; k++) at[k] = frame[J->q->binds[k].slot];
    gr_eval_at(wc, at, n);
    if (pm->wc != wc) pm->wc = wc;     /* written once: members' records share cache lines */
    gr_hooks hooks = { .call = par_hook, .user = pm, .arity = 1 };
    return gr_eval(wc, J->q->formula, frame, &hooks) != 0;
}

/* What a parallel range holds: tracked memory of the caller's context (the members only read
 * and write it), released on every way out. */
typedef struct par_run { gr_team *team; int64_t *frames; par_member *pm; int *res; } par_run;
static void par_release(gr_ctx *c, par_run *R) {
    gr_team_free(R->team);
    gr_free(c, R->frames);
    gr_free(c, R->pm);
    gr_free(c, R->res);
    gr_free(c, R);
}

static int par_eligible(gr_ctx *c, const gr_rquery *q, const formula_state *st, int64_t lo, int64_t hi) {
    const gr_game *g = st->g;
    return c->threads > 1 && lo <= hi && (uint64_t)hi - (uint64_t)lo >= PAR_MIN - 1 && q->nbinds <= 16 &&
           g->play == CONV_NORMAL && g->shape == SHAPE_HEAP && gr_cap_heap_table(g) && !g->state->not_recurrence &&
           !(g->rules && g->rules->where);
}

/* The innermost binding k over lo..hi; frame[its slot] ends at hi. Returns 1 when refuted. */
static int par_range(gr_ctx *c, gr_rquery *q, int k, int64_t *frame, int64_t lo, int64_t hi, const gr_hooks *hooks,
                     gr_progress *pr, int64_t *count, gr_check_result *out) {
    formula_state *st = hooks->user;
    gr_game *g = st->g;
    par_run *const R = gr_alloc(c, sizeof *R);
    gr_guard guard;
    gr_guard_enter(c, &guard);     /* before setjmp: nothing the handler reads changes after it */
    if (setjmp(guard.jb)) {
        par_release(c, R);
        gr_guard_rethrow(c, &guard);
    }
    if (!(R->team = gr_team_new(c))) {
        gr_guard_leave(c, &guard);
        par_release(c, R);
        return -1;
    }
    int members = gr_team_size(R->team), nslots = q->nslots > 0 ? q->nslots : 1, slot = q->binds[k].slot, n = q->nbinds;
    int stride = (nslots + 7) / 8 * 8 + 8;
    R->frames = gr_alloc(c, gr_size_mul(c, (size_t)members * (size_t)stride, sizeof *R->frames));
    R->pm = gr_alloc(c, gr_size_mul(c, (size_t)members, sizeof *R->pm));
    R->res = gr_alloc(c, PAR_BLOCK * sizeof *R->res);
    int refuted = 0;
    const gr_heap_table_cap *table = gr_cap_heap_table(g);    /* par_eligible: there is one */
    int64_t grew = 0, had = table->filled(g), size = PAR_FIRST, last = 0;
    for (int64_t x = lo;;) {
        int64_t B = (uint64_t)hi - (uint64_t)x >= (uint64_t)size - 1 ? size : hi - x + 1;
        int64_t p, pre, s;
        if (grew > 0 && table->filled(g) && !table->period(g, &p, &pre, &s)) {
            /* ahead at the rate of the last block: grew over last items */
            int64_t want = table->filled(g) - 1 + (int64_t)((double)grew * (double)B / (double)last);
            table->prefetch(c, g, want);
        }
        for (int m = 0; m < members; m++) {
            memcpy(R->frames + (size_t)m * (size_t)stride, frame, (size_t)nslots * sizeof *frame);
            R->pm[m].g = g;
        }
        par_job J = { q, slot, stride, x, R->frames, R->pm };
        gr_team_run(R->team, B, par_item, &J, R->res);
        for (int64_t i = 0; i < B && !refuted; i++) {
            frame[slot] = x + i;
            gr_poll(c);
            ++*count;
            int64_t at[16];
            for (int j = 0; j < n; j++) at[j] = frame[q->binds[j].slot];
            gr_eval_at(c, at, n);
            int r = R->res[i];
            if (r < 0) gr_failure_raise(c, gr_team_failure(R->team, -1 - r));
            if (r == R_NEED) r = gr_eval(c, q->formula, frame, hooks) != 0;
            if (!r) { formula_refuted(c, q, frame, hooks, out); refuted = 1; }
            else if ((*count & 4095) == 0) gr_progress_update(pr, (uint64_t)*count);
        }
        if (refuted || x + (B - 1) == hi) break;
        x += B;
        last = B;
        if (size < PAR_BLOCK) size *= 2;    /* small blocks first: the rate is learnt early */
        int64_t now = table->filled(g);
        grew = now - had;
        had = now;
    }
    gr_guard_leave(c, &guard);
    par_release(c, R);
    return refuted;
}

/* The odometer over bindings k0..n-1 (the earlier ones are set in frame): descend entering each
 * binding at its lo; at the bottom test the formula; then advance the deepest binding that has
 * room and descend again. Returns 1 when refuted (out then holds the counterexample). */
static int formula_pass(gr_ctx *c, gr_rquery *q, int k0, int64_t *frame, int64_t *hi, const gr_hooks *hooks,
                        gr_progress *pr, int64_t *count, gr_check_result *out) {
    int n = q->nbinds, k = k0, down = 1;
    for (;;) {
        if (down) {
            if (k == n) {
                gr_poll(c);
                ++*count;
                int64_t at[16];
                for (int i = 0; i < n && i < 16; i++) at[i] = frame[q->binds[i].slot];
                gr_eval_at(c, at, n < 16 ? n : 16);   /* an arithmetic error names the assignment */
                if (!gr_eval(c, q->formula, frame, hooks)) { formula_refuted(c, q, frame, hooks, out); return 1; }
                if ((*count & 4095) == 0) gr_progress_update(pr, (uint64_t)*count);
                down = 0;
                k = n - 1;
            } else if (enter_binding(c, q, frame, hi, k)) {
                int r = k == n - 1 && par_eligible(c, q, hooks->user, frame[q->binds[k].slot], hi[k])
                      ? par_range(c, q, k, frame, frame[q->binds[k].slot], hi[k], hooks, pr, count, out) : -1;
                if (r == 1) return 1;
                if (r == 0) down = 0;     /* the whole range is done: frame[slot] = hi[k] */
                else k++;
            } else {
                down = 0;
                k--;
            }
        } else {
            if (k < k0) return 0;
            int slot = q->binds[k].slot;
            if (frame[slot] < hi[k]) { frame[slot]++; k++; down = 1; }
            else k--;
        }
    }
}

/* One pass per member of a family (the family's variables preset in the frame, the member's own
 * kernel and prefill), or one pass for a single game. */
void gr_check_formula(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    int n = q->nbinds, members = q->nmembers ? q->nmembers : 1;
    int64_t *frame = gr_alloc(c, sizeof(int64_t) * (size_t)(q->nslots > 0 ? q->nslots : 1));
    int64_t *hi = gr_alloc(c, sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    gr_progress pr;
    gr_progress_begin(&pr, c, "check", formula_total(c, q, frame));
    int64_t count = 0;
    int refuted = 0;
    for (int m = 0; m < members && !refuted; m++) {
        if (q->nmembers) {
            q->game = q->members[m];
            for (int i = 0; i < q->nfam; i++) frame[q->binds[i].slot] = q->member_args[(size_t)m * (size_t)q->nfam + (size_t)i];
        }
        formula_state st = { .c = c, .g = q->game };
        gr_hooks hooks = { .call = hook_call, .user = &st, .arity = q->game->arity };
        prefill(&st, q);
        refuted = formula_pass(c, q, q->nfam, frame, hi, &hooks, &pr, &count, out);
        if (st.graph) gr_sumgraph_free(st.graph);
    }
    gr_progress_end(&pr);
    out->checked_to = count;
    if (!refuted && q->nmembers) {
        out->status = GR_CHECK_HOLDS;
        gr_check_textf(out->theorem, sizeof out->theorem, "checked %lld assignment%s over %d members, %s to %s; a formula over "
                 "positions is never proved", (long long)count, count == 1 ? "" : "s", q->nmembers,
                 q->members[0]->name, q->members[q->nmembers - 1]->name);
    } else if (!refuted) {
        out->status = GR_CHECK_HOLDS;
        gr_check_textf(out->theorem, sizeof out->theorem, "checked %lld assignment%s; a formula over positions is never proved",
                 (long long)count, count == 1 ? "" : "s");
    } else {
        gr_check_textf(out->theorem, sizeof out->theorem, "refuted at assignment %lld in iteration order%s%s", (long long)count,
              q->nmembers ? ", in member " : "", q->nmembers ? q->game->name : "");
    }
    if (q->nmembers) q->game = q->members[0];
    gr_free(c, frame);
    gr_free(c, hi);
}

