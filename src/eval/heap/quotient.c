/* quotient: the misere quotient of a heap rule set, heap by heap, each step proved, and the
 * proof of a periodic pretending function; see quotient.h for the method. The monoids it
 * searches in are in qmonoid.c, the check that proves a candidate in qcheck.c, the
 * presentation and tameness in qpresent.c. */
#include "progress.h"
#include "eval/heap/quotient.h"
#include "eval/heap/qmonoid.h"
#include "eval/heap/qcheck.h"
#include "eval/heap/qbound.h"
#include "eval/heap/heapmoves.h"
#include "eval/cache.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* GRUNDY_QTRACE=1: a line per round of the search on standard error (development) */
static double qt_now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return (double)ts.tv_sec + ts.tv_nsec * 1e-9; }
static int qtrace(void) { return getenv("GRUNDY_QTRACE") != NULL; }

/* ---- options of heaps, as words of heaps ---- */
typedef struct opt_collect { gr_ctx *c; gr_quotient *q; int64_t heap; int gi, bad; } opt_collect;

static void on_option(void *user, const int64_t *parts, int nparts) {
    opt_collect *oc = user;
    gr_quotient *q = oc->q;
    if (oc->bad) return;
    if (q->nwords + nparts + 1 > q->wcap) {
        q->wcap = (q->nwords + nparts + 1) * 2 + 64;
        q->words = gr_realloc(oc->c, q->words, (size_t)q->wcap * sizeof *q->words);
    }
    int32_t *w = q->words + q->nwords;
    int len = 0;
    for (int i = 0; i < nparts; i++) {
        int64_t h = parts[i];
        if (h < 0 || h >= oc->heap) { oc->bad = 1; return; }
        int64_t a = q->ngames == 1 ? h : q->atom[oc->gi][h];   /* its atom (h < count[gi]) */
        if (q->opt_off[a] == q->opt_off[a + 1]) continue;   /* a heap without a move is 0 */
        w[1 + len++] = (int32_t)a;
    }
    w[0] = len;
    q->nwords += len + 1;
}

/* Limits of the search: past them the quotient stops at the heap (q->failed, q->why_failed). */
enum { MAX_ORDER = 1 << 16, MAX_ROUNDS = 400 };
/* A quotient searched within a budget (for a sum, or a census member) keeps its candidates to
 * BUDGET_ORDER elements: the budget counts work, and a candidate of tens of thousands of
 * elements costs memory long before it costs much work; the cap is also the same on every
 * machine and share of memory, so a census's bytes are too. Without a budget (the quotient
 * query) candidates go to MAX_ORDER, as far as --max-memory lets them. */
enum { BUDGET_ORDER = 4096 };
static int32_t max_order(const gr_quotient *q) { return q->budget ? BUDGET_ORDER : MAX_ORDER; }
#define MAX_SUM ((int64_t)1 << 23)      /* elements of a trial direct sum */
#define MAX_STATES ((int64_t)1 << 22)   /* states of one check */

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static gr_qatoms atoms_upto(const gr_quotient *q, int64_t n) {
    gr_qatoms at = { n, q->opt_off, q->words, q->weight, q->bound };
    return at;
}

/* The distinct option images of atom a under img in k, sorted; their count. */
static int32_t option_images(gr_ctx *c, const gr_quotient *q, const int32_t *mul, int32_t n, const int32_t *img, int64_t a, int32_t **out) {
    int32_t cap = 0, m = 0;
    for (int64_t o = q->opt_off[a]; o < q->opt_off[a + 1]; o += q->words[o] + 1) cap++;
    int32_t *t = gr_alloc(c, (size_t)(cap + 1) * sizeof *t);
    for (int64_t o = q->opt_off[a]; o < q->opt_off[a + 1]; o += q->words[o] + 1) {
        int32_t x = 0;
        for (int32_t i = 0; i < q->words[o]; i++) x = mul[(size_t)x * (size_t)n + (size_t)img[q->words[o + 1 + i]]];
        t[m++] = x;
    }
    qsort(t, (size_t)m, sizeof *t, cmp_i32);
    int32_t u = 0;
    for (int32_t i = 0; i < m; i++) if (!u || t[u - 1] != t[i]) t[u++] = t[i];
    *out = t;
    return u;
}

static int32_t phi_of(const gr_qmon *k, const int32_t *img, const int32_t *exps, int64_t natoms) {
    int32_t x = 0;
    for (int64_t a = 0; a < natoms; a++)
        for (int32_t i = 0; i < exps[a]; i++) x = gr_qmon_mul(k, x, img[a]);
    return x;
}

