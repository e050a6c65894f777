/* options: every move from a position, once per distinct result, with the result's SG value
 * or outcome. Normal play with values for every component is answered by values (any heap
 * size); otherwise by the position graph of the position. See show.h. */
#include "show.h"
#include "sums.h"
#include "misquot.h"
#include "solve.h"
#include "valuefmt.h"
#include <string.h>

typedef struct option { char *text; int64_t sg; int outcome; } option;
typedef struct option_list {
    gr_ctx *c; option *v; size_t n, cap; gr_pg *pg;
    int64_t unlisted;   /* options of huge heaps past the first 100 of each, not listed */
    gr_loopy loopy;     /* the sets of loopy values (normal play on a graph with cycles) */
    int normal;
} option_list;

static void push(option_list *l, const char *text, int64_t sg, int outcome) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = gr_realloc(l->c, l->v, gr_size_mul(l->c, l->cap, sizeof *l->v));
    }
    l->v[l->n++] = (option){ gr_strndup(l->c, text, strlen(text)), sg, outcome };
}

static void by_value(void *user, const char *text, int64_t sg) { push(user, text, sg, sg ? GR_WIN : GR_LOSS); }
static void by_outcome(void *user, const char *text, int outcome) { push(user, text, -1, outcome); }
static void by_graph(void *user, const char *text, uint32_t id) {
    option_list *l = user;
    /* the value a table or a solve of the option shows: its gamma value on a graph with cycles */
    push(l, text, l->normal ? gr_loopy_of_pg(&l->loopy, l->pg, id) : -1, (int)gr_pg_outcome(l->pg, id));
}

/* The moves into l (l->c set); returns the convention they were answered under. */
static gr_conv collect(gr_ctx *c, gr_module *m, const gr_rquery *q, option_list *l) {
    gr_conv conv = q->conv;
    if (!q->q->has_conv && q->ncomps == 1) conv = q->comps[0].game->play;
    int64_t sg = -1;
    int64_t *vals = gr_alloc(c, sizeof *vals * (size_t)q->ncomps);
    if (conv == CONV_NORMAL && !c->no_theory && gr_sum_sg_fast(c, q->comps, q->ncomps, &sg, vals)) {
        gr_sum_fast_options(c, q->comps, q->ncomps, vals, sg, by_value, l, &l->unlisted);
    } else if (conv == CONV_MISERE && !c->no_theory && gr_misere_quotient_options(c, q->comps, q->ncomps, by_outcome, l, &l->unlisted)) {
        /* heaps of one rule set: each option's outcome from the misere quotient */
    } else {
        gr_sum_fallback_note(c, c->no_theory ? "--no-theory" : conv == CONV_NORMAL ?
                             "some component has no SG value its evaluator gives" : "no misere quotient lists them",
                             gr_sum_graph_estimate(q->comps, q->ncomps, conv));
        gr_sumgraph *s = gr_sumgraph_new(c, m, conv);
        gr_sumgraph_add(s, q->comps, q->ncomps);
        gr_sumgraph_solve(s);
        l->pg = gr_sumgraph_pg(s);
        l->normal = conv == CONV_NORMAL;
        gr_sumgraph_moves(s, q->comps, q->ncomps, by_graph, l);
        gr_sumgraph_free(s);
    }
    gr_free(c, vals);
    return conv;
}

gr_conv gr_list_options(gr_ctx *c, gr_module *m, const gr_rquery *q, gr_move_option_fn fn, void *user) {
    option_list l = { .c = c };
    gr_loopy_init(&l.loopy, c);
    gr_conv conv = collect(c, m, q, &l);
    for (size_t i = 0; i < l.n; i++) fn(user, l.v[i].text, l.v[i].sg, l.v[i].outcome, &l.loopy);
    gr_free(c, l.v);
    gr_loopy_free(&l.loopy);
    return conv;
}

static void options_write(gr_conv conv, const char *position, const option_list *lp, gr_format fmt, FILE *out) {
    const option_list l = *lp;
    static const char OUT[] = { 'P', 'N', 'D' };
    if (fmt == GR_FMT_JSON) {
        fputs("{\"query\":\"options\",\"position\":", out);
        gr_json_string(out, position);
        fprintf(out, ",\"convention\":\"%s\",\"options\":[", gr_convention_name(conv));
        for (size_t i = 0; i < l.n; i++) {
            fputs(i ? ",{\"position\":" : "{\"position\":", out);
            gr_json_string(out, l.v[i].text);
            fputs(",\"sg\":", out);
            gr_value_json(out, l.v[i].sg, &l.loopy);
            fprintf(out, ",\"outcome\":\"%c\"}", OUT[l.v[i].outcome]);
        }
        fputc(']', out);
        if (l.unlisted) fprintf(out, ",\"options_not_listed\":%lld", (long long)l.unlisted);
        fputs("}\n", out);
    } else if (fmt == GR_FMT_CSV) {
        fputs("position,value\n", out);
        char value[4096];
        for (size_t i = 0; i < l.n; i++) {
            gr_value_str(value, sizeof value, GR_FMT_CSV, l.v[i].sg, &l.loopy);
            if (value[0]) fprintf(out, "\"%s\",%s\n", l.v[i].text, value);
            else fprintf(out, "\"%s\",%c\n", l.v[i].text, OUT[l.v[i].outcome]);
        }
    } else {
        if (l.unlisted)
            fprintf(out, "options %s%s%s: %lld moves (%zu listed: the first 100 of each heap past 2^20)\n",
                    conv != CONV_NORMAL ? gr_convention_name(conv) : "", conv != CONV_NORMAL ? " " : "", position,
                    (long long)l.unlisted + (long long)l.n, l.n);
        else
            fprintf(out, "options %s%s%s: %zu move%s\n", conv != CONV_NORMAL ? gr_convention_name(conv) : "",
                    conv != CONV_NORMAL ? " " : "", position, l.n, l.n == 1 ? "" : "s");
        int w = 0;
        for (size_t i = 0; i < l.n; i++) { int n = (int)strlen(l.v[i].text); if (n > w && n <= 60) w = n; }
        for (size_t i = 0; i < l.n; i++) {
            fprintf(out, "  -> %-*s  %c", w, l.v[i].text, OUT[l.v[i].outcome]);
            char value[4096];
            gr_value_str(value, sizeof value, GR_FMT_TEXT, l.v[i].sg, &l.loopy);
            if (l.v[i].sg >= 0 || gr_is_loopy(l.v[i].sg)) fprintf(out, "  sg %s", value);
            fputc('\n', out);
        }
        fputc('\n', out);
    }
}

void gr_run_options(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk) {
    option_list l = { .c = c };
    gr_loopy_init(&l.loopy, c);
    gr_conv conv = collect(c, m, q, &l);
    const char *position = gr_render_position(c, q->comps, q->ncomps, conv);
    GR_SINK_EACH(sk, fmt, out) options_write(conv, position, &l, fmt, out);
    gr_free(c, l.v);
    gr_loopy_free(&l.loopy);
}
