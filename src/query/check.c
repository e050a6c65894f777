/* check: the 'check' queries; see check.h and docs/periodicity.md.
 *
 *   check G periodic            values are computed in stages (256, 512, ... heaps, up to the
 *                               limit); after each stage the detector of detect.h reads every
 *                               candidate period off the table in linear time, the least whose
 *                               run covers a theorem's window is proved, otherwise the next
 *                               stage is computed. At the limit the least plausible candidate
 *                               is reported as holding.
 *   check G period p ...        the first n >= e with sg(n + p) != sg(n) + s refutes; agreement
 *                               over a theorem's window proves; otherwise it holds to the limit.
 *   check G: FORMULA for ...    every assignment of the bound variables in odometer order; the
 *                               first one that makes the formula 0 refutes.
 *
 * The theorems (certificates), each turning agreement on a finite window into all n >= e:
 *   nim                 sg(n) = n itself (p = 1, saltus 1, e = 0)
 *   finite subtraction  window e <= n < e + max(S)
 *   take-and-break      window e <= n < k max(e, 1) + (k - 1) p + t, for codes without
 *                       constraints or repeating digits whose moves leave at most k heaps and
 *                       remove at most t tokens (k = 2 is Guy and Smith's 2e + p + t)
 * Nothing else is ever reported as proved. */
#include "check.h"
#include <stdarg.h>
#include <string.h>
#include "heap.h"
#include "lines.h"
#include "lower.h"
#include "detect.h"
#include "period.h"
#include "progress.h"
#include "rules.h"
#include "sgtable.h"
#include "sums.h"
#include "tuple.h"
#include "worker.h"
#include <stdlib.h>

enum { FIRST_STAGE = 256 };

/* snprintf for messages: they are truncated at the buffer's end, which is fine for text (and
 * keeps -Wformat-truncation quiet about the lengths it cannot bound). */
