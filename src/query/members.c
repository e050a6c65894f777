/* members: computing the members of a census or family check; see members.h. */
#include "members.h"
#include <string.h>
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"
#include "eval/cap_quotient.h"

/* Two 64-bit fingerprints of a value stream (independent mixers), so that two sequences are
 * taken as equal only when both agree: a false match has odds near 2^-128. */
typedef struct fingerprint { uint64_t a, b; } fingerprint;

static uint64_t mix(uint64_t x) {   /* splitmix64's finaliser */
    x ^= x >> 30; x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27; x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static void fp_push(fingerprint *f, int64_t v) {
    f->a = mix(f->a ^ (uint64_t)v) + UINT64_C(0x9e3779b97f4a7c15);
    f->b = (f->b ^ mix((uint64_t)v + UINT64_C(0x632be59bd9b4e019))) * UINT64_C(0x100000001b3) + 1;
}

/* sg(n) once the evaluator has it ready (evaluator.h). */
static int64_t ready_value(const gr_game *g, int64_t n) {
    int64_t v = -1;
    gr_eval_ready(g, &n, GR_KIND_SG, &v);
    return v;
}

/* The value of heap n: from the table below e + p, by the proved period past it. */
static int64_t member_value(const gr_game *g, const gr_check_result *r, int64_t n) {
    if (r->status != GR_CHECK_PROVED || !r->has_period || n < r->preperiod + r->period) return ready_value(g, n);
    int64_t k = (n - r->preperiod) / r->period;
    int64_t base = r->preperiod + (n - r->preperiod) % r->period;
    return ready_value(g, base) + k * r->saltus;
}

/* ---- a member of a misere census ---- */
/* The work one member may cost, in the quotient's unit (states its checks visit and elements its
 * candidates mark, 10 to 30 million a second: about ten seconds at most): past it the member ends with status limit and
 * the census goes on. Work, not time, so the answer is the same bytes however the members are
 * spread over processes or ranks. */
#define MISERE_MEMBER_WORK ((int64_t)150 * 1000 * 1000)
/* Past the census's last heap the quotient is carried on only to prove its pretending function
 * periodic: to this heap at most, within a quarter of the member's work, heaps that do not make
 * it grow only. */
enum { MISERE_PROOF_HEAPS = 4096 };

/* The quotient and its pretending function up to renaming of elements: elements numbered in
 * the order a breadth-first walk from the identity meets them, multiplying by the heaps' images
 * in the order of their first heaps (every element is such a product: the map is onto), then
 * the images of heaps 0..to, P, and each element times each image in those numbers. Members
 * whose quotients are isomorphic by a map that carries one pretending function to the other
 * get the same numbers, and only they. */
static void misere_fingerprint(gr_ctx *c, const gr_quotient *q, int64_t to, fingerprint *f) {
    size_t M = (size_t)q->order;
    int32_t *label = gr_alloc(c, M * sizeof *label), *elem = gr_alloc(c, M * sizeof *elem);
    int32_t *gens = gr_alloc(c, M * sizeof *gens);
    int ngens = 0;
    for (size_t x = 0; x < M; x++) label[x] = -1;
    for (int64_t h = 0; h <= to && h < q->nheaps; h++) {
        int32_t x = q->pret[h], seen = 0;
        for (int k = 0; k < ngens && !seen; k++) seen = gens[k] == x;
        if (!seen) gens[ngens++] = x;
    }
    int32_t n = 1;
    label[0] = 0;
    elem[0] = 0;
    for (int32_t i = 0; i < n; i++)
        for (int k = 0; k < ngens; k++) {
            int32_t y = q->mul[(size_t)elem[i] * M + (size_t)gens[k]];
            if (label[y] < 0) { label[y] = n; elem[n++] = y; }
        }
    fp_push(f, (int64_t)M);
    fp_push(f, n);
    for (int64_t h = 0; h <= to && h < q->nheaps; h++) fp_push(f, label[q->pret[h]]);
    for (int32_t i = 0; i < n; i++) fp_push(f, q->inP[elem[i]]);
    for (int32_t i = 0; i < n; i++)
        for (int k = 0; k < ngens; k++) fp_push(f, label[q->mul[(size_t)elem[i] * M + (size_t)gens[k]]]);
    gr_free(c, label); gr_free(c, elem); gr_free(c, gens);
}

/* The order at each heap of q (every heap while they fit, else the heaps where it changed). */
static void misere_growth(const gr_quotient *q, gr_misere_member *mm) {
    int every = q->nheaps <= GR_GROWTH_MAX;
    mm->ngrowth = 0;
    for (int64_t a = 0; a < q->nheaps && mm->ngrowth < GR_GROWTH_MAX; a++)
        if (every || a == 0 || q->order_at[a] != q->order_at[a - 1]) {
            mm->growth[mm->ngrowth][0] = a;
            mm->growth[mm->ngrowth][1] = q->order_at[a];
            mm->ngrowth++;
        }
}

static void misere_member(gr_ctx *c, gr_rquery *q, gr_game *g, gr_member_result *out) {
    gr_misere_member *mm = &out->misere;
    char why[256];
    const gr_quotient_cap *Q = gr_cap_quotient(g, why, sizeof why);
    gr_quotient *qq = Q ? Q->of(c, g, 0, why, sizeof why) : NULL;
    if (!qq) gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "a misere census needs heap rule sets with a misere quotient: %s", why);
    int64_t to = q->census_to;
    qq->budget = qq->checked_states + MISERE_MEMBER_WORK;
    Q->of(c, g, to, NULL, 0);
    qq->over_budget = 0;
    if (qq->nheaps <= to || (qq->failed && qq->failed <= to)) {   /* a limit: the order reached, and how it grew */
        mm->status = GR_MISERE_LIMIT;
        if (qq->failed) snprintf(mm->limit, sizeof mm->limit, "heap %lld: %.170s", (long long)qq->failed, qq->why_failed);
        else snprintf(mm->limit, sizeof mm->limit, "heap %lld: the member's work passed %lld (the quotient's checks and candidates)",
                      (long long)qq->nheaps, (long long)MISERE_MEMBER_WORK);
    } else {
        /* on past `to`, only to prove the period, while the order stays: a heap that would
         * make it grow ends the walk (no_grow) before any costly search */
        int32_t order_to = qq->order_at[to];
        Q->prove(c, qq);
        qq->budget = qq->checked_states + MISERE_MEMBER_WORK / 4;
        qq->no_grow = 1;
        while (!qq->proved && !qq->failed && !qq->over_budget && qq->order == order_to && qq->nheaps < MISERE_PROOF_HEAPS) {
            Q->of(c, g, qq->nheaps, NULL, 0);
            if (qq->nheaps % 16 == 0) Q->prove(c, qq);
        }
        if (!qq->proved) Q->prove(c, qq);
        qq->no_grow = 0;
        qq->over_budget = 0;
        int stable = qq->proved && qq->order == order_to;
        mm->status = stable ? GR_MISERE_STABLE : GR_MISERE_GROWING;
        if (stable) { mm->periodic_from = qq->pre; mm->period = qq->per; }
    }
    qq->budget = 0;
    /* the quotient of heaps 0..to (or as far as it got), whatever was computed beyond */
    gr_quotient *own = NULL, *at = qq;
    int64_t last = (qq->failed ? qq->failed : qq->nheaps) - 1;   /* the failed heap is not in */
    if (last > to) last = to;
    if (qq->nheaps > last + 1) at = own = Q->restrict_to(c, qq, last);
    mm->reached = last;
    mm->order = at->order;
    mm->p_order = at->p_order;
    mm->last_growth = at->last_growth;
    misere_growth(at, mm);
    mm->tame_k = 0;
    if (mm->status != GR_MISERE_LIMIT) {
        gr_presentation pr;
        Q->present(c, at, &pr);
        mm->tame_k = pr.tame_k;
        Q->presentation_free(c, &pr);
    }
    fingerprint f = { 0, 0 };
    misere_fingerprint(c, at, last, &f);
    fp_push(&f, mm->status);
    fp_push(&f, mm->status == GR_MISERE_LIMIT ? last : mm->periodic_from);
    fp_push(&f, mm->period);
    out->fp_all[0] = f.a; out->fp_all[1] = f.b;
    Q->free(c, own);
    out->state = GR_MEMBER_DONE;
}