static void store(gr_ctx *c, gr_quotient *q, gr_qmon *k, const int32_t *img, int64_t n) {
    if (k->n > q->order) q->last_growth = q->ngames == 1 ? n : q->atom_heap[n];
    gr_free(c, q->mul); gr_free(c, q->inP);
    gr_qmon_table(c, k);
    q->order = k->n; q->mul = k->mul; q->inP = k->P;
    gr_free(c, k->gnext); gr_free(c, k->par); gr_free(c, k->pgen);
    q->p_order = 0;
    for (int32_t x = 0; x < k->n; x++) q->p_order += k->P[x];
    memcpy(q->pret, img, (size_t)(n + 1) * sizeof *img);
    memset(k, 0, sizeof *k);
}

/* Heap n whose option images are those of an earlier heap is that heap's element: the check
 * sees the same heap types as for heaps 0..n-1, which it proved. Bounded (q->bound), a sum
 * with heap n has the state of that sum with heap a instead, which must weigh no more to be
 * among those proved. */
static int same_as_earlier(gr_ctx *c, gr_quotient *q, int64_t n, const int32_t *tn, int32_t un) {
    for (int64_t a = 0; a < n; a++) {
        if (q->opt_off[a] == q->opt_off[a + 1]) continue;
        if (q->bound && q->weight[a] > q->weight[n]) continue;
        int32_t *ta, ua = option_images(c, q, q->mul, q->order, q->pret, a, &ta);
        int same = ua == un && !memcmp(ta, tn, (size_t)un * sizeof *tn);
        gr_free(c, ta);
        if (same) { q->pret[n] = q->pret[a]; return 1; }
    }
    return 0;
}

/* Heap n as an element x of the quotient so far (no growth): x must have the outcome heap n
 * has, no z may put both x z and some option t z in P, and the check must pass. */
static int conservative(gr_ctx *c, gr_quotient *q, int64_t n, const int32_t *tn, int32_t un) {
    size_t N = (size_t)q->order;
    int nextP = 1;
    for (int32_t i = 0; i < un && nextP; i++) if (q->inP[tn[i]]) nextP = 0;
    gr_qmon k = { .n = q->order, .mul = q->mul, .P = q->inP };
    gr_qatoms at = atoms_upto(q, n + 1);
    for (int32_t x = 0; x < q->order; x++) {
        if (q->inP[x] != nextP) continue;
        gr_poll_clock(c);   /* (order^2 products a heap: limits and Ctrl-C between elements) */
        int ok = 1;
        for (size_t z = 0; z < N && ok; z++)
            if (q->inP[q->mul[(size_t)x * N + z]])
                for (int32_t i = 0; i < un && ok; i++) if (q->inP[q->mul[(size_t)tn[i] * N + z]]) ok = 0;
        if (!ok) continue;
        q->pret[n] = x;
        if (gr_qcheck(c, &k, &at, q->pret, NULL, &q->checked_states, MAX_STATES) == 1) return 1;
        if (q->budget && q->checked_states > q->budget) { q->over_budget = 1; break; }
    }
    q->pret[n] = 0;
    return 0;
}

/* The next combination of s indices out of ni (ascending); 0 after the last. */
static int next_combination(int32_t *ix, int s, int ni) {
    int i = s - 1;
    while (i >= 0 && ix[i] == ni - s + i) i--;
    if (i < 0) return 0;
    ix[i]++;
    for (int j = i + 1; j < s; j++) ix[j] = ix[j - 1] + 1;
    return 1;
}

/* Recalibration (Plambeck and Siegel's algorithm): candidate k misclassifies the sum w, whose
 * true outcome is P exactly when wantP. Some heaps of w get a free cyclic generator of their
 * own (the fewest that suffice, smallest sets first), beside the submonoid the other heaps
 * generate, and the marked and merged direct sum is the next candidate if it classifies w
 * right. 1: found; 0: none does; -1: none within the limits; -2: the work passed the budget
 * (0: none) first. */