static void textf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void textf(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

/* Appends at *pos, never past cap (the text is cut at the end of the buffer). */
static void appendf(char *buf, size_t cap, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void appendf(char *buf, size_t cap, size_t *pos, const char *fmt, ...) {
    if (*pos + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *pos, cap - *pos, fmt, ap);
    va_end(ap);
    if (n > 0) *pos += (size_t)n < cap - *pos ? (size_t)n : cap - *pos - 1;
}

/* ---- saturating arithmetic on nonnegative sizes (windows of absurd claims) ---------------- */
static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
static int64_t sat_mul(int64_t a, int64_t b) { return a && b > INT64_MAX / a ? INT64_MAX : a * b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ---- certificates ------------------------------------------------------------------------ */
typedef enum { CERT_NONE, CERT_NIM, CERT_SUBTRACT, CERT_TB } cert_kind;

typedef struct cert {
    cert_kind kind;
    int64_t m;            /* CERT_SUBTRACT: max(S) (0 for the empty set) */
    int64_t t, k;         /* CERT_TB: last nonzero place (>= 0), most heaps a move leaves (>= 1) */
    char code[128];       /* CERT_TB: the code as written back */
    char why_not[256];    /* CERT_NONE: why no theorem applies */
} cert;

static int tb_constrained(const gr_tbcode *tb) {
    for (int i = 0; i < tb->ndigits; i++)
        if (tb->d[i].constraint) return 1;
    return 0;
}

static void cert_for(const gr_game *g, cert *ct) {
    memset(ct, 0, sizeof *ct);
    switch (g->kernel) {
    case KER_NIM:
        ct->kind = CERT_NIM;
        return;
    case KER_SUBTRACT:
        ct->kind = CERT_SUBTRACT;
        ct->m = g->nsub ? g->sub[g->nsub - 1] : 0;
        return;
    case KER_OCTAL: case KER_TB:
        gr_tbcode_format(&g->tb, ct->code, sizeof ct->code);
        if (tb_constrained(&g->tb)) {
            textf(ct->why_not, sizeof ct->why_not, "take-and-break %s constrains the sizes of the parts (! ? =), "
                     "which the Guy-Smith argument cannot shift by p", ct->code);
        } else if (g->tb.period) {
            textf(ct->why_not, sizeof ct->why_not, "take-and-break %s has repeating digits, so moves remove "
                     "unboundedly many tokens and no window is finite", ct->code);
        } else {
            ct->kind = CERT_TB;
            ct->t = max64(g->tb.last_place, 0);
            ct->k = max64(g->tb.max_heaps, 1);
        }
        return;
    case KER_SUBTRACT_INF:
        textf(ct->why_not, sizeof ct->why_not, "the subtraction set is infinite, so sg(n) does not depend on a "
                 "bounded number of earlier values");
        return;
    default:
        textf(ct->why_not, sizeof ct->why_not, "no periodicity theorem covers general rules");
        return;
    }
}

/* W such that sg(n + p) = sg(n) for e <= n < W proves it for all n >= e (saltus 0);
 * INT64_MAX when it does not fit. */
static int64_t cert_window(const cert *ct, int64_t e, int64_t p) {
    if (ct->kind == CERT_SUBTRACT) return sat_add(e, ct->m);
    /* CERT_TB: k e' + (k - 1) p + t with e' = max(e, 1): parts of a move must stay nonempty */
    int64_t w = sat_mul(ct->k, max64(e, 1));
    w = sat_add(w, sat_mul(ct->k - 1, p));
    return sat_add(w, ct->t);
}

/* The heaps the certificate reads: values up to W + p - 1, i.e. W + p of them. */
static int64_t cert_need(const cert *ct, int64_t e, int64_t p) { return sat_add(cert_window(ct, e, p), p); }

/* The largest e whose window fits in n values (W(e, p) + p <= n), or -1. */
static int64_t cert_emax(const cert *ct, int64_t p, int64_t n) {
    if (ct->kind == CERT_SUBTRACT) return n - p - ct->m >= 0 ? n - p - ct->m : -1;
    if (n < ct->t || p > (n - ct->t) / ct->k) return -1;
    int64_t rest = n - ct->t - ct->k * p;            /* k e' <= rest, e' = max(e, 1) */
    return rest < ct->k ? -1 : rest / ct->k;
}

/* "Guy-Smith (take-and-break 0.77: last nonzero digit at place t = 2)" and the like. */
static void cert_name(const cert *ct, char *buf, size_t cap) {
    if (ct->kind == CERT_SUBTRACT)
        textf(buf, cap, "finite subtraction set, max(S) = %lld: sg(n) depends only on the %lld values before it",
                 (long long)ct->m, (long long)ct->m);
    else if (ct->k <= 2)
        textf(buf, cap, "Guy-Smith (take-and-break %s: last nonzero digit at place t = %lld)", ct->code, (long long)ct->t);
    else
        textf(buf, cap, "Guy-Smith generalised to moves leaving up to k = %lld heaps (take-and-break %s, t = %lld; "
                 "window k max(e,1) + (k-1) p + t)", (long long)ct->k, ct->code, (long long)ct->t);
}

/* ---- values -------------------------------------------------------------------------------- */

/* Periodicity is about normal-play values of a heap recurrence; anything else is an input error
 * at the query. */
static void need_heap_values(gr_ctx *c, const gr_rquery *q) {
    const gr_game *g = q->game;
    if (g->play != CONV_NORMAL)
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "periodicity is about normal-play Sprague-Grundy values; '%s' is played %s",
                   g->name, gr_convention_name(g->play));
    if (g->shape != SHAPE_HEAP || g->evaluator != EVAL_HEAP)
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "periodicity needs the values of a heap recurrence; '%s' is evaluated otherwise (%s)",
                   g->name, g->explain);
}

/* Makes sg(0..upto) available or fails at the query. */
static void ensure_values(gr_ctx *c, const gr_rquery *q, int64_t upto) {
    if (gr_heap_ensure(c, q->game, upto) < 0)
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "periodicity needs the values of a heap recurrence, and '%s' is not one (%s)",
                   q->game->name, q->game->explain);
}

static int64_t value_at(const gr_game *g, int64_t n) { return gr_heap_value(g, n); }

/* ---- how far to compute -----------------------------------------------------------------------
 * With --to N, heaps up to N. Without it, up to DEFAULT_TO, and for kernels whose work per heap
 * grows with the heap (general rules, take-and-break codes with many heaps or repeating digits,
 * infinite subtraction sets) also within a budget of options enumerated, estimated before each
 * stage from the options of its last heap. Both are deterministic, so answers do not depend on
 * the machine. */
enum { DEFAULT_TO = 100000 };

typedef struct plan {
    gr_ctx *c;
    gr_game *g;
    int64_t target;        /* values wanted at most: heaps 0..target-1 */
    int bounded;           /* a work budget applies */
    uint64_t left;         /* options still affordable */
    int stopped;           /* the budget (not the target) ended the computation */
} plan;

static uint64_t default_budget(const gr_game *g) {
    switch (g->kernel) {
    case KER_RULES: return UINT64_C(1) << 25;
    case KER_TB: return UINT64_C(1) << 27;
    case KER_SUBTRACT_INF: return UINT64_C(1) << 29;
    default: return 0;     /* nim, finite subtraction, octal: fast kernels, the heap bound suffices */
    }
}

static void plan_init(plan *pl, gr_ctx *c, gr_game *g) {
    memset(pl, 0, sizeof *pl);
    pl->c = c;
    pl->g = g;
    pl->target = c->check_to > 0 ? sat_add(c->check_to, 1) : DEFAULT_TO + 1;
    pl->left = default_budget(g);
    pl->bounded = c->check_to <= 0 && pl->left > 0;
}

