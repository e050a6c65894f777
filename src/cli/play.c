/* play: "grundy play FILE.game POSITION": the solver plays against the user in the terminal.
 * The file is compiled once (api/engine.h); each turn compiles one more query against it,
 * "solve POSITION;", which resolves the position (and any parameterised rule set it names),
 * and reads the values earlier turns computed; a game with no SG values has its whole
 * position graph from there built and solved once. Each turn shows the position; the user's turn lists the moves, numbered, and
 * reads one line: a number, or a position typed in full, in any spelling of the same position
 * (parsed and compared as positions: the order of parts, spaces, nim(3) for *3, empty heaps
 * written or not). The computer answers with a winning move when one exists, the quickest;
 * else the move of greatest remoteness, which delays the end longest (by values: a bounded
 * graph finds it; past the bound, the first move, and it says so); from a draw, a move that
 * keeps the draw. It
 * works the same with standard input from a pipe (one move a line; the line is echoed so the
 * transcript reads well). Exit status: 0 the game ended (or the user resigned with q), 1 the
 * input ended first, 2 bad input, 3 a limit. */
#include "play.h"
#include "compile.h"
#include "engine.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ctx.h"
#include "parse.h"
#include "sema.h"
#include "solve.h"
#include "remote.h"
#include "suggest.h"
#include "gridplay.h"

static const char PLAY_USAGE[] =
    "usage: grundy play FILE.game \"POSITION\" [--first human|computer]\n"
    "                   [--convention normal|misere|anyleaf|every] [--max-positions N]\n"
    "                   [--max-memory SIZE] [--max-time SECONDS] [--threads N]\n"
    "  POSITION is written as in a solve query, e.g. \"kayles(5) + kayles(3)\".\n";

typedef struct play_opts {
    const char *file, *position, *convention;
    int computer_first;
    uint64_t max_positions;
    size_t max_memory;
    double max_time;
    int threads;
} play_opts;

_Noreturn static void play_usage(const char *msg, const char *arg) {
    fprintf(stderr, "grundy play: error: %s%s%s\n%s", msg, arg ? " " : "", arg ? arg : "", PLAY_USAGE);
    exit(GR_EXIT_INPUT);
}

static play_opts parse_play_args(int argc, char **argv) {
    play_opts o = { 0 };
    o.max_memory = gr_cli_default_memory();
    o.threads = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(PLAY_USAGE, stdout); exit(0); }
        if (!strcmp(a, "--progress") || !strcmp(a, "--no-progress")) continue;
        if (!strcmp(a, "--max-memory") || !strcmp(a, "--max-time") || !strcmp(a, "--threads")) {
            if (i + 1 >= argc) play_usage("this option needs a value:", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--max-memory")) o.max_memory = gr_cli_parse_size("--max-memory", v);
            else if (!strcmp(a, "--max-time")) o.max_time = gr_cli_parse_seconds(v);
            else {
                char *end;
                long t = strtol(v, &end, 10);
                if (end == v || *end || t < 1 || t > 256) play_usage("--threads needs a number from 1 to 256, not", v);
                o.threads = (int)t;
            }
            continue;
        }
        if (!strcmp(a, "--first") || !strcmp(a, "--convention") || !strcmp(a, "--max-positions")) {
            if (i + 1 >= argc) play_usage("this option needs a value:", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--first")) {
                if (strcmp(v, "human") && strcmp(v, "computer")) play_usage("--first is human or computer, not", v);
                o.computer_first = !strcmp(v, "computer");
            } else if (!strcmp(a, "--convention")) {
                if (strcmp(v, "normal") && strcmp(v, "misere") && strcmp(v, "anyleaf") && strcmp(v, "every"))
                    play_usage("--convention is normal, misere, anyleaf or every, not", v);
                o.convention = v;
            } else {
                char *end;
                errno = 0;
                o.max_positions = strtoull(v, &end, 10);
                if (errno || end == v || *end || v[0] == '-') play_usage("--max-positions needs a whole number, not", v);
            }
            continue;
        }
        if (a[0] == '-' && a[1] == '-') {
            static const char *const KNOWN[] = { "--first", "--convention", "--max-positions", "--max-memory",
                                                 "--max-time", "--threads", "--help", "--progress", "--no-progress" };
            gr_suggest sg;
            gr_suggest_init(&sg, a);
            for (size_t k = 0; k < sizeof KNOWN / sizeof *KNOWN; k++) gr_suggest_offer(&sg, KNOWN[k]);
            const char *best = gr_suggest_best(&sg);
            char msg[160];
            snprintf(msg, sizeof msg, "%.80s%s%s%s", a, best ? " (did you mean " : "", best ? best : "", best ? "?)" : "");
            play_usage("unknown option", msg);
        }
        if (!o.file) o.file = a;
        else if (!o.position) o.position = a;
        else play_usage("one file and one position; this is a third argument:", a);
    }
    if (!o.file || !o.position) play_usage("give a file and a position", NULL);
    if (strchr(o.position, ';')) play_usage("the position is one sum, without ';':", o.position);
    return o;
}

