/* certify: the certificates of periodicity in words; see certify.h. */
#include "certify.h"
#include "period.h"
#include "lower.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* snprintf into buf: truncation is fine for text (and keeps -Wformat-truncation quiet about
 * the lengths it cannot bound). */
static void textf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void textf(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

static int tb_constrained(const gr_tbcode *tb) {
    for (int i = 0; i < tb->ndigits; i++)
        if (tb->d[i].constraint) return 1;
    return 0;
}

void gr_cert_for(const gr_game *g, gr_cert *ct) {
    memset(ct, 0, sizeof *ct);
    ct->w = gr_window_of(g);
    ct->kind = (gr_cert_kind)ct->w.kind;
    if (g->kernel == KER_OCTAL || g->kernel == KER_TB) gr_tbcode_format(&g->tb, ct->code, sizeof ct->code);
    if (ct->kind != GR_CERT_NONE) return;
    switch (g->kernel) {
    case KER_OCTAL: case KER_TB:
        if (tb_constrained(&g->tb))
            textf(ct->why_not, sizeof ct->why_not, "take-and-break %s constrains the sizes of the parts (! ? =), "
                     "which the Guy-Smith argument cannot shift by p", ct->code);
        else
            textf(ct->why_not, sizeof ct->why_not, "take-and-break %s has repeating digits, so moves remove "
                     "unboundedly many tokens and no window is finite", ct->code);
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

void gr_cert_name(const gr_cert *ct, char *buf, size_t cap) {
    if (ct->kind == GR_CERT_SUBTRACT)
        textf(buf, cap, "finite subtraction set, max(S) = %lld: sg(n) depends only on the %lld values before it",
                 (long long)ct->w.m, (long long)ct->w.m);
    else if (ct->w.k <= 2)
        textf(buf, cap, "Guy-Smith (take-and-break %s: last nonzero digit at place t = %lld)", ct->code, (long long)ct->w.t);
    else
        textf(buf, cap, "Guy-Smith generalised to moves leaving up to k = %lld heaps (take-and-break %s, t = %lld; "
                 "window k max(e,1) + (k-1) p + t)", (long long)ct->w.k, ct->code, (long long)ct->w.t);
}

void gr_cert_unproved(const gr_cert *ct, int64_t p, int64_t e, int64_t s, char *buf, size_t cap) {
    if (ct->kind == GR_CERT_NONE) { textf(buf, cap, "%s", ct->why_not); return; }
    if (s != 0) { textf(buf, cap, "no theorem here proves arithmetic periodicity (saltus %lld)", (long long)s); return; }
    char name[256];
    gr_cert_name(ct, name, sizeof name);
    if (gr_cert_need(ct, e, p) == INT64_MAX) { textf(buf, cap, "%s needs a window beyond 64-bit heaps", name); return; }
    textf(buf, cap, "%s needs agreement for %lld <= n < %lld, i.e. heaps up to %lld (raise --to)", name,
             (long long)e, (long long)gr_cert_window(ct, e, p), (long long)(gr_cert_need(ct, e, p) - 1));
}

int64_t gr_cert_least_plausible(const gr_detect *d, int64_t *e, int64_t *s) {
    for (int64_t p = 1; p <= d->n / 2; p++) {
        if (!gr_period_plausible(d->n, p, gr_detect_start(d, p))) continue;
        *e = gr_detect_start(d, p);
        *s = gr_detect_saltus(d, p);
        return p;
    }
    return 0;
}
