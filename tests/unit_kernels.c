/* unit_kernels: property tests of every heap kernel and of sums under every convention.
 *
 * Random rule sets are generated twice over: as .game text for grundy, and as a plain
 * description read by brute forces written here (a mex loop over options enumerated directly
 * from the description -- a subtraction set, a take-and-break code with its CGSuite meaning,
 * or general move lines evaluated in C). For each rule set the kernel (gr_heap_sg), the
 * kernel-free twin (gr_heap_fill_generic), the brute force and the position graph must agree.
 * Sums of random components are checked under normal play (xor fast path against the graph),
 * misere play (nim against the misere Nim rule), and 'every' and 'anyleaf' (against a memoised
 * recursive definition over components, where a heap that splits stays one component).
 * Finally the rarely-hit table widths: values above 255 and 65535. Everything is seeded. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "gamefix.h"
#include "eval/cache.h"
#include "eval/heap/sgtable.h"

enum { MAXD = 512, MAXLINES = 4, MAXSUB = 512, MAXPARTS = 3 };

/* ---- a rule set as the brute forces see it -------------------------------------------- */

typedef enum { L_SUB, L_SPLIT, L_DIV, L_THREE, L_HALF, L_CONST, L_NKINDS } line_kind;
typedef enum { G_NONE, G_KMOD, G_NKMOD, G_UNEQ } guard_kind;

/* One move line of a general rule block (see render_line for the text of each kind). */
typedef struct rline {
    line_kind kind;
    int64_t A, B;
    int b_is_n;          /* the range of k is A..n */
    int64_t L;           /* L_SPLIT: the least part */
    guard_kind guard;
    int64_t M, R;
    int64_t D;           /* L_DIV */
    /* L_SPLIT: the bound of a is 0: (n - k) / 2, 1: n - k - 1, 2: (n - k - 1) / 2, 3: a == L
     * (a target without variables, written by hand); the parts
     * may be written the other way round; kconst: no variable k, the constant A instead */
    int hiform, swap, kconst;
} rline;

typedef enum { BG_SUB, BG_TB, BG_RULES } bg_kind;

typedef struct bg {
    bg_kind kind;
    /* subtraction: the listed amounts, plus every amount >= open_from (0: none) */
    int64_t sub[MAXSUB];
    int nsub;
    int64_t open_from;
    /* take-and-break: the digit of each place (0 is before the point), its constraint
     * character (0, '!', '?', '='), and a repeating tail of `period` digits */
    uint32_t mask[MAXD];
    char cons[MAXD];
    int nd, period;
    /* general rules */
    rline lines[MAXLINES];
    int nlines;
    int max_parts;       /* the most heaps one move leaves */
    char decl[4096];     /* the declaration as .game text */
} bg;

typedef void (*opt_fn)(void *user, const int64_t *parts, int nparts);

static int64_t fdiv(int64_t a, int64_t b) {  /* floor division, as the language divides */
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static void bg_digit(const bg *b, int64_t place, uint32_t *mask, char *cons) {
    *mask = 0;
    *cons = 0;
    if (place < b->nd) {
        *mask = b->mask[place];
        *cons = b->cons[place];
    } else if (b->period) {
        int64_t pre = b->nd - b->period;
        int64_t i = pre + (place - pre) % b->period;
        *mask = b->mask[i];
        *cons = b->cons[i];
    }
}

/* Every way to write rem as h nondecreasing parts, the first at least min; a constraint
 * concerns the parts of a split (two or more heaps): '!' all different, '?' not all equal,
 * '=' all equal. */
static void tb_parts(int64_t *p, int i, int h, int64_t min, int64_t rem, char cons, opt_fn fn, void *user) {
    if (i == h - 1) {
        if (rem < min) return;
        p[i] = rem;
        if (h >= 2 && cons) {
            int distinct = 1, equal = 1;
            for (int j = 1; j < h; j++) {
                if (p[j] == p[j - 1]) distinct = 0;
                else equal = 0;
            }
            if (cons == '!' && !distinct) return;
            if (cons == '?' && equal) return;
            if (cons == '=' && !equal) return;
        }
        fn(user, p, h);
        return;
    }
    for (int64_t v = min; v * (h - i) <= rem; v++) {
        p[i] = v;
        tb_parts(p, i + 1, h, v, rem - v, cons, fn, user);
    }
}

static int guard_ok(const rline *l, int64_t n, int64_t k, int64_t a) {
    switch (l->guard) {
    case G_NONE: return 1;
    case G_KMOD: return k % l->M != l->R;
    case G_NKMOD: return (n + k) % l->M == l->R;
    case G_UNEQ: return a != n - k - a;
    }
    return 0;
}

static void line_options(const rline *l, int64_t n, opt_fn fn, void *user) {
    int64_t p[MAXPARTS];
    int64_t hi = l->b_is_n ? n : l->B;
    switch (l->kind) {
    case L_SUB:
        for (int64_t k = l->A; k <= hi; k++)
            if (n - k >= 0 && guard_ok(l, n, k, 0)) { p[0] = n - k; fn(user, p, 1); }
        break;
    case L_SPLIT:
        if (l->kconst) hi = l->A;
        for (int64_t k = l->A; k <= hi; k++) {
            int64_t ahi = l->hiform == 0 ? fdiv(n - k, 2) : l->hiform == 1 ? n - k - 1 : l->hiform == 2 ? fdiv(n - k - 1, 2) : l->L;
            for (int64_t a = l->L; a <= ahi; a++)
                if (guard_ok(l, n, k, a)) {
                    p[l->swap] = a;
                    p[1 - l->swap] = n - k - a;
                    if (p[0] >= 0 && p[1] >= 0) fn(user, p, 2);
                }
        }
        break;
    case L_CONST:
        if (n >= l->A) { p[0] = n - l->A; fn(user, p, 1); }
        break;
    case L_DIV:
        if (n >= 1) { p[0] = n / l->D; fn(user, p, 1); }
        break;
    case L_THREE: {
        int64_t m = n - l->A;
        for (int64_t a = 1; a <= fdiv(m, 3); a++)
            for (int64_t b = a; b <= fdiv(m - a, 2); b++) { p[0] = a; p[1] = b; p[2] = m - a - b; fn(user, p, 3); }
        break;
    }
    case L_HALF:
        for (int64_t k = 1; k <= n; k++)
            if (k % l->M != l->R) { p[0] = k - 1; p[1] = n - k; fn(user, p, 2); }
        break;
    case L_NKINDS: break;
    }
}

/* Every option of heap n, each a list of heap sizes (possibly empty). */
static void bg_options(const bg *b, int64_t n, opt_fn fn, void *user) {
    int64_t p[32];
    switch (b->kind) {
    case BG_SUB:
        for (int i = 0; i < b->nsub; i++)
            if (b->sub[i] <= n) { p[0] = n - b->sub[i]; fn(user, p, 1); }
        if (b->open_from)
            for (int64_t s = b->open_from; s <= n; s++) { p[0] = n - s; fn(user, p, 1); }
        break;
    case BG_TB:
        for (int64_t k = 0; k <= n; k++) {
            uint32_t mask;
            char cons;
            bg_digit(b, k, &mask, &cons);
            int64_t r = n - k;
            for (int h = 0; h < 32; h++) {
                if (!(mask >> h & 1u)) continue;
                if (h == 0) {
                    if (r == 0) fn(user, p, 0);      /* took the whole heap */
                } else {
                    tb_parts(p, 0, h, 1, r, cons, fn, user);
                }
            }
        }
        break;
    case BG_RULES:
        for (int i = 0; i < b->nlines; i++) line_options(&b->lines[i], n, fn, user);
        break;
    }
}

/* ---- the brute-force recurrence ----------------------------------------------------------- */

typedef struct vec { int64_t *v; size_t n, cap; } vec;

static void vec_push(vec *x, int64_t v) {
    if (x->n == x->cap) {
        x->cap = x->cap ? x->cap * 2 : 64;
        x->v = realloc(x->v, x->cap * sizeof *x->v);
    }
    x->v[x->n++] = v;
}

static int64_t mex_vec(const vec *x) {
    unsigned char *seen = calloc(x->n + 1, 1);
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i] >= 0 && (uint64_t)x->v[i] <= x->n) seen[x->v[i]] = 1;
    int64_t m = 0;
    while (seen[m]) m++;
    free(seen);
    return m;
}

typedef struct sg_acc {
    const int64_t *vals;
    int64_t n;
    vec xs;
    int bad;            /* an option was not smaller (a bug in the generator) */
} sg_acc;

static void sg_acc_option(void *user, const int64_t *parts, int nparts) {
    sg_acc *a = user;
    int64_t x = 0;
    for (int i = 0; i < nparts; i++) {
        if (parts[i] < 0 || parts[i] >= a->n) { a->bad = 1; return; }
        x ^= a->vals[parts[i]];
    }
    vec_push(&a->xs, x);
}

static void bg_sg(const bg *b, int64_t N, int64_t *out) {
    sg_acc a = { .vals = out };
    for (int64_t n = 0; n <= N; n++) {
        a.n = n;
        a.xs.n = 0;
        bg_options(b, n, sg_acc_option, &a);
        out[n] = mex_vec(&a.xs);
    }
    CHECK(!a.bad);
    free(a.xs.v);
}

/* ---- generators: a random rule set as text and as a description ----------------------- */