/* The largest heap a check may reach. */
static int64_t plan_limit(const plan *pl) { return pl->target - 1; }

static void count_option(void *user, const int64_t *heaps, int nheaps) {
    (void)heaps;
    (void)nheaps;
    ++*(uint64_t *)user;
}

/* The work of computing heaps have..n-1, bounded by (n - have) times the options of n - 1. */
static uint64_t stage_work(const plan *pl, int64_t have, int64_t n) {
    uint64_t k = 0;
    gr_heap_options(pl->c, pl->g, n - 1, count_option, &k);
    uint64_t len = (uint64_t)(n - have);
    return k && len > UINT64_MAX / k ? UINT64_MAX : k * len;
}

/* How many values to have after the next stage (doubling from FIRST_STAGE, up to the target,
 * shortened to what the budget affords); have itself when nothing more may be computed. */
static int64_t plan_next(plan *pl, int64_t have) {
    if (have >= pl->target || pl->stopped) return have;
    int64_t next = have < FIRST_STAGE ? min64(FIRST_STAGE, pl->target)
                 : have > pl->target / 2 ? pl->target : 2 * have;
    if (!pl->bounded) return next;
    uint64_t w = stage_work(pl, have, next);
    if (w > pl->left) {
        /* the largest affordable end, by bisection (the estimate grows with the end) */
        int64_t lo = have, hi = next;
        while (hi - lo > 1) {
            int64_t mid = lo + (hi - lo) / 2;
            if (stage_work(pl, have, mid) <= pl->left) lo = mid; else hi = mid;
        }
        pl->stopped = 1;
        next = lo;
        w = next > have ? stage_work(pl, have, next) : 0;
    }
    pl->left -= w;
    return next;
}

/* Why the computation stopped where it did, when that was not --to: "" or a clause such as
 * "the default work bound; --to N computes further". */
static const char *plan_note(const plan *pl) {
    return pl->c->check_to > 0 ? "" : pl->stopped ? "the default work bound; --to N computes further"
                                                  : "the default bound; --to N computes further";
}

/* ---- output helpers ------------------------------------------------------------------------ */

static void set_period(gr_check_result *out, int64_t p, int64_t e, int64_t s) {
    out->has_period = 1;
    out->period = p;
    out->preperiod = e;
    out->saltus = s;
}

/* "sg(n + 12) = sg(n)" or "sg(n + 4) = sg(n) + 4" */
static void relation(char *buf, size_t cap, int64_t p, int64_t s) {
    if (s == 0) textf(buf, cap, "sg(n + %lld) = sg(n)", (long long)p);
    else textf(buf, cap, "sg(n + %lld) = sg(n) %s %llu", (long long)p, s < 0 ? "-" : "+",
                  s < 0 ? (unsigned long long)-(s + 1) + 1 : (unsigned long long)s);
}

/* ---- nim: the kernel is the theorem --------------------------------------------------------- */

static void nim_periodic(gr_check_result *out) {
    out->status = GR_CHECK_PROVED;
    set_period(out, 1, 0, 1);
    out->checked_to = 1;
    textf(out->theorem, sizeof out->theorem, "nim (subtract 1..): every smaller heap is an option, so sg(n) = n by "
             "induction; hence sg(n + 1) = sg(n) + 1 for all n >= 0 (arithmetic period 1, saltus 1)");
}

static void refute(gr_check_result *out, int64_t n, int64_t p, int64_t s, int64_t vn, int64_t vnp) {
    out->status = GR_CHECK_REFUTED;
    out->has_period = 0;
    out->has_counterexample = 1;
    out->checked_to = n + p;
    textf(out->counterexample_json, sizeof out->counterexample_json, "{\"n\":%lld,\"sg\":%lld,\"sg_n_plus_p\":%lld}",
             (long long)n, (long long)vn, (long long)vnp);
    if (s == 0)
        textf(out->counterexample_text, sizeof out->counterexample_text, "sg(%lld) = %lld but sg(%lld + %lld) = sg(%lld) = %lld",
                 (long long)n, (long long)vn, (long long)n, (long long)p, (long long)(n + p), (long long)vnp);
    else
        textf(out->counterexample_text, sizeof out->counterexample_text,
                 "sg(%lld) = %lld but sg(%lld + %lld) = sg(%lld) = %lld, not sg(%lld) + %lld",
                 (long long)n, (long long)vn, (long long)n, (long long)p, (long long)(n + p), (long long)vnp,
                 (long long)n, (long long)s);
}

