/* dot: the position graph reachable from a position, in Graphviz's DOT language. One node per
 * position (as the graph holds them: equal multisets are one node), labelled with the position
 * and its SG value (normal play; a loopy one as ∞{K}, valuefmt.h) or outcome; P positions are filled, the start has a double
 * border, and winning moves (to a P position from an N position) are drawn bold. The graph is
 * bounded by --max-positions like every position graph. See show.h. */
#include "show.h"
#include "sums.h"
#include "valuefmt.h"
#include <string.h>

typedef struct dot_job { gr_sumgraph *s; gr_pg *pg; uint32_t start; int normal; uint64_t bold; gr_loopy loopy; } dot_job;

static void dot_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if (*s == '\n') { fputs("\\n", f); continue; }
        fputc(*s, f);
    }
    fputc('"', f);
}

static int write_dot(void *user, FILE *f) {
    dot_job *j = user;
    static const char OUT[] = { 'P', 'N', 'D' };
    uint32_t n = gr_pg_count(j->pg);
    char text[4096], label[8400], value[4096];
    fputs("digraph positions {\n"
          "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
          "  edge [color=\"#777777\"];\n", f);
    for (uint32_t id = 0; id < n; id++) {
        gr_sumgraph_render(j->s, id, text, sizeof text);
        gr_outcome o = gr_pg_outcome(j->pg, id);
        int64_t sg = j->normal ? gr_loopy_of_pg(&j->loopy, j->pg, id) : -1;
        gr_value_str(value, sizeof value, GR_FMT_TEXT, sg, &j->loopy);
        if (sg >= 0 || gr_is_loopy(sg)) snprintf(label, sizeof label, "%s\nsg %s", text, value);
        else snprintf(label, sizeof label, "%s\n%c", text, OUT[o]);
        fprintf(f, "  n%u [label=", id);
        dot_string(f, label);
        if (o == GR_LOSS) fputs(", style=\"rounded,filled\", fillcolor=\"#2b3a55\", fontcolor=white", f);
        else if (o == GR_DRAW) fputs(", style=\"rounded,filled\", fillcolor=\"#f0c070\"", f);
        if (id == j->start) fputs(", peripheries=2", f);
        fputs("];\n", f);
    }
    j->bold = 0;
    for (uint32_t id = 0; id < n; id++) {
        uint32_t k = gr_pg_nchildren(j->pg, id);
        const uint32_t *ch = gr_pg_children(j->pg, id);
        int win = gr_pg_outcome(j->pg, id) == GR_WIN;
        for (uint32_t i = 0; i < k; i++) {
            int bold = win && gr_pg_outcome(j->pg, ch[i]) == GR_LOSS;
            j->bold += (uint64_t)bold;
            fprintf(f, "  n%u -> n%u%s;\n", id, ch[i], bold ? " [style=bold, color=black, penwidth=2.5]" : "");
        }
    }
    fputs("}\n", f);
    return 0;
}

/* What a dot query wrote, in one format. */
static void dot_summary(gr_conv conv, const char *position, const char *file, uint32_t n, uint64_t e, uint64_t bold,
                        gr_format fmt, FILE *out) {
    if (fmt == GR_FMT_JSON) {
        fputs("{\"query\":\"dot\",\"position\":", out);
        gr_json_string(out, position);
        fprintf(out, ",\"convention\":\"%s\",\"file\":", gr_convention_name(conv));
        gr_json_string(out, file);
        fprintf(out, ",\"positions\":%u,\"moves\":%llu,\"winning_moves\":%llu}\n", n, (unsigned long long)e,
                (unsigned long long)bold);
    } else if (fmt == GR_FMT_CSV) {
        fprintf(out, "file,positions,moves,winning_moves\n\"%s\",%u,%llu,%llu\n", file, n, (unsigned long long)e,
                (unsigned long long)bold);
    } else {
        fprintf(out, "dot %s%s%s: wrote %s (%u position%s, %llu move%s, %llu of them winning)\n\n",
                conv != CONV_NORMAL ? gr_convention_name(conv) : "", conv != CONV_NORMAL ? " " : "", position,
                file, n, n == 1 ? "" : "s", (unsigned long long)e, e == 1 ? "" : "s", (unsigned long long)bold);
    }
}

void gr_run_dot(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk) {
    gr_conv conv = q->conv;
    if (!q->q->has_conv && q->ncomps == 1) conv = q->comps[0].game->play;
    const char *position = gr_render_position(c, q->comps, q->ncomps, conv);
    dot_job j = { .s = gr_sumgraph_new(c, m, conv), .normal = conv == CONV_NORMAL };
    gr_loopy_init(&j.loopy, c);
    gr_pg_store_edges(gr_sumgraph_pg(j.s), 1);   /* every edge is drawn; nodes in breadth-first order */
    j.start = gr_sumgraph_add(j.s, q->comps, q->ncomps);
    gr_sumgraph_solve(j.s);
    j.pg = gr_sumgraph_pg(j.s);
    gr_write_file(c, q->file, write_dot, &j);
    uint32_t n = gr_pg_count(j.pg);
    uint64_t e = gr_pg_edges(j.pg);
    GR_SINK_EACH(sk, fmt, out) dot_summary(conv, position, q->file, n, e, j.bold, fmt, out);
    gr_sumgraph_free(j.s);
    gr_loopy_free(&j.loopy);
}