static int cmp_i64(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static size_t appendf(char *buf, size_t cap, size_t pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t appendf(char *buf, size_t cap, size_t pos, const char *fmt, ...) {
    if (pos >= cap) return pos;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + pos, cap - pos, fmt, ap);
    va_end(ap);
    return n > 0 ? pos + (size_t)n : pos;
}

/* Random distinct amounts, sorted. */
static int rand_set(t_rng *r, int64_t *out, int size, int64_t hi) {
    int n = 0;
    while (n < size) {
        int64_t v = t_range(r, 1, hi);
        int dup = 0;
        for (int i = 0; i < n; i++) dup |= out[i] == v;
        if (!dup) out[n++] = v;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_i64);
    return n;
}

typedef struct kinds_seen { int k[KER_GRAPH + 1]; } kinds_seen;

/* A subtraction game, written in one of several ways: a list with runs as ranges, an octal
 * code of 0s and 3s, a range, a rule block; sometimes with an open tail "L..". */
static void gen_sub(t_rng *r, bg *b, const char *name, int wide) {
    memset(b, 0, sizeof *b);
    b->kind = BG_SUB;
    b->max_parts = 1;
    int size = wide ? (int)t_range(r, 70, 100) : (int)t_range(r, 1, 8);
    b->nsub = rand_set(r, b->sub, size, wide ? 250 : 40);
    if (!wide && t_range(r, 0, 6) == 0) b->open_from = t_range(r, 2, 30);
    int64_t lo = b->sub[0], hi = b->sub[b->nsub - 1];
    int contiguous = hi - lo + 1 == b->nsub;
    int style = (int)t_range(r, 0, 9);
    size_t pos = 0, cap = sizeof b->decl;
    if (!b->open_from && style <= 1 && hi <= 40) {                /* octal "0.0303" */
        pos = appendf(b->decl, cap, pos, "game %s = octal \"0.", name);
        for (int64_t p = 1, i = 0; p <= hi; p++) {
            int in = i < b->nsub && b->sub[i] == p;
            if (in) i++;
            pos = appendf(b->decl, cap, pos, "%c", in ? '3' : '0');
        }
        appendf(b->decl, cap, pos, "\";\n");
    } else if (!b->open_from && contiguous && style <= 4) {       /* a range, bare or as rules */
        if (style <= 3)
            appendf(b->decl, cap, pos, "game %s = subtract %lld..%lld;\n", name, (long long)lo, (long long)hi);
        else
            appendf(b->decl, cap, pos, "game %s { heap n; move -> n - k for k in %lld..%lld; }\n", name, (long long)lo, (long long)hi);
    } else if (b->open_from && style <= 2) {                      /* the open tail as rules */
        b->nsub = 0;
        appendf(b->decl, cap, pos, "game %s { heap n; move -> n - k for k in %lld..n; }\n", name, (long long)b->open_from);
    } else {                                                      /* a list */
        pos = appendf(b->decl, cap, pos, "game %s = subtract {", name);
        for (int i = 0; i < b->nsub;) {
            int j = i;
            while (j + 1 < b->nsub && b->sub[j + 1] == b->sub[j] + 1) j++;
            if (j - i >= 2 && t_range(r, 0, 1)) {
                pos = appendf(b->decl, cap, pos, "%s%lld..%lld", i ? ", " : "", (long long)b->sub[i], (long long)b->sub[j]);
                i = j + 1;
            } else {
                pos = appendf(b->decl, cap, pos, "%s%lld", i ? ", " : "", (long long)b->sub[i]);
                i++;
            }
        }
        if (b->open_from) pos = appendf(b->decl, cap, pos, ", %lld..", (long long)b->open_from);
        appendf(b->decl, cap, pos, "};\n");
    }
}

/* A take-and-break code: octal (digits 0-7) or hexadecimal (0-F, three heaps), 2..5 places,
 * sometimes a splitting digit before the point, constraints, a repeating tail. */
static void gen_tb(t_rng *r, bg *b, const char *name, int hex) {
    static const char digits[] = "0123456789ABCDEF";
    static const char cons_chars[] = "!?=";
    memset(b, 0, sizeof *b);
    b->kind = BG_TB;
    int places = (int)t_range(r, 2, hex ? 4 : 5);
    b->nd = places + 1;
    if (t_range(r, 0, 4) == 0) b->mask[0] = hex ? (uint32_t)(4 * t_range(r, 1, 3)) : 4u;
    for (int i = 1; i < b->nd; i++) b->mask[i] = (uint32_t)t_range(r, 0, hex ? 15 : 7);
    int constrained = t_range(r, 0, 3) == 0;
    for (int i = 0; i < b->nd; i++)
        if (constrained && b->mask[i] >= 4 && t_range(r, 0, 1)) b->cons[i] = cons_chars[t_range(r, 0, 2)];
    if (t_range(r, 0, 6) == 0) {
        b->period = (int)t_range(r, 1, 2 < places ? 2 : places);
        /* keep the repeating tail cheap: no 3-heap digits in it */
        for (int i = b->nd - b->period; i < b->nd; i++) {
            if (b->mask[i] == 0) b->mask[i] = 3;
            b->mask[i] &= 7u;
        }
    }
    b->max_parts = 0;
    for (int i = 0; i < b->nd; i++)
        for (int h = 3; h >= 0; h--)
            if (b->mask[i] >> h & 1u) { if (h > b->max_parts) b->max_parts = h; break; }
    size_t pos = appendf(b->decl, sizeof b->decl, 0, "game %s = octal \"", name);
    for (int i = 0; i < b->nd; i++) {
        if (b->period && i == b->nd - b->period) pos = appendf(b->decl, sizeof b->decl, pos, "[");
        pos = appendf(b->decl, sizeof b->decl, pos, "%c", digits[b->mask[i]]);
        if (b->cons[i]) pos = appendf(b->decl, sizeof b->decl, pos, "%c", b->cons[i]);
        if (i == 0) pos = appendf(b->decl, sizeof b->decl, pos, ".");
    }
    appendf(b->decl, sizeof b->decl, pos, "%s\";\n", b->period ? "]" : "");
}

static size_t render_guard(char *buf, size_t cap, size_t pos, const rline *l) {
    switch (l->guard) {
    case G_NONE: return pos;
    case G_KMOD: return appendf(buf, cap, pos, " where k %% %lld != %lld", (long long)l->M, (long long)l->R);
    case G_NKMOD: return appendf(buf, cap, pos, " where (n + k) %% %lld == %lld", (long long)l->M, (long long)l->R);
    case G_UNEQ: return appendf(buf, cap, pos, " where a != n - k - a");
    }
    return pos;
}

static size_t render_line(char *buf, size_t cap, size_t pos, const rline *l) {
    char hi[32];
    if (l->b_is_n) snprintf(hi, sizeof hi, "n");
    else snprintf(hi, sizeof hi, "%lld", (long long)l->B);
    switch (l->kind) {
    case L_SUB:
        pos = appendf(buf, cap, pos, "    move -> n - k for k in %lld..%s", (long long)l->A, hi);
        break;
    case L_SPLIT: {
        char k[32], ahi[64];
        if (l->kconst) snprintf(k, sizeof k, "%lld", (long long)l->A);
        else snprintf(k, sizeof k, "k");
        if (l->hiform == 0) snprintf(ahi, sizeof ahi, "(n - %s) / 2", k);
        else if (l->hiform == 1) snprintf(ahi, sizeof ahi, "n - %s - 1", k);
        else snprintf(ahi, sizeof ahi, "(n - %s - 1) / 2", k);
        if (l->swap) pos = appendf(buf, cap, pos, "    move -> {n - %s - a, a} for ", k);
        else pos = appendf(buf, cap, pos, "    move -> {a, n - %s - a} for ", k);
        if (!l->kconst) pos = appendf(buf, cap, pos, "k in %lld..%s, ", (long long)l->A, hi);
        pos = appendf(buf, cap, pos, "a in %lld..%s", (long long)l->L, ahi);
        break;
    }
    case L_CONST:
        return appendf(buf, cap, pos, "    move -> n - %lld;\n", (long long)l->A);
    case L_DIV:
        return appendf(buf, cap, pos, "    move -> n / %lld where n >= 1;\n", (long long)l->D);
    case L_THREE:
        return appendf(buf, cap, pos, "    move -> {a, b, n - k - a - b} for k in %lld..%lld, a in 1..(n - k) / 3, b in a..(n - k - a) / 2;\n",
                       (long long)l->A, (long long)l->A);
    case L_HALF:
        pos = appendf(buf, cap, pos, "    move -> {k - 1, n - k} for k in 1..n");
        break;
    case L_NKINDS: break;
    }
    pos = render_guard(buf, cap, pos, l);
    return appendf(buf, cap, pos, ";\n");
}

/* A general heap rule block of one to three random move lines. */
static void gen_rules(t_rng *r, bg *b, const char *name) {
    memset(b, 0, sizeof *b);
    b->kind = BG_RULES;
    b->nlines = (int)t_range(r, 1, 3);
    b->max_parts = 1;
    size_t pos = appendf(b->decl, sizeof b->decl, 0, "game %s {\n    heap n;\n", name);
    for (int i = 0; i < b->nlines; i++) {
        rline *l = &b->lines[i];
        l->kind = (line_kind)t_range(r, 0, L_NKINDS - 1);
        l->A = t_range(r, 1, 4);
        l->b_is_n = t_range(r, 0, 3) == 0;
        l->B = l->A + t_range(r, 0, 5);
        l->L = t_range(r, 0, 1);
        l->M = t_range(r, 2, 4);
        l->R = t_range(r, 0, l->M - 1);
        l->D = t_range(r, 2, 3);
        int g = (int)t_range(r, 0, 2);
        switch (l->kind) {
        case L_SUB: l->guard = g == 0 ? G_NONE : g == 1 ? G_KMOD : G_NKMOD; break;
        case L_SPLIT: l->guard = g == 0 ? G_NONE : g == 1 ? G_UNEQ : G_KMOD; break;
        case L_HALF: l->guard = G_KMOD; break;
        default: l->guard = G_NONE; break;
        }
        int parts = l->kind == L_SPLIT || l->kind == L_HALF ? 2 : l->kind == L_THREE ? 3 : 1;
        if (parts > b->max_parts) b->max_parts = parts;
        pos = render_line(b->decl, sizeof b->decl, pos, l);
    }
    appendf(b->decl, sizeof b->decl, pos, "}\n");
}

/* Rules in the shapes lowering reads as a take-and-break code (n - K; n - k for k in LO..HI
 * or LO..n; {a, n - K - a} and {a, n - k - a} with the bounds for any or unequal pairs),
 * now and then with a shape that must not be read so (a least part 0, a guard). */
static void gen_tb_rules(t_rng *r, bg *b, const char *name) {
    memset(b, 0, sizeof *b);
    b->kind = BG_RULES;
    b->nlines = (int)t_range(r, 1, 3);
    b->max_parts = 1;
    size_t pos = appendf(b->decl, sizeof b->decl, 0, "game %s {\n    heap n;\n", name);
    for (int i = 0; i < b->nlines; i++) {
        rline *l = &b->lines[i];
        int kind = (int)t_range(r, 0, 5);
        l->guard = G_NONE;
        if (kind == 0) {
            l->kind = L_CONST;
            l->A = t_range(r, 1, 6);
        } else if (kind == 1) {
            l->kind = L_SUB;
            l->A = t_range(r, 1, 5);
            l->b_is_n = t_range(r, 0, 2) == 0;
            l->B = l->A + t_range(r, -1, 4);
        } else {
            l->kind = L_SPLIT;
            l->kconst = kind == 2;
            l->A = t_range(r, 0, 4);
            l->b_is_n = !l->kconst && t_range(r, 0, 2) == 0;
            l->B = l->A + t_range(r, -1, 4);
            l->L = t_range(r, 0, 7) == 0 ? 0 : 1;
            if (l->L == 0 && l->A == 0) l->A = 1;     /* {0, n - 0} would not be smaller */
            l->hiform = (int)t_range(r, 0, 2);
            l->swap = (int)t_range(r, 0, 1);
            if (!l->kconst && t_range(r, 0, 9) == 0) { l->guard = G_KMOD; l->M = 2; l->R = t_range(r, 0, 1); }
            b->max_parts = 2;
        }
        pos = render_line(b->decl, sizeof b->decl, pos, l);
    }
    appendf(b->decl, sizeof b->decl, pos, "}\n");
}

/* ---- a single heap game: kernel == generic == brute force == position graph -------------- */

typedef struct heap_job {
    const bg *b;
    const char *name;
    int64_t N, G, split;     /* heaps 0..N; graph to G; the kernel is grown to split first */
    const int64_t *brute;
    kinds_seen *seen;
} heap_job;

static long long heap_decided, heap_cases;   /* values the heap evaluator answered, of those asked */

static void heap_body(gf *f, void *arg) {
    heap_job *j = arg;
    gr_ctx *c = &f->c;
    gr_game *g = gf_game(f, j->name);
    if (!CHECK(g != NULL)) return;
    j->seen->k[g->kernel]++;
    int bad = 0;
    CHECK_EQ(gr_heap_ensure(c, g, j->split), 0);
    CHECK_EQ(gr_heap_ensure(c, g, j->N), 0);
    for (int64_t n = 0; n <= j->N; n++)
        if (!CHECK_EQ(gr_heap_sg(c, g, n), j->brute[n]) && !bad++)
            fprintf(stderr, "  kernel %d, heap %lld, game:\n%s", (int)g->kernel, (long long)n, j->b->decl);
    for (int64_t n = 0; n <= j->N; n++) {   /* the heap evaluator, as queries reach it */
        gr_value v;
        heap_cases++;
        if (gr_eval_value(c, g, CONV_NORMAL, &n, GR_KIND_SG, g->decl->name_loc, &v)) {
            heap_decided++;
            if (!CHECK_EQ(v.sg, j->brute[n]) && !bad++)
                fprintf(stderr, "  heap evaluator, heap %lld, game:\n%s", (long long)n, j->b->decl);
        }
    }
    int64_t *gen = malloc((size_t)(j->N + 1) * sizeof *gen);
    gr_heap_fill_generic(c, g, j->N, gen);
    for (int64_t n = 0; n <= j->N; n++)
        if (!CHECK_EQ(gen[n], j->brute[n]) && !bad++)
            fprintf(stderr, "  generic, heap %lld, game:\n%s", (long long)n, j->b->decl);
    free(gen);
    if (j->G < 0) return;
    gr_sumgraph *s = gr_sumgraph_new(c, &f->mod, CONV_NORMAL);
    for (int64_t n = 0; n <= j->G; n++) {
        gr_comp k = gf_comp(g, n, 0);
        gr_sumgraph_add(s, &k, 1);
    }
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    for (int64_t n = 0; n <= j->G; n++) {
        gr_comp k = gf_comp(g, n, 0);
        uint32_t id = gr_sumgraph_id(s, &k, 1);
        if (!CHECK_EQ(gr_pg_sg(pg, id), j->brute[n]) && !bad++)
            fprintf(stderr, "  graph, heap %lld, game:\n%s", (long long)n, j->b->decl);
        CHECK_EQ(gr_pg_outcome(pg, id), j->brute[n] ? GR_WIN : GR_LOSS);
    }
    gr_sumgraph_free(s);
}

static void heap_case_named(t_rng *r, const bg *b, const char *name, int64_t N, int64_t G, kinds_seen *seen) {
    gf f;
    int64_t *brute = malloc((size_t)(N + 1) * sizeof *brute);
    bg_sg(b, N, brute);
    if (CHECK(gf_open(&f, b->decl))) {
        heap_job j = { b, name, N, G, t_range(r, 0, N), brute, seen };
        if (!gf_run(&f, heap_body, &j)) gf_report_failure(&f, b->decl);
    }
    gf_close(&f);
    free(brute);
}

/* Set builders, expanded here in C up to 300. */
static int64_t builder_elem(int which, int64_t i) {
    switch (which) {
    case 0: return 2 * i + 1;                      /* {2*i + 1 : i >= 0} */
    case 1: return i * i;                          /* {i*i : i >= 1} */
    case 2: {                                      /* {fib(i) : i >= 2} */
        int64_t a = 0, b = 1;
        for (int64_t k = 0; k < i; k++) { int64_t t = a + b; a = b; b = t; }
        return a;
    }
    case 3: return 3 * i + 2;                      /* {3*i + 2 : i in 0..5} */
    case 4: return i * i;                          /* {i*i : i > 1} */
    default: return 5 * i + 4 * (i % 2) + 1;       /* {5*i + 4*(i % 2) + 1 : i in 1..} */
    }
}

static void heap_case(t_rng *r, const bg *b, int64_t N, int64_t G, kinds_seen *seen) {
    heap_case_named(r, b, "g", N, G, seen);
}

static void test_subtraction(t_rng *r, kinds_seen *seen) {
    bg *b = malloc(sizeof *b);
    for (int i = 0; i < 300; i++) {
        gen_sub(r, b, "g", i % 60 == 7);
        heap_case(r, b, 300, 60, seen);
    }
    static const struct { const char *decl; int which; int64_t from, to; } builders[] = {
        { "game g = subtract {2*i + 1 : i >= 0};\n", 0, 0, -1 },
        { "game g = subtract {i*i : i >= 1};\n", 1, 1, -1 },
        { "game g = subtract {fib(i) : i >= 2};\n", 2, 2, -1 },
        { "game g = subtract {3*i + 2 : i in 0..5};\n", 3, 0, 5 },
        { "game g = subtract {i*i : i > 1};\n", 4, 2, -1 },
        { "game g = subtract {5*i + 4*(i % 2) + 1 : i in 1..};\n", 5, 1, -1 },
    };
    for (size_t k = 0; k < sizeof builders / sizeof *builders; k++) {
        memset(b, 0, sizeof *b);
        b->kind = BG_SUB;
        b->max_parts = 1;
        for (int64_t i = builders[k].from; builders[k].to < 0 || i <= builders[k].to; i++) {
            int64_t v = builder_elem(builders[k].which, i);
            if (v > 300) break;
            b->sub[b->nsub++] = v;
        }
        snprintf(b->decl, sizeof b->decl, "%s", builders[k].decl);
        heap_case(r, b, 300, 60, seen);
    }
    free(b);
}

/* Long octal codes (15..40 places): values pass 64, so the octal kernel leaves its word masks. */
static void test_long_codes(t_rng *r, kinds_seen *seen) {
    bg *b = malloc(sizeof *b);
    for (int i = 0; i < 12; i++) {
        memset(b, 0, sizeof *b);
        b->kind = BG_TB;
        b->nd = (int)t_range(r, 16, 41);
        size_t pos = appendf(b->decl, sizeof b->decl, 0, "game g = octal \"0.");
        for (int k = 1; k < b->nd; k++) {
            b->mask[k] = (uint32_t)t_range(r, 2, 7);
            pos = appendf(b->decl, sizeof b->decl, pos, "%u", b->mask[k]);
        }
        appendf(b->decl, sizeof b->decl, pos, "\";\n");
        b->max_parts = 2;
        heap_case(r, b, 400, 14, seen);
    }
    free(b);
}

static void test_take_and_break(t_rng *r, kinds_seen *seen) {
    bg *b = malloc(sizeof *b);
    for (int i = 0; i < 300; i++) {
        int hex = i % 3 == 2;
        gen_tb(r, b, "g", hex);
        int64_t G = b->max_parts >= 3 ? 12 : b->max_parts == 2 ? 18 : 40;
        heap_case(r, b, b->max_parts >= 3 ? 60 : 120, G, seen);
    }
    /* fixed codes: each constraint with 2 and 3 heaps, a split digit before the point */
    static const char *fixed[] = { "4!.0", "4=.0", "4?.0", "8!.0", "8?.0", "8=.0", "C!.0", "0.4!4", "0.6?", "0.F!F",
                                   "0.[7]", "0.1[4]", "0.0[6!]", "4.[3]", ".77", "0.", "0.0000", "0.ff", "0.G",
                                   "0.&17;", "0.3&24;", "0.&48;!", "0.[&6;]", "0.1&12;",
                                   "4.", "8.", "C.", "4=.", "0.04", "0.000004" };
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        memset(b, 0, sizeof *b);
        b->kind = BG_TB;
        const char *s = fixed[i];
        int nd = 0, in_period = -1;
        if (*s == '.') b->mask[nd++] = 0;
        for (; *s; s++) {
            if (*s == '.') { if (nd == 0) b->mask[nd++] = 0; continue; }
            if (*s == '[') { in_period = nd; continue; }
            if (*s == ']') continue;
            if (*s == '!' || *s == '?' || *s == '=') { b->cons[nd - 1] = *s; continue; }
            if (*s == '&') { b->mask[nd++] = (uint32_t)strtoul(s + 1, NULL, 10); s = strchr(s, ';'); continue; }
            int ch = *s >= 'a' ? *s - 'a' + 'A' : *s;
            b->mask[nd++] = (uint32_t)(ch <= '9' ? ch - '0' : ch - 'A' + 10);
        }
        b->nd = nd;
        b->period = in_period >= 0 ? nd - in_period : 0;
        b->max_parts = 0;
        for (int k = 0; k < nd; k++)
            for (int h = 31; h >= 0; h--)
                if (b->mask[k] >> h & 1u) { if (h > b->max_parts) b->max_parts = h; break; }
        snprintf(b->decl, sizeof b->decl, "game g = octal \"%s\";\n", fixed[i]);
        heap_case(r, b, b->max_parts >= 4 ? 36 : b->max_parts >= 3 ? 50 : 100, b->max_parts >= 3 ? 12 : 16, seen);
    }
    free(b);
}