/* ---- positions compared as positions ---- */
/* A key of one part of a sum: "name[args](c1,c2)", "g.v" or a figure less its cuts. */
typedef struct keypart { char *text; int group; } keypart;

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Is the game named "nim" the prelude's (so that *n, its other spelling, is nim(n))? */
static int prelude_nim(const gr_ctx *c, const gr_module *m) {
    for (const gr_gdecl *d = m->decls; d; d = d->next)
        if (!strcmp(d->name, "nim")) return c->store.prelude_off && d->loc.off >= c->store.prelude_off;
    return 1;
}

/* Is heap 0 of the game named so empty (no move from it)? Games the program has not
 * compiled yet are taken to move from 0 (kept), but for nim and *. */
static int empty_heap(gr_ctx *c, gr_module *m, const char *name) {
    for (gr_game *g = m->games; g; g = g->next)
        if (!strcmp(g->name, name)) {
            int64_t zero[GR_MAX_ARITY] = { 0 };
            return gr_atom_empty(c, g, zero);
        }
    return !strcmp(name, "nim") || !strcmp(name, "*");
}

/* A number as printed positions write them (an integer, maybe negated): 0 if not one. */
static int number(const gr_expr *e, int64_t *v) {
    if (e->kind == EX_INT) { *v = e->ival; return 1; }
    if (e->kind == EX_UNARY && e->op == OP_NEG && number(e->a, v) && *v != INT64_MIN) { *v = -*v; return 1; }
    return 0;
}

/* A board part's key ("ak|grid(2,3)|0,0 0,1", its removed vertices sorted, ranges spelt out,
 * each once): a board written with other spaces or its vertices in another order is the same
 * part. 1, or -1 if it is not written with plain numbers and names. */
static int board_key(const gr_posref *p, const char *name, char *one, size_t cap) {
    const gr_expr *b = p->coords.v[0];
    size_t pos = (size_t)snprintf(one, cap, "%s|%s", name, b->name ? b->name : "");
    for (int a = 0; b->kind == EX_CALL && a < b->nargs && pos < cap; a++) {
        int64_t v;
        if (!number(b->args[a], &v)) return -1;
        pos += (size_t)snprintf(one + pos, cap - pos, "%s%lld%s", a ? "," : "(", (long long)v, a + 1 == b->nargs ? ")" : "");
    }
    char **vs = calloc(GR_BOARD_MAXV + 1, sizeof *vs);
    int nv = 0, ok = vs != NULL;
    for (int k = 0; ok && k < p->rm_i.n; k++) {
        const gr_expr *i = p->rm_i.v[k], *j = p->rm_j.v[k];
        int64_t lo, hi, col = 0;
        char t[64];
        if (i->kind == EX_NAME && !j) { ok = nv < GR_BOARD_MAXV && (vs[nv++] = strdup(i->name)) != NULL; continue; }
        if (i->kind == EX_RANGE) ok = number(i->a, &lo) && number(i->b, &hi) && hi - lo < GR_BOARD_MAXV;
        else ok = number(i, &lo) && (hi = lo, 1);
        ok = ok && (!j || number(j, &col));
        for (int64_t x = lo; ok && x <= hi; x++) {
            snprintf(t, sizeof t, j ? "%lld,%lld" : "%lld", (long long)x, (long long)col);
            ok = nv < GR_BOARD_MAXV && (vs[nv++] = strdup(t)) != NULL;
        }
    }
    if (ok) qsort(vs, (size_t)nv, sizeof *vs, cmp_str);
    for (int k = 0; k < nv; k++)   /* (each compared with the one before: freed after) */
        if (ok && (k == 0 || strcmp(vs[k], vs[k - 1])) && pos < cap)
            pos += (size_t)snprintf(one + pos, cap - pos, "%s%s", k ? " " : "|", vs[k]);
    for (int k = 0; k < nv; k++) free(vs[k]);
    free(vs);
    return ok && pos < cap ? 1 : -1;
}

