/* convkernel: leaf-deleted values and step numbers of heap rule sets that never split; see
 * convkernel.h. Also the evaluator that answers them (evaluator.h) under 'anyleaf' and 'every'. */
#include "eval/heap/convkernel.h"
#include "eval/cache.h"
#include "eval/evaluator.h"
#include "progress.h"
#include <stdlib.h>
#include <string.h>

enum { HC_NONE, HC_NIM, HC_WINDOW, HC_DENSE };
enum { HC_BYTES = 2 * sizeof(int64_t) + 1 };   /* held per heap: leaf, step, outcome */

typedef struct gr_convkernel gr_convkernel;
struct gr_convkernel {
    int kind, declined;
    /* window kernel: heap i has the options i - k (k in amt, k < i) and 0 (i in zero) */
    int64_t *amt; size_t namt;
    int64_t *zero; size_t nzero;
    int64_t w, wa;                  /* the largest amount of either list; of amt */
    int64_t n, cap;                 /* heaps 0..n-1 computed */
    int64_t *leaf, *step; uint8_t *out;
    int64_t lp, le;                 /* L(i + lp) = L(i) for i >= le (0: not proved) */
    int64_t sp, se, sd;             /* s(i + sp) = s(i) + sd and the outcomes repeat, i >= se */
    int64_t next_try;               /* where the next proof is attempted */
    int64_t *opt; size_t nopt, optcap;   /* one heap's options */
    uint8_t *seen; size_t seencap;
};

static int kind_of(const gr_game *g) {
    if (g->shape != SHAPE_HEAP || g->evaluator != EVAL_HEAP || g->state->not_recurrence || g->arity != 1) return HC_NONE;
    for (int k = 0; g->rules && k < g->rules->nterms; k++)
        if (g->rules->terms[k].kind != TERM_LEAF) return HC_NONE;   /* an outcome fixed by a terminal */
    switch (g->kernel) {
    case KER_NIM: return HC_NIM;
    case KER_SUBTRACT: return HC_WINDOW;
    case KER_SUBTRACT_INF: return HC_DENSE;
    case KER_OCTAL: case KER_TB:
        if (g->tb.max_heaps > 1 || (g->tb.ndigits && g->tb.d[0].mask)) return HC_NONE;
        return g->tb.period ? HC_DENSE : HC_WINDOW;
    case KER_RULES:
        if (!g->rules) return HC_NONE;
        for (int i = 0; i < g->rules->nmoves; i++)
            if (g->rules->moves[i].nparts != 1) return HC_NONE;
        return HC_DENSE;
    default: return HC_NONE;
    }
}

int gr_convkernel_fits(const gr_game *g) { return kind_of(g) != HC_NONE; }

static void push(gr_ctx *c, int64_t **v, size_t *n, size_t *cap, int64_t x) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *v = gr_realloc(c, *v, gr_size_mul(c, *cap, sizeof **v));
    }
    (*v)[(*n)++] = x;
}

static gr_convkernel *state(gr_ctx *c, gr_game *g) {
    if (gr_eval_cache_of(c, g)->convkernel) return GR_CACHED(g, convkernel);   /* charged to g from here */
    gr_convkernel *st = gr_eval_cache_of(c, g)->convkernel = gr_alloc(c, sizeof *st);
    st->kind = kind_of(g);
    size_t acap = 0, zcap = 0;
    if (st->kind == HC_WINDOW && g->kernel == KER_SUBTRACT) {
        for (size_t j = 0; j < g->nsub; j++) {
            push(c, &st->amt, &st->namt, &acap, g->sub[j]);
            push(c, &st->zero, &st->nzero, &zcap, g->sub[j]);
        }
    } else if (st->kind == HC_WINDOW) {
        for (int64_t k = 1; k <= g->tb.last_place; k++) {
            gr_tbdigit d = gr_tb_digit(&g->tb, k);
            if (d.mask & 2u) push(c, &st->amt, &st->namt, &acap, k);
            if (d.mask & 1u) push(c, &st->zero, &st->nzero, &zcap, k);
        }
    }
    for (size_t j = 0; j < st->namt; j++) if (st->amt[j] > st->wa) st->wa = st->amt[j];
    st->w = st->wa;
    for (size_t j = 0; j < st->nzero; j++) if (st->zero[j] > st->w) st->w = st->zero[j];
    st->next_try = 4 * (st->w + 1) > 256 ? 4 * (st->w + 1) : 256;
    return st;
}