/* sg(n) = n: the claim holds iff s = p, for every e; otherwise n = e is the first failure. */
static void nim_claim(int64_t p, int64_t e, int64_t s, gr_check_result *out) {
    char rel[96];
    relation(rel, sizeof rel, p, s);
    if (e > INT64_MAX - p) {
        out->status = GR_CHECK_HOLDS;
        set_period(out, p, e, s);
        out->checked_to = 0;
        textf(out->theorem, sizeof out->theorem, "no heap n >= %lld has n + %lld within 64 bits; nothing to check",
                 (long long)e, (long long)p);
        return;
    }
    if (s != p) {
        refute(out, e, p, s, e, e + p);
        textf(out->theorem, sizeof out->theorem, "nim: sg(n) = n, so sg(n + %lld) = sg(n) + %lld for every n, never %s",
                 (long long)p, (long long)p, rel);
        return;
    }
    out->status = GR_CHECK_PROVED;
    set_period(out, p, e, s);
    out->checked_to = e + p;
    textf(out->theorem, sizeof out->theorem, "nim (subtract 1..): sg(n) = n by induction, so %s for all n >= 0%s",
             rel, p != 1 || e != 0 ? "; the least values are period 1, saltus 1, preperiod 0" : "");
}

/* ---- check G periodic ----------------------------------------------------------------------- */

/* The least period proved by the certificate over the scanned values, with its preperiod;
 * 0 if none. Every candidate 1 <= p < n is read off the detector in O(1). */
static int64_t least_certified(const gr_detect *d, const cert *ct, int64_t *e) {
    int64_t n = d->n;
    for (int64_t p = 1; p < n; p++) {
        int64_t emax = cert_emax(ct, p, n);
        if (emax < 0 || gr_detect_saltus(d, p) != 0) continue;
        int64_t s = gr_detect_start(d, p);
        if (s <= emax) { *e = s; return p; }
    }
    return 0;
}

static int64_t least_plausible(const gr_detect *d, int64_t *e, int64_t *s) {
    for (int64_t p = 1; p <= d->n / 2; p++) {
        if (!gr_period_plausible(d->n, p, gr_detect_start(d, p))) continue;
        *e = gr_detect_start(d, p);
        *s = gr_detect_saltus(d, p);
        return p;
    }
    return 0;
}

static void proved_text(gr_check_result *out, const cert *ct, int64_t p, int64_t e, const char *extra) {
    char name[256];
    cert_name(ct, name, sizeof name);
    textf(out->theorem, sizeof out->theorem, "%s: sg(n + %lld) = sg(n) for %lld <= n < %lld, so for all n >= %lld%s",
             name, (long long)p, (long long)e, (long long)cert_window(ct, e, p), (long long)e, extra);
}

/* Why a period found at the limit is not proved. */
static void unproved_reason(const cert *ct, int64_t p, int64_t e, int64_t s, char *buf, size_t cap) {
    if (ct->kind == CERT_NONE) { textf(buf, cap, "%s", ct->why_not); return; }
    if (s != 0) { textf(buf, cap, "no theorem here proves arithmetic periodicity (saltus %lld)", (long long)s); return; }
    char name[256];
    cert_name(ct, name, sizeof name);
    if (cert_need(ct, e, p) == INT64_MAX) { textf(buf, cap, "%s needs a window beyond 64-bit heaps", name); return; }
    textf(buf, cap, "%s needs agreement for %lld <= n < %lld, i.e. heaps up to %lld (raise --to)", name,
             (long long)e, (long long)cert_window(ct, e, p), (long long)(cert_need(ct, e, p) - 1));
}

/* The research tables' columns over the heaps the answer rests on. */
static void periodic_columns(const gr_game *g, gr_check_result *out) {
    if (!g->sg || out->checked_to < 0) return;
    gr_value_columns *col = &out->columns;
    memset(col, 0, sizeof *col);
    col->has_rare = gr_heap_rare_classes(g, &col->rare_mask, &col->rare_heap_parity, &col->rare_common);
    gr_detect_columns(g->sg, sat_add(out->checked_to, 1), col);
    out->has_columns = col->upto >= 0;
}