/* The key of one part (an atom): 1 and its text in one, 0 if it is left out (an empty
 * heap), -1 if it is not written with plain numbers. */
static int atom_key(gr_ctx *c, gr_module *m, const gr_posref *p, int star_nim, char *one, size_t cap) {
    if (!p->figure && !p->vertex && p->coords.n == 1 &&
        (p->has_removed || p->coords.v[0]->kind == EX_CALL || p->coords.v[0]->kind == EX_NAME))
        return board_key(p, p->game.name, one, cap);   /* a board (a heap is a number) */
    char name[512];
    int star = !strcmp(p->game.name, "*");
    size_t pos = (size_t)snprintf(name, sizeof name, "%s", star && star_nim ? "nim" : p->game.name);
    for (int a = 0; a < p->game.args.n && pos < sizeof name; a++) {
        int64_t v;
        if (!number(p->game.args.v[a], &v)) return -1;
        pos += (size_t)snprintf(name + pos, sizeof name - pos, "%s%lld", a ? ", " : "[", (long long)v);
    }
    if (p->game.has_args && pos < sizeof name) snprintf(name + pos, sizeof name - pos, "]");
    if (p->vertex) { snprintf(one, cap, "%s.%s", name, p->vertex); return 1; }
    pos = (size_t)snprintf(one, cap, "%s", name);
    int zero = !p->figure && p->coords.n == 1;
    if (!p->figure) {
        for (int a = 0; a < p->coords.n && pos < cap; a++) {
            int64_t v;
            if (!number(p->coords.v[a], &v)) return -1;
            zero &= v == 0;
            pos += (size_t)snprintf(one + pos, cap - pos, "%s%lld", a ? "," : "(", (long long)v);
        }
        if (pos < cap) pos += (size_t)snprintf(one + pos, cap - pos, "%s", p->coords.n ? ")" : "()");
    }
    for (int e = 0; e + 1 < p->cuts.n && pos < cap; e += 2)
        pos += (size_t)snprintf(one + pos, cap - pos, "-(%s-%s)", p->cuts.v[e], p->cuts.v[e + 1]);
    if (zero && empty_heap(c, m, star ? "*" : name)) return 0;
    return pos < cap ? 1 : -1;
}

/* The canonical key of a position as typed or printed ("kayles(4) + *3" and "nim( 3 ) +
 * kayles(4) + kayles(0)" have one key): the parts sorted, empty heaps left out, *n read as
 * nim(n) when nim is the prelude's, a group in parentheses one part under anyleaf and every
 * (its own parts sorted; a leaf left with nothing stays, as *0, under anyleaf) and a plain sum
 * under normal and misere play. 0 if the text is not a position (then nothing matches it). */