void gr_convkernel_describe(const gr_game *g, char *buf, size_t cap) {
    const gr_convkernel *st = GR_CACHED(g, convkernel);
    switch (kind_of(g)) {
    case HC_NIM:
        snprintf(buf, cap, "heap kernel for anyleaf and every (nim): no move splits a heap and every smaller heap is an option, "
                 "so L(n) = n - 1 and the step number is 1 for n >= 1, a formula, O(1) per heap");
        break;
    case HC_WINDOW: {
        size_t pos = (size_t)snprintf(buf, cap, "heap kernel for anyleaf and every (window): no move splits a heap; the options of "
                                      "heap n are n - k for %zu amounts k <= %lld, so %zu operations per heap until the window "
                                      "argument proves a period, then O(1) per heap",
                                      st ? st->namt : (size_t)0, (long long)(st ? st->wa : 0), st ? st->namt : (size_t)0);
        if (st && st->lp && pos < cap)
            pos += (size_t)snprintf(buf + pos, cap - pos, "; values after leaf deletion: period %lld from heap %lld proved",
                                    (long long)st->lp, (long long)st->le);
        if (st && st->sp && pos < cap)
            snprintf(buf + pos, cap - pos, "; step numbers: period %lld from heap %lld, saltus %lld, proved",
                     (long long)st->sp, (long long)st->se, (long long)st->sd);
        break;
    }
    case HC_DENSE:
        snprintf(buf, cap, "heap kernel for anyleaf and every (dense): no move splits a heap; each heap's options are enumerated "
                 "and %d bytes are held per heap up to the largest heap asked", (int)HC_BYTES);
        break;
    default:
        snprintf(buf, cap, "no heap kernel: a move may split a heap");
    }
}

/* ---- the recurrence ---- */
typedef struct dense_opts { gr_convkernel *st; gr_ctx *c; int64_t n; int bad; } dense_opts;

static void dense_option(void *user, const int64_t *parts, int nparts) {
    dense_opts *d = user;
    if (nparts != 1 || parts[0] < 0 || parts[0] >= d->n) { d->bad = 1; return; }
    push(d->c, &d->st->opt, &d->st->nopt, &d->st->optcap, parts[0]);
}

typedef struct heap_at { int64_t heap; size_t at; } heap_at;
static int by_heap_then_at(const void *a, const void *b) {
    const heap_at *x = a, *y = b;
    if (x->heap != y->heap) return (x->heap > y->heap) - (x->heap < y->heap);
    return (x->at > y->at) - (x->at < y->at);
}

/* The options of heap n into st->opt, each once, in the order of the rules (the position
 * graph's order, so winning moves are listed as it lists them); 0 if a move leaves something
 * other than one smaller heap (the kernel then declines). */
static int list_options(gr_ctx *c, gr_game *g, gr_convkernel *st, int64_t n) {
    st->nopt = 0;
    if (st->kind == HC_WINDOW) {
        for (size_t j = 0; j < st->namt; j++)
            if (st->amt[j] < n) push(c, &st->opt, &st->nopt, &st->optcap, n - st->amt[j]);
        for (size_t j = 0; j < st->nzero; j++)
            if (st->zero[j] == n) { push(c, &st->opt, &st->nopt, &st->optcap, 0); break; }
        return 1;   /* amt is increasing, so the heaps are decreasing and distinct */
    }
    dense_opts d = { st, c, n, 0 };
    int64_t pos = n;
    /* the heap evaluator's options (as gr_eval_options gives them; not through it: evaluator.c
     * names this file in its registry) */
    if (gr_rules_terminal_of(c, g, &pos) < 0) gr_heap_evaluator.options(c, g, &pos, dense_option, &d);
    if (d.bad) return 0;
    if (st->nopt < 2) return 1;
    /* drop repeats, keeping each heap's first place */
    heap_at *h = gr_alloc(c, gr_size_mul(c, st->nopt, sizeof *h));
    for (size_t j = 0; j < st->nopt; j++) h[j] = (heap_at){ st->opt[j], j };
    qsort(h, st->nopt, sizeof *h, by_heap_then_at);
    for (size_t j = 1; j < st->nopt; j++)
        if (h[j].heap == h[j - 1].heap) st->opt[h[j].at] = -1;
    gr_free(c, h);
    size_t k = 0;
    for (size_t j = 0; j < st->nopt; j++)
        if (st->opt[j] >= 0) st->opt[k++] = st->opt[j];
    st->nopt = k;
    return 1;
}

