/* check: the 'check' queries; see check.h and docs/periodicity.md. The query lives here (its
 * stages, its results and their text); the mathematics is period/'s (window.h, proved.h,
 * detect.h, certify.h), and the values come from the heap table's capability as plain
 * integers (eval/cap_heaptable.h).
 *
 *   check G periodic            values are computed in stages (256, 512, ... heaps, up to the
 *                               limit); after each stage the detector of detect.h reads every
 *                               candidate period off the values in linear time, the least whose
 *                               run covers a theorem's window is proved (proved.h, the finder
 *                               the table's own filling stops at too), otherwise the next
 *                               stage is computed. At the limit the least plausible candidate
 *                               is reported as holding.
 *   check G period p ...        the first n >= e with sg(n + p) != sg(n) + s refutes; agreement
 *                               over a theorem's window proves; otherwise it holds to the limit.
 *   check G: FORMULA for ...    formula.c: every assignment of the bound variables in odometer
 *                               order; the first one that makes the formula 0 refutes.
 *
 * The theorems (certificates), each turning agreement on a finite window into all n >= e:
 *   nim                 sg(n) = n itself (p = 1, saltus 1, e = 0)
 *   finite subtraction  window e <= n < e + max(S)
 *   take-and-break      window e <= n < k max(e, 1) + (k - 1) p + t, for codes without
 *                       constraints or repeating digits whose moves leave at most k heaps and
 *                       remove at most t tokens (k = 2 is Guy and Smith's 2e + p + t)
 * Nothing else is ever reported as proved. */
#include "check.h"
#include "checktext.h"
#include "formula.h"
#include <string.h>
#include "eval/evaluator.h"
#include "eval/cap_ready.h"
#include "eval/cap_heaptable.h"
#include "certify.h"
#include "period.h"
#include "proved.h"
#include "progress.h"

enum { FIRST_STAGE = 256 };

/* ---- saturating arithmetic on nonnegative sizes (windows of absurd claims) ---------------- */
static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
static int64_t sat_mul(int64_t a, int64_t b) { return a && b > INT64_MAX / a ? INT64_MAX : a * b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ---- values -------------------------------------------------------------------------------- */

/* Periodicity is about normal-play values of a heap recurrence; anything else is an input error
 * at the query. */
static void need_heap_values(gr_ctx *c, const gr_rquery *q) {
    const gr_game *g = q->game;
    if (g->play != CONV_NORMAL)
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "periodicity is about normal-play Sprague-Grundy values; '%s' is played %s",
                   g->name, gr_convention_name(g->play));
    if (g->shape != SHAPE_HEAP || !gr_cap_heap_table(g))
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "periodicity needs the values of a heap recurrence; '%s' is evaluated otherwise (%s%s)",
                   g->name, g->explain, g->state->found);
}

/* Makes sg(0..upto) available or fails at the query. */
static void ensure_values(gr_ctx *c, const gr_rquery *q, int64_t upto) {
    int64_t zero = 0;
    if (!gr_eval_ensure(c, q->game, &zero, &upto, GR_KIND_SG))
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "periodicity needs the values of a heap recurrence, and '%s' is not one (%s%s)",
                   q->game->name, q->game->explain, q->game->state->found);
}

/* sg(n) once ensure_values(n) succeeded. */
static int64_t value_at(const gr_game *g, int64_t n) {
    int64_t v = -1;
    gr_eval_ready(g, &n, GR_KIND_SG, &v);
    return v;
}

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

static void plan_init(plan *pl, gr_ctx *c, gr_game *g) {
    memset(pl, 0, sizeof *pl);
    pl->c = c;
    pl->g = g;
    pl->target = c->check_to > 0 ? sat_add(c->check_to, 1) : DEFAULT_TO + 1;
    pl->left = gr_cap_heap_table(g)->check_budget(g);   /* need_heap_values: there is one */
    pl->bounded = c->check_to <= 0 && pl->left > 0;
}

/* The largest heap a check may reach. */
static int64_t plan_limit(const plan *pl) { return pl->target - 1; }