static int recalibrate(gr_ctx *c, int32_t maxo, const gr_qatoms *at, const gr_qmon *k, const int32_t *img, const int32_t *w, int wantP, gr_qmon *out, int32_t *out_img, int64_t *work, int64_t budget) {
    int64_t N = at->n;
    int32_t *inv = gr_alloc(c, (size_t)(N + 1) * sizeof *inv), ni = 0;
    for (int64_t a = 0; a < N; a++) if (w[a] > 0 && at->opt_off[a] != at->opt_off[a + 1]) inv[ni++] = (int32_t)a;
    int32_t *imgR = gr_alloc(c, (size_t)(N + 1) * sizeof *imgR);
    int64_t *imgD = gr_alloc(c, (size_t)(N + 1) * sizeof *imgD);
    int32_t ix[GR_QSUM_MAX];
    int done = 0, over = 0;
    int spent = 0;
    for (int bump = 0; bump <= 4 && !done && !spent; bump += 2)
        for (int s = 1; s <= ni && s <= GR_QSUM_MAX && !done && !spent; s++) {
            for (int j = 0; j < s; j++) ix[j] = j;
            int combos = 0;
            do {
                gr_poll_clock(c);
                memcpy(imgR, img, (size_t)N * sizeof *imgR);
                for (int j = 0; j < s; j++) imgR[inv[ix[j]]] = 0;
                gr_qmon R;
                gr_qmon_regenerate(c, k, at, imgR, &R);
                gr_qsum d = { &R, s, { 0 }, { 0 }, R.n };
                for (int j = 0; j < s && d.size <= MAX_SUM; j++) {
                    int32_t idx, per;
                    gr_qmon_cycle(c, k, img[inv[ix[j]]], &idx, &per);
                    int32_t index = idx > w[inv[ix[j]]] - 1 ? idx : w[inv[ix[j]]] - 1;
                    if (index < 1) index = 1;
                    index += bump;
                    int32_t period = per % 2 ? 2 * per : per;
                    if (period < 2) period = 2;
                    d.index[j] = index; d.period[j] = period;
                    d.size *= index + period;
                }
                if (d.size > MAX_SUM) over = 1;
                else {
                    for (int64_t a = 0; a < N; a++) imgD[a] = imgR[a];
                    for (int j = 0; j < s; j++) imgD[inv[ix[j]]] = gr_qsum_gen(&d, j);
                    gr_qmon next;
                    if (gr_qsum_candidate(c, &d, at, imgD, MAX_SUM, maxo, &next, out_img, work, budget)) {
                        if (next.P[phi_of(&next, out_img, w, N)] == wantP) {
                            *out = next; done = 1;
                            if (qtrace()) {
                                fprintf(stderr, "  recal: bump %d, free", bump);
                                for (int j = 0; j < s; j++) fprintf(stderr, " %d(i%d p%d)", inv[ix[j]], d.index[j], d.period[j]);
                                fprintf(stderr, "; R %d, sum %lld -> %d\n", R.n, (long long)d.size, next.n);
                            }
                        }
                        else gr_qmon_free(c, &next);
                    } else over = 1;
                }
                gr_qmon_free(c, &R);
                spent = budget && *work > budget;
            } while (!done && !spent && ++combos < 256 && next_combination(ix, s, ni));
        }
    gr_free(c, inv); gr_free(c, imgR); gr_free(c, imgD);
    return done ? 1 : spent ? -2 : over ? -1 : 0;
}

/* What the search for heap n is doing, in the progress label and in the message of a limit
 * (--max-time names it): base is the caller's note. */
static void stage(gr_ctx *c, gr_quotient *q, const char *base, int64_t n, int round, const char *what, int32_t order) {
    int64_t heap = q->ngames == 1 ? n : q->atom_heap[n];
    char cert[120] = "";
    if (q->cert_heap == n && (q->cert_order > q->order || q->cert_powers > 1))
        snprintf(cert, sizeof cert, "; proved so far: at least %lld elements, heap %lld's element at least %d distinct powers",
                 (long long)q->cert_order, (long long)heap, q->cert_powers);
    snprintf(q->stage, sizeof q->stage, "misere quotient%s (heaps; heap %lld, round %d: %s %d)",
             q->ngames == 1 ? "" : " of a union", (long long)heap, round, what, order);
    snprintf(c->limit_note, sizeof c->limit_note, "%.200s; heap %lld was being added (round %d of its search: %.60s %d%s)",
             base, (long long)heap, round, what, order, cert);
}

/* What the refuted candidate k (least misclassified sum w) proves of Q with heap n in
 * (qbound.h), kept as the best so far. */
static void certify(gr_ctx *c, gr_quotient *q, const gr_qmon *k, const int32_t *img, const int32_t *w, int64_t n) {
    if (w[n] < 1) return;
    uint8_t *has_move = gr_alloc(c, (size_t)(n + 1));
    for (int64_t a = 0; a <= n; a++) has_move[a] = q->opt_off[a] != q->opt_off[a + 1];
    gr_qbound b = gr_qbound_of(c, k, img, has_move, n, w[n], (int64_t)1 << 26);
    gr_free(c, has_move);
    if (q->cert_heap != n) { q->cert_heap = n; q->cert_order = 1; q->cert_powers = 1; }
    if (b.order > q->cert_order) q->cert_order = b.order;
    if (b.powers > q->cert_powers) q->cert_powers = b.powers;
}

/* Heap n is a new generator: start from Q_{n-1} + C(2, 2) and recalibrate at the least sum the
 * candidate gets wrong until the check proves it. */