static void run_periodic(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    gr_game *g = q->game;
    need_heap_values(c, q);
    cert ct;
    cert_for(g, &ct);
    if (ct.kind == CERT_NIM) { nim_periodic(out); return; }
    plan pl;
    plan_init(&pl, c, g);
    gr_detect d;
    gr_detect_init(&d, c);
    int64_t have = 0, goal = c->heap_goal;
    c->heap_goal = plan_limit(&pl);            /* the bar runs to the last heap, stage after stage */
    for (int64_t next; (next = plan_next(&pl, have)) > have;) {
        ensure_values(c, q, next - 1);
        have = next;
        /* once the table's own proof ends it (heap.h), its values are those the proof read */
        gr_detect_scan(&d, g->sg, min64(next, g->sg->n));
        int64_t e, p = ct.kind != CERT_NONE ? least_certified(&d, &ct, &e) : 0;
        if (p) {
            out->status = GR_CHECK_PROVED;
            set_period(out, p, e, 0);
            out->checked_to = cert_need(&ct, e, p) - 1;
            proved_text(out, &ct, p, e, "");
            periodic_columns(g, out);
            gr_detect_free(&d);
            c->heap_goal = goal;
            return;
        }
    }
    out->status = GR_CHECK_HOLDS;
    out->checked_to = d.n - 1;
    if (c->check_to > 0) c->ckpt_keep = 1;     /* with --checkpoint, a larger --to goes on from here */
    int64_t e = 0, s = 0, p = least_plausible(&d, &e, &s);
    if (p) {
        char rel[96], why[384];
        set_period(out, p, e, s);
        relation(rel, sizeof rel, p, s);
        unproved_reason(&ct, p, e, s, why, sizeof why);
        textf(out->theorem, sizeof out->theorem, "not proved: %s; %s holds for %lld <= n <= %lld (heaps up to %lld computed%s%s)",
                 why, rel, (long long)e, (long long)(d.n - 1 - p), (long long)(d.n - 1), *plan_note(&pl) ? ", " : "",
                 plan_note(&pl));
    } else {
        textf(out->theorem, sizeof out->theorem, "no period found in heaps 0..%lld%s%s%s: a period p with preperiod e is "
                 "reported once sg(n + p) = sg(n) + s holds from e over the last half of the values and at least two periods",
                 (long long)(d.n - 1), *plan_note(&pl) ? " (" : "", plan_note(&pl), *plan_note(&pl) ? ")" : "");
    }
    periodic_columns(g, out);
    gr_detect_free(&d);
    c->heap_goal = goal;
}

void gr_check_columns_json(const gr_check_result *r, FILE *out) {
    const gr_value_columns *col = &r->columns;
    if (!r->has_columns || !col->has_rare) return;
    fprintf(out, ",\"largest\":%lld,\"largest_at\":%lld,\"rare_mask\":%llu,\"rare_heap_parity\":%s,\"rare_count\":%lld",
            (long long)col->largest, (long long)col->largest_at, (unsigned long long)col->rare_mask,
            col->rare_heap_parity ? "true" : "false", (long long)col->rare_count);
    if (col->last_rare >= 0) fprintf(out, ",\"last_rare\":%lld", (long long)col->last_rare);
    else fputs(",\"last_rare\":null", out);
}

void gr_check_columns_text(const gr_check_result *r, const char *indent, FILE *out) {
    const gr_value_columns *col = &r->columns;
    if (!r->has_columns || !col->has_rare) return;
    fprintf(out, "%sin heaps 0..%lld: largest value %lld, first at heap %lld; rare mask 0x%llx%s: %lld rare heaps",
            indent, (long long)col->upto, (long long)col->largest, (long long)col->largest_at,
            (unsigned long long)col->rare_mask, col->rare_heap_parity ? " with heap parity" : "", (long long)col->rare_count);
    if (col->last_rare >= 0) fprintf(out, ", the last at heap %lld\n", (long long)col->last_rare);
    else fputs("\n", out);
}

/* ---- check G period p preperiod e saltus s --------------------------------------------------- */

/* The claim is true and proved; if it is not the least, names the least values: the least
 * preperiod of p from the computed values, and the least period among the divisors of p, which
 * share it (a period of the part from e repeats within one block of p). */
static void least_note(gr_ctx *c, const gr_rquery *q, int64_t p, int64_t e, int64_t limit, char *buf, size_t cap) {
    const gr_game *g = q->game;
    buf[0] = '\0';
    int64_t el = e;
    while (el > 0 && value_at(g, el - 1 + p) == value_at(g, el - 1)) el--;
    if (sat_add(el, sat_mul(2, p)) - 1 > limit) {
        if (el != e) textf(buf, cap, "; the least preperiod of period %lld is %lld", (long long)p, (long long)el);
        return;
    }
    ensure_values(c, q, el + 2 * p - 1);
    int64_t pl = p;
    for (int64_t d = 1; d < p && pl == p; d++) {
        if (p % d) continue;
        int ok = 1;
        for (int64_t n = el; n < el + p && ok; n++) ok = value_at(g, n + d) == value_at(g, n);
        if (ok) pl = d;
    }
    if (pl != p || el != e)
        textf(buf, cap, "; the least period is %lld and the least preperiod %lld", (long long)pl, (long long)el);
}

