/* unit_theory: the theory evaluators for 'every' (step numbers), 'anyleaf' (leaf deletion)
 * and 'misere' (genus, tame rule) against the position graph of the whole sum, on random
 * small rule sets (subtraction sets, octal codes, acyclic graphs) and random sums of one to
 * five components: the outcome and the set of winning moves must agree wherever the theory
 * decides. Also pins misere Nim's rule and known genera. */
#include "anyleaf.h"
#include "every.h"
#include "gamefix.h"
#include "misere.h"
#include <stdlib.h>
#include <string.h>


typedef struct job { gr_comp comps[5]; int n; gr_conv conv; int decided, agree; char why[1024]; } job;
static int stats[4][2];

static void body(gf *f, void *arg) {
    job *j = arg;
    gr_theory t;
    mlist a = { 0 };
    if (j->conv == CONV_EVERY) gr_every_solve(&f->c, &f->mod, j->comps, j->n, &t, mtheory, &a);
    else if (j->conv == CONV_ANYLEAF) gr_anyleaf_solve(&f->c, &f->mod, j->comps, j->n, &t, mtheory, &a);
    else gr_misere_solve(&f->c, &f->mod, j->comps, j->n, &t, mtheory, &a);
    j->decided = t.decided;
    snprintf(j->why, sizeof j->why, "%s", t.why);
    j->agree = !t.decided || mcheck_theory(&f->c, &f->mod, j->comps, j->n, j->conv, t.outcome, t.moves_partial, &a);
    mfree(&a);
}

static void random_program(t_rng *r, char *src, size_t cap) {
    /* a subtraction set, an octal code, an acyclic graph */
    size_t pos = t_random_sub_octal(r, src, cap, 5);
    pos += (size_t)snprintf(src + pos, cap - pos, "graph g {");
    int nv = (int)t_range(r, 2, 7);
    for (int v = 0; v < nv; v++) {
        pos += (size_t)snprintf(src + pos, cap - pos, " v%d", v);
        int first = 1;
        for (int w = 0; w < v; w++)
            if (t_range(r, 0, 2) == 0) { pos += (size_t)snprintf(src + pos, cap - pos, "%s v%d", first ? " ->" : ",", w); first = 0; }
        pos += (size_t)snprintf(src + pos, cap - pos, ";");
    }
    snprintf(src + pos, cap - pos, " }\n");
}

