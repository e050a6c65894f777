/* render: the text of sums of components; see render.h. */
#include "render.h"
#include <stdio.h>

void gr_render_comps(const gr_comp *comps, int n, char *buf, size_t cap) {
    size_t pos = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && pos < cap; i++) {
        if (i) pos += (size_t)snprintf(buf + pos, cap - pos, " + ");
        pos = gr_eval_render(comps[i].game, comps[i].c, -1, buf, cap, pos);
    }
}

/* Rendered into a buffer grown until it fits. */
void gr_sum_text_atom(gr_text *t, const gr_game *g, const int64_t *coords, int edge) {
    char small[256];
    if (gr_eval_render(g, coords, edge, small, sizeof small, 0) < sizeof small) {
        gr_text_printf(t, "%s", small);
        return;
    }
    for (size_t cap = 4 * sizeof small;; cap *= 4) {
        char *buf = gr_alloc(t->c, cap);
        size_t n = gr_eval_render(g, coords, edge, buf, cap, 0);
        if (n < cap) gr_text_printf(t, "%s", buf);
        gr_free(t->c, buf);
        if (n < cap) return;
    }
}

const char *gr_render_sum(gr_ctx *c, const gr_comp *comps, int n) {
    gr_text t;
    gr_text_init(&t, c);
    for (int i = 0; i < n; i++) {
        if (i) gr_text_printf(&t, " + ");
        gr_sum_text_atom(&t, comps[i].game, comps[i].c, -1);
    }
    char *out = gr_strndup(c, t.s, t.n);
    gr_text_free(&t);
    return out;
}