static int position_key(gr_ctx *c, gr_module *m, gr_conv conv, const char *text, char *key, size_t cap) {
    size_t len = strlen(text);
    char *src = malloc(len + 16);
    if (!src) return 0;
    int n = snprintf(src, len + 16, "solve %s;", text);
    gr_ctx tc;
    gr_ast_program prog;
    int parsed = gr_cli_parse_quiet(&tc, "<move>", src, (size_t)n, &prog);
    const gr_query *q = parsed ? prog.queries : NULL;
    int ok = q && !q->next && q->kind == Q_SOLVE;
    char **parts = ok ? calloc((size_t)q->nparts + 1, sizeof *parts) : NULL;
    char **atoms = ok ? calloc((size_t)q->nparts + 1, sizeof *atoms) : NULL;
    int np = 0;
    ok = ok && parts && atoms;
    int groups = conv == CONV_ANYLEAF || conv == CONV_EVERY, star_nim = ok && prelude_nim(c, m);
    for (int i = 0, hi; ok && i < q->nparts; i = hi) {
        for (hi = i + 1; groups && hi < q->nparts && q->parts[hi].joined; hi++) {}
        int na = 0;
        char one[1024];
        for (int k = i; ok && k < hi; k++) {
            int r = atom_key(c, m, &q->parts[k], star_nim, one, sizeof one);
            if (r > 0) atoms[na++] = strdup(one);
            ok = r >= 0;
        }
        qsort(atoms, (size_t)na, sizeof *atoms, cmp_str);
        if (groups && na == 0 && conv == CONV_ANYLEAF) atoms[na++] = strdup("*0");   /* a leaf stays */
        if (groups && na > 1) {   /* one component: its atoms sorted, in parentheses */
            size_t tl = 3, at = 0;
            for (int k = 0; k < na; k++) tl += strlen(atoms[k] ? atoms[k] : "") + 1;
            char *t = malloc(tl);
            if (t) {
                t[at++] = '(';
                for (int k = 0; k < na; k++) at += (size_t)sprintf(t + at, "%s%s", k ? "+" : "", atoms[k] ? atoms[k] : "");
                t[at++] = ')';
                t[at] = '\0';
                parts[np++] = t;
            }
            for (int k = 0; k < na; k++) free(atoms[k]);
        } else for (int k = 0; k < na; k++) parts[np++] = atoms[k];
    }
    if (ok) {
        qsort(parts, (size_t)np, sizeof *parts, cmp_str);
        size_t pos = 0;
        key[0] = '\0';
        for (int k = 0; k < np && pos < cap; k++) pos += (size_t)snprintf(key + pos, cap - pos, "%s%s", k ? "+" : "", parts[k] ? parts[k] : "");
        ok = pos < cap;
    }
    for (int k = 0; k < np; k++) free(parts[k]);
    free(parts);
    free(atoms);
    gr_ctx_free(&tc);
    free(src);
    return ok;
}

/* The computer's move from id: the quickest win, else the longest defence, else a draw kept. */
static uint32_t choose(const gr_pg *pg, uint32_t id, const char **why) {
    uint32_t k = gr_pg_nchildren(pg, id);
    const uint32_t *ch = gr_pg_children(pg, id);
    gr_outcome o = gr_pg_outcome(pg, id);
    uint32_t best = ch[0];
    int64_t best_r = -1;
    for (uint32_t i = 0; i < k; i++) {
        gr_outcome co = gr_pg_outcome(pg, ch[i]);
        int64_t r = gr_pg_remoteness(pg, ch[i]);
        if (o == GR_WIN && co == GR_LOSS && (best_r < 0 || r < best_r)) { best = ch[i]; best_r = r; }
        if (o == GR_LOSS && r > best_r) { best = ch[i]; best_r = r; }
        if (o == GR_DRAW && co == GR_DRAW && best_r < 0) { best = ch[i]; best_r = 0; }
    }
    *why = o == GR_WIN ? "a winning move: it leaves a P position" :
           o == GR_LOSS ? "no winning move exists; this one holds out longest" : "keeps the draw";
    return best;
}

/* Reads one line into buf; 0 at the end of the input. */
static int read_line(char *buf, size_t cap) {
    if (!fgets(buf, (int)cap, stdin)) return 0;
    size_t n = strlen(buf);
    if (n && buf[n - 1] != '\n' && !feof(stdin)) {   /* too long: drop the rest */
        int ch;
        while ((ch = getchar()) != EOF && ch != '\n') {}
    }
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ')) buf[--n] = '\0';
    return 1;
}

