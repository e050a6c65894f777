/* anyleaf: 'anyleaf' sums by leaf deletion; see anyleaf.h. */
#include "anyleaf.h"
#include <string.h>

int gr_anyleaf_values(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, int64_t *out) {
    return gr_theory_values(c, m, comps, n, CONV_ANYLEAF, out);
}

typedef struct leaf_moves {
    gr_ctx *c;
    gr_compgraph *g;
    const gr_comp *comps; int n, at;
    int64_t want;
    gr_child_fn fn; void *user;
    char text[8192];
} leaf_moves;

static void leaf_move(void *user, const char *text, uint32_t id) {
    leaf_moves *l = user;
    if (l->g->leafless[id] != l->want) return;   /* a leaf (-1) is never wanted */
    gr_theory_text(l->c, l->comps, l->n, l->at, text, 1, l->text, sizeof l->text);
    l->fn(l->user, l->text, 0);
}

static void kernel_move(void *user, int64_t heap, const gr_hcval *v) {
    (void)v;
    leaf_moves *l = user;
    gr_theory_heap_text(l->c, l->comps, l->n, l->at, heap, l->text, sizeof l->text);
    l->fn(l->user, l->text, 0);
}

void gr_anyleaf_solve(gr_ctx *c, gr_module *m, const gr_comp *comps, int n, gr_theory *t,
                      gr_child_fn fn, void *user) {
    gr_theory_parts p;
    if (!gr_theory_split(c, m, comps, n, CONV_ANYLEAF, t, "leaves cannot be deleted in order", &p)) return;
    gr_compgraph *g = p.g;
    int64_t x = 0;
    int leaf = -1;
    int64_t *vals = gr_alloc(c, sizeof *vals * (size_t)(n + 1));
    for (int i = 0, len; i < n; i += len) {   /* by units: a group is one component */
        len = gr_unit_len(comps, n, i);
        vals[i] = p.kernel[i] ? p.kv[i].leaf : g->leafless[gr_compgraph_id_n(g, &comps[i], len)];
        if (vals[i] < 0 && leaf < 0) leaf = i;
        x ^= vals[i] < 0 ? 0 : vals[i];
    }
    t->decided = 1;
    if (leaf >= 0) {
        char one[256];
        gr_render_comps(c, &comps[leaf], gr_unit_len(comps, n, leaf), one, sizeof one);
        t->outcome = GR_WIN;
        t->remoteness = 0;
        snprintf(t->why, sizeof t->why, "anyleaf: %s is already at a leaf, so the player to move has won", one);
    } else {
        t->outcome = x ? GR_WIN : GR_LOSS;
        t->value = x;
        snprintf(t->why, sizeof t->why, "anyleaf: leaf deletion, the xor of the reduced values is %lld", (long long)x);
        gr_theory_kernels_why(comps, n, &p, t);
        if (x && fn) {
            leaf_moves *l = gr_alloc(c, sizeof *l);
            l->c = c; l->g = g; l->comps = comps; l->n = n; l->fn = fn; l->user = user;
            for (int i = 0, len; i < n; i += len) {
                len = gr_unit_len(comps, n, i);
                if (gr_theory_dup_unit(comps, n, i, len)) continue;
                l->at = i;
                l->want = x ^ vals[i];
                if (p.kernel[i]) {
                    gr_hcval want = { l->want, -1, -1 };
                    gr_cap_convkernel(comps[i].game)->options(c, comps[i].game, comps[i].c[0], &want, INT64_MAX, kernel_move, l);
                } else gr_compgraph_moves_n(g, &comps[i], len, leaf_move, l);
            }
            gr_free(c, l);
        }
    }
    gr_free(c, vals);
    gr_theory_parts_free(c, &p);
}
