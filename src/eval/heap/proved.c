/* proved: periods proved while a heap table fills; see proved.h. */
#include "eval/heap/proved.h"

int gr_proved_applies(const gr_game *g) {
    gr_window w = gr_window_of(g);
    return w.kind == GR_WINDOW_SUBTRACT || w.kind == GR_WINDOW_TB;
}

int64_t gr_proved_find(const gr_game *g, const gr_sgtable *t, int64_t *e_out) {
    if (!gr_proved_applies(g)) return 0;
    gr_window w = gr_window_of(g);
    int64_t n = t->n;
    int64_t budget = 8 * n + 4096;    /* comparisons: coincidental runs are short */
    for (int64_t p = 1; 2 * p <= n && budget > 0; p++) {
        int64_t e = n - p;
        while (e > 0 && gr_sgt_get(t, e - 1 + p) == gr_sgt_get(t, e - 1)) {
            e--;
            if (--budget <= 0) return 0;
        }
        budget--;
        if (gr_window_need(&w, e, p) <= n) { *e_out = e; return p; }
    }
    return 0;
}