/* Heap i from its options, all below i and computed. */
static void settle(gr_ctx *c, gr_convkernel *st, int64_t i) {
    size_t k = st->nopt;
    if (!k) { st->leaf[i] = -1; st->step[i] = 0; st->out[i] = GR_LOSS; return; }
    if (k + 2 > st->seencap) {
        st->seencap = 2 * (k + 2);
        st->seen = gr_realloc(c, st->seen, st->seencap);
    }
    memset(st->seen, 0, k + 2);
    int win = 0;
    for (size_t j = 0; j < k; j++) {
        int64_t m = st->opt[j];
        if (st->leaf[m] >= 0 && (uint64_t)st->leaf[m] <= k) st->seen[st->leaf[m]] = 1;
        win |= st->out[m] == GR_LOSS;
    }
    int64_t v = 0;
    while (st->seen[v]) v++;
    int64_t best = -1;
    for (size_t j = 0; j < k; j++) {
        int64_t m = st->opt[j];
        if (win ? st->out[m] == GR_LOSS && st->step[m] > best : best < 0 || st->step[m] < best) best = st->step[m];
    }
    st->leaf[i] = v;
    st->step[i] = best + 1;
    st->out[i] = (uint8_t)(win ? GR_WIN : GR_LOSS);
}

static void reserve(gr_ctx *c, gr_game *g, gr_convkernel *st, int64_t upto) {
    if (upto < st->cap) return;
    uint64_t want = (uint64_t)upto + 1;
    if (want > c->mem_limit / HC_BYTES)
        gr_fail(c, GR_EXIT_LIMIT, "%s(%lld) under anyleaf or every needs the values of every heap below it%s: %llu MiB, "
                "more than the memory limit of %zu MiB (raise it with --max-memory)",
                g->name, (long long)upto, st->kind == HC_WINDOW ? " (no period proved yet)" : "",
                (unsigned long long)(want / (1024 * 1024 / HC_BYTES)), c->mem_limit >> 20);
    int64_t cap = st->cap * 2 > upto + 1 ? st->cap * 2 : upto + 1;
    if ((uint64_t)cap > c->mem_limit / HC_BYTES) cap = upto + 1;
    st->leaf = gr_realloc(c, st->leaf, gr_size_mul(c, (size_t)cap, sizeof *st->leaf));
    st->step = gr_realloc(c, st->step, gr_size_mul(c, (size_t)cap, sizeof *st->step));
    st->out = gr_realloc(c, st->out, (size_t)cap);
    st->cap = cap;
}

/* Does heap i repeat at i + p? (leaf values; or outcomes and step differences) */
static int same(const gr_convkernel *st, int steps, int64_t i, int64_t p) {
    if (!steps) return st->leaf[i] == st->leaf[i + p];
    int64_t di = st->step[i] - (i ? st->step[i - 1] : 0), dp = st->step[i + p] - st->step[i + p - 1];
    return st->out[i] == st->out[i + p] && di == dp;
}

/* The window argument: heaps above w have the options i - k for every k in amt and no other,
 * so values at heaps i >= e + wa follow from the wa values below them by a rule that does not
 * depend on i (for step numbers, one that commutes with adding a constant). If the window
 * [e, e + wa), with e + wa > w, repeats at [e + p, e + p + wa) (step numbers up to a constant
 * d), every later heap repeats by induction. Returns p (and *e) or 0; bounded work. */
