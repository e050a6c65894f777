/* proved: the least period a window theorem proves; see proved.h. */
#include "proved.h"

int gr_proved_applies(const gr_game *g) {
    gr_window w = gr_window_of(g);
    return w.kind == GR_WINDOW_SUBTRACT || w.kind == GR_WINDOW_TB;
}

int64_t gr_proved_least(const gr_window *w, const gr_detect *d, int64_t *e) {
    int64_t n = d->n, top = gr_window_pmax(w, n);
    /* past top no e fits; the saltus first: it rules out almost every p with one load, where
     * the window's bound takes a division (this loop was 3% of a check to 2^22 of 0.6) */
    for (int64_t p = 1; p < n && p <= top; p++) {
        if (gr_detect_saltus(d, p) != 0) continue;
        int64_t emax = gr_window_emax(w, p, n);
        if (emax < 0) continue;
        int64_t s = gr_detect_start(d, p);
        if (s <= emax) { *e = s; return p; }
    }
    return 0;
}