static void grow(gr_ctx *c, gr_quotient *q, int64_t n) {
    gr_qatoms at = atoms_upto(q, n + 1);
    gr_qmon base = { .n = q->order, .mul = q->mul, .P = q->inP };
    gr_qsum d = { &base, 1, { 2 }, { 2 }, (int64_t)q->order * 4 };
    int64_t *imgD = gr_alloc(c, (size_t)(n + 1) * sizeof *imgD);
    for (int64_t a = 0; a < n; a++) imgD[a] = q->pret[a];
    imgD[n] = gr_qsum_gen(&d, 0);
    int32_t *img = gr_alloc(c, (size_t)(n + 1) * sizeof *img), *w = gr_alloc(c, (size_t)(n + 1) * sizeof *w);
    int32_t *img2 = gr_alloc(c, (size_t)(n + 1) * sizeof *img2);
    gr_qmon k = { .n = 0 };
    char note[sizeof c->limit_note];
    snprintf(note, sizeof note, "%s", c->limit_note);
    char label[sizeof q->stage];
    snprintf(label, sizeof label, "%s", q->stage);
    stage(c, q, note, n, 0, "marking candidates from order", q->order);
    if (!gr_qsum_candidate(c, &d, &at, imgD, MAX_SUM, max_order(q), &k, img, &q->checked_states, q->budget)) {
        if (q->budget && q->checked_states > q->budget) q->over_budget = 1;
        else {
            snprintf(q->why_failed, sizeof q->why_failed, "the trial monoid passed %d elements", max_order(q));
            q->failed = n;
        }
    }
    for (int round = 0; !q->failed && !q->over_budget; round++) {
        stage(c, q, note, n, round, "checking order", k.n);
        gr_poll_clock(c);   /* (a round can take seconds: the limits read the clock each one) */
        double t0 = qt_now();
        int64_t st0 = q->checked_states;
        int r = gr_qcheck(c, &k, &at, img, w, &q->checked_states, MAX_STATES);
        if (qtrace()) {
            fprintf(stderr, "heap %lld round %d: order %d check %.2fs %lld states ->", (long long)n, round, k.n, qt_now() - t0, (long long)(q->checked_states - st0));
            if (r == 1) fprintf(stderr, " proved\n");
            else {
                int32_t ci, cp;
                gr_qmon_cycle(c, &k, img[n], &ci, &cp);
                for (int64_t a = 0; a <= n; a++) if (w[a] > 0) fprintf(stderr, " %lld^%d", (long long)a, w[a]);
                fprintf(stderr, " [new heap: index %d period %d]\n", ci, cp);
            }
        }
        if (r == 1) {
            /* the quotient keeps its full table (what sums, moves and the presentation read) */
            if (!k.mul && c->store.mem_used + gr_qmon_table_bytes(k.n) > (double)c->mem_limit) {
                snprintf(q->why_failed, sizeof q->why_failed,
                         "the quotient of order %d was proved, but its product table (%.0f MiB) would pass the memory limit (--max-memory)",
                         k.n, gr_qmon_table_bytes(k.n) / 1048576.0);
                q->failed = n;
                break;
            }
            store(c, q, &k, img, n);
            break;
        }
        if (q->budget && q->checked_states > q->budget) { q->over_budget = 1; break; }
        if (r == 0 && !q->budget) certify(c, q, &k, img, w, n);
        if (qtrace() && r == 0) fprintf(stderr, "  proved: |Q| >= %lld, powers of the newest heap >= %d\n", (long long)q->cert_order, q->cert_powers);
        if (r < 0) {
            snprintf(q->why_failed, sizeof q->why_failed, "the check of a candidate of order %d passed %lld states", k.n, (long long)MAX_STATES);
            q->failed = n;
        } else if (round >= MAX_ROUNDS) {
            snprintf(q->why_failed, sizeof q->why_failed, "%d recalibrations did not find it (the last candidate had order %d)", MAX_ROUNDS, k.n);
            q->failed = n;
        } else {
            int wantP = !k.P[phi_of(&k, img, w, n + 1)];
            stage(c, q, note, n, round + 1, "recalibrating order", k.n);
            gr_qmon next;
            int rc = recalibrate(c, max_order(q), &at, &k, img, w, wantP, &next, img2, &q->checked_states, q->budget);
            if (rc == -2) q->over_budget = 1;
            else if (rc <= 0) {
                if (rc < 0)
                    snprintf(q->why_failed, sizeof q->why_failed, "the candidates passed %d elements (or their trial sums %lld), the limits of this search, after %d recalibrations at order %d",
                             max_order(q), (long long)MAX_SUM, round, k.n);
                else
                    snprintf(q->why_failed, sizeof q->why_failed, "no recalibration of a candidate of order %d classifies its least misclassified sum", k.n);
                q->failed = n;
            } else {
                gr_qmon_free(c, &k);
                k = next;
                memcpy(img, img2, (size_t)(n + 1) * sizeof *img);
            }
        }
    }
    gr_qmon_free(c, &k);
    gr_free(c, imgD); gr_free(c, img); gr_free(c, img2); gr_free(c, w);
    snprintf(c->limit_note, sizeof c->limit_note, "%s", note);
    snprintf(q->stage, sizeof q->stage, "%s", label);
}