static int64_t prove(const gr_convkernel *st, int steps, int64_t *e_out) {
    int64_t n = st->n, budget = 8 * n + 4096;
    for (int64_t p = 1; 2 * p <= n && budget > 0; p++) {
        int64_t e = n - p;
        while (e > 0 && same(st, steps, e - 1, p)) {
            e--;
            if (--budget <= 0) return 0;
        }
        budget--;
        int64_t start = e > st->w + 1 - st->wa ? e : st->w + 1 - st->wa;
        if (start + st->wa + p <= n) { *e_out = start; return p; }
    }
    return 0;
}

/* Makes heap n answerable: computed, or in a proved period. 0 if the kernel declines. */
static int ensure(gr_ctx *c, gr_game *g, gr_convkernel *st, int64_t n) {
    if (st->kind == HC_NIM) return 1;
    if (st->declined) return 0;
    while (st->n <= n && !(st->lp && st->sp)) {
        int64_t to = n;
        if (st->kind == HC_WINDOW && to > st->next_try) to = st->next_try;
        reserve(c, g, st, to);
        gr_progress pr;   /* shown on a terminal only; a dense rule block may take long */
        gr_progress_begin_at(&pr, c, g->name, (uint64_t)to + 1, (uint64_t)st->n);
        for (int64_t i = st->n; i <= to; i++) {
            gr_poll(c);
            if (!list_options(c, g, st, i)) { st->declined = 1; gr_progress_end(&pr); return 0; }
            settle(c, st, i);
            st->n = i + 1;
            if ((i & 4095) == 0) gr_progress_update(&pr, (uint64_t)i);
        }
        gr_progress_end(&pr);
        if (st->kind == HC_WINDOW && st->n > st->next_try) {
            if (!st->lp) st->lp = prove(st, 0, &st->le);
            if (!st->sp && (st->sp = prove(st, 1, &st->se)) != 0) st->sd = st->step[st->se + st->sp] - st->step[st->se];
            st->next_try *= 2;
        }
    }
    return 1;
}

int gr_convkernel_value(gr_ctx *c, gr_game *g, int64_t n, gr_hcval *out) {
    gr_convkernel *st = state(c, g);
    if (st->kind == HC_NONE || n < 0 || !ensure(c, g, st, n)) return 0;
    if (st->kind == HC_NIM) {
        *out = n ? (gr_hcval){ n - 1, 1, GR_WIN } : (gr_hcval){ -1, 0, GR_LOSS };
        return 1;
    }
    if (n < st->n) {
        *out = (gr_hcval){ st->leaf[n], st->step[n], st->out[n] };
        return 1;
    }
    out->leaf = st->leaf[st->le + (n - st->le) % st->lp];
    int64_t r = (n - st->se) % st->sp, q = (n - st->se) / st->sp;
    out->step = st->step[st->se + r] + st->sd * q;
    out->outcome = st->out[st->se + r];
    return 1;
}

static int matches(const gr_hcval *v, const gr_hcval *want) {
    return !want || ((want->leaf < 0 || v->leaf == want->leaf) && (want->step < 0 || v->step == want->step) &&
                     (want->outcome < 0 || v->outcome == want->outcome));
}

static int64_t gr_convkernel_options(gr_ctx *c, gr_game *g, int64_t n, const gr_hcval *want, int64_t limit,
                                   gr_convkernel_fn fn, void *user) {
    gr_convkernel *st = state(c, g);
    int64_t count = 0;
    if (st->kind == HC_NIM) {
        /* heaps 1..n-1 are alike (N, step 1) but for L(m) = m - 1; heap 0 is the one leaf */
        int64_t lo = 1, hi = n - 1;
        if (want && want->leaf >= 0) lo = hi = want->leaf < n - 1 ? want->leaf + 1 : n;
        gr_hcval cls = { want && want->leaf >= 0 ? want->leaf : 0, 1, GR_WIN };
        if (lo <= hi && hi < n && matches(&cls, want)) {
            for (int64_t m = hi; m >= lo && count < limit; m--) {
                gr_hcval mv = { m - 1, 1, GR_WIN };
                if (fn) fn(user, m, &mv);
                count++;
            }
            count = hi - lo + 1;
        }
        gr_hcval zero = { -1, 0, GR_LOSS };
        if (n >= 1 && matches(&zero, want)) {
            if (fn && count < limit) fn(user, 0, &zero);
            count++;
        }
        return count;
    }
    if (!ensure(c, g, st, n) || !list_options(c, g, st, n)) return 0;
    /* st->opt is reused by values below: copy the list out first */
    size_t k = st->nopt;
    int64_t *opts = gr_alloc(c, gr_size_mul(c, k + 1, sizeof *opts));
    if (k) memcpy(opts, st->opt, k * sizeof *opts);
    for (size_t j = 0; j < k; j++) {
        gr_hcval mv;
        if (!gr_convkernel_value(c, g, opts[j], &mv) || !matches(&mv, want)) continue;
        if (fn && count < limit) fn(user, opts[j], &mv);
        count++;
    }
    gr_free(c, opts);
    return count;
}

