/* suggest: the nearest word by edit distance; see suggest.h. */
#include "suggest.h"
#include <string.h>

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

/* Optimal string alignment distance between a and b (case-insensitive), capped at 99. */
static int gr_edit_distance(const char *a, const char *b) {
    enum { MAX = 64 };
    size_t n = strlen(a), m = strlen(b);
    if (n >= MAX || m >= MAX) return 99;
    int d[MAX + 1][MAX + 1];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int cost = lower(a[i - 1]) != lower(b[j - 1]);
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m] > 99 ? 99 : d[n][m];
}

void gr_suggest_init(gr_suggest *s, const char *word) { s->word = word; s->best = NULL; s->dist = 99; }

void gr_suggest_offer(gr_suggest *s, const char *candidate) {
    if (!candidate || !*candidate) return;
    size_t len = strlen(s->word);
    int limit = len >= 9 ? 3 : len >= 5 ? 2 : 1;
    int d = gr_edit_distance(s->word, candidate);
    if (d <= limit && d < s->dist) { s->dist = d; s->best = candidate; }
}

const char *gr_suggest_best(const gr_suggest *s) { return s->dist > 0 ? s->best : NULL; }