/* Adds the next heap of games[gi] as atom nheaps (one game: gi is 0 and the atom the heap). */
static void add_heap(gr_ctx *c, gr_quotient *q, int gi) {
    int64_t n = q->nheaps;
    q->adding = n;
    int64_t heap = q->ngames == 1 ? n : q->count[gi];
    gr_game *g = q->games[gi];
    if (q->ngames > 1) {   /* which heap atom n is, both ways */
        q->atom[gi] = gr_realloc(c, q->atom[gi], (size_t)(heap + 1) * sizeof *q->atom[gi]);
        q->atom[gi][heap] = n;
        q->atom_gi = gr_realloc(c, q->atom_gi, (size_t)(n + 1) * sizeof *q->atom_gi);
        q->atom_heap = gr_realloc(c, q->atom_heap, (size_t)(n + 1) * sizeof *q->atom_heap);
        q->atom_gi[n] = (int8_t)gi;
        q->atom_heap[n] = heap;
    }
    gr_eval_at(c, &heap, 1);
    q->pret = gr_realloc(c, q->pret, (size_t)(n + 1) * sizeof *q->pret);
    q->order_at = gr_realloc(c, q->order_at, (size_t)(n + 1) * sizeof *q->order_at);
    q->order_at[n] = q->order;   /* no move, or the order it grows to below */
    q->opt_off = gr_realloc(c, q->opt_off, (size_t)(n + 2) * sizeof *q->opt_off);
    opt_collect oc = { c, q, heap, gi, 0 };
    int64_t start = q->nwords;
    gr_eval_options(c, g, &heap, on_option, &oc);
    if (oc.bad) gr_fail(c, GR_EXIT_INPUT, "misere quotient of '%s': heap %lld has a move to a heap that is not smaller", g->name, (long long)heap);
    q->opt_off[n + 1] = q->nwords;
    /* its weight: the most moves it lasts (a sum's is the sum of its atoms'; every option of
     * a sum weighs less) */
    q->weight = gr_realloc(c, q->weight, (size_t)(n + 1) * sizeof *q->weight);
    q->weight[n] = 0;
    for (int64_t o = start; o < q->nwords; o += q->words[o] + 1) {
        int64_t w = 1;
        for (int32_t i = 0; i < q->words[o]; i++) w += q->weight[q->words[o + 1 + i]];
        if (w > q->weight[n]) q->weight[n] = w;
    }
    q->nheaps = n + 1;
    q->count[gi] = heap + 1;
    q->pret[n] = 0;
    if (q->nwords == start) { q->adding = -1; return; }   /* no move: the zero game */
    int32_t *tn, un = option_images(c, q, q->mul, q->order, q->pret, n, &tn);
    int done = same_as_earlier(c, q, n, tn, un) || conservative(c, q, n, tn, un);
    gr_free(c, tn);
    if (!done && q->no_grow) q->over_budget = 1;   /* the caller wants no growth: heap n stays out */
    if (!done && !q->over_budget) grow(c, q, n);
    if (q->over_budget) {   /* heap n stays out: the caller's budget ran out first */
        q->nheaps = n;
        q->count[gi] = heap;
        q->nwords = start;
        q->adding = -1;
        return;
    }
    q->order_at[n] = q->order;
    q->adding = -1;
}

/* Does g have a quotient (a heap rule set whose moves lead to smaller heaps, no terminal that
 * fixes an outcome)? 0 and why if not. */
static int has_quotient(const gr_game *g, char *why, size_t cap) {
    if (g->shape != SHAPE_HEAP || g->state->not_recurrence || g->state->grow_move) {
        if (why) snprintf(why, cap, "'%s' is not a heap rule set whose moves lead to smaller heaps", g->name);
        return 0;
    }
    const gr_rules *r = g->rules;
    for (int k = 0; r && k < r->nterms; k++)
        if (r->terms[k].kind != TERM_LEAF) {
            if (why) snprintf(why, cap, "'%s' has terminals that fix an outcome", g->name);
            return 0;
        }
    return 1;
}

gr_quotient *gr_quotient_of(gr_ctx *c, gr_game *g, int64_t upto, char *why, size_t cap) {
    if (!has_quotient(g, why, cap)) return NULL;
    gr_quotient *q = gr_eval_cache_of(c, g)->quotient;   /* what follows is charged to g */
    if (!q) {
        q = gr_eval_cache_of(c, g)->quotient = gr_alloc(c, sizeof *q);
        q->game = q->games[0] = g;
        q->ngames = 1;
        q->order = 1;
        q->mul = gr_alloc(c, sizeof *q->mul);
        q->inP = gr_alloc(c, 1);
        q->opt_off = gr_alloc(c, sizeof *q->opt_off);
    }
    int64_t want = upto;
    if (q->proved && want >= q->proof_to) want = q->proof_to - 1;
    gr_progress pr;
    snprintf(q->stage, sizeof q->stage, "misere quotient (heaps)");
    gr_progress_begin_at(&pr, c, q->stage, (uint64_t)want + 1, (uint64_t)q->nheaps);
    while (q->nheaps <= want && !q->failed && !q->over_budget) {
        snprintf(c->limit_note, sizeof c->limit_note, "the misere quotient of %s had reached heap %lld with order %d",
                 g->name, (long long)q->nheaps, q->order);
        add_heap(c, q, 0);
        gr_progress_update(&pr, (uint64_t)q->nheaps);
    }
    gr_progress_end(&pr);
    c->limit_note[0] = '\0';
    gr_eval_at(c, NULL, 0);
    return q;
}

