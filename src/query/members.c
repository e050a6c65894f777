/* members: computing the members of a census or family check; see members.h. */
#include "members.h"
#include <string.h>
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"

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

void gr_member_compute(gr_ctx *c, gr_rquery *q, int i, gr_member_result *out) {
    memset(out, 0, sizeof *out);
    gr_rquery mq = *q;
    mq.game = q->members[i];
    int census = q->kind == Q_CENSUS;
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