static void test_rules(t_rng *r, kinds_seen *seen) {
    bg *b = malloc(sizeof *b);
    for (int i = 0; i < 150; i++) {
        gen_rules(r, b, "g");
        heap_case(r, b, 120, b->max_parts >= 2 ? 14 : 40, seen);
    }
    /* rules that lowering may read as take-and-break codes */
    kinds_seen tb = { { 0 } };
    for (int i = 0; i < 150; i++) {
        gen_tb_rules(r, b, "g");
        heap_case(r, b, 120, 16, &tb);
    }
    printf("take-and-break shaped rules: octal %d, take-and-break %d, subtract %d, infinite %d, rules %d, nim %d\n",
           tb.k[KER_OCTAL], tb.k[KER_TB], tb.k[KER_SUBTRACT], tb.k[KER_SUBTRACT_INF], tb.k[KER_RULES], tb.k[KER_NIM]);
    CHECK(tb.k[KER_OCTAL] + tb.k[KER_TB] > 50);
    CHECK(tb.k[KER_RULES] > 5);
    for (int k = 0; k <= KER_GRAPH; k++) seen->k[k] += tb.k[k];
    /* splits without a variable: a target {x, y} of constants and n */
    static const struct { const char *decl; rline line; } nobind[] = {
        { "game g { heap n; move -> {n - 2, 0}; }\n", { .kind = L_SPLIT, .A = 2, .kconst = 1, .L = 0, .hiform = 3 } },
        { "game g { heap n; move -> {1, n - 3}; }\n", { .kind = L_SPLIT, .A = 2, .kconst = 1, .L = 1, .hiform = 3 } },
    };
    for (size_t i = 0; i < sizeof nobind / sizeof *nobind; i++) {
        memset(b, 0, sizeof *b);
        b->kind = BG_RULES;
        b->nlines = 1;
        b->lines[0] = nobind[i].line;
        b->max_parts = 2;
        snprintf(b->decl, sizeof b->decl, "%s", nobind[i].decl);
        heap_case(r, b, 60, 16, seen);
    }

    /* parameters in the bounds of a rule that lowering turns into a subtraction set, and in
     * rules it interprets */
    static const struct { const char *decl, *name; rline line; } params[] = {
        { "game g[m] { heap n; move -> n - k for k in 2..m; }\ntable g[6](0..3);\n", "g[6]",
          { .kind = L_SUB, .A = 2, .B = 6 } },
        { "game g[lo, hi] { heap n; move -> n - k for k in lo..hi; }\ntable g[3, 7](0..3);\n", "g[3, 7]",
          { .kind = L_SUB, .A = 3, .B = 7 } },
        { "game g[m] { heap n; move -> n - k for k in m..n; }\ntable g[4](0..3);\n", "g[4]",
          { .kind = L_SUB, .A = 4, .b_is_n = 1 } },
        { "game g[m, r] { heap n; move -> n - k for k in 1..m where k % 3 != r; }\ntable g[9, 2](0..3);\n", "g[9, 2]",
          { .kind = L_SUB, .A = 1, .B = 9, .guard = G_KMOD, .M = 3, .R = 2 } },
        { "game g[s] { heap n; move -> {a, n - k - a} for k in s..s, a in 1..(n - k) / 2; }\ntable g[2](0..3);\n", "g[2]",
          { .kind = L_SPLIT, .A = 2, .B = 2, .L = 1 } },
        { "game g[d] { heap n; move -> n / d where n >= 1; }\ntable g[3](0..3);\n", "g[3]",
          { .kind = L_DIV, .D = 3 } },
    };
    for (size_t i = 0; i < sizeof params / sizeof *params; i++) {
        memset(b, 0, sizeof *b);
        b->kind = BG_RULES;
        b->nlines = 1;
        b->lines[0] = params[i].line;
        b->max_parts = params[i].line.kind == L_SPLIT ? 2 : 1;
        snprintf(b->decl, sizeof b->decl, "%s", params[i].decl);
        heap_case_named(r, b, params[i].name, 150, 30, seen);
    }
    free(b);
}