/* The work of computing heaps have..n-1, bounded by (n - have) times the options of n - 1. */
static uint64_t stage_work(const plan *pl, int64_t have, int64_t n) {
    int64_t last = n - 1;
    uint64_t k = gr_eval_count_options(pl->c, pl->g, &last);
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
    if (s == 0) gr_check_textf(buf, cap, "sg(n + %lld) = sg(n)", (long long)p);
    else gr_check_textf(buf, cap, "sg(n + %lld) = sg(n) %s %llu", (long long)p, s < 0 ? "-" : "+",
                  s < 0 ? (unsigned long long)-(s + 1) + 1 : (unsigned long long)s);
}

/* ---- nim: the kernel is the theorem --------------------------------------------------------- */

static void nim_periodic(gr_check_result *out) {
    out->status = GR_CHECK_PROVED;
    set_period(out, 1, 0, 1);
    out->checked_to = 1;
    gr_check_textf(out->theorem, sizeof out->theorem, "nim (subtract 1..): every smaller heap is an option, so sg(n) = n by "
             "induction; hence sg(n + 1) = sg(n) + 1 for all n >= 0 (arithmetic period 1, saltus 1)");
}

static void refute(gr_check_result *out, int64_t n, int64_t p, int64_t s, int64_t vn, int64_t vnp) {
    out->status = GR_CHECK_REFUTED;
    out->has_period = 0;
    out->has_counterexample = 1;
    out->checked_to = n + p;
    gr_check_textf(out->counterexample_json, sizeof out->counterexample_json, "{\"n\":%lld,\"sg\":%lld,\"sg_n_plus_p\":%lld}",
             (long long)n, (long long)vn, (long long)vnp);
    if (s == 0)
        gr_check_textf(out->counterexample_text, sizeof out->counterexample_text, "sg(%lld) = %lld but sg(%lld + %lld) = sg(%lld) = %lld",
                 (long long)n, (long long)vn, (long long)n, (long long)p, (long long)(n + p), (long long)vnp);
    else
        gr_check_textf(out->counterexample_text, sizeof out->counterexample_text,
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
        gr_check_textf(out->theorem, sizeof out->theorem, "no heap n >= %lld has n + %lld within 64 bits; nothing to check",
                 (long long)e, (long long)p);
        return;
    }
    if (s != p) {
        refute(out, e, p, s, e, e + p);
        gr_check_textf(out->theorem, sizeof out->theorem, "nim: sg(n) = n, so sg(n + %lld) = sg(n) + %lld for every n, never %s",
                 (long long)p, (long long)p, rel);
        return;
    }
    out->status = GR_CHECK_PROVED;
    set_period(out, p, e, s);
    out->checked_to = e + p;
    gr_check_textf(out->theorem, sizeof out->theorem, "nim (subtract 1..): sg(n) = n by induction, so %s for all n >= 0%s",
             rel, p != 1 || e != 0 ? "; the least values are period 1, saltus 1, preperiod 0" : "");
}

/* ---- check G periodic ----------------------------------------------------------------------- */

static void proved_text(gr_check_result *out, const gr_cert *ct, int64_t p, int64_t e, const char *extra) {
    char name[256];
    gr_cert_name(ct, name, sizeof name);
    gr_check_textf(out->theorem, sizeof out->theorem, "%s: sg(n + %lld) = sg(n) for %lld <= n < %lld, so for all n >= %lld%s",
             name, (long long)p, (long long)e, (long long)gr_cert_window(ct, e, p), (long long)e, extra);
}

/* The heaps vals lacks among the first n, copied in from the heap table as plain integers. */
static void take_values(const gr_heap_table_cap *table, const gr_game *g, gr_values *vals, int64_t n) {
    int64_t lo = vals->n;
    if (n <= lo) return;
    uint16_t *v16 = gr_values_room16(vals, n);
    if (!v16 || !table->read16(g, lo, n - lo, v16 + lo)) table->read(g, lo, n - lo, gr_values_room64(vals, n) + lo);
    vals->n = n;
}

/* The research tables' columns over the heaps the answer rests on. */
static void periodic_columns(gr_ctx *c, const gr_heap_table_cap *table, const gr_game *g, const gr_values *vals,
                             gr_check_result *out) {
    if (out->checked_to < 0) return;
    gr_value_columns *col = &out->columns;
    memset(col, 0, sizeof *col);
    /* the rare-value kernel's own classes, else the split the values give: oriented as that
     * kernel would (and the published tables count) for a code it handles, any for the rest */
    col->has_rare = col->rare_kernel = table->rare_classes(g, &col->rare_mask, &col->rare_heap_parity, &col->rare_common);
    if (!col->has_rare) gr_detect_rare_classes_as(c, vals, sat_add(out->checked_to, 1), table->rare_orientation(g), col);
    gr_detect_columns(vals, sat_add(out->checked_to, 1), col);
    out->has_columns = col->upto >= 0;
}