uint64_t gr_convkernel_options_floor(const gr_game *g, int64_t n) {
    if (g->shape != SHAPE_HEAP || n <= 0) return 0;
    if (g->kernel == KER_NIM) return (uint64_t)n;
    if (g->kernel != KER_OCTAL && g->kernel != KER_TB) return 0;
    /* a digit that may leave two heaps: r = n - k splits as (a, r - a), 1 <= a <= r / 2, each
     * a different position (one fewer when the parts must differ; '=' allows one only) */
    uint64_t best = 0;
    int64_t last = g->tb.last_place < 64 ? g->tb.last_place : 64;
    for (int64_t k = 0; k <= last && k <= n; k++) {
        gr_tbdigit d = gr_tb_digit(&g->tb, k);
        if (!(d.mask & 4u) || d.constraint == TB_EQUAL) continue;
        uint64_t r = (uint64_t)(n - k), m = r / 2 > 0 ? r / 2 - 1 : 0;
        if (m > best) best = m;
    }
    return best;
}

/* ---- the evaluator ---- */
static unsigned hc_answers(const gr_game *g, gr_conv conv, char *why, size_t cap) {
    if (why && cap) gr_convkernel_describe(g, why, cap);
    if (!gr_convkernel_fits(g)) return 0;
    if (conv == CONV_ANYLEAF) return GR_KIND_OUTCOME | GR_KIND_LEAFLESS;
    if (conv == CONV_EVERY) return GR_KIND_OUTCOME | GR_KIND_STEPS;
    return 0;
}

static int hc_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                    gr_loc loc, gr_value *out) {
    (void)kinds; (void)loc;
    gr_hcval v;
    if (!gr_convkernel_value(c, g, pos[0], &v)) return 0;
    if (conv == CONV_ANYLEAF) {
        /* alone, a heap at a leaf is won by the player to move; else the reduced game's outcome */
        out->outcome = v.leaf != 0 ? GR_WIN : GR_LOSS;
        out->leafless = v.leaf;
    } else {
        out->outcome = v.outcome;
        out->steps = v.step;
    }
    return 1;
}

static int hc_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind, int64_t *out) {
    gr_value v = { -1, -1, -1, -1, -1 };
    int64_t pos = box->hi[0];
    if (!hc_value(c, g, conv, &pos, kind, box->loc, &v)) return 0;   /* the largest first: one fill */
    for (int64_t i = 0, n = box->hi[0] - box->lo[0] + 1; i < n; i++) {
        pos = box->lo[0] + i;
        if (!hc_value(c, g, conv, &pos, kind, box->loc, &v)) return 0;
        out[i] = kind == GR_KIND_OUTCOME ? v.outcome : kind == GR_KIND_LEAFLESS ? v.leafless : v.steps;
    }
    return 1;
}

static void hc_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user) {
    gr_heap_evaluator.options(c, g, pos, fn, user);
}

const gr_evaluator_ops gr_convkernel_evaluator = {
    .name = "heap kernel for anyleaf and every",
    .answers = hc_answers,
    .value = hc_value,
    .fill = hc_fill,
    .options = hc_options,
    .terminal = gr_rules_terminal_of,
};

/* ---- the capability (cap_convkernel.h) ---- */
static const gr_convkernel_cap convkernel_cap = {
    .describe = gr_convkernel_describe,
    .value = gr_convkernel_value,
    .options = gr_convkernel_options,
};

const gr_convkernel_cap *gr_cap_convkernel(const gr_game *g) {
    return gr_convkernel_fits(g) ? &convkernel_cap : NULL;
}