/* A move that does not lead to a smaller heap: the recurrence must say so, not answer. */
typedef struct nonrec_job { int ok; } nonrec_job;
static void nonrec_body(gf *f, void *arg) {
    nonrec_job *j = arg;
    gr_game *g = gf_game(f, "late");
    CHECK_EQ(gr_heap_ensure(&f->c, g, 4), 0);
    CHECK_EQ(gr_heap_sg(&f->c, g, 4), 0);            /* 0,1,0,1,0: subtract {1} up to 4 */
    CHECK_EQ(gr_heap_sg(&f->c, g, 3), 1);
    CHECK_EQ(gr_heap_ensure(&f->c, g, 10), -1);       /* heap 5 moves to 5 */
    CHECK(g->state->not_recurrence);
    /* a sum target without variables whose one part is n: lowering once read the binding
     * before the first (mv->binds[-1]) and crashed; the part -2 makes it no move at all */
    gr_game *neg = gf_game(f, "neg");
    for (int64_t n = 0; n <= 10; n++) CHECK_EQ(gr_heap_sg(&f->c, neg, n), 0);
    gr_game *s = gf_game(f, "same");
    CHECK_EQ(gr_heap_ensure(&f->c, s, 3), -1);
    CHECK(s->state->not_recurrence);
    /* the fast path declines, and the graph answers: heap 5 moves to itself and to 4 (a P
     * position), so it is N without an SG value; heap 6 moves only to 5: P; heap 7: N */
    int64_t x = -1;
    gr_comp k5 = gf_comp(g, 5, 0);
    CHECK_EQ(gr_sum_sg_fast(&f->c, &k5, 1, &x, NULL), 0);
    gr_sumgraph *sg = gr_sumgraph_new(&f->c, &f->mod, CONV_NORMAL);
    for (int64_t n = 3; n <= 7; n++) {
        gr_comp k = gf_comp(g, n, 0);
        gr_sumgraph_add(sg, &k, 1);
    }
    gr_sumgraph_solve(sg);
    static const gr_outcome want[] = { GR_WIN, GR_LOSS, GR_WIN, GR_LOSS, GR_WIN };   /* heaps 3..7 */
    static const int64_t want_sg[] = { 1, 0, -1, -1, -1 };
    for (int64_t n = 3; n <= 7; n++) {
        gr_comp k = gf_comp(g, n, 0);
        uint32_t id = gr_sumgraph_id(sg, &k, 1);
        CHECK_EQ(gr_pg_outcome(gr_sumgraph_pg(sg), id), want[n - 3]);
        CHECK_EQ(gr_pg_sg(gr_sumgraph_pg(sg), id), want_sg[n - 3]);
    }
    gr_sumgraph_free(sg);
    j->ok = 1;
}