/* The move of the position graph that takes the typed cells (gridplay.h), or -1 with msg. */
static int64_t grid_pick_graph(gr_sumgraph *s, const uint32_t *ch, uint32_t k, const gr_board_rule *rule,
                               const char *here, const char *line, char *msg, size_t cap) {
    char **texts = calloc(k ? k : 1, sizeof *texts), buf[4096];
    for (uint32_t i = 0; texts && i < k; i++) {
        gr_sumgraph_render(s, ch[i], buf, sizeof buf);
        texts[i] = strdup(buf);
    }
    int pick = texts ? gr_grid_pick(rule, here, texts, (int)k, line, msg, cap) : -1;
    for (uint32_t i = 0; texts && i < k; i++) free(texts[i]);
    free(texts);
    return pick;
}

static int play_game(gr_ctx *c, gr_module *m, const void *user) {
    const play_opts *o = user;
    gr_rquery *q = &m->queries[m->nqueries - 1];
    gr_conv conv = q->conv;
    if (!q->q->has_conv && q->ncomps == 1) conv = q->comps[0].game->play;
    double expected = gr_sum_graph_estimate(q->comps, q->ncomps, conv);
    if (expected >= GR_FALLBACK_NOTE_AT) {   /* the engine keeps diagnostics: say it here, before a long search */
        if (expected >= 1e18) fprintf(stderr, "grundy play: note: the position graph of this game is searched first (more than 10^18 positions expected; --max-positions and --max-time bound it)\n");
        else fprintf(stderr, "grundy play: note: the position graph of this game is searched first (up to about %.2g positions expected; --max-positions and --max-time bound it)\n", expected);
    }
    gr_sumgraph *s = gr_sumgraph_new(c, m, conv);
    uint32_t cur = gr_sumgraph_add(s, q->comps, q->ncomps);
    gr_sumgraph_solve(s);
    gr_pg *pg = gr_sumgraph_pg(s);
    int echo = !isatty(STDIN_FILENO);
    static const char *const RULE[] = { "normal play: whoever cannot move loses",
        "misere play: whoever cannot move wins", "anyleaf: when any part has no move, the player to move wins",
        "every: a move in every part that can move; whoever cannot move loses" };
    char text[4096], line[4096], want[4096], have[4096], here[4096];
    const gr_board_rule *rule = gr_grid_rule(q);
    gr_sumgraph_render(s, cur, text, sizeof text);
    printf("grundy play: %s (%s; %u positions)\n", text, RULE[conv], gr_pg_count(pg));
    printf("%s first.\n", o->computer_first ? "The computer moves" : "You move");
    int human = !o->computer_first;
    for (;;) {
        gr_sumgraph_render(s, cur, here, sizeof here);
        printf("\nPosition: %s\n", here);
        gr_grid_draw(stdout, here);
        uint32_t k = gr_pg_nchildren(pg, cur);
        const uint32_t *ch = gr_pg_children(pg, cur);
        if (k == 0) {
            int mover_wins = gr_pg_outcome(pg, cur) == GR_WIN;
            int human_wins = human == mover_wins;
            printf("No move is left for %s. Game over: %s.\n", human ? "you" : "the computer",
                   human_wins ? "you win" : "the computer wins");
            break;
        }
        if (!human) {
            static const char OUT[] = "PND";   /* gr_outcome: GR_LOSS, GR_WIN, GR_DRAW */
            printf("The computer's moves (the outcome each leaves to you):\n");
            for (uint32_t i = 0; i < k; i++) {
                gr_sumgraph_render(s, ch[i], text, sizeof text);
                gr_outcome co = gr_pg_outcome(pg, ch[i]);
                printf("  %3u. %s  (%c)\n", i + 1, text, co >= 0 && co < 3 ? OUT[co] : '?');
            }
            const char *why;
            uint32_t next = choose(pg, cur, &why);
            uint32_t num = 0;
            while (ch[num] != next) num++;
            gr_sumgraph_render(s, next, text, sizeof text);
            printf("The computer plays %u: %s  (%s)\n", num + 1, text, why);
            cur = next;
            human = 1;
            continue;
        }
        printf("Your moves:\n");
        for (uint32_t i = 0; i < k; i++) {
            gr_sumgraph_render(s, ch[i], text, sizeof text);
            printf("  %3u. %s\n", i + 1, text);
        }
        int64_t pick = -1;
        while (pick < 0) {
            printf("Your move (1-%u, %s; q to resign): ", k, rule ? "a position, or the cells it takes" : "or a position");
            fflush(stdout);
            if (!read_line(line, sizeof line)) {
                printf("\nThe input ended before the game did.\n");
                gr_sumgraph_free(s);
                return 1;
            }
            if (echo) printf("%s\n", line);
            if (!strcmp(line, "q") || !strcmp(line, "quit")) {
                printf("You resign. Game over: the computer wins.\n");
                gr_sumgraph_free(s);
                return 0;
            }
            char *end;
            errno = 0;
            long long v = strtoll(line, &end, 10);
            if (line[0] && !*end && !errno && v >= 1 && v <= (long long)k) { pick = v - 1; break; }
            if (rule && gr_grid_is_cells(line)) {   /* the cells the move takes */
                pick = grid_pick_graph(s, ch, k, rule, here, line, want, sizeof want);
                if (pick < 0) printf("'%s': %s.\n", line, want);
                continue;
            }
            /* a position typed in any spelling: compared as a position, by its key */
            if (position_key(c, m, conv, line, want, sizeof want))
                for (uint32_t i = 0; i < k && pick < 0; i++) {
                    gr_sumgraph_render(s, ch[i], text, sizeof text);
                    if (position_key(c, m, conv, text, have, sizeof have) && !strcmp(want, have)) pick = i;
                }
            if (pick < 0) printf("'%s' is not a move from here: type a number from 1 to %u or one of the positions listed.\n", line, k);
        }
        cur = ch[pick];
        human = 0;
    }
    gr_sumgraph_free(s);
    return 0;
}