/* Member i of query q (a census or a periodicity check over a family) into *out; a failure
 * longjmps, as any query's. */
static void gr_member_compute(gr_ctx *c, gr_rquery *q, int i, gr_member_result *out) {
    memset(out, 0, sizeof *out);
    gr_rquery mq = *q;
    mq.game = q->members[i];
    int census = q->kind == Q_CENSUS;
    if (census && q->conv == CONV_MISERE) { misere_member(c, q, mq.game, out); return; }
    int64_t saved_to = c->check_to;
    if (census) c->check_to = q->census_to;
    gr_check_run(c, &mq, &out->check);
    c->check_to = saved_to;
    out->state = GR_MEMBER_DONE;
    if (!census) return;
    gr_game *g = mq.game;
    int64_t to = q->census_to;
    int64_t have = out->check.status == GR_CHECK_PROVED && out->check.has_period
                 ? out->check.preperiod + out->check.period - 1 : to;
    if (have > to) have = to;
    int64_t zero = 0;
    if (!gr_eval_ensure(c, g, &zero, &have, GR_KIND_SG))
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "a census needs the values of a heap recurrence, and '%s' is not one (%s%s)", g->name, g->explain, g->state->found);
    fingerprint all = { 0, 0 }, tail = { 0, 0 };
    out->largest = -1;
    for (int64_t n = 0; n <= to; n++) {
        if ((n & 1023) == 0) gr_poll(c);
        int64_t v = member_value(g, &out->check, n);
        if (n == to) { out->fp_head[0] = all.a; out->fp_head[1] = all.b; }
        fp_push(&all, v);
        if (n > 0) fp_push(&tail, v);
        if (v > out->largest) { out->largest = v; out->largest_at = n; }
    }
    out->fp_all[0] = all.a; out->fp_all[1] = all.b;
    out->fp_tail[0] = tail.a; out->fp_tail[1] = tail.b;
}

