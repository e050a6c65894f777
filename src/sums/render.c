/* render: the text of sums of components; see render.h. */
#include "render.h"
#include <stdio.h>
#include <string.h>

static void count_option(void *user, const int64_t *parts, int nparts) {
    (void)parts; (void)nparts;
    ++*(int *)user;
}

int gr_atom_empty(gr_ctx *c, gr_game *g, const int64_t *coords) {
    if (g->shape != SHAPE_HEAP || coords[0] != 0) return 0;
    int n = 0;
    gr_eval_options(c, g, coords, count_option, &n);
    return n == 0;
}

static void sep(gr_text *t, int *first) {
    if (!*first) gr_text_printf(t, " + ");
    *first = 0;
}

int gr_sum_text_comp(gr_text *t, gr_game *g, const int64_t *coords, int *first) {
    if (gr_atom_empty(t->c, g, coords)) return 0;
    sep(t, first);
    gr_sum_text_atom(t, g, coords, -1);
    return 1;
}

void gr_sum_text_part(gr_text *t, const char *part, int *first) {
    if (!strcmp(part, "*0")) return;
    sep(t, first);
    gr_text_puts(t, part);
}

void gr_sum_text_end(gr_text *t, int first) {
    if (first) gr_text_puts(t, "*0");
}

void gr_render_comps(gr_ctx *c, const gr_comp *comps, int n, char *buf, size_t cap) {
    gr_text t;
    gr_text_init(&t, c);
    int first = 1;
    for (int i = 0; i < n; i++) gr_sum_text_comp(&t, comps[i].game, comps[i].c, &first);
    gr_sum_text_end(&t, first);
    snprintf(buf, cap, "%s", t.s);
    gr_text_free(&t);
}

/* Rendered into a buffer grown until it fits. */
void gr_sum_text_atom(gr_text *t, const gr_game *g, const int64_t *coords, int edge) {
    char small[256];
    if (gr_eval_render(g, coords, edge, small, sizeof small, 0) < sizeof small) {
        gr_text_puts(t, small);
        return;
    }
    for (size_t cap = 4 * sizeof small;; cap *= 4) {
        char *buf = gr_alloc(t->c, cap);
        size_t n = gr_eval_render(g, coords, edge, buf, cap, 0);
        if (n < cap) gr_text_puts(t, buf);
        gr_free(t->c, buf);
        if (n < cap) return;
    }
}

const char *gr_render_position(gr_ctx *c, const gr_comp *comps, int n, gr_conv conv) {
    int groups = conv == CONV_ANYLEAF || conv == CONV_EVERY;
    gr_text t, one;
    gr_text_init(&t, c);
    gr_text_init(&one, c);
    int first = 1;
    for (int lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && comps[hi].joined; hi++) {}
        if (!groups) hi = lo + 1;   /* a group is just a sum */
        gr_text_clear(&one);
        int in = 1, parts = 0;
        for (int i = lo; i < hi; i++) parts += gr_sum_text_comp(&one, comps[i].game, comps[i].c, &in);
        if (!parts) {
            /* a leaf under 'anyleaf' keeps its name; elsewhere it is left out */
            if (conv == CONV_ANYLEAF) {
                sep(&t, &first);
                gr_sum_text_atom(&t, comps[lo].game, comps[lo].c, -1);
            }
            continue;
        }
        sep(&t, &first);
        gr_text_printf(&t, parts > 1 ? "(%s)" : "%s", one.s);
    }
    gr_sum_text_end(&t, first);
    char *out = gr_strndup(c, t.s, t.n);
    gr_text_free(&t);
    gr_text_free(&one);
    return out;
}