static void run_periodic(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    gr_game *g = q->game;
    need_heap_values(c, q);
    const gr_heap_table_cap *table = gr_cap_heap_table(g);
    gr_cert ct;
    gr_cert_for(g, &ct);
    if (ct.kind == GR_CERT_NIM) { nim_periodic(out); return; }
    plan pl;
    plan_init(&pl, c, g);
    gr_detect d;
    gr_detect_init(&d, c);
    gr_values vals;               /* the values scanned, copied from the table */
    gr_values_init(&vals, c);
    int64_t have = 0, goal = c->heap_goal;
    c->heap_goal = plan_limit(&pl);            /* the bar runs to the last heap, stage after stage */
    for (int64_t next; (next = plan_next(&pl, have)) > have;) {
        ensure_values(c, q, next - 1);
        have = next;
        /* once the table's own proof ends it (heap.h), its values are those the proof read */
        int64_t n = min64(next, table->filled(g));
        take_values(table, g, &vals, n);
        gr_detect_scan(&d, &vals, n);
        int64_t e, p = ct.kind != GR_CERT_NONE ? gr_proved_least(&ct.w, &d, &e) : 0;
        if (p) {
            out->status = GR_CHECK_PROVED;
            set_period(out, p, e, 0);
            out->checked_to = gr_cert_need(&ct, e, p) - 1;
            proved_text(out, &ct, p, e, "");
            periodic_columns(c, table, g, &vals, out);
            gr_detect_free(&d);
            gr_values_free(&vals);
            c->heap_goal = goal;
            return;
        }
    }
    out->status = GR_CHECK_HOLDS;
    out->checked_to = d.n - 1;
    if (c->check_to > 0) c->ckpt_keep = 1;     /* with --checkpoint, a larger --to goes on from here */
    int64_t e = 0, s = 0, p = gr_cert_least_plausible(&d, &e, &s);
    if (p) {
        char rel[96], why[384];
        set_period(out, p, e, s);
        relation(rel, sizeof rel, p, s);
        gr_cert_unproved(&ct, p, e, s, why, sizeof why);
        gr_check_textf(out->theorem, sizeof out->theorem, "not proved: %s; %s holds for %lld <= n <= %lld (heaps up to %lld computed%s%s)",
                 why, rel, (long long)e, (long long)(d.n - 1 - p), (long long)(d.n - 1), *plan_note(&pl) ? ", " : "",
                 plan_note(&pl));
    } else {
        out->status = GR_CHECK_NONE;
        gr_check_textf(out->theorem, sizeof out->theorem, "no period found in heaps 0..%lld%s%s%s: a period p with preperiod e is "
                 "reported once sg(n + p) = sg(n) + s holds from e over the last half of the values and at least two periods",
                 (long long)(d.n - 1), *plan_note(&pl) ? " (" : "", plan_note(&pl), *plan_note(&pl) ? ")" : "");
    }
    periodic_columns(c, table, g, &vals, out);
    gr_detect_free(&d);
    gr_values_free(&vals);
    c->heap_goal = goal;
}

void gr_check_rare_json(const gr_check_result *r, FILE *out) {
    const gr_value_columns *col = &r->columns;
    if (!r->has_columns || !col->has_rare) return;
    fprintf(out, ",\"rare_mask\":%llu,\"rare_heap_parity\":%s,\"rare_count\":%lld", (unsigned long long)col->rare_mask,
            col->rare_heap_parity ? "true" : "false", (long long)col->rare_count);
    if (col->last_rare >= 0) fprintf(out, ",\"last_rare\":%lld", (long long)col->last_rare);
    else fputs(",\"last_rare\":null", out);
}

void gr_check_columns_json(const gr_check_result *r, FILE *out) {
    const gr_value_columns *col = &r->columns;
    if (!r->has_columns || !col->has_rare) return;
    fprintf(out, ",\"largest\":%lld,\"largest_at\":%lld", (long long)col->largest, (long long)col->largest_at);
    gr_check_rare_json(r, out);
}