void gr_member_compute_caught(gr_ctx *c, gr_rquery *q, int i, gr_member_result *out) {
    jmp_buf jb, *outer = c->on_fail;
    c->on_fail = &jb;
    if (setjmp(jb)) {
        c->on_fail = outer;
        memset(out, 0, sizeof *out);
        out->state = GR_MEMBER_FAILED;
        out->failure.status = c->fail_status;
        out->failure.located = c->fail_located;
        out->failure.off = c->fail_off;
        snprintf(out->failure.msg, sizeof out->failure.msg, "%s", c->fail_msg);
        snprintf(out->failure.text, sizeof out->failure.text, "%s", c->fail_text);
        return;
    }
    gr_member_compute(c, q, i, out);
    c->on_fail = outer;
}

/* The work of a member grows with the options of a heap: estimated by those of heap 64. */
static void count_option(void *user, const int64_t *heaps, int nheaps) {
    (void)heaps;
    *(uint64_t *)user += (uint64_t)nheaps;
}

/* The options of heap 64 of g (0 when listing them fails: the member's own run says why). */
static uint64_t member_cost(gr_ctx *c, gr_game *g) {
    uint64_t k = 0;
    if (g->shape != SHAPE_HEAP || !gr_cap_heap_table(g)) return 0;
    jmp_buf jb, *outer = c->on_fail;
    c->on_fail = &jb;
    if (setjmp(jb)) { c->on_fail = outer; gr_eval_at(c, NULL, 0); return 0; }
    int64_t sixty_four = 64;
    gr_eval_options(c, g, &sixty_four, count_option, &k);
    c->on_fail = outer;
    return k;
}

void gr_member_order(gr_ctx *c, gr_rquery *q, int *order) {
    int n = q->nmembers;
    uint64_t *cost = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *cost));
    for (int i = 0; i < n; i++) {
        order[i] = i;
        cost[i] = member_cost(c, q->members[i]);
    }
    for (int i = 1; i < n; i++)   /* insertion sort, stable: members are at most a few thousand */
        for (int j = i; j > 0 && cost[order[j - 1]] < cost[order[j]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    gr_free(c, cost);
}

void gr_members_run(gr_ctx *c, gr_module *m, int qi, gr_member_result *res) {
    gr_rquery *q = &m->queries[qi];
    if (c->spread && q->nmembers > 1) {
        c->spread->run(c->spread, c, m, qi, res);
        for (int i = 0; i < q->nmembers; i++)
            if (res[i].state == GR_MEMBER_FAILED) gr_failure_raise(c, &res[i].failure);
        return;
    }
    for (int i = 0; i < q->nmembers; i++)
        if (res[i].state != GR_MEMBER_DONE) gr_member_compute(c, q, i, &res[i]);
}
