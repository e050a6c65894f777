/* unit_convkernel: the heap kernels for 'anyleaf' and 'every' (eval/heap/convkernel.h) against the
 * position graph, on random rule sets whose moves never split (subtraction sets, octal codes
 * of digits 0..3, rule blocks): the values after leaf deletion, the step numbers and the
 * outcomes of heaps 0..40 equal the component graph's; values far past the proved periods
 * equal a plain recurrence written here; random sums (mixed with a splitting code, which the
 * graph answers) get the same outcome and winning moves as the graph of the whole sum. Counts
 * how many cases the kernels themselves decided, so kernels that always decline fail. */
#include "anyleaf.h"
#include "every.h"
#include "gamefix.h"
#include "eval/heap/convkernel.h"
#include <stdlib.h>
#include <string.h>

enum { H = 40 };

/* A rule block whose moves never split: one or two moves of a few shapes. */
static size_t random_rules(t_rng *r, char *src, size_t cap) {
    size_t pos = (size_t)snprintf(src, cap, "game r { heap n;");
    int nm = (int)t_range(r, 1, 2);
    for (int i = 0; i < nm; i++) {
        switch (t_range(r, 0, 2)) {
        case 0: pos += (size_t)snprintf(src + pos, cap - pos, " move -> n - k for k in %d..n where k %% %d != %d;",
                                        (int)t_range(r, 1, 3), (int)t_range(r, 2, 5), (int)t_range(r, 0, 1)); break;
        case 1: pos += (size_t)snprintf(src + pos, cap - pos, " move -> n / %d where n >= 1;", (int)t_range(r, 2, 3)); break;
        default: pos += (size_t)snprintf(src + pos, cap - pos, " move -> n - %d where n >= %d;",
                                         (int)t_range(r, 1, 4), (int)t_range(r, 4, 9)); break;
        }
    }
    return pos + (size_t)snprintf(src + pos, cap - pos, " }\n");
}

/* s (subtraction), o (octal, digits 0..3: never splits), r (rules), k (0.77: splits), nim. */
static void random_program(t_rng *r, char *src, size_t cap) {
    size_t pos = (size_t)snprintf(src, cap, "game s = subtract {");
    int k = (int)t_range(r, 1, 4);
    for (int i = 0; i < k; i++) pos += (size_t)snprintf(src + pos, cap - pos, "%s%d", i ? ", " : "", (int)t_range(r, 1, 9));
    pos += (size_t)snprintf(src + pos, cap - pos, "};\ngame o = octal \"0.");
    int d = (int)t_range(r, 1, 5);
    for (int i = 0; i < d; i++) pos += (size_t)snprintf(src + pos, cap - pos, "%d", (int)t_range(r, i == d - 1 ? 1 : 0, 3));
    pos += (size_t)snprintf(src + pos, cap - pos, "\";\ngame k = octal \"0.77\";\ngame nim = subtract 1..;\n");
    random_rules(r, src + pos, cap - pos);
}

/* ---- values of single heaps against the component graph ---- */
typedef struct vjob { gr_game *g; int agree, kernel; } vjob;   /* kernel: it answered every heap */

static void values_body(gf *f, void *arg) {
    vjob *j = arg;
    gr_comp comps[H + 1];
    for (int n = 0; n <= H; n++) comps[n] = gf_comp(j->g, n, 0);
    gr_compgraph *cg = gr_compgraph_new(&f->c, &f->mod, comps, H + 1);
    j->agree = cg->acyclic;
    gr_compgraph_leafless(cg);
    gr_compgraph_steps(cg);
    int answered = 0;
    for (int n = 0; n <= H && j->agree; n++) {
        gr_hcval v;
        uint32_t id = gr_compgraph_id(cg, &comps[n]);
        if (!gr_convkernel_value(&f->c, j->g, n, &v)) { j->agree = 0; break; }
        answered++;
        j->agree = v.leaf == cg->leafless[id] && v.step == cg->step[id] && v.outcome == (int)gr_pg_outcome(cg->pg, id);
        if (!j->agree)
            fprintf(stderr, "%s(%d): kernel L %lld s %lld %c, graph L %lld s %lld %c\n", j->g->name, n, (long long)v.leaf,
                    (long long)v.step, "PN"[v.outcome], (long long)cg->leafless[id], (long long)cg->step[id],
                    "PND"[gr_pg_outcome(cg->pg, id)]);
    }
    j->kernel = answered == H + 1;
    gr_compgraph_free(cg);
}

