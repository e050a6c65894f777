/* testlib: see testlib.h. */
#include "testlib.h"
#include "eval/graph/posgraph.h"
#include "sums.h"
#include <string.h>
#include <stdlib.h>

int t_failures, t_checks;

int t_check(int ok, const char *what, const char *file, int line) {
    t_checks++;
    if (!ok) {
        t_failures++;
        if (t_failures <= 20) fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

int t_check_eq(long long a, long long b, const char *as, const char *bs, const char *file, int line) {
    t_checks++;
    if (a != b) {
        t_failures++;
        if (t_failures <= 20)
            fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", file, line, as, bs, a, b);
    }
    return a == b;
}

int t_share(const char *what, long long decided, long long total, double least) {
    printf("%s decided %lld of %lld random cases (at least %.0f%% asked)\n", what, decided, total, 100 * least);
    int ok = total > 0 && (double)decided >= least * (double)total;
    return t_check(ok, what, __FILE__, __LINE__);
}

uint64_t t_seed(uint64_t own) {
    const char *e = getenv("T_SEED");
    return own + (e ? strtoull(e, NULL, 10) * UINT64_C(0x9e3779b97f4a7c15) : 0);
}
int t_scale(void) {
    const char *e = getenv("T_SCALE");
    int k = e ? atoi(e) : 1;
    return k < 1 ? 1 : k;
}

int t_finish(const char *name) {
    printf("%s: %d passed, %d failed\n", name, t_checks - t_failures, t_failures);
    return t_failures ? 1 : 0;
}

uint64_t t_next(t_rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int64_t t_range(t_rng *r, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int64_t)(span ? t_next(r) % span : t_next(r));
}

void mkeep(mlist *l, const char *text) {
    if (l->n == l->cap) { l->cap = l->cap ? 2 * l->cap : 8; l->v = realloc(l->v, l->cap * sizeof *l->v); }
    l->v[l->n] = malloc(strlen(text) + 1);
    strcpy(l->v[l->n++], text);
}
void mtheory(void *u, const char *text, uint32_t id) { (void)id; mkeep(u, text); }
void mgraph(void *u, const char *text, uint32_t id) {
    mlist *l = u;
    if (gr_pg_outcome(l->pg, id) == GR_LOSS) mkeep(l, text);
}
static int scmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
void msort(mlist *l) { if (l->n) qsort(l->v, l->n, sizeof *l->v, scmp); }
void mfree(mlist *l) { for (size_t i = 0; i < l->n; i++) free(l->v[i]); free(l->v); memset(l, 0, sizeof *l); }

int mgraph_solve(struct gr_ctx *c, struct gr_module *m, const struct gr_comp *comps, int n, int conv, mlist *l) {
    gr_sumgraph *s = gr_sumgraph_new(c, m, (gr_conv)conv);
    uint32_t id = gr_sumgraph_add(s, comps, n);
    gr_sumgraph_solve(s);
    l->pg = gr_sumgraph_pg(s);
    int out = (int)gr_pg_outcome(l->pg, id);
    l->remoteness = gr_pg_remoteness(l->pg, id);
    if (out == GR_WIN) gr_sumgraph_moves(s, comps, n, mgraph, l);
    gr_sumgraph_free(s);
    l->pg = NULL;
    return out;
}

size_t t_random_sub_octal(t_rng *r, char *src, size_t cap, int max_take) {
    size_t pos = 0;
    pos += (size_t)snprintf(src + pos, cap - pos, "game s = subtract {");
    int k = (int)t_range(r, 1, 3);
    for (int i = 0; i < k; i++) pos += (size_t)snprintf(src + pos, cap - pos, "%s%lld", i ? ", " : "", (long long)t_range(r, 1, max_take));
    pos += (size_t)snprintf(src + pos, cap - pos, "};\ngame o = octal \"0.");
    int d = (int)t_range(r, 1, 3);
    for (int i = 0; i < d; i++) pos += (size_t)snprintf(src + pos, cap - pos, "%d", (int)t_range(r, i == d - 1 ? 1 : 0, 7));
    pos += (size_t)snprintf(src + pos, cap - pos, "\";\n");
    return pos;
}

int mcompare(mlist *a, mlist *b, int partial) {
    msort(a);
    msort(b);
    int agree;
    if (!partial) {
        agree = a->n == b->n;
        for (size_t i = 0; agree && i < a->n; i++) agree = strcmp(a->v[i], b->v[i]) == 0;
    } else {
        size_t i = 0;
        while (i < b->n && a->n == 1 && strcmp(a->v[0], b->v[i])) i++;
        agree = a->n == 1 && i < b->n;
    }
    if (!agree) {
        for (size_t i = 0; i < a->n; i++) fprintf(stderr, "  theory: %s\n", a->v[i]);
        for (size_t i = 0; i < b->n; i++) fprintf(stderr, "  graph:  %s\n", b->v[i]);
    }
    return agree;
}

int mcheck_theory(struct gr_ctx *c, struct gr_module *m, const struct gr_comp *comps, int n, int conv,
                  int outcome, int partial, mlist *a) {
    mlist b = { 0 };
    int out = mgraph_solve(c, m, comps, n, conv, &b);
    int agree = mcompare(a, &b, partial) && out == outcome;
    if (!agree) fprintf(stderr, "theory %c graph %c, moves %zu vs %zu\n", "PND"[outcome], "PND"[out], a->n, b.n);
    mfree(&b);
    return agree;
}

int t_agrees_from(const int64_t *v, int64_t n, int64_t p, int64_t s, int64_t e) {
    for (int64_t i = e; i + p < n; i++)
        if (v[i + p] - v[i] != s) return 0;
    return 1;
}

int64_t t_naive_preperiod(const int64_t *v, int64_t n, int64_t p, int64_t s) {
    for (int64_t e = 0;; e++)
        if (t_agrees_from(v, n, p, s, e)) return e;
}