/* ---- by values: sums of components with SG values under normal play ---- */
/* Each turn compiles the file with "solve POSITION;" for the position reached, takes the
 * components' values from their recurrences (no position graph) and lists the moves with the
 * value each leaves; so a sum of large heaps starts at once. */
typedef struct opt_list { char **text; int64_t *sg; int n, cap; } opt_list;

static void add_option(void *user, const char *text, int64_t sg) {
    opt_list *l = user;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        char **t = realloc(l->text, (size_t)cap * sizeof *t);
        if (t) l->text = t;
        int64_t *v = realloc(l->sg, (size_t)cap * sizeof *v);
        if (v) l->sg = v;
        if (!t || !v) return;
        l->cap = cap;
    }
    l->text[l->n] = strdup(text);
    l->sg[l->n++] = sg;
}

static void opt_list_free(opt_list *l) {
    for (int i = 0; i < l->n; i++) free(l->text[i]);
    free(l->text); free(l->sg);
}

/* The move of greatest remoteness, by its key. */
typedef struct longest {
    gr_ctx *c; gr_module *m; gr_conv conv;
    char *best; int64_t best_r;
    char key[4096], want[4096];
} longest;

static void keep_longest(void *user, const char *text, int64_t r) {
    longest *lg = user;
    if (r <= lg->best_r || !position_key(lg->c, lg->m, lg->conv, text, lg->want, sizeof lg->want)) return;
    free(lg->best);
    lg->best = strdup(text);
    lg->best_r = r;
    memcpy(lg->key, lg->want, sizeof lg->key);
}

typedef struct play_state {
    const play_opts *o;
    int started, human, over, graph, status;
    char *pos;                       /* the position reached, as a solve query writes it */
} play_state;