int32_t gr_quotient_elem(gr_ctx *c, gr_quotient *q, int64_t heap) {
    if (heap < q->nheaps) return q->pret[heap];
    if (q->proved) return q->pret[q->pre + (heap - q->pre) % q->per];
    gr_quotient_of(c, q->game, heap, NULL, 0);
    return q->pret[heap];
}

void gr_quotient_free(gr_ctx *c, gr_quotient *q) {
    if (!q) return;
    while (q->unions) { gr_quotient *u = q->unions; q->unions = u->unions; gr_quotient_free(c, u); }
    gr_free(c, q->inP); gr_free(c, q->mul); gr_free(c, q->pret); gr_free(c, q->order_at);
    gr_free(c, q->opt_off); gr_free(c, q->words); gr_free(c, q->weight);
    for (int i = 0; i < q->ngames && q->ngames > 1; i++) gr_free(c, q->atom[i]);
    gr_free(c, q->atom_gi); gr_free(c, q->atom_heap);
    gr_free(c, q);
}

/* The quotient of heaps 0..upto alone, from a quotient computed further: the submonoid their
 * images generate, its elements merged where no sum of those heaps tells them apart (marking
 * through least sums gives the true outcomes, the quotient being correct). */
static int32_t restricted_order(gr_ctx *c, const gr_quotient *q, int64_t natoms, gr_quotient *out) {
    gr_qatoms at = atoms_upto(q, natoms);
    gr_qmon k = { .n = q->order, .mul = q->mul, .P = q->inP }, R, red;
    int32_t *img = gr_alloc(c, (size_t)(natoms + 1) * sizeof *img);
    memcpy(img, q->pret, (size_t)natoms * sizeof *img);
    gr_qmon_regenerate(c, &k, &at, img, &R);
    gr_qsum d = { &R, 0, { 0 }, { 0 }, R.n };
    int64_t *imgD = gr_alloc(c, (size_t)(natoms + 1) * sizeof *imgD);
    for (int64_t a = 0; a < natoms; a++) imgD[a] = img[a];
    int64_t work = 0;
    if (!gr_qsum_candidate(c, &d, &at, imgD, INT64_MAX, INT32_MAX, &red, img, &work, 0))
        gr_fail(c, GR_EXIT_LIMIT, "misere quotient: restricting it failed (a bug)");
    gr_qmon_free(c, &R);
    gr_free(c, imgD);
    int32_t order = red.n;
    if (out) {
        gr_qmon_table(c, &red);
        gr_free(c, red.gnext); gr_free(c, red.par); gr_free(c, red.pgen);
        out->order = red.n; out->mul = red.mul; out->inP = red.P; out->pret = img;
        out->p_order = 0;
        for (int32_t x = 0; x < red.n; x++) out->p_order += red.P[x];
    } else {
        gr_qmon_free(c, &red);
        gr_free(c, img);
    }
    return order;
}

gr_quotient *gr_quotient_restrict(gr_ctx *c, const gr_quotient *q, int64_t upto) {
    int64_t natoms = (upto + 1) * q->ngames;
    if (natoms > q->nheaps) natoms = q->nheaps;
    gr_quotient *r = gr_alloc(c, sizeof *r);
    r->game = q->game;
    memcpy(r->games, q->games, sizeof q->games);
    r->ngames = q->ngames;
    r->nheaps = natoms;
    r->opt_off = gr_alloc(c, (size_t)(natoms + 1) * sizeof *r->opt_off);
    memcpy(r->opt_off, q->opt_off, (size_t)(natoms + 1) * sizeof *r->opt_off);
    r->nwords = r->wcap = q->opt_off[natoms];
    r->words = gr_alloc(c, (size_t)(r->nwords + 1) * sizeof *r->words);
    memcpy(r->words, q->words, (size_t)r->nwords * sizeof *r->words);
    restricted_order(c, q, natoms, r);
    r->order_at = gr_alloc(c, (size_t)(natoms ? natoms : 1) * sizeof *r->order_at);
    memcpy(r->order_at, q->order_at, (size_t)natoms * sizeof *r->order_at);
    /* the last growth: the last prefix whose quotient is larger than the one before */
    int32_t after = r->order;
    for (int64_t a = natoms - 1; a > 0; a--) {
        int32_t before = restricted_order(c, q, a, NULL);
        if (before < after) { r->last_growth = a / q->ngames; break; }
        after = before;
    }
    return r;
}

/* Unions made for one sum (bound > 0) kept beside a game's quotient: the most recent few.
 * One is made for every sum the union's own quotient does not cover, so that kept them all,
 * a program's memory grew by megabytes at every such misere solve. */