static void run_claim(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    gr_game *g = q->game;
    need_heap_values(c, q);
    int64_t p = q->period, e = q->has_preperiod ? q->preperiod : 0, s = q->has_saltus ? q->saltus : 0;
    cert ct;
    cert_for(g, &ct);
    if (ct.kind == CERT_NIM) { nim_claim(p, e, s, out); return; }
    plan pl;
    plan_init(&pl, c, g);
    int64_t limit = plan_limit(&pl);
    int provable = ct.kind != CERT_NONE && s == 0;
    int64_t need = provable ? cert_need(&ct, e, p) : INT64_MAX;
    pl.target = min64(pl.target, need);
    /* No pair within the limit: compute nothing (unless the window is empty: S = {}) */
    if (sat_add(e, p) >= pl.target && !(provable && need <= pl.target)) pl.target = 0;
    int64_t next = e;                               /* the next n to compare */
    int64_t have = 0;                               /* values computed: heaps 0..have-1 */
    for (int64_t more; (more = plan_next(&pl, have)) > have;) {
        have = more;
        ensure_values(c, q, have - 1);
        for (; next < have - p; next++) {
            gr_poll(c);
            int64_t a = value_at(g, next), b = value_at(g, next + p);
            if (b - a != s) {
                refute(out, next, p, s, a, b);
                textf(out->theorem, sizeof out->theorem, "the first n >= %lld with sg(n + %lld) != sg(n)%s: n = %lld",
                      (long long)e, (long long)p, s ? " + saltus" : "", (long long)next);
                return;
            }
        }
    }
    set_period(out, p, e, s);
    char rel[96];
    relation(rel, sizeof rel, p, s);
    if (provable && have >= need) {
        char note[160];
        least_note(c, q, p, e, limit, note, sizeof note);
        out->status = GR_CHECK_PROVED;
        out->checked_to = need - 1;
        proved_text(out, &ct, p, e, note);
        return;
    }
    out->status = GR_CHECK_HOLDS;
    out->checked_to = max64(have - 1, 0);
    char why[384];
    unproved_reason(&ct, p, e, s, why, sizeof why);
    if (next > e)
        textf(out->theorem, sizeof out->theorem, "not proved: %s; %s holds for %lld <= n <= %lld (heaps up to %lld computed%s%s)",
              why, rel, (long long)e, (long long)(next - 1), (long long)(have - 1), *plan_note(&pl) ? ", " : "",
              plan_note(&pl));
    else
        textf(out->theorem, sizeof out->theorem, "not proved: %s; nothing compared: the first pair needs heap %lld, "
              "beyond the limit of heap %lld%s%s", why, (long long)sat_add(e, p), (long long)max64(have - 1, limit),
              *plan_note(&pl) ? ", " : "", plan_note(&pl));
}

/* ---- check G: FORMULA for x in lo..hi, ... ---------------------------------------------------- */

typedef struct formula_state {
    gr_ctx *c;
    gr_game *g;
    gr_sumgraph *graph;        /* the ground truth, made on first need */
    gr_module module;          /* for the sum graph: the games from g on */
    int64_t *dense;            /* line-move rule sets: sg of 0..rows-1 x 0..cols-1, filled at once */
    uint64_t *pbits;           /* ... or, for a claim that asks no sg, their P-positions (a bit each) */
    int64_t rows, cols;
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

/* Fills the values the check will read with the fastest evaluator for the range, before the
 * pass over the claim: the line kernel for line-move rule sets, the dense box for other tuple
 * rule sets (heap games fill their table as the hooks ask, in order). */
static void prefill(formula_state *st, const gr_rquery *q) {
    gr_game *g = st->g;
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY];
    if (g->play != CONV_NORMAL || g->shape != SHAPE_TUPLE || g->evaluator != EVAL_TABLE) return;
    if (!binding_box(q, g->arity, lo, hi)) return;
    if (g->kernel == KER_LINES) {
        if (lo[0] < 0 || lo[1] < 0 || hi[0] > INT32_MAX || hi[1] > INT32_MAX) return;
        st->rows = hi[0] + 1;
        st->cols = hi[1] + 1;
        if (!(gr_code_hooks(q->formula) & (1u << GR_HOOK_SG))) {
            st->pbits = gr_alloc(st->c, gr_size_mul(st->c, gr_lines_pbits_words(st->rows, st->cols), sizeof *st->pbits));
            gr_lines_outcomes(st->c, g, st->rows, st->cols, st->pbits);
            return;
        }
        st->dense = gr_alloc(st->c, gr_size_mul(st->c, gr_size_mul(st->c, (size_t)st->rows, (size_t)st->cols), sizeof *st->dense));
        gr_lines_fill(st->c, g, st->rows, st->cols, st->dense);
        return;
    }
    if (!gr_rules_valid(st->c, g, lo) || !gr_rules_valid(st->c, g, hi)) return;
    gr_tuple_reserve(st->c, g, lo, hi);
}

static const char *hook_name(int hook) { return hook == GR_HOOK_P ? "P" : hook == GR_HOOK_N ? "N" : "sg"; }