void gr_check_kernel_json(const gr_check_result *r, FILE *out) {
    if (r->has_columns) fprintf(out, ",\"rare_kernel\":%s", r->columns.rare_kernel ? "true" : "false");
}

void gr_check_columns_csv(const gr_check_result *r, FILE *out) {
    const gr_value_columns *col = &r->columns;
    if (!r->has_columns || !col->has_rare) { fputs(",,,,,,", out); return; }
    fprintf(out, ",%lld,%lld,%llu,%s,%lld,", (long long)col->largest, (long long)col->largest_at,
            (unsigned long long)col->rare_mask, col->rare_heap_parity ? "true" : "false", (long long)col->rare_count);
    if (col->last_rare >= 0) fprintf(out, "%lld", (long long)col->last_rare);
}

void gr_check_columns_text(const gr_check_result *r, const char *indent, FILE *out) {
    const gr_value_columns *col = &r->columns;
    if (!r->has_columns || !col->has_rare) return;
    fprintf(out, "%sin heaps 0..%lld: largest value %lld, first at heap %lld; rare mask 0x%llx%s: %lld rare heap%s",
            indent, (long long)col->upto, (long long)col->largest, (long long)col->largest_at,
            (unsigned long long)col->rare_mask, col->rare_heap_parity ? " with heap parity" : "", (long long)col->rare_count,
            col->rare_count == 1 ? "" : "s");
    if (col->last_rare >= 0) fprintf(out, ", the last at heap %lld\n", (long long)col->last_rare);
    else fputs("\n", out);
}

/* ---- check G period p preperiod e saltus s --------------------------------------------------- */

/* The claim is true and proved; if it is not the least, names the least values: the least
 * preperiod of p from the computed values, and the least period among the divisors of p, which
 * share it (a period of the part from e repeats within one block of p). */
static int64_t game_value(const void *g, int64_t n) { return value_at(g, n); }

static void least_note(gr_ctx *c, const gr_rquery *q, int64_t p, int64_t e, int64_t limit, char *buf, size_t cap) {
    const gr_game *g = q->game;
    buf[0] = '\0';
    int64_t el = gr_period_back(game_value, g, p, e);
    if (sat_add(el, sat_mul(2, p)) - 1 > limit) {
        if (el != e) gr_check_textf(buf, cap, "; the least preperiod of period %lld is %lld", (long long)p, (long long)el);
        return;
    }
    ensure_values(c, q, el + 2 * p - 1);
    int64_t pl = gr_period_least_divisor(game_value, g, p, el);
    if (pl != p || el != e)
        gr_check_textf(buf, cap, "; the least period is %lld and the least preperiod %lld", (long long)pl, (long long)el);
}

static void run_claim(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    gr_game *g = q->game;
    need_heap_values(c, q);
    int64_t p = q->period, e = q->has_preperiod ? q->preperiod : 0, s = q->has_saltus ? q->saltus : 0;
    gr_cert ct;
    gr_cert_for(g, &ct);
    if (ct.kind == GR_CERT_NIM) { nim_claim(p, e, s, out); return; }
    plan pl;
    plan_init(&pl, c, g);
    int64_t limit = plan_limit(&pl);
    int provable = ct.kind != GR_CERT_NONE && s == 0;
    int64_t need = provable ? gr_cert_need(&ct, e, p) : INT64_MAX;
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
                gr_check_textf(out->theorem, sizeof out->theorem, "the first n >= %lld with sg(n + %lld) != sg(n)%s: n = %lld",
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
    gr_cert_unproved(&ct, p, e, s, why, sizeof why);
    if (next > e)
        gr_check_textf(out->theorem, sizeof out->theorem, "not proved: %s; %s holds for %lld <= n <= %lld (heaps up to %lld computed%s%s)",
              why, rel, (long long)e, (long long)(next - 1), (long long)(have - 1), *plan_note(&pl) ? ", " : "",
              plan_note(&pl));
    else
        gr_check_textf(out->theorem, sizeof out->theorem, "not proved: %s; nothing compared: the first pair needs heap %lld, "
              "beyond the limit of heap %lld%s%s", why, (long long)sat_add(e, p), (long long)max64(have - 1, limit),
              *plan_note(&pl) ? ", " : "", plan_note(&pl));
}

/* ---- coin turning: the values of single heads, a sequence like any other --------------------
 * A coin-turning game's position is the xor of its heads' values (the coin-turning theorem), so
 * its periodicity is that of the values of a single heads at places 0, 1, ... (the table's).
 * No theorem covers them: a check says "holds" (to the places computed), "none" or "refuted".
 * A place's flip sets grow with it (Ruler's x runs, x^2 coins), so by default the places stop
 * at COIN_DEFAULT_TO; --to N computes further. */
enum { COIN_DEFAULT_TO = 511 };

static void coin_values(gr_ctx *c, const gr_rquery *q, gr_values *vals, int64_t upto) {
    gr_box box = { .ncoords = 1, .ndims = 1, .loc = q->q->loc };
    box.hi[0] = upto;
    int64_t *v = gr_values_room64(vals, upto + 1);
    if (!gr_eval_fill(c, q->game, CONV_NORMAL, &box, GR_KIND_SG, v))
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "'%s' gives no values of single heads", q->game->name);
    vals->n = upto + 1;
}