enum { BOUNDED_KEPT = 4 };

/* Before a new union made for one sum: the least recently asked of the others go, past
 * BOUNDED_KEPT - 1 of them (never one the call under way asked for: it may hold it). */
static void forget_bounded(gr_ctx *c, gr_quotient *home) {
    for (;;) {
        int n = 0;
        gr_quotient **oldest = NULL;
        for (gr_quotient **l = &home->unions; *l; l = &(*l)->unions)
            if ((*l)->bound > 0) {
                n++;
                if ((*l)->used_call != c->store.calls && (!oldest || (*l)->used_call < (*oldest)->used_call)) oldest = l;
            }
        if (n < BOUNDED_KEPT || !oldest) return;
        gr_quotient *u = *oldest;
        *oldest = u->unions;
        u->unions = NULL;
        gr_quotient_free(c, u);
    }
}

gr_quotient *gr_quotient_union(gr_ctx *c, gr_game *const *games, int n, const int64_t *tops, int64_t bound, char *why, size_t cap) {
    if (n < 1 || n > 8) { if (why) snprintf(why, cap, "a union of at most 8 rule sets"); return NULL; }
    for (int i = 0; i < n; i++) if (!gr_quotient_of(c, games[i], 0, why, cap)) return NULL;
    if (n == 1) return gr_quotient_of(c, games[0], tops[0], why, cap);   /* the quotient holds for every bound */
    gr_quotient *home = gr_eval_cache_of(c, games[0])->quotient, *q = NULL;   /* the union is games[0]'s */
    for (gr_quotient *u = home->unions; u && !q; u = u->unions)
        if (u->ngames == n && u->bound == bound && !memcmp(u->games, games, (size_t)n * sizeof *games)) q = u;
    if (!q && bound > 0) forget_bounded(c, home);
    if (!q) {
        q = gr_alloc(c, sizeof *q);
        q->game = games[0];
        memcpy(q->games, games, (size_t)n * sizeof *games);
        q->ngames = n;
        q->bound = bound > 0 ? bound : 0;
        q->order = 1;
        q->mul = gr_alloc(c, sizeof *q->mul);
        q->inP = gr_alloc(c, 1);
        q->opt_off = gr_alloc(c, sizeof *q->opt_off);
        q->unions = home->unions;
        home->unions = q;
    }
    q->used_call = c->store.calls;
    /* One rule set after another (in the order of games: a sum's first component's first),
     * each only as far as asked: the atoms' order is fixed by the tops asked so far, never by
     * chance. A rule set's own quotient comes first, so a few small Nim heaps after Kayles add
     * a few generators to Kayles' quotient rather than grow beside every Kayles heap. A heap
     * of a union may take seconds: a bar (a line on a pipe) and the limit's message say where
     * it is. */
    uint64_t want = 0;
    for (int i = 0; i < n; i++) want += (uint64_t)(tops[i] + 1 > q->count[i] ? tops[i] + 1 : q->count[i]);
    gr_progress pr;
    snprintf(q->stage, sizeof q->stage, "misere quotient of a union (heaps)");
    gr_progress_begin_at(&pr, c, q->stage, want, (uint64_t)q->nheaps);
    while (!q->failed && !q->over_budget) {
        int gi = -1;
        for (int i = 0; i < n && gi < 0; i++)
            if (q->count[i] <= tops[i]) gi = i;
        if (gi < 0) break;
        snprintf(c->limit_note, sizeof c->limit_note, "the misere quotient of a union of %d rule sets had reached order %d", n, q->order);
        add_heap(c, q, gi);
        gr_progress_update(&pr, (uint64_t)q->nheaps);
    }
    gr_progress_end(&pr);
    c->limit_note[0] = '\0';
    gr_eval_at(c, NULL, 0);
    return q;
}

int32_t gr_quotient_elem_of(gr_ctx *c, gr_quotient *q, int gi, int64_t heap) {
    if (q->ngames == 1) return gr_quotient_elem(c, q, heap);
    if (heap >= q->count[gi]) {   /* this rule set further, the others as they are */
        int64_t tops[8];
        for (int i = 0; i < q->ngames; i++) tops[i] = q->count[i] - 1;
        tops[gi] = heap;
        gr_quotient_union(c, q->games, q->ngames, tops, q->bound, NULL, 0);
        if (heap >= q->count[gi]) gr_fail(c, GR_EXIT_LIMIT, "the misere quotient of a union stopped before heap %lld of '%s'", (long long)heap, q->games[gi]->name);
    }
    return q->pret[q->atom[gi][heap]];
}

/* ---- a period of the pretending function, proved ---- */