static void test_not_recurrence(void) {
    gf f;
    const char *src = "game late { heap n; move -> n - 1 for k in 1..1 where n >= 1; move -> n for k in 1..1 where n == 5; }\n"
                      "game same { heap n; move -> n - k for k in 0..2; }\n"
                      "game neg { heap n; move -> {n, -2}; }\n";
    nonrec_job j = { 0 };
    if (CHECK(gf_open(&f, src)) && !gf_run(&f, nonrec_body, &j)) gf_report_failure(&f, "not recurrence");
    CHECK(j.ok);
    gf_close(&f);
}

/* ---- sums under normal play: the xor fast path against the graph ------------------------ */

enum { NSUMGAMES = 3, MAXCOMPS = 4 };

typedef struct sum_spec { int n; int game[MAXCOMPS]; int64_t heap[MAXCOMPS]; } sum_spec;

typedef struct sums_job {
    bg *games;                 /* NSUMGAMES of them, named g0, g1, g2 */
    int64_t *brute[NSUMGAMES];
    sum_spec *sums; int nsums;
} sums_job;

static void sums_comps(gf *f, const sum_spec *s, gr_comp *comps) {
    char name[8];
    for (int i = 0; i < s->n; i++) {
        snprintf(name, sizeof name, "g%d", s->game[i]);
        comps[i] = gf_comp(gf_game(f, name), s->heap[i], 0);
    }
}

/* ---- winning moves: the fast path's list against the graph's ----------------------------- */

/* A set of positions as canonical texts: the atoms of "a(1) + b(0) + c(2, 3)" sorted, with
 * heaps of 0 and empty components ("0") dropped (no game here moves from a heap of 0). */
typedef struct textset { char **v; int n, cap; } textset;

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

static void ts_add(textset *t, const char *text) {
    char *atoms[64], buf[1024];
    int na = 0;
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = buf; p && *p;) {
        char *sep = strstr(p, " + ");
        if (sep) *sep = '\0';
        size_t len = strlen(p);
        int zero = strcmp(p, "0") == 0 || (len > 3 && strcmp(p + len - 3, "(0)") == 0);
        if (!zero && na < 64) atoms[na++] = p;
        p = sep ? sep + 3 : NULL;
    }
    qsort(atoms, (size_t)na, sizeof *atoms, cmp_str);
    char out[1024];
    size_t pos = 0;
    out[0] = '\0';
    for (int i = 0; i < na; i++) pos = appendf(out, sizeof out, pos, "%s%s", i ? " + " : "", atoms[i]);
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->v = realloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    t->v[t->n++] = strdup(out);
}

static void ts_finish(textset *t) {       /* sort and drop duplicates */
    if (t->n) qsort(t->v, (size_t)t->n, sizeof *t->v, cmp_str);
    int k = 0;
    for (int i = 0; i < t->n; i++) {
        if (k && strcmp(t->v[k - 1], t->v[i]) == 0) { free(t->v[i]); continue; }
        t->v[k++] = t->v[i];
    }
    t->n = k;
}

static void ts_free(textset *t) {
    for (int i = 0; i < t->n; i++) free(t->v[i]);
    free(t->v);
    memset(t, 0, sizeof *t);
}

static void fast_move_cb(void *user, const char *text, uint32_t child) {
    (void)child;
    ts_add(user, text);
}

typedef struct graph_moves { textset set; gr_pg *pg; int all; } graph_moves;

static void graph_move_cb(void *user, const char *text, uint32_t child) {
    graph_moves *g = user;
    g->all++;
    if (gr_pg_outcome(g->pg, child) == GR_LOSS) ts_add(&g->set, text);
}

/* The winning moves of a sum (normal play) by values and by the graph agree. */
static int check_winning_moves(gf *f, gr_sumgraph *sg, const gr_comp *comps, int n, const int64_t *vals, int64_t x) {
    textset fast = { 0 };
    graph_moves gm = { .pg = gr_sumgraph_pg(sg) };
    gr_sum_fast_moves(&f->c, comps, n, vals, x, fast_move_cb, &fast, NULL);
    gr_sumgraph_moves(sg, comps, n, graph_move_cb, &gm);
    ts_finish(&fast);
    ts_finish(&gm.set);
    int ok = CHECK_EQ(fast.n, gm.set.n);
    for (int i = 0; ok && i < fast.n; i++) ok &= CHECK(strcmp(fast.v[i], gm.set.v[i]) == 0);
    if (x == 0) ok &= CHECK_EQ(fast.n, 0);
    else ok &= CHECK(fast.n > 0);
    if (!ok) {
        fprintf(stderr, "  winning moves differ: by values");
        for (int i = 0; i < fast.n; i++) fprintf(stderr, " [%s]", fast.v[i]);
        fprintf(stderr, "; by the graph");
        for (int i = 0; i < gm.set.n; i++) fprintf(stderr, " [%s]", gm.set.v[i]);
        fprintf(stderr, "\n");
    }
    ts_free(&fast);
    ts_free(&gm.set);
    return ok;
}

static void sums_body(gf *f, void *arg) {
    sums_job *j = arg;
    gr_ctx *c = &f->c;
    gr_sumgraph *sg = gr_sumgraph_new(c, &f->mod, CONV_NORMAL);
    gr_comp comps[MAXCOMPS];
    for (int i = 0; i < j->nsums; i++) {
        sums_comps(f, &j->sums[i], comps);
        gr_sumgraph_add(sg, comps, j->sums[i].n);
    }
    gr_sumgraph_solve(sg);
    gr_pg *pg = gr_sumgraph_pg(sg);
    int bad = 0;
    for (int i = 0; i < j->nsums; i++) {
        const sum_spec *s = &j->sums[i];
        sums_comps(f, s, comps);
        int64_t x = 0, vals[MAXCOMPS], want = 0;
        for (int k = 0; k < s->n; k++) want ^= j->brute[s->game[k]][s->heap[k]];
        if (!CHECK_EQ(gr_sum_sg_fast(c, comps, s->n, &x, vals), 1)) continue;
        for (int k = 0; k < s->n; k++) CHECK_EQ(vals[k], j->brute[s->game[k]][s->heap[k]]);
        uint32_t id = gr_sumgraph_id(sg, comps, s->n);
        int ok = CHECK_EQ(x, want);
        ok &= CHECK_EQ(gr_pg_sg(pg, id), x);
        ok &= CHECK_EQ(gr_pg_outcome(pg, id), x == 0 ? GR_LOSS : GR_WIN);
        ok &= check_winning_moves(f, sg, comps, s->n, vals, x);
        if (!ok && !bad++) {
            char text[512];
            gr_render_comps(&f->c, comps, s->n, text, sizeof text);
            fprintf(stderr, "  sum %s of\n%s%s%s", text, j->games[0].decl, j->games[1].decl, j->games[2].decl);
        }
    }
    gr_sumgraph_free(sg);
}

static void gen_any(t_rng *r, bg *b, const char *name, int small) {
    int kind = (int)t_range(r, 0, 2);
    if (kind == 0) gen_sub(r, b, name, 0);
    else if (kind == 1) gen_tb(r, b, name, small ? 0 : t_range(r, 0, 3) == 0);
    else gen_rules(r, b, name);
}

/* The largest heap for a component of b in a brute-forced or graph-solved sum. */
static int64_t sum_heap_cap(const bg *b, int64_t split_cap) {
    return b->max_parts >= 3 ? split_cap - 1 : b->max_parts == 2 ? split_cap : 2 * split_cap;
}

static void test_sums_normal(t_rng *r) {
    bg *games = malloc(NSUMGAMES * sizeof *games);
    char src[3 * 4096 + 16];
    for (int round = 0; round < 40; round++) {
        size_t pos = 0;
        sums_job j = { .games = games };
        for (int i = 0; i < NSUMGAMES; i++) {
            char name[8];
            snprintf(name, sizeof name, "g%d", i);
            gen_any(r, &games[i], name, 0);
            pos = appendf(src, sizeof src, pos, "%s", games[i].decl);
            j.brute[i] = malloc(21 * sizeof *j.brute[i]);
            bg_sg(&games[i], 20, j.brute[i]);
        }
        sum_spec sums[20];
        for (int i = 0; i < 20; i++) {
            sum_spec *s = &sums[i];
            s->n = (int)t_range(r, 2, MAXCOMPS);
            int64_t budget = 12;          /* total size of heaps that may split */
            for (int k = 0; k < s->n; k++) {
                s->game[k] = (int)t_range(r, 0, NSUMGAMES - 1);
                const bg *b = &games[s->game[k]];
                int64_t cap = sum_heap_cap(b, 7);
                if (b->max_parts >= 2 && cap > budget) cap = budget;
                s->heap[k] = t_range(r, 0, cap);
                if (b->max_parts >= 2) budget -= s->heap[k];
            }
        }
        j.sums = sums;
        j.nsums = 20;
        gf f;
        if (CHECK(gf_open(&f, src)) && !gf_run(&f, sums_body, &j)) gf_report_failure(&f, src);
        gf_close(&f);
        for (int i = 0; i < NSUMGAMES; i++) free(j.brute[i]);
    }
    free(games);
}