static void run_coins(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    const gr_game *g = q->game;
    if (g->play != CONV_NORMAL)
        gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "periodicity is about normal-play Sprague-Grundy values; '%s' is played %s",
                   g->name, gr_convention_name(g->play));
    int64_t upto = c->check_to > 0 ? c->check_to : COIN_DEFAULT_TO;
    const char *note = c->check_to > 0 ? "" : ", the default bound for coin turning; --to N computes further";
    gr_values vals;
    gr_values_init(&vals, c);
    coin_values(c, q, &vals, upto);
    char rel[96];
    if (q->check == CK_PERIOD) {
        int64_t p = q->period, e = q->has_preperiod ? q->preperiod : 0, s = q->has_saltus ? q->saltus : 0;
        relation(rel, sizeof rel, p, s);
        for (int64_t n = e; n + p <= upto; n++) {
            int64_t a = gr_values_get(&vals, n), b = gr_values_get(&vals, n + p);
            if (b - a != s) {
                refute(out, n, p, s, a, b);
                gr_check_textf(out->theorem, sizeof out->theorem, "the first place n >= %lld with sg(n + %lld) != sg(n)%s: "
                               "n = %lld (values of a single heads)", (long long)e, (long long)p, s ? " + saltus" : "", (long long)n);
                gr_values_free(&vals);
                return;
            }
        }
        out->status = GR_CHECK_HOLDS;
        set_period(out, p, e, s);
        out->checked_to = upto;
        gr_check_textf(out->theorem, sizeof out->theorem, "not proved: no theorem covers coin-turning games; %s holds for "
                       "%lld <= n <= %lld (single heads at places up to %lld%s)", rel, (long long)e,
                       (long long)(upto - p), (long long)upto, note);
        gr_values_free(&vals);
        return;
    }
    gr_detect d;
    gr_detect_init(&d, c);
    gr_detect_scan(&d, &vals, vals.n);
    int64_t e = 0, s = 0, p = gr_cert_least_plausible(&d, &e, &s);
    out->checked_to = upto;
    if (p) {
        out->status = GR_CHECK_HOLDS;
        set_period(out, p, e, s);
        relation(rel, sizeof rel, p, s);
        gr_check_textf(out->theorem, sizeof out->theorem, "not proved: no theorem covers coin-turning games; %s holds for "
                       "%lld <= n <= %lld (single heads at places up to %lld%s)", rel, (long long)e, (long long)(upto - p),
                       (long long)upto, note);
    } else {
        out->status = GR_CHECK_NONE;
        gr_check_textf(out->theorem, sizeof out->theorem, "no period found in the values of a single heads at places 0..%lld%s: "
                       "a period p with preperiod e is reported once sg(n + p) = sg(n) + s holds from e over the last half "
                       "of the values and at least two periods", (long long)upto, note);
    }
    gr_detect_free(&d);
    gr_values_free(&vals);
}

/* ---- entry ------------------------------------------------------------------------------------ */

void gr_check_run(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    memset(out, 0, sizeof *out);
    if (q->game->shape == SHAPE_COINS && q->check != CK_FORMULA) { run_coins(c, q, out); return; }
    switch (q->check) {
    case CK_PERIODIC: run_periodic(c, q, out); break;
    case CK_PERIOD: run_claim(c, q, out); break;
    case CK_FORMULA: gr_check_formula(c, q, out); break;
    }
}