static int play_turn_with(gr_ctx *c, gr_module *m, play_state *st, int64_t *vals);

static int play_turn(gr_ctx *c, gr_module *m, void *user) {
    play_state *st = user;
    gr_rquery *q = &m->queries[m->nqueries - 1];
    int64_t *vals = gr_alloc(c, (size_t)(q->ncomps ? q->ncomps : 1) * sizeof *vals);
    int rc = play_turn_with(c, m, st, vals);
    gr_free(c, vals);   /* the engine's memory outlives the turn */
    return rc;
}

static int play_turn_with(gr_ctx *c, gr_module *m, play_state *st, int64_t *vals) {
    gr_rquery *q = &m->queries[m->nqueries - 1];
    gr_conv conv = gr_sum_convention(q->comps, q->ncomps, q->q->has_conv, q->conv);
    int64_t total;
    if (conv != CONV_NORMAL || !gr_sum_sg_fast(c, q->comps, q->ncomps, &total, vals)) {
        st->graph = 1;                 /* draws, or another convention: the position graph */
        st->over = 1;
        return play_game(c, m, st->o);
    }
    const char *text = gr_render_position(c, q->comps, q->ncomps, conv);
    if (!st->started) {
        printf("grundy play: %s (normal play: whoever cannot move loses; played by Sprague-Grundy values)\n", text);
        printf("%s first.\n", st->o->computer_first ? "The computer moves" : "You move");
        st->started = 1;
        st->human = !st->o->computer_first;
    }
    printf("\nPosition: %s\n", text);
    gr_grid_draw(stdout, text);
    const gr_board_rule *rule = gr_grid_rule(q);
    const char *cur = rule ? text : NULL;   /* the text the cells of a move are read against */
    opt_list l = { 0 };
    gr_sum_fast_options(c, q->comps, q->ncomps, vals, total, add_option, &l, NULL);
    if (l.n == 0) {
        printf("No move is left for %s. Game over: %s.\n", st->human ? "you" : "the computer",
               st->human ? "the computer wins" : "you win");
        st->over = 1;
        opt_list_free(&l);
        return 0;
    }
    int pick = -1;
    if (!st->human) {
        printf("The computer's moves (the value each leaves you; 0 is a lost position):\n");
        for (int i = 0; i < l.n; i++) printf("  %3d. %s  (%lld)\n", i + 1, l.text[i], (long long)l.sg[i]);
        for (int i = 0; i < l.n && pick < 0; i++) if (l.sg[i] == 0) pick = i;
        char why[160];
        snprintf(why, sizeof why, "a winning move: it leaves value 0");
        if (pick < 0) {
            /* lost: the move that holds out longest, by remoteness (a bounded graph) */
            longest lg = { .c = c, .m = m, .conv = conv, .best_r = -1 };
            if (gr_sum_children_remoteness(c, m, q->comps, q->ncomps, conv, GR_REMOTENESS_GRAPH_MAX, keep_longest, &lg) && lg.best)
                for (int i = 0; i < l.n && pick < 0; i++)
                    if (position_key(c, m, conv, l.text[i], lg.want, sizeof lg.want) && !strcmp(lg.want, lg.key)) pick = i;
            if (pick >= 0)
                snprintf(why, sizeof why, "no winning move exists (the value is 0); this one holds out longest: %lld more moves to the end",
                         (long long)lg.best_r + 1);
            else {
                pick = 0;
                snprintf(why, sizeof why, "no winning move exists (the value is 0), and the game is too large to find the longest defence: the first move");
            }
            free(lg.best);
        }
        printf("The computer plays %d: %s  (%s)\n", pick + 1, l.text[pick], why);
    } else {
        printf("Your moves:\n");
        for (int i = 0; i < l.n; i++) printf("  %3d. %s\n", i + 1, l.text[i]);
        char line[4096], want[4096], have[4096];
        int echo = !isatty(STDIN_FILENO);
        while (pick < 0) {
            printf("Your move (1-%d, %s; q to resign): ", l.n, cur ? "a position, or the cells it takes" : "or a position");
            fflush(stdout);
            if (!read_line(line, sizeof line)) {
                printf("\nThe input ended before the game did.\n");
                st->over = 1;
                st->status = 1;
                opt_list_free(&l);
                return 1;
            }
            if (echo) printf("%s\n", line);
            if (!strcmp(line, "q") || !strcmp(line, "quit")) {
                printf("You resign. Game over: the computer wins.\n");
                st->over = 1;
                opt_list_free(&l);
                return 0;
            }
            char *end;
            errno = 0;
            long long v = strtoll(line, &end, 10);
            if (line[0] && !*end && !errno && v >= 1 && v <= l.n) { pick = (int)v - 1; break; }
            if (cur && gr_grid_is_cells(line)) {   /* the cells the move takes */
                pick = gr_grid_pick(rule, cur, l.text, l.n, line, want, sizeof want);
                if (pick < 0) printf("'%s': %s.\n", line, want);
                continue;
            }
            if (position_key(c, m, conv, line, want, sizeof want))
                for (int i = 0; i < l.n && pick < 0; i++)
                    if (position_key(c, m, conv, l.text[i], have, sizeof have) && !strcmp(want, have)) pick = i;
            if (pick < 0) printf("'%s' is not a move from here: type a number from 1 to %d or one of the positions listed.\n", line, l.n);
        }
    }
    free(st->pos);
    st->pos = strdup(l.text[pick]);
    st->human = !st->human;
    opt_list_free(&l);
    fflush(stdout);
    return 0;
}