/* ---- sums with tuple and graph components ---------------------------------------------- */

typedef struct tuple_sums_job { t_rng *r; int done; } tuple_sums_job;

static void tuple_sums_body(gf *f, void *arg) {
    tuple_sums_job *j = arg;
    gr_game *games[5] = { gf_game(f, "wythoff"), gf_game(f, "ed"), gf_game(f, "kayles"), gf_game(f, "s134"), gf_game(f, "corner[4, 5]") };
    for (int i = 0; i < 5; i++) if (!CHECK(games[i] != NULL)) return;
    enum { NS = 60 };
    gr_comp comps[NS][4];
    int ns[NS];
    gr_sumgraph *sg = gr_sumgraph_new(&f->c, &f->mod, CONV_NORMAL);
    for (int i = 0; i < NS; i++) {
        ns[i] = (int)t_range(j->r, 1, 4);
        for (int k = 0; k < ns[i]; k++) {
            int g = (int)t_range(j->r, 0, 4);
            int64_t a = g == 0 ? t_range(j->r, 0, 5) : g == 1 ? t_range(j->r, 1, 6) : g == 2 ? t_range(j->r, 0, 5)
                      : g == 3 ? t_range(j->r, 0, 12) : t_range(j->r, 1, 4);
            int64_t b = g == 0 ? t_range(j->r, 0, 5) : g == 1 ? t_range(j->r, 1, 6) : g == 4 ? t_range(j->r, 1, 5) : 0;
            comps[i][k] = gf_comp(games[g], a, b);
        }
        gr_sumgraph_add(sg, comps[i], ns[i]);
    }
    gr_sumgraph_solve(sg);
    gr_pg *pg = gr_sumgraph_pg(sg);
    for (int i = 0; i < NS; i++) {
        int64_t x = -1, vals[4];
        if (!CHECK_EQ(gr_sum_sg_fast(&f->c, comps[i], ns[i], &x, vals), 1)) continue;
        uint32_t id = gr_sumgraph_id(sg, comps[i], ns[i]);
        int ok = CHECK_EQ(gr_pg_sg(pg, id), x);
        ok &= check_winning_moves(f, sg, comps[i], ns[i], vals, x);
        if (!ok) {
            char text[512];
            gr_render_comps(&f->c, comps[i], ns[i], text, sizeof text);
            fprintf(stderr, "  tuple sum %s\n", text);
        }
    }
    gr_sumgraph_free(sg);
    j->done = 1;
}

static void test_tuple_sums(t_rng *r) {
    static const char src[] =
        "game wythoff { position (a, b); move -> (a - k, b) for k in 1..a; move -> (a, b - k) for k in 1..b;\n"
        "               move -> (a - k, b - k) for k in 1..min(a, b); }\n"
        "game ed { position (x, y) where x >= 1 && y >= 1; move -> (i, x - i) for i in 1..x-1; move -> (i, y - i) for i in 1..y-1; }\n"
        "game corner[rows, cols] { position (r, c) where 1 <= r && r <= rows && 1 <= c && c <= cols;\n"
        "    move -> (r, c - 1); move -> (r + 1, c); move -> (r + 1, c - 1); }\n"
        "game kayles = octal \"0.77\";\n"
        "game s134 = subtract {1, 3, 4};\n"
        "solve corner[4, 5](1, 1) + kayles(3);\n";
    gf f;
    tuple_sums_job j = { r, 0 };
    if (CHECK(gf_open(&f, src)) && !gf_run(&f, tuple_sums_body, &j)) gf_report_failure(&f, "tuple sums");
    CHECK(j.done);
    gf_close(&f);
}

/* ---- misere Nim ------------------------------------------------------------------------ */

typedef struct misere_job { t_rng *r; } misere_job;

static void misere_body(gf *f, void *arg) {
    misere_job *j = arg;
    gr_game *nim = gf_game(f, "nim");
    gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, CONV_MISERE);
    enum { NPOS = 300 };
    gr_comp comps[NPOS][5];
    int ns[NPOS];
    for (int i = 0; i < NPOS; i++) {
        ns[i] = (int)t_range(j->r, 1, 5);
        for (int k = 0; k < ns[i]; k++) comps[i][k] = gf_comp(nim, t_range(j->r, 0, 6), 0);
        gr_sumgraph_add(s, comps[i], ns[i]);
    }
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    for (int i = 0; i < NPOS; i++) {
        int64_t x = 0, ones = 0, big = 0;
        for (int k = 0; k < ns[i]; k++) {
            x ^= comps[i][k].c[0];
            ones += comps[i][k].c[0] == 1;
            big |= comps[i][k].c[0] > 1;
        }
        int p = big ? x == 0 : ones % 2 == 1;
        uint32_t id = gr_sumgraph_id(s, comps[i], ns[i]);
        if (!CHECK_EQ(gr_pg_outcome(pg, id), p ? GR_LOSS : GR_WIN)) {
            char text[256];
            gr_render_comps(&f->c, comps[i], ns[i], text, sizeof text);
            fprintf(stderr, "  misere %s\n", text);
        }
    }
    gr_sumgraph_free(s);
}

static void test_misere_nim(t_rng *r) {
    gf f;
    misere_job j = { r };
    if (CHECK(gf_open(&f, "game nim = subtract 1..;\n")) && !gf_run(&f, misere_body, &j))
        gf_report_failure(&f, "misere nim");
    gf_close(&f);
}

/* ---- every and anyleaf: a memoised recursive definition over components ------------------ */

enum { BMAXA = 24, BMAXC = 4 };

typedef struct batom { int g; int64_t h; } batom;
typedef struct bcomp { batom a[BMAXA]; int na; } bcomp;
typedef struct bpos { bcomp c[BMAXC]; int nc; } bpos;

typedef struct bctx {
    const bg *games;
    gr_conv conv;
    gf_memo memo;
    int overflow;
} bctx;

static int cmp_atom(const void *x, const void *y) {
    const batom *a = x, *b = y;
    if (a->g != b->g) return a->g < b->g ? -1 : 1;
    return (a->h > b->h) - (a->h < b->h);
}

static int cmp_comp(const void *x, const void *y) {
    const bcomp *a = x, *b = y;
    if (a->na != b->na) return a->na < b->na ? -1 : 1;
    for (int i = 0; i < a->na; i++) {
        int d = cmp_atom(&a->a[i], &b->a[i]);
        if (d) return d;
    }
    return 0;
}

/* Drops heaps of 0 (no generated game moves from 0) and sorts: the memo's key. */
static size_t bpos_key(bpos *p, uint8_t *key) {
    for (int k = 0; k < p->nc; k++) {
        bcomp *c = &p->c[k];
        int m = 0;
        for (int i = 0; i < c->na; i++)
            if (c->a[i].h != 0) c->a[m++] = c->a[i];
        c->na = m;
        qsort(c->a, (size_t)c->na, sizeof *c->a, cmp_atom);
    }
    qsort(p->c, (size_t)p->nc, sizeof *p->c, cmp_comp);
    size_t n = 0;
    for (int k = 0; k < p->nc; k++) {
        for (int i = 0; i < p->c[k].na; i++) {
            key[n++] = (uint8_t)('a' + p->c[k].a[i].g);
            key[n++] = (uint8_t)p->c[k].a[i].h;
        }
        key[n++] = '|';
    }
    return n;
}

/* The options of one atom, each stored as a count then the parts. */
typedef struct optlist { int64_t v[4096]; int n, count; int overflow; } optlist;

static void optlist_add(void *user, const int64_t *parts, int nparts) {
    optlist *o = user;
    if (o->n + 1 + nparts > (int)(sizeof o->v / sizeof *o->v)) { o->overflow = 1; return; }
    o->v[o->n++] = nparts;
    for (int i = 0; i < nparts; i++) o->v[o->n++] = parts[i];
    o->count++;
}

static int bpos_win(bctx *x, const bpos *p0);

/* Replaces atom i of component k by the parts at opt (count, parts...). */
static void apply_move(bpos *q, int k, int i, const int64_t *opt, bctx *x) {
    bcomp *c = &q->c[k];
    int g = c->a[i].g;
    c->a[i] = c->a[--c->na];
    for (int64_t t = 0; t < opt[0]; t++) {
        if (c->na == BMAXA) { x->overflow = 1; return; }
        c->a[c->na++] = (batom){ g, opt[1 + t] };
    }
}