/* The value from a recurrence (normal play only), or -1 if there is none. */
static int64_t recurrence_sg(formula_state *st, const int64_t *pos, gr_loc loc) {
    gr_game *g = st->g;
    if (g->play != CONV_NORMAL) return -1;
    if (g->shape == SHAPE_HEAP && g->evaluator == EVAL_HEAP) {
        if (gr_heap_ensure(st->c, g, pos[0]) < 0) return -1;
        return gr_heap_sg(st->c, g, pos[0]);
    }
    if (g->shape == SHAPE_TUPLE && g->evaluator == EVAL_TABLE) return gr_tuple_sg(st->c, g, pos, loc);
    return -1;
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
    for (int i = 0; i < nargs; i++) appendf(buf, cap, &pos, "%s%lld", i ? ", " : "", (long long)args[i]);
}

static const char *fmt_args(char *buf, size_t cap, const int64_t *args, int nargs) {
    format_args(buf, cap, args, nargs);
    return buf;
}

static int64_t hook_call(void *user, int hook, const int64_t *args, int nargs, gr_loc loc) {
    formula_state *st = user;
    gr_ctx *c = st->c;
    gr_game *g = st->g;
    if (st->dense && args[0] >= 0 && args[1] >= 0 && args[0] < st->rows && args[1] < st->cols) {
        int64_t v = st->dense[args[0] * st->cols + args[1]];
        return hook == GR_HOOK_SG ? v : hook == GR_HOOK_P ? v == 0 : v != 0;
    }
    if (st->pbits && hook != GR_HOOK_SG && args[0] >= 0 && args[1] >= 0 && args[0] < st->rows && args[1] < st->cols) {
        int p = gr_lines_is_p(st->pbits, st->cols, args[0], args[1]);
        return hook == GR_HOOK_P ? p : !p;
    }
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
    int64_t v = recurrence_sg(st, args, loc);
    gr_eval_at(c, at_pos, at_n);
    if (v >= 0) return hook == GR_HOOK_SG ? v : hook == GR_HOOK_P ? v == 0 : v != 0;
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
    appendf(js, cj, &pj, "{");
    if (q->nbinds) appendf(tx, ct, &pt, "at ");
    for (int i = 0; i < q->nbinds; i++) {
        long long v = (long long)frame[q->binds[i].slot];
        appendf(js, cj, &pj, "%s\"%s\":%lld", i ? "," : "", q->binds[i].name, v);
        appendf(tx, ct, &pt, "%s%s = %lld", i ? ", " : "", q->binds[i].name, v);
    }
    if (q->nbinds) appendf(tx, ct, &pt, ": ");
    formula_text(c, q->q->formula, formula, sizeof formula);
    appendf(tx, ct, &pt, "%s is false", formula);
    const gr_expr *f = q->q->formula;
    if (is_two_sided(f)) {
        int64_t l = gr_eval(c, gr_expr_compile(c, f->a, &q->scope, q->game->arity), frame, hooks);
        int64_t r = gr_eval(c, gr_expr_compile(c, f->b, &q->scope, q->game->arity), frame, hooks);
        if (f->op == OP_IFF) { l = l != 0; r = r != 0; }
        appendf(js, cj, &pj, "%s\"lhs\":%lld,\"rhs\":%lld", q->nbinds ? "," : "", (long long)l, (long long)r);
        appendf(tx, ct, &pt, " (left %lld, right %lld)", (long long)l, (long long)r);
    }
    appendf(js, cj, &pj, "}");
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
    if (!c->progress) return 0;
    double total = 1;
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
        total *= hi >= lo ? (double)hi - (double)lo + 1 : 0;
    }
    return total >= 1 && total < 1e18 ? (uint64_t)total : 0;
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
 * (whose filling can) tentatively, stopping before any heap that would fail (gr_heap_prefill). */
enum { PAR_MIN = 8192, PAR_FIRST = 1024, PAR_BLOCK = 32768, R_NEED = 2 };

typedef struct par_member { gr_ctx *wc; const gr_game *g; } par_member;
typedef struct par_job {
    const gr_rquery *q;
    int slot, stride;       /* a member's frame: stride slots, no cache line shared with another's */
    int64_t x0;
    int64_t *frames;        /* a frame per member */
    par_member *pm;
} par_job;

static int heap_ready(const gr_game *g, int64_t n) {
    int64_t p, pre;
    if (g->kernel == KER_NIM) return 1;
    return !g->not_recurrence && g->sg && (n < g->sg->n || gr_heap_period(g, &p, &pre));
}