/* ---- far heaps against a plain recurrence ---- */
typedef struct opts { int64_t v[1024]; int n; } opts;
static void keep_option(void *user, const int64_t *heaps, int nheaps) {
    opts *o = user;
    if (nheaps == 1 && o->n < 1024) o->v[o->n++] = heaps[0];
}

typedef struct fjob { gr_game *g; int64_t upto; int agree, proved; } fjob;

static void far_body(gf *f, void *arg) {
    fjob *j = arg;
    int64_t N = j->upto;
    int64_t *L = malloc(sizeof *L * (size_t)(N + 1)), *S = malloc(sizeof *S * (size_t)(N + 1));
    int *O = malloc(sizeof *O * (size_t)(N + 1));
    for (int64_t n = 0; n <= N; n++) {
        opts o = { .n = 0 };
        gr_heap_options(&f->c, j->g, n, keep_option, &o);
        unsigned char seen[1026] = { 0 };
        int win = 0;
        for (int i = 0; i < o.n; i++) {
            if (L[o.v[i]] >= 0 && L[o.v[i]] <= 1024) seen[L[o.v[i]]] = 1;
            win |= O[o.v[i]] == GR_LOSS;
        }
        L[n] = -1; S[n] = 0; O[n] = win ? GR_WIN : GR_LOSS;
        if (o.n) { L[n] = 0; while (seen[L[n]]) L[n]++; }
        int64_t best = -1;
        for (int i = 0; i < o.n; i++) {
            int64_t s = S[o.v[i]];
            if (win ? O[o.v[i]] == GR_LOSS && s > best : best < 0 || s < best) best = s;
        }
        if (o.n) S[n] = best + 1;
    }
    j->agree = 1;
    /* the largest first: the kernel proves its periods and answers the rest from them */
    for (int64_t n = N; n >= 0 && j->agree; n -= 1 + (n % 7 == 0 ? 0 : 3)) {
        gr_hcval v;
        j->agree = gr_convkernel_value(&f->c, j->g, n, &v) && v.leaf == L[n] && v.step == S[n] && v.outcome == O[n];
        if (!j->agree) fprintf(stderr, "%s(%lld): kernel L %lld s %lld, recurrence L %lld s %lld\n", j->g->name, (long long)n,
                               (long long)v.leaf, (long long)v.step, (long long)L[n], (long long)S[n]);
    }
    char why[1024];
    gr_convkernel_describe(j->g, why, sizeof why);
    j->proved = strstr(why, "values after leaf deletion: period") && strstr(why, "step numbers: period");
    free(L); free(S); free(O);
}

/* ---- sums against the graph of the whole sum ---- */
typedef struct sjob { gr_comp comps[4]; int n; gr_conv conv; int decided, kernel, agree, partial; char why[1024]; } sjob;

static void sum_body(gf *f, void *arg) {
    sjob *j = arg;
    gr_theory t;
    mlist a = { 0 };
    if (j->conv == CONV_EVERY) gr_every_solve(&f->c, &f->mod, j->comps, j->n, &t, mtheory, &a);
    else gr_anyleaf_solve(&f->c, &f->mod, j->comps, j->n, &t, mtheory, &a);
    j->decided = t.decided;
    j->partial = t.moves_partial;
    j->kernel = strstr(t.why, "heap kernel") != NULL;
    snprintf(j->why, sizeof j->why, "%s", t.why);
    j->agree = !t.decided || mcheck_theory(&f->c, &f->mod, j->comps, j->n, j->conv, t.outcome, t.moves_partial, &a);
    mfree(&a);
}