static int bpos_win(bctx *x, const bpos *p0) {
    bpos p = *p0;
    uint8_t key[2 * BMAXA * BMAXC + BMAXC + 1];
    size_t len = bpos_key(&p, key);
    int *hit = gf_memo_get(&x->memo, key, len);
    if (hit) return *hit;
    /* options of every atom */
    int natoms = 0;
    for (int k = 0; k < p.nc; k++) natoms += p.c[k].na;
    optlist *opts = malloc(sizeof *opts * (size_t)(natoms ? natoms : 1));
    int comp_moves[BMAXC], total = 0, at = 0;
    for (int k = 0; k < p.nc; k++) {
        comp_moves[k] = 0;
        for (int i = 0; i < p.c[k].na; i++, at++) {
            opts[at].n = opts[at].count = opts[at].overflow = 0;
            bg_options(&x->games[p.c[k].a[i].g], p.c[k].a[i].h, optlist_add, &opts[at]);
            x->overflow |= opts[at].overflow;
            comp_moves[k] += opts[at].count;
        }
        total += comp_moves[k];
    }
    int win = -1;
    if (x->conv == CONV_ANYLEAF)
        for (int k = 0; k < p.nc; k++)
            if (comp_moves[k] == 0) win = 1;
    if (win < 0 && total == 0) win = x->conv == CONV_MISERE;
    if (win < 0 && x->conv != CONV_EVERY) {
        win = 0;
        at = 0;
        for (int k = 0; k < p.nc && !win; k++)
            for (int i = 0; i < p.c[k].na && !win; i++, at++) {
                const int64_t *o = opts[at].v;
                for (int m = 0; m < opts[at].count && !win; m++, o += 1 + o[0]) {
                    bpos q = p;
                    apply_move(&q, k, i, o, x);
                    if (!bpos_win(x, &q)) win = 1;
                }
            }
    } else if (win < 0) {
        /* every: choose one move in each component that can move; an odometer over them */
        int first[BMAXC], idx[BMAXC];
        at = 0;
        for (int k = 0; k < p.nc; k++) { first[k] = at; at += p.c[k].na; idx[k] = 0; }
        win = 0;
        for (;;) {
            bpos q = p;
            /* one atom moves in each live component, so the indices of the others stay valid */
            for (int k = 0; k < p.nc; k++) {
                if (!comp_moves[k]) continue;
                int m = idx[k];
                for (int i = 0; i < p.c[k].na; i++) {
                    const optlist *ol = &opts[first[k] + i];
                    if (m < ol->count) {
                        const int64_t *o = ol->v;
                        for (int t = 0; t < m; t++) o += 1 + o[0];
                        apply_move(&q, k, i, o, x);
                        break;
                    }
                    m -= ol->count;
                }
            }
            if (!bpos_win(x, &q)) { win = 1; break; }
            int k = p.nc - 1;
            for (; k >= 0; k--) {
                if (!comp_moves[k]) continue;
                if (++idx[k] < comp_moves[k]) break;
                idx[k] = 0;
            }
            if (k < 0) break;
        }
    }
    free(opts);
    gf_memo_put(&x->memo, key, len, win);
    return win;
}

typedef struct conv_job {
    const bg *games; int ngames;
    sum_spec *sums; int nsums;
    int verified;
} conv_job;

static const gr_conv CONVS[] = { CONV_NORMAL, CONV_MISERE, CONV_ANYLEAF, CONV_EVERY };

static void conv_body(gf *f, void *arg) {
    conv_job *j = arg;
    for (size_t ci = 0; ci < sizeof CONVS / sizeof *CONVS; ci++) {
        gr_conv conv = CONVS[ci];
        bctx x = { .games = j->games, .conv = conv };
        gr_sumgraph *sg = gr_sumgraph_new(&f->c, &f->mod, conv);
        gr_comp comps[MAXCOMPS];
        for (int i = 0; i < j->nsums; i++) {
            sums_comps(f, &j->sums[i], comps);
            gr_sumgraph_add(sg, comps, j->sums[i].n);
        }
        gr_sumgraph_solve(sg);
        gr_pg *pg = gr_sumgraph_pg(sg);
        int bad = 0;
        for (int i = 0; i < j->nsums; i++) {
            const sum_spec *s = &j->sums[i];
            bpos p = { .nc = s->n };
            for (int k = 0; k < s->n; k++) {
                p.c[k].na = 1;
                p.c[k].a[0] = (batom){ s->game[k], s->heap[k] };
            }
            int win = bpos_win(&x, &p);
            CHECK(!x.overflow);
            sums_comps(f, s, comps);
            uint32_t id = gr_sumgraph_id(sg, comps, s->n);
            if (!CHECK_EQ(gr_pg_outcome(pg, id), win ? GR_WIN : GR_LOSS) && !bad++) {
                char text[512];
                gr_render_comps(&f->c, comps, s->n, text, sizeof text);
                fprintf(stderr, "  %s %s (brute force: %s) of\n", gr_convention_name(conv), text, win ? "N" : "P");
                for (int g = 0; g < j->ngames; g++) fprintf(stderr, "%s", j->games[g].decl);
            }
            j->verified++;
        }
        /* The same sums by a graph that stores its edges (retrograde analysis): every position
         * of one is in the other with the same outcome, remoteness, SG and gamma values. */
        gr_sumgraph *old = gr_sumgraph_new(&f->c, &f->mod, conv);
        gr_pg *opg = gr_sumgraph_pg(old);
        gr_pg_store_edges(opg, 1);
        for (int i = 0; i < j->nsums; i++) {
            sums_comps(f, &j->sums[i], comps);
            gr_sumgraph_add(old, comps, j->sums[i].n);
        }
        gr_sumgraph_solve(old);
        CHECK_EQ(gr_pg_count(opg), gr_pg_count(pg));
        CHECK_EQ(gr_pg_edges(opg), gr_pg_edges(pg));
        if (conv == CONV_NORMAL) {
            gr_pg_solve_gamma(opg);
            gr_pg_solve_gamma(pg);
        }
        for (uint32_t id = 0; id < gr_pg_count(opg) && !bad; id++) {
            size_t len;
            const uint8_t *key = gr_pg_key(opg, id, &len);
            int64_t fid = gr_pg_find(pg, key, len);
            int ok = CHECK(fid >= 0);
            if (!ok) { bad++; break; }
            ok &= CHECK_EQ(gr_pg_outcome(pg, (uint32_t)fid), gr_pg_outcome(opg, id));
            ok &= CHECK_EQ(gr_pg_remoteness(pg, (uint32_t)fid), gr_pg_remoteness(opg, id));
            ok &= CHECK_EQ(gr_pg_sg(pg, (uint32_t)fid), gr_pg_sg(opg, id));
            ok &= CHECK_EQ(gr_pg_gamma(pg, (uint32_t)fid), gr_pg_gamma(opg, id));
            if (!ok) {
                bad++;
                for (int g = 0; g < j->ngames; g++) fprintf(stderr, "%s", j->games[g].decl);
            }
        }
        gr_sumgraph_free(old);
        gr_sumgraph_free(sg);
        gf_memo_free(&x.memo);
    }
}

static void test_conventions(t_rng *r) {
    bg *games = malloc(2 * sizeof *games);
    char src[2 * 4096 + 16];
    int verified = 0;
    enum { ROUNDS = 80 };
    for (int round = 0; round < ROUNDS; round++) {
        size_t pos = 0;
        for (int i = 0; i < 2; i++) {
            char name[8];
            snprintf(name, sizeof name, "g%d", i);
            gen_any(r, &games[i], name, 1);
            pos = appendf(src, sizeof src, pos, "%s", games[i].decl);
        }
        sum_spec sums[12];
        for (int i = 0; i < 12; i++) {
            sum_spec *s = &sums[i];
            s->n = (int)t_range(r, 1, 3);
            for (int k = 0; k < s->n; k++) {
                s->game[k] = (int)t_range(r, 0, 1);
                s->heap[k] = t_range(r, 0, sum_heap_cap(&games[s->game[k]], 6));
            }
        }
        conv_job j = { games, 2, sums, 12, 0 };
        gf f;
        if (CHECK(gf_open(&f, src)) && !gf_run(&f, conv_body, &j)) gf_report_failure(&f, src);
        gf_close(&f);
        verified += j.verified;
    }
    CHECK_EQ(verified, ROUNDS * 12 * 4);
    free(games);
}

/* Hand-made cases of the conventions table, with the answers worked out by hand. */
typedef struct hand_job { int done; } hand_job;