/* hook_call for a member: the same checks and texts, values only where they are ready */
static int64_t par_hook(void *user, int hook, const int64_t *args, int nargs, gr_loc loc) {
    par_member *pm = user;
    char at[256];
    if (args[0] < 0)
        gr_fail_at(pm->wc, loc, GR_EXIT_INPUT, "%s(%s): a heap cannot be negative", hook_name(hook), fmt_args(at, sizeof at, args, nargs));
    if (!heap_ready(pm->g, args[0])) gr_team_leave(pm->wc, R_NEED);
    int64_t v = gr_heap_value(pm->g, args[0]);
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

typedef struct par_run { gr_team *team; int64_t *frames; par_member *pm; int *res; } par_run;
static void par_release(par_run *R) {
    gr_team_free(R->team);
    free(R->frames);
    free(R->pm);
    free(R->res);
    free(R);
}

static int par_eligible(gr_ctx *c, const gr_rquery *q, const formula_state *st, int64_t lo, int64_t hi) {
    const gr_game *g = st->g;
    return c->threads > 1 && lo <= hi && (uint64_t)hi - (uint64_t)lo >= PAR_MIN - 1 && q->nbinds <= 16 &&
           g->play == CONV_NORMAL && g->shape == SHAPE_HEAP && g->evaluator == EVAL_HEAP && !g->not_recurrence &&
           !(g->rules && g->rules->where) && !st->dense;
}

/* The innermost binding k over lo..hi; frame[its slot] ends at hi. Returns 1 when refuted. */
static int par_range(gr_ctx *c, gr_rquery *q, int k, int64_t *frame, int64_t lo, int64_t hi, const gr_hooks *hooks,
                     gr_progress *pr, int64_t *count, gr_check_result *out) {
    formula_state *st = hooks->user;
    gr_game *g = st->g;
    par_run *const R = calloc(1, sizeof *R);
    if (!R || !(R->team = gr_team_new(c))) { free(R); return -1; }
    int members = gr_team_size(R->team), nslots = q->nslots > 0 ? q->nslots : 1, slot = q->binds[k].slot, n = q->nbinds;
    int stride = (nslots + 7) / 8 * 8 + 8;
    R->frames = malloc((size_t)members * (size_t)stride * sizeof *R->frames);
    R->pm = calloc((size_t)members, sizeof *R->pm);
    R->res = malloc(PAR_BLOCK * sizeof *R->res);
    if (!R->frames || !R->pm || !R->res) { par_release(R); return -1; }
    gr_guard guard;
    gr_guard_enter(c, &guard);     /* before setjmp: nothing the handler reads changes after it */
    if (setjmp(guard.jb)) {
        par_release(R);
        gr_guard_rethrow(c, &guard);
    }
    int refuted = 0;
    int64_t grew = 0, had = g->sg ? g->sg->n : 0, size = PAR_FIRST, last = 0;
    for (int64_t x = lo;;) {
        int64_t B = (uint64_t)hi - (uint64_t)x >= (uint64_t)size - 1 ? size : hi - x + 1;
        int64_t p, pre;
        if (grew > 0 && g->sg && !gr_heap_period(g, &p, &pre)) {
            /* ahead at the rate of the last block: grew over last items */
            int64_t want = g->sg->n - 1 + (int64_t)((double)grew * (double)B / (double)last);
            if (g->kernel == KER_SUBTRACT || g->kernel == KER_OCTAL || g->kernel == KER_TB) gr_heap_ensure(c, g, want);
            else if (g->kernel == KER_RULES) gr_heap_prefill(c, g, want);
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
        int64_t now = g->sg ? g->sg->n : 0;
        grew = now - had;
        had = now;
    }
    gr_guard_leave(c, &guard);
    par_release(R);
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
static void run_formula(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
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
        gr_free(c, st.dense);
        gr_free(c, st.pbits);
    }
    gr_progress_end(&pr);
    out->checked_to = count;
    if (!refuted && q->nmembers) {
        out->status = GR_CHECK_HOLDS;
        textf(out->theorem, sizeof out->theorem, "checked %lld assignment%s over %d members, %s to %s; a formula over "
                 "positions is never proved", (long long)count, count == 1 ? "" : "s", q->nmembers,
                 q->members[0]->name, q->members[q->nmembers - 1]->name);
    } else if (!refuted) {
        out->status = GR_CHECK_HOLDS;
        textf(out->theorem, sizeof out->theorem, "checked %lld assignment%s; a formula over positions is never proved",
                 (long long)count, count == 1 ? "" : "s");
    } else {
        textf(out->theorem, sizeof out->theorem, "refuted at assignment %lld in iteration order%s%s", (long long)count,
              q->nmembers ? ", in member " : "", q->nmembers ? q->game->name : "");
    }
    if (q->nmembers) q->game = q->members[0];
    gr_free(c, frame);
    gr_free(c, hi);
}

/* ---- entry ------------------------------------------------------------------------------------ */

void gr_check_run(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    memset(out, 0, sizeof *out);
    switch (q->check) {
    case CK_PERIODIC: run_periodic(c, q, out); break;
    case CK_PERIOD: run_claim(c, q, out); break;
    case CK_FORMULA: run_formula(c, q, out); break;
    }
}