int main(void) {
    t_rng r = { t_seed(12) };
    int cases = 0;
    for (int prog = 0; prog < 60; prog++) {
        char src[2048];
        random_program(&r, src, sizeof src);
        gf f;
        if (!gf_open(&f, src)) { CHECK(0); continue; }
        gr_game *gs[3] = { gf_game(&f, "s"), gf_game(&f, "o"), gf_game(&f, "g") };
        for (int trial = 0; trial < 30; trial++) {
            job j;
            memset(&j, 0, sizeof j);
            j.conv = (gr_conv)t_range(&r, 1, 3);
            j.n = (int)t_range(&r, 1, j.conv == CONV_EVERY ? 3 : 4);
            for (int i = 0; i < j.n; i++) {
                gr_game *g = gs[t_range(&r, 0, 2)];
                j.comps[i] = gf_comp(g, g->shape == SHAPE_GRAPH ? t_range(&r, 0, g->nvertices - 1) : t_range(&r, 0, j.conv == CONV_EVERY ? 7 : 9), 0);
            }
            if (!gf_run(&f, body, &j)) { gf_report_failure(&f, "theory"); continue; }
            cases++;
            stats[j.conv][j.decided]++;
            if (!CHECK(j.agree)) fprintf(stderr, "program:\n%sconvention %s, %d components; %s\n", src, gr_convention_name(j.conv), j.n, j.why);
        }
        gf_close(&f);
    }
    printf("%d random sums; decided by theory: every %d/%d, anyleaf %d/%d, misere %d/%d\n", cases,
           stats[CONV_EVERY][1], stats[CONV_EVERY][0] + stats[CONV_EVERY][1], stats[CONV_ANYLEAF][1],
           stats[CONV_ANYLEAF][0] + stats[CONV_ANYLEAF][1], stats[CONV_MISERE][1], stats[CONV_MISERE][0] + stats[CONV_MISERE][1]);
    CHECK(cases >= 1000);
    /* the seeded run decides every 606/606, anyleaf 604/604, misere 563/590 (the tame rule and
     * the genus do not cover every sum); a theory that declined would pass the agreement alone */
    t_share("theory of 'every'", stats[CONV_EVERY][1], stats[CONV_EVERY][0] + stats[CONV_EVERY][1], 0.9);
    t_share("theory of 'anyleaf'", stats[CONV_ANYLEAF][1], stats[CONV_ANYLEAF][0] + stats[CONV_ANYLEAF][1], 0.9);
    t_share("theory of misere play", stats[CONV_MISERE][1], stats[CONV_MISERE][0] + stats[CONV_MISERE][1], 0.85);

    /* misere Nim: P iff (every heap <= 1 and the xor is 1) or (some heap >= 2 and the xor is 0) */
    gf f;
    if (gf_open(&f, "game nim = subtract 1..;")) {
        gr_game *nim = gf_game(&f, "nim");
        for (int trial = 0; trial < 300; trial++) {
            gr_comp comps[5];
            int n = (int)t_range(&r, 1, 5), big = 0;
            int64_t x = 0;
            for (int i = 0; i < n; i++) {
                int64_t h = t_range(&r, 0, trial < 100 ? 1 : 6);
                comps[i] = gf_comp(nim, h, 0);
                x ^= h;
                big |= h >= 2;
            }
            gr_theory t;
            gr_misere_solve(&f.c, &f.mod, comps, n, &t, NULL, NULL);
            CHECK(t.decided);
            CHECK_EQ(t.outcome, ((big ? x == 0 : x == 1) ? GR_LOSS : GR_WIN));
        }
        /* genera of nim heaps: *0 0^120, *1 1^031, *2 2^20, *3 3^31 */
        const char *want[] = { "0^120", "1^031", "2^20", "3^31", "4^46" };
        for (int h = 0; h < 5; h++) {
            gr_comp k = gf_comp(nim, h, 0);
            int32_t gen[GR_GENUS_K + 1];
            uint8_t tame;
            char text[64];
            CHECK(gr_misere_genus(&f.c, &f.mod, &k, 1, gen, &tame));
            gr_genus_text(gen, text, sizeof text);
            CHECK(!strcmp(text, want[h]));
            CHECK(tame);
        }
        gf_close(&f);
    }
    /* Kayles (Winning Ways): heaps 0..5 have genus 0^120 1^031 2^20 3^31 1^031 4^146. */
    if (gf_open(&f, "game kayles = octal \"0.77\";")) {
        const char *want[] = { "0^120", "1^031", "2^20", "3^31", "1^031", "4^146" };
        for (int h = 0; h < 6; h++) {
            gr_comp k = gf_comp(gf_game(&f, "kayles"), h, 0);
            int32_t gen[GR_GENUS_K + 1];
            char text[64];
            CHECK(gr_misere_genus(&f.c, &f.mod, &k, 1, gen, NULL));
            gr_genus_text(gen, text, sizeof text);
            if (!CHECK(!strcmp(text, want[h]))) fprintf(stderr, "kayles(%d): %s, want %s\n", h, text, want[h]);
        }
        gf_close(&f);
    }
    /* subtract allbut LIST against a mex written here: sg(n) = mex sg(n - k), k >= 1 not listed */
    for (int trial = 0; trial < 100; trial++) {
        char src[256];
        int listed[6], nl = (int)t_range(&r, 1, 5);
        size_t pos = (size_t)snprintf(src, sizeof src, "game ab = subtract allbut {");
        for (int i = 0; i < nl; i++) {
            listed[i] = (int)t_range(&r, 1, 8);
            pos += (size_t)snprintf(src + pos, sizeof src - pos, "%s%d", i ? ", " : "", listed[i]);
        }
        snprintf(src + pos, sizeof src - pos, "};");
        if (!gf_open(&f, src)) { CHECK(0); continue; }
        gr_game *ab = gf_game(&f, "ab");
        int64_t want[41];
        for (int n = 0; n <= 40; n++) {
            uint64_t seen = 0;
            for (int k = 1; k <= n; k++) {
                int skip = 0;
                for (int i = 0; i < nl; i++) skip |= listed[i] == k;
                if (!skip && want[n - k] < 64) seen |= UINT64_C(1) << want[n - k];
            }
            want[n] = 0;
            while (seen >> want[n] & 1) want[n]++;
            CHECK_EQ(gr_heap_sg(&f.c, ab, n), want[n]);
        }
        gf_close(&f);
    }
    return t_finish("unit_theory");
}