static void hand_body(gf *f, void *arg) {
    hand_job *j = arg;
    gr_game *kayles = gf_game(f, "kayles"), *nim = gf_game(f, "nim");
    struct { gr_conv conv; int n; gr_game *g[3]; int64_t h[3]; gr_outcome want; } cases[] = {
        /* every: kayles(3)+kayles(5) is N (the contract) */
        { CONV_EVERY, 2, { kayles, kayles }, { 3, 5 }, GR_WIN },
        /* anyleaf: nim(0) is a leaf, so the mover wins at once */
        { CONV_ANYLEAF, 2, { nim, nim }, { 0, 5 }, GR_WIN },
        /* anyleaf nim(1)+nim(1): every move leaves a leaf to the opponent */
        { CONV_ANYLEAF, 2, { nim, nim }, { 1, 1 }, GR_LOSS },
        /* anyleaf nim(2)+nim(2): 2->0 hands the opponent a leaf; 2->1 gives 1+2, from which
         * the opponent moves to 1+1, where every move makes a leaf for the other side */
        { CONV_ANYLEAF, 2, { nim, nim }, { 2, 2 }, GR_LOSS },
        { CONV_ANYLEAF, 2, { nim, nim }, { 1, 2 }, GR_WIN },
        /* anyleaf kayles(3) alone: moving to kayles(1) leaves the opponent only the move that
         * empties the component, a leaf for us to move at */
        { CONV_ANYLEAF, 1, { kayles }, { 3 }, GR_WIN },
        { CONV_ANYLEAF, 1, { kayles }, { 1 }, GR_LOSS },
        /* every with one component is normal play */
        { CONV_EVERY, 1, { kayles }, { 4 }, GR_WIN },
        /* every nim(1)+nim(1): both emptied in one move: the mover wins */
        { CONV_EVERY, 2, { nim, nim }, { 1, 1 }, GR_WIN },
        /* every nim(2)+nim(1): 2->0 and 1->0 together leave nothing: the mover wins */
        { CONV_EVERY, 2, { nim, nim }, { 2, 1 }, GR_WIN },
        /* misere nim(1)+nim(1)+nim(2): N (the contract) */
        { CONV_MISERE, 3, { nim, nim, nim }, { 1, 1, 2 }, GR_WIN },
        { CONV_MISERE, 1, { nim }, { 1 }, GR_LOSS },
        { CONV_MISERE, 1, { nim }, { 0 }, GR_WIN },
    };
    /* z: heap 0 moves to the empty sum, so heaps of 0 are live and must not be dropped */
    gr_game *z = gf_game(f, "z");
    for (int64_t n = 0; n <= 9; n++) CHECK_EQ(gr_heap_sg(&f->c, z, n), (n + 1) % 2);
    struct { gr_conv conv; gr_outcome want; int64_t sg; } zcases[] = {
        { CONV_NORMAL, GR_LOSS, 0 },       /* z(0) + z(0): two moves in all */
        { CONV_MISERE, GR_WIN, -1 },       /* misere: move to z(0), the opponent takes the last */
        { CONV_ANYLEAF, GR_LOSS, -1 },     /* emptying a component hands over a leaf */
        { CONV_EVERY, GR_WIN, 0 },         /* both emptied at once */
    };
    for (size_t i = 0; i < sizeof zcases / sizeof *zcases; i++) {
        gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, zcases[i].conv);
        gr_comp comps[2] = { gf_comp(z, 0, 0), gf_comp(z, 0, 0) };
        gr_sumgraph_add(s, comps, 2);
        gr_sumgraph_solve(s);
        uint32_t id = gr_sumgraph_id(s, comps, 2);
        if (!CHECK_EQ(gr_pg_outcome(gr_sumgraph_pg(s), id), zcases[i].want)) fprintf(stderr, "  z case %zu\n", i);
        if (zcases[i].conv == CONV_NORMAL) CHECK_EQ(gr_pg_sg(gr_sumgraph_pg(s), id), zcases[i].sg);
        gr_sumgraph_free(s);
    }
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gr_sumgraph *s = gr_sumgraph_new(&f->c, &f->mod, cases[i].conv);
        gr_comp comps[3];
        for (int k = 0; k < cases[i].n; k++) comps[k] = gf_comp(cases[i].g[k], cases[i].h[k], 0);
        gr_sumgraph_add(s, comps, cases[i].n);
        gr_sumgraph_solve(s);
        uint32_t id = gr_sumgraph_id(s, comps, cases[i].n);
        if (!CHECK_EQ(gr_pg_outcome(gr_sumgraph_pg(s), id), cases[i].want))
            fprintf(stderr, "  hand case %zu\n", i);
        gr_sumgraph_free(s);
    }
    j->done = 1;
}

static void test_conventions_by_hand(void) {
    gf f;
    hand_job j = { 0 };
    if (CHECK(gf_open(&f, "game kayles = octal \"0.77\";\ngame nim = subtract 1..;\n"
                          "game z { heap n; move -> {} where n == 0; move -> n - 1 where n >= 1; }\n")) &&
        !gf_run(&f, hand_body, &j))
        gf_report_failure(&f, "hand cases");
    CHECK(j.done);
    gf_close(&f);
}

/* ---- widths: values above 255 and 65535 ---------------------------------------------- */

/* Kernel, generic twin and brute force agree on heaps 0..N, the values pass 255, and the
 * table ends at the expected width (1, 2, 4 or 8 bytes). */
static void compare_wide(gf *f, const char *name, const bg *b, int64_t N, int want_width) {
    gr_game *g = gf_game(f, name);
    if (!CHECK(g != NULL)) return;
    int64_t *brute = malloc((size_t)(N + 1) * sizeof *brute), *gen = malloc((size_t)(N + 1) * sizeof *gen);
    bg_sg(b, N, brute);
    gr_heap_fill_generic(&f->c, g, N, gen);
    CHECK_EQ(gr_heap_ensure(&f->c, g, N / 3), 0);
    CHECK_EQ(gr_heap_ensure(&f->c, g, N), 0);
    int bad = 0;
    int64_t top = 0;
    for (int64_t n = 0; n <= N; n++) {
        int ok = CHECK_EQ(gr_heap_sg(&f->c, g, n), brute[n]);
        ok &= CHECK_EQ(gen[n], brute[n]);
        if (!ok && !bad++) fprintf(stderr, "  width test %s, heap %lld\n", name, (long long)n);
        if (brute[n] > top) top = brute[n];
    }
    CHECK(top > 255);
    if (CHECK(GR_CACHED(g, sg) != NULL)) CHECK_EQ(GR_CACHED(g, sg)->width, want_width);
    free(brute);
    free(gen);
}

typedef struct width_job { int done; } width_job;

static void width_body(gf *f, void *arg) {
    width_job *j = arg;
    bg *b = calloc(1, sizeof *b);
    /* a finite set of 400 amounts: values up to 400, a two-byte table from the start, and the
     * mex over a bitset rather than one word */
    b->kind = BG_SUB;
    b->max_parts = 1;
    b->nsub = 400;
    for (int i = 0; i < 400; i++) b->sub[i] = i + 1;
    compare_wide(f, "w400", b, 1000, 2);
    /* Lasker's Nim as rules: the generic kernel's table widens from one byte to two */
    memset(b, 0, sizeof *b);
    b->kind = BG_RULES;
    b->nlines = 2;
    b->lines[0] = (rline){ .kind = L_SUB, .A = 1, .b_is_n = 1, .guard = G_NONE };
    b->lines[1] = (rline){ .kind = L_SPLIT, .A = 0, .B = 0, .L = 1, .guard = G_NONE };
    compare_wide(f, "lasker", b, 400, 2);
    /* an octal code of 300 sevens: the octal kernel passes 64 (byte array) and 255 (widens) */
    memset(b, 0, sizeof *b);
    b->kind = BG_TB;
    b->nd = 301;
    for (int i = 1; i <= 300; i++) b->mask[i] = 7;
    compare_wide(f, "sevens", b, 600, 2);
    /* an open subtraction set: the infinite-set kernel's table widens */
    memset(b, 0, sizeof *b);
    b->kind = BG_SUB;
    b->open_from = 2;
    compare_wide(f, "from2", b, 1000, 2);
    free(b);
    /* subtract 2.. has sg(n) = floor(n/2) (checked above against the brute force): far enough
     * for four-byte values */
    gr_game *g = gf_game(f, "from2");
    int64_t N = 140000;
    CHECK_EQ(gr_heap_ensure(&f->c, g, N), 0);
    int bad = 0;
    for (int64_t n = 0; n <= N; n++)
        if (gr_heap_sg(&f->c, g, n) != n / 2 && !bad++) CHECK_EQ(gr_heap_sg(&f->c, g, n), n / 2);
    CHECK(!bad);
    CHECK_EQ(GR_CACHED(g, sg)->width, 4);
    j->done = 1;
}

static void test_widths(void) {
    gf f;
    char src[1024];
    size_t pos = appendf(src, sizeof src, 0, "game w400 = subtract 1..400;\n"
                         "game lasker { heap n; move -> n - k for k in 1..n; move -> {a, n - a} for a in 1..n/2; }\n"
                         "game from2 = subtract 2..;\n"
                         "game sevens = octal \"0.");
    for (int i = 0; i < 300; i++) pos = appendf(src, sizeof src, pos, "7");
    appendf(src, sizeof src, pos, "\";\n");
    width_job j = { 0 };
    if (CHECK(gf_open(&f, src)) && !gf_run(&f, width_body, &j)) gf_report_failure(&f, "widths");
    CHECK(j.done);
    gf_close(&f);
}

int main(void) {
    t_rng r = { t_seed(20240611) };
    kinds_seen seen = { { 0 } };
    test_subtraction(&r, &seen);
    test_take_and_break(&r, &seen);
    test_rules(&r, &seen);
    test_long_codes(&r, &seen);
    /* the generators reached every heap kernel */
    printf("kernels hit: subtract %d, infinite %d, octal %d, take-and-break %d, rules %d, nim %d\n",
           seen.k[KER_SUBTRACT], seen.k[KER_SUBTRACT_INF], seen.k[KER_OCTAL], seen.k[KER_TB], seen.k[KER_RULES], seen.k[KER_NIM]);
    CHECK(seen.k[KER_SUBTRACT] > 50);
    CHECK(seen.k[KER_SUBTRACT_INF] > 5);
    CHECK(seen.k[KER_OCTAL] > 50);
    CHECK(seen.k[KER_TB] > 50);
    CHECK(seen.k[KER_RULES] > 50);
    /* these rule sets are recurrences by construction: the heap evaluator answers every value */
    t_share("heap evaluator (every kernel)", heap_decided, heap_cases, 1.0);
    test_not_recurrence();
    test_sums_normal(&r);
    test_tuple_sums(&r);
    test_misere_nim(&r);
    test_conventions_by_hand();
    test_conventions(&r);
    test_widths();
    return t_finish("unit_kernels");
}