int main(void) {
    t_rng r = { t_seed(19) };
#ifdef T_SANITIZED
    int programs = 15;
#else
    int programs = 120;
#endif
    int spartial = 0, sonly = 0, vcases = 0, vkernel = 0, fcases = 0, fproved = 0, scases = 0, skernel = 0, smixed = 0, sdecided = 0;
    for (int prog = 0; prog < programs; prog++) {
        char src[2048];
        random_program(&r, src, sizeof src);
        gf f;
        if (!gf_open(&f, src)) { CHECK(0); continue; }
        gr_game *gs[5] = { gf_game(&f, "s"), gf_game(&f, "o"), gf_game(&f, "r"), gf_game(&f, "k"), gf_game(&f, "nim") };
        CHECK(!gr_convkernel_fits(gs[3]));   /* 0.77 splits: the graph's */
        for (int i = 0; i < 3; i++) {
            if (!CHECK(gr_convkernel_fits(gs[i]))) { fprintf(stderr, "no kernel for:\n%s", src); continue; }
            vjob vj = { .g = gs[i] };
            if (!gf_run(&f, values_body, &vj)) { gf_report_failure(&f, "values"); continue; }
            vcases++;
            vkernel += vj.kernel;
            if (!CHECK(vj.agree)) fprintf(stderr, "program:\n%s", src);
        }
        for (int i = 0; i < 3; i++) {
            fjob fj = { .g = gs[i], .upto = i == 2 ? 700 : 6000 };
            if (!gf_run(&f, far_body, &fj)) { gf_report_failure(&f, "far"); continue; }
            fcases++;
            fproved += i < 2 && fj.proved;
            if (!CHECK(fj.agree)) fprintf(stderr, "program:\n%s", src);
        }
        for (int trial = 0; trial < 12; trial++) {
            sjob j;
            memset(&j, 0, sizeof j);
            j.conv = t_range(&r, 0, 1) ? CONV_EVERY : CONV_ANYLEAF;
            j.n = (int)t_range(&r, 1, j.conv == CONV_EVERY ? 3 : 4);
            int mixed = 0;
            for (int i = 0; i < j.n; i++) {
                int which = (int)t_range(&r, 0, 7) == 0 ? 3 : (int)t_range(&r, 0, 7) == 0 ? 4 : (int)t_range(&r, 0, 2);
                mixed |= which == 3;
                j.comps[i] = gf_comp(gs[which], t_range(&r, 0, j.n == 1 ? 40 : j.conv == CONV_EVERY ? 8 : 11), 0);
            }
            if (!gf_run(&f, sum_body, &j)) { gf_report_failure(&f, "sum"); continue; }
            scases++;
            sdecided += j.decided;
            skernel += j.decided && j.kernel && !mixed;
            smixed += j.decided && j.kernel && mixed;
            if (!CHECK(j.agree)) fprintf(stderr, "program:\n%sconvention %s, %d components; %s\n", src, gr_convention_name(j.conv), j.n, j.why);
        }
        /* every: more combinations of moves than are listed (the graph lists them all: keep
         * these few), so the strategy's one move; the largest step is 1, odd: a win. With a
         * nim heap of 0 or 1 as the third, emptying everything is the only winning move, so the
         * list is whole (and equals the graph's); with kayles(3) or (4) there are 2475. */
        if (prog % 20 == 0) {
            for (int many = 0; many < 2; many++) {
                sjob j;
                memset(&j, 0, sizeof j);
                j.conv = CONV_EVERY;
                j.n = 3;
                j.comps[0] = gf_comp(gs[4], t_range(&r, 65, 75), 0);
                j.comps[1] = gf_comp(gs[4], t_range(&r, 63, 70), 0);
                j.comps[2] = many ? gf_comp(gs[3], t_range(&r, 3, 4), 0) : gf_comp(gs[4], t_range(&r, 0, 1), 0);
                if (!gf_run(&f, sum_body, &j)) { gf_report_failure(&f, "strategy"); continue; }
                spartial += many && j.partial;
                sonly += !many && !j.partial;
                if (!CHECK(j.agree)) fprintf(stderr, "program:\n%sstrategy; %s\n", src, j.why);
            }
        }
        gf_close(&f);
    }
    printf("heaps 0..%d of %d rule sets by the kernels, as the graph; %d far tables as the recurrence, "
           "%d of %d subtraction and octal ones with both periods proved; %d random sums, decided %d: "
           "by kernels alone %d, kernels and the graph %d; %d by the every strategy's one move, %d whole as the only one\n",
           H, vkernel, fcases, fproved, 2 * programs, scases, sdecided, skernel, smixed, spartial, sonly);
    CHECK_EQ(vkernel, 3 * programs);
    CHECK(fproved >= 2 * programs * 9 / 10);
    CHECK(scases == 12 * programs);
    CHECK(skernel >= scases / 2);   /* the rest: a component at a leaf, or the splitting code */
    CHECK(smixed >= scases / 20);
    CHECK_EQ(spartial, (programs + 19) / 20);
    CHECK_EQ(sonly, (programs + 19) / 20);
    return t_finish("unit_convkernel");
}