/* The limits of the whole game (one deadline for all its turns), on each turn's context. */
typedef struct play_limits { const play_opts *o; double deadline; } play_limits;
static void play_setup(gr_ctx *c, void *user) {
    const play_limits *l = user;
    c->max_positions = l->o->max_positions;
    c->mem_limit = l->o->max_memory;
    c->threads = l->o->threads;
    c->max_time = l->o->max_time;
    c->deadline = l->deadline;
    if (l->o->max_time <= 0) {   /* no --max-time: each turn has play's own */
        c->max_time = GR_CLI_TURN_TIME;
        c->deadline = gr_now() + GR_CLI_TURN_TIME;
        c->max_time_from = "play's default for a turn";
    }
    c->progress = isatty(STDERR_FILENO);
}

int gr_play_main(int argc, char **argv) {
    play_opts o = parse_play_args(argc, argv);
    FILE *in = fopen(o.file, "rb");
    size_t len = 0;
    char *file = in ? gr_read_all(in, &len) : NULL;
    if (!file) {
        fprintf(stderr, "grundy play: error: cannot read %s: %s\n", o.file, strerror(errno));
        return GR_EXIT_INPUT;
    }
    fclose(in);
    play_state st = { .o = &o, .pos = strdup(o.position) };
    double deadline = o.max_time > 0 ? gr_now() + o.max_time : 0;
    play_limits lim = { &o, deadline };
    gr_engine_fail f;
    gr_engine *e = gr_engine_open(o.file, file, len, 1, play_setup, &lim, &f);
    if (!e) {
        fputs(f.msg, stderr);
        free(st.pos);
        free(file);
        return f.status;
    }
    int status = 0;
    while (!st.over && st.pos) {
        size_t cap = strlen(st.pos) + 64;
        char *entry = malloc(cap);
        if (!entry) { status = GR_EXIT_LIMIT; break; }
        int n = snprintf(entry, cap, "solve %s %s;", st.started || !o.convention ? "" : o.convention, st.pos);
        status = gr_engine_run(e, "position", entry, (size_t)n, play_setup, &lim, play_turn, &st, 0, &f);
        free(entry);
        fflush(stdout);
        if (status < 0) {
            if (isatty(STDERR_FILENO)) fputs("\r\033[K", stderr);   /* a bar may be left on the line */
            fputs(f.msg, stderr);
            status = f.status;
        }
        if (status != 0 || st.graph) break;
    }
    gr_engine_free(e);
    free(st.pos);
    free(file);
    return status;
}
