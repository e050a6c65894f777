/* quotient_show: the 'quotient G(0..n)' query: the misere quotient of heaps 0..n (eval/
 * cap_quotient.h) as text, CSV or JSON: order, P-portion, presentation, pretending function,
 * tameness, the heap of the last growth, and whether a theorem carries it to every heap. */
#include "show.h"
#include "eval/cap_quotient.h"
#include "core/worker.h"
#include <string.h>

static void json_str(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* How far a quotient got (heaps 0..last proved, then heap `stopped` not added, and why): the
 * order at each heap and what the search at the stopped heap proved, in every format. */
static void partial_write(const gr_quotient *q, gr_game *g, int64_t to, int64_t last, int64_t stopped, const char *why,
                          gr_format fmt, FILE *out) {
    int cert = q->cert_heap == stopped && q->ngames == 1 && stopped > 0;   /* what its refuted candidates proved */
    if (fmt == GR_FMT_JSON) {
        fputs("{\"query\":\"quotient\",\"game\":", out);
        json_str(out, g->name);
        fprintf(out, ",\"to\":%lld,\"status\":\"limit\",\"reached\":%lld,\"order\":%d,\"limit\":", (long long)to,
                (long long)last, last >= 0 ? q->order_at[last] : 1);
        json_str(out, why);
        if (cert) fprintf(out, ",\"proved_at_least\":{\"heap\":%lld,\"order\":%lld,\"powers\":%d}", (long long)stopped,
                          (long long)q->cert_order, q->cert_powers);
        fputs(",\"growth\":[", out);
        for (int64_t h = 0; h <= last; h++) fprintf(out, "%s[%lld,%d]", h ? "," : "", (long long)h, q->order_at[h]);
        fputs("]}\n", out);
    } else if (fmt == GR_FMT_CSV) {
        fputs("heap,order\n", out);
        for (int64_t h = 0; h <= last; h++) fprintf(out, "%lld,%d\n", (long long)h, q->order_at[h]);
    } else {
        fprintf(out, "%s(0..%lld): misere quotient stopped at heap %lld (order %d at heap %lld): %s\n  order by heap:", g->name,
                (long long)to, (long long)stopped, last >= 0 ? q->order_at[last] : 1, (long long)last, why);
        for (int64_t h = 0; h <= last; h++) fprintf(out, "%s%lld:%d", h % 12 ? " " : "\n   ", (long long)h, q->order_at[h]);
        if (cert && (q->cert_order > (last >= 0 ? q->order_at[last] : 1) || q->cert_powers > 1))
            fprintf(out, "\n  proved on the way: with heap %lld the quotient has at least %lld elements, and heap %lld's element at least %d distinct powers",
                    (long long)stopped, (long long)q->cert_order, (long long)stopped, q->cert_powers);
        fputs("\n\n", out);
    }
}

static void show_partial(const gr_quotient *q, gr_game *g, int64_t to, int64_t last, int64_t stopped, const char *why,
                         const gr_sink *sk) {
    GR_SINK_EACH(sk, fmt, out) partial_write(q, g, to, last, stopped, why, fmt, out);
}

/* The quotient of g's heaps 0..to; a limit (--max-time, --max-memory) in its search shows how
 * far it got before the limit's message, as a search that stopped at its own limits does. */
static gr_quotient *quotient_or_how_far(gr_ctx *c, const gr_quotient_cap *Q, gr_game *g, int64_t to, const gr_sink *sk,
                                        char *why, size_t cap) {
    gr_guard gd;
    gr_guard_enter(c, &gd);
    if (setjmp(gd.jb)) {
        int64_t last = -1;
        gr_quotient *q = c->fail_status == GR_EXIT_LIMIT ? Q->so_far(g, &last) : NULL;
        if (q && last >= 0 && last < to) {
            /* the limit's own words, to the first ';' (the full message follows on stderr) */
            char lim[200];
            const char *e = strstr(c->fail_msg, "error: ");
            e = e ? e + 7 : c->fail_msg;
            size_t len = strcspn(e, ";\n");
            if (len >= sizeof lim) len = sizeof lim - 1;
            memcpy(lim, e, len);
            lim[len] = '\0';
            show_partial(q, g, to, last, last + 1, lim, sk);
        }
        gr_guard_rethrow(c, &gd);
    }
    gr_quotient *q = Q->of(c, g, to, why, cap);
    gr_guard_leave(c, &gd);
    return q;
}

/* The quotient of heaps 0..to in one format. */
static void quotient_write(gr_ctx *c, const gr_quotient_cap *Q, gr_quotient *q, const gr_presentation *p, gr_game *g,
                           int64_t to, const char *tame, gr_format fmt, FILE *out) {
    const gr_presentation pr = *p;
    if (fmt == GR_FMT_JSON) {
        fprintf(out, "{\"query\":\"quotient\",\"game\":");
        json_str(out, g->name);
        fprintf(out, ",\"to\":%lld,\"order\":%d,\"p_order\":%d,\"generators\":[", (long long)to, q->order, q->p_order);
        for (int i = 0; i < pr.ngens; i++) {
            if (i) fputc(',', out);
            char nm[16];
            snprintf(nm, sizeof nm, "%s", pr.words[pr.gen_elem[i]]);
            json_str(out, nm);
        }
        fprintf(out, "],\"relations\":[");
        for (int i = 0; i < pr.nrel; i++) { if (i) fputc(',', out); json_str(out, pr.relations[i]); }
        fprintf(out, "],\"pretending\":[");
        for (int64_t h = 0; h <= to; h++) { if (h) fputc(',', out); json_str(out, pr.words[Q->elem(c, q, h)]); }
        fprintf(out, "],\"tame\":");
        if (pr.tame_k > 0) json_str(out, tame); else fprintf(out, "false");
        fprintf(out, ",\"last_growth\":%lld}\n", (long long)q->last_growth);
    } else if (fmt == GR_FMT_CSV) {
        fprintf(out, "field,value\norder,%d\np_order,%d\ntame,%s\nlast_growth,%lld\ngenerators,", q->order, q->p_order, tame, (long long)q->last_growth);
        for (int i = 0; i < pr.ngens; i++) fprintf(out, "%s%s", i ? " " : "", pr.words[pr.gen_elem[i]]);
        fprintf(out, "\nrelations,\"");
        for (int i = 0; i < pr.nrel; i++) fprintf(out, "%s%s", i ? "; " : "", pr.relations[i]);
        fprintf(out, "\"\nheap,element\n");
        for (int64_t h = 0; h <= to; h++) fprintf(out, "%lld,%s\n", (long long)h, pr.words[Q->elem(c, q, h)]);
    } else {
        fprintf(out, "%s(0..%lld): misere quotient of order %d, |P| = %d, ", g->name, (long long)to, q->order, q->p_order);
        if (pr.tame_k > 0) fprintf(out, "tame (T%d, misere Nim of the heaps 0..%lld)\n", pr.tame_k, (1LL << pr.tame_k) - 1);
        else fprintf(out, "%s\n", tame);
        fprintf(out, "  <");
        for (int i = 0; i < pr.ngens; i++) fprintf(out, "%s%s", i ? ", " : "", pr.words[pr.gen_elem[i]]);
        fprintf(out, " | ");
        for (int i = 0; i < pr.nrel; i++) fprintf(out, "%s%s", i ? ", " : "", pr.relations[i]);
        fprintf(out, ">\n  P = {");
        int first = 1;
        for (int32_t x = 0; x < q->order; x++)
            if (q->inP[x]) { fprintf(out, "%s%s", first ? "" : ", ", pr.words[x]); first = 0; }
        fprintf(out, "}\n  generators from heaps");
        for (int i = 0; i < pr.ngens; i++) fprintf(out, " %lld (%s)", (long long)pr.gen_heap[i], pr.words[pr.gen_elem[i]]);
        fprintf(out, "\n  last growth at heap %lld\n  pretending function:", (long long)q->last_growth);
        for (int64_t h = 0; h <= to; h++) fprintf(out, "%s%s", h % 16 ? " " : "\n   ", pr.words[Q->elem(c, q, h)]);
        fprintf(out, "\n  %s\n", q->proved ? q->theorem : q->theorem[0] ? q->theorem : "no period proved");
        if (!q->proved) fprintf(out, "  the quotient of heaps 0..%lld only; larger heaps may make it grow\n", (long long)to);
        fputc('\n', out);
    }
}

void gr_run_quotient(gr_ctx *c, gr_module *m, const gr_rquery *r, const gr_sink *sk) {
    (void)m;
    gr_game *g = r->game;
    int64_t to = r->hi[0];
    char why[512];
    const gr_quotient_cap *Q = gr_cap_quotient(g, why, sizeof why);
    gr_quotient *q = Q ? quotient_or_how_far(c, Q, g, to, sk, why, sizeof why) : NULL;
    if (!q) gr_fail_at(c, r->q->game.loc, GR_EXIT_INPUT, "no misere quotient: %s", why);
    if (q->failed && q->failed <= to) {
        /* how far it got: the order at each heap proved, then the limit (status 3) */
        int64_t last = q->failed - 1;
        show_partial(q, g, to, last, q->failed, q->why_failed, sk);
        gr_fail(c, GR_EXIT_LIMIT, "misere quotient of %s: the quotient of heaps 0..%lld (order %d) was not extended to heap %lld: %s; computed no further",
                g->name, (long long)last, q->order_at[last], (long long)q->failed, q->why_failed);
    }
    /* computed further before (the evaluators' cache): the quotient of 0..to itself, so the
     * answer does not depend on what was asked first */
    gr_quotient *own = NULL;
    if (q->nheaps > (to + 1) * q->ngames) q = own = Q->restrict_to(c, q, to);
    if (!q->proved) Q->prove(c, q);
    gr_presentation pr;
    Q->present(c, q, &pr);
    char tame[32];
    if (pr.tame_k > 0) snprintf(tame, sizeof tame, "T%d", pr.tame_k);
    else snprintf(tame, sizeof tame, pr.tame_k < 0 ? "trivial" : "wild");
    GR_SINK_EACH(sk, fmt, out) quotient_write(c, Q, q, &pr, g, to, tame, fmt, out);
    Q->presentation_free(c, &pr);
    Q->free(c, own);
}