/* The shift argument of the normal-play periodicity theorems (Guy and Smith for octal games)
 * carries over: if heaps m and m - p have the same set of option images in Q, the check of
 * quotient.h sees the same heap types with heap m as with heap m - p, so heap m pretends to
 * be pret[m - p] and Q does not grow. The option images of m and m - p agree once the
 * pretending function is periodic over the heaps the options reach:
 *   octal code, last digit at place t, at most two heaps left: pret[n + p] = pret[n] for
 *     n0 <= n < 2 n0 + p + t (then every split of m - j, j <= t, has a part >= n0 + p);
 *   finite subtraction set, largest s: for n0 <= n < n0 + p + s. */
void gr_quotient_prove(gr_ctx *c, gr_quotient *q) {
    (void)c;
    gr_game *g = q->game;
    int64_t N = q->nheaps, reach;   /* reach: the t or s of the theorem */
    const char *name;
    int octal = 0;
    if (q->ngames > 1) {
        snprintf(q->theorem, sizeof q->theorem, "no periodicity theorem for a union of rule sets");
        return;
    }
    if (g->kernel == KER_OCTAL && g->tb.period == 0 && g->tb.last_place >= 0 && g->tb.last_place < 1000000 && g->tb.max_heaps <= 2) {
        reach = g->tb.last_place; name = "octal"; octal = 1;
    } else if (g->kernel == KER_SUBTRACT && g->nsub > 0) {
        reach = g->sub[g->nsub - 1]; name = "subtraction";
    } else {
        snprintf(q->theorem, sizeof q->theorem, "no periodicity theorem for this kind of rule set (octal codes and finite subtraction sets have one)");
        return;
    }
    for (int64_t p = 1; 2 * p <= N; p++) {
        /* the least n0 with pret[n + p] = pret[n] for n0 <= n < N - p */
        int64_t n0 = N - p;
        while (n0 > 0 && q->pret[n0 - 1 + p] == q->pret[n0 - 1]) n0--;
        int64_t need = octal ? 2 * n0 + p + reach : n0 + p + reach;
        if (n0 + p <= N - p && N >= need) {
            q->proved = 1; q->pre = n0; q->per = p; q->proof_to = N;
            snprintf(q->theorem, sizeof q->theorem,
                     "proved: the pretending function has period %lld from heap %lld (%s periodicity: agreement over heaps %lld..%lld suffices, the quotient never grows again)",
                     (long long)p, (long long)n0, name, (long long)n0, (long long)(need - 1));
            return;
        }
    }
    snprintf(q->theorem, sizeof q->theorem, "no period of the pretending function proved over heaps 0..%lld", (long long)(N - 1));
}


/* ---- the options of a huge heap, through the proved period ---- */
/* The element of a heap, the product, and whether rest times it lands where wanted. */
typedef struct q_val { gr_ctx *c; gr_quotient *q; int32_t rest; int want; } q_val;
static int64_t q_value(void *u, int64_t h) { q_val *v = u; return gr_quotient_elem(v->c, v->q, h); }
static int64_t q_mul(void *u, int64_t x, int64_t y) {
    q_val *v = u;
    return v->q->mul[(size_t)x * (size_t)v->q->order + (size_t)y];
}
static int q_hit(void *u, int64_t x) {
    q_val *v = u;
    return v->want < 0 || v->q->inP[v->q->mul[(size_t)v->rest * (size_t)v->q->order + (size_t)x]] == v->want;
}

int64_t gr_quotient_moves_where(gr_ctx *c, gr_quotient *q, int64_t heap, int32_t rest, int want_p, int64_t limit,
                                gr_option_fn fn, void *user) {
    gr_game *g = q->game;
    if (q->ngames != 1 || !q->proved || heap <= GR_HUGE_HEAP || !gr_heap_moves_shape(g)) return -1;
    q_val u = { c, q, rest, want_p };
    gr_heap_valuation v = { q_value, q_mul, q_hit, &u, q->per, q->pre };
    return gr_heap_moves_where(c, g, heap, &v, limit, fn, user);
}

static gr_quotient *quotient_so_far(gr_game *g, int64_t *reached) {
    gr_quotient *q = has_quotient(g, NULL, 0) ? GR_CACHED(g, quotient) : NULL;
    if (q && reached) *reached = (q->adding >= 0 && q->adding < q->nheaps ? q->adding : q->nheaps) - 1;
    return q;
}

/* ---- the capability (cap_quotient.h) ---- */
static const gr_quotient_cap quotient_cap = {
    .of = gr_quotient_of,
    .so_far = quotient_so_far,
    .restrict_to = gr_quotient_restrict,
    .elem = gr_quotient_elem,
    .union_of = gr_quotient_union,
    .elem_of = gr_quotient_elem_of,
    .moves_where = gr_quotient_moves_where,
    .prove = gr_quotient_prove,
    .free = gr_quotient_free,
    .present = gr_quotient_present,
    .presentation_free = gr_presentation_free,
};

const gr_quotient_cap *gr_cap_quotient(const gr_game *g, char *why, size_t cap) {
    return has_quotient(g, why, cap) ? &quotient_cap : NULL;
}
