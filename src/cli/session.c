/* session: the interactive session; see session.h. An entry is the lines typed until they
 * form whole statements: one line, or more while brackets are open or the text stops where
 * more is needed ("game s =", "solve kayles(3) +"); an empty line ends an entry that cannot
 * be finished (its error is shown). A last statement may omit its ';' (a definition ending in
 * '}' too), and a position typed alone is asked as "solve POSITION". History is kept in
 * ~/.grundy_history between sessions. The session holds one
 * engine (api/engine.h): each entry is compiled alone against the definitions accepted so far
 * (a definition of a known name replaces it and drops what was computed for the old one), its
 * errors carry its own line numbers, its queries run at once, and what they compute stays for
 * the entries after it (:stats shows it, :reset drops it). */
#include "session.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "parse.h"
#include "play.h"
#include "compile.h"
#include "engine.h"
#include "query.h"
#include "suggest.h"
#ifdef GRUNDY_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

typedef struct def { char *name, *text; } def;

typedef struct session {
    gr_engine *engine;             /* the definitions so far and what their queries computed */
    def *defs; int ndefs, cap;     /* their texts, for :defs */
    int tty, explain;
    gr_format format;              /* --format: of every query's answer */
    gr_session_setup_fn setup;
    const void *user;
} session;

/* Ctrl-C: at the prompt it drops the entry being typed; while a query runs, the library's
 * poll (ctx->interrupted) sees the flag and stops the query with a message. */
static volatile sig_atomic_t got_interrupt;
static void on_interrupt(int sig) { (void)sig; got_interrupt = 1; }
static void stop_if_interrupted(gr_ctx *c) {
    if (!got_interrupt) return;
    got_interrupt = 0;
    gr_fail(c, GR_EXIT_LIMIT, "interrupted; the session goes on");
}

static const char HELP[] =
    "Type definitions and queries as in a .game file; each query is answered at once.\n"
    "A statement may span lines (the prompt shows ...> until it is whole); the last ';' may be left out.\n"
    "A position typed alone is solved: kayles(4) + *3 is solve kayles(4) + *3.\n"
    "The classic games need no definition: nim kayles dawson dawsonchess treblecross grundygame\n"
    "lasker wythoff(x, y) ed(x, y) bash[k] fibonacci, and *n is a nim heap: solve kayles(20) + *5\n"
    "  :help             this text\n"
    "  :load FILE        run a .game file: its definitions stay, its queries are answered\n"
    "  :defs             the definitions made so far\n"
    "  :explain on|off   also say which evaluator answers each rule set, and why\n"
    "  :stats            values computed so far, and the memory they hold (each game's)\n"
    "  :reset            drop every value computed (the definitions stay)\n"
    "  :quit             leave (so does Ctrl-D); Ctrl-C stops a running query\n";

/* ---- reading lines ---- */
static char *read_line(session *s, const char *prompt) {
#ifdef GRUNDY_HAVE_LIBEDIT
    if (s->tty) return readline(prompt);
#endif
    if (s->tty) { fputs(prompt, stdout); fflush(stdout); }
    size_t cap = 256, n = 0;
    char *buf = malloc(cap);
    int ch;
    while (buf && (ch = getchar()) != EOF && ch != '\n') {
        if (n + 1 >= cap) { char *nb = realloc(buf, cap *= 2); if (!nb) { free(buf); return NULL; } buf = nb; }
        buf[n++] = (char)ch;
    }
    if (!buf || (n == 0 && ch == EOF)) { free(buf); return NULL; }
    buf[n] = '\0';
    return buf;
}

static void remember(session *s, const char *entry) {
#ifdef GRUNDY_HAVE_LIBEDIT
    if (s->tty && *entry) add_history(entry);
#else
    (void)s; (void)entry;
#endif
}

#ifdef GRUNDY_HAVE_LIBEDIT
enum { HISTORY_KEPT = 1000 };   /* entries kept between sessions */

/* ~/.grundy_history, or NULL without a $HOME (then nothing is kept between sessions). */
static char *history_file(void) {
    const char *home = getenv("HOME");
    if (!home || !*home) return NULL;
    size_t n = strlen(home) + sizeof "/.grundy_history";
    char *path = malloc(n);
    if (path) snprintf(path, n, "%s/.grundy_history", home);
    return path;
}
#endif

/* ---- an entry ---- */
/* Open brackets in text, outside comments and strings. */
static int open_brackets(const char *t) {
    int depth = 0, str = 0;
    for (; *t; t++) {
        if (str) { if (*t == '"' || *t == '\n') str = 0; continue; }
        if (*t == '"') str = 1;
        else if (*t == '#' || (t[0] == '/' && t[1] == '/')) { while (t[1] && t[1] != '\n') t++; }
        else if (*t == '(' || *t == '[' || *t == '{') depth++;
        else if (*t == ')' || *t == ']' || *t == '}') depth--;
    }
    return depth;
}

/* The last character that is not blank or in a comment (0: none). */
static char last_significant(const char *t) {
    char last = 0;
    for (const char *p = t; *p; p++) {
        if (*p == '#' || (p[0] == '/' && p[1] == '/')) { while (p[1] && p[1] != '\n') p++; continue; }
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') last = *p;
    }
    return last;
}

typedef struct parsed { int status; uint32_t fail_off; char **names; uint32_t *offs, *lens; int n; } parsed;

/* Parses text alone, quietly: status 0 and its definitions (names and spans), or 1 with the
 * offset of the error. */
static parsed parse_alone(const char *text, size_t len) {
    parsed p = { 0 };
    gr_ctx c;
    gr_ast_program prog;
    if (!gr_cli_parse_quiet(&c, "<input>", text, len, &prog)) {
        p.status = 1;
        p.fail_off = c.fail_located ? c.fail_off : 0;
        gr_ctx_free(&c);
        return p;
    }
    for (gr_gdecl *d = prog.decls; d; d = d->next) p.n++;
    p.names = calloc((size_t)p.n + 1, sizeof *p.names);
    p.offs = calloc((size_t)p.n + 1, sizeof *p.offs);
    p.lens = calloc((size_t)p.n + 1, sizeof *p.lens);
    int i = 0;
    for (gr_gdecl *d = prog.decls; d && p.names && p.offs && p.lens; d = d->next, i++) {
        p.names[i] = strdup(d->name);
        p.offs[i] = d->loc.off;
        p.lens[i] = d->loc.len;
    }
    gr_ctx_free(&c);
    return p;
}

static void parsed_free(parsed *p) {
    for (int i = 0; i < p->n && p->names; i++) free(p->names[i]);
    free(p->names); free(p->offs); free(p->lens);
}

typedef struct run_state { const session *s; int compiled; } run_state;

static int run_entry(gr_ctx *c, gr_module *m, void *user) {
    run_state *rs = user;
    rs->compiled = 1;
    if (rs->s->explain) gr_explain(c, m, stdout);
    return gr_run_queries_ex(c, m, rs->s->format, stdout, NULL, NULL);
}

/* The command line's settings on each call's context, and Ctrl-C. */
static void setup_entry(gr_ctx *c, void *user) {
    const session *s = user;
    s->setup(c, s->user);
    if (c->max_time <= 0) {   /* no --max-time: each entry has the session's own */
        c->max_time = GR_CLI_TURN_TIME;
        c->deadline = gr_now() + GR_CLI_TURN_TIME;
        c->max_time_from = "the session's default for an entry";
    }
    c->interrupted = stop_if_interrupted;
}

/* Parses text (len bytes) as it is, else with the ';' its last statement may lack: 0 if it
 * parses (*semi: with the ';'), 1 if it stops where more text could finish it, 2 if it is
 * wrong; *p holds the parse (its definitions, or where it failed). */
static int parse_entry(const char *text, size_t len, parsed *p, int *semi) {
    *semi = 0;
    *p = parse_alone(text, len);
    if (!p->status) return 0;
    char *t = malloc(len + 2);
    if (!t) return 2;
    memcpy(t, text, len);
    memcpy(t + len, ";", 2);
    parsed q = parse_alone(t, len + 1);
    free(t);
    if (!q.status) { parsed_free(p); *p = q; *semi = 1; return 0; }
    int more = q.fail_off >= len;
    parsed_free(&q);
    return more ? 1 : 2;
}

/* The offset of the first token (past blanks and comments). */
static size_t first_token(const char *t) {
    const char *p = t;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (*p == '#' || (p[0] == '/' && p[1] == '/')) { while (*p && *p != '\n') p++; continue; }
        return (size_t)(p - t);
    }
}

/* Does t start as a position does: '*', '(', or a name followed by '(', '[', '.', '+' or '-'
 * (a lone word is more likely a misspelt keyword, whose error says so, than a figure)? */
static int bare_position(const char *t) {
    if (*t == '*' || *t == '(') return 1;
    if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || *t == '_')) return 0;
    while ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9') || *t == '_') t++;
    while (*t == ' ' || *t == '\t') t++;
    return *t && strchr("([.+-", *t);
}

/* Shows the syntax error of text (len bytes), with its own line numbers. */
static void show_parse_error(const char *name, const char *text, size_t len) {
    gr_ctx c;
    gr_ctx_init(&c, name, text, len);
    c.no_prelude = 1;
    gr_ast_program prog;
    jmp_buf jb;
    c.on_fail = &jb;
    if (setjmp(jb) != 0) fputs(c.fail_msg, stderr);
    else gr_parse(&c, &prog);
    gr_ctx_free(&c);
}

/* Compiles and runs one entry. Returns 1 if it is not finished yet (more lines may complete
 * it; final: show its error instead), else its exit status. */
static int run_text(session *s, const char *name, const char *entry, int final) {
    size_t len = strlen(entry);
    if (!last_significant(entry)) return 0;
    int add_semi;
    parsed p;
    int r = parse_entry(entry, len, &p, &add_semi);
    char *bare = NULL;
    size_t tok = first_token(entry);
    if (r && p.fail_off == tok && bare_position(entry + tok)) {
        /* A position alone (no statement starts with a name, '*' or '('): it is asked as
         * solve POSITION. Its errors then show the line as solved. */
        size_t blen = len + 6;
        bare = malloc(blen + 1);
        if (!bare) { parsed_free(&p); return GR_EXIT_LIMIT; }
        memcpy(bare, entry, tok);
        memcpy(bare + tok, "solve ", 6);
        memcpy(bare + tok + 6, entry + tok, len - tok + 1);
        parsed q;
        int bsemi, rb = parse_entry(bare, blen, &q, &bsemi);
        /* used when it parses or may yet, or when the entry cannot be anything else */
        if (rb < 2 || entry[tok] == '*' || entry[tok] == '(') {
            parsed_free(&p);
            p = q; r = rb; add_semi = bsemi;
            entry = bare; len = blen;
        } else {
            parsed_free(&q);
            free(bare);
            bare = NULL;
        }
    }
    if (r == 1 && !final) { parsed_free(&p); free(bare); return 1; }
    if (r) {                          /* the error, with the entry's own line numbers */
        parsed_free(&p);
        show_parse_error(name, entry, len);
        free(bare);
        return GR_EXIT_INPUT;
    }
    /* The entry alone, against what the engine knows. */
    if (!s->engine) {
        gr_engine_fail f;
        s->engine = gr_engine_open("<session>", "", 0, 1, setup_entry, s, &f);
        if (!s->engine) { fputs(f.msg[0] ? f.msg : "grundy: error: out of memory\n", stderr); parsed_free(&p); free(bare); return GR_EXIT_LIMIT; }
    }
    char *src = malloc(len + 2);
    if (!src) { parsed_free(&p); free(bare); return GR_EXIT_LIMIT; }
    memcpy(src, entry, len);
    size_t n = len;
    if (add_semi) src[n++] = ';';
    src[n] = '\0';
    got_interrupt = 0;
    run_state rs = { s, 0 };
    gr_engine_fail f;
    gr_engine_stats before, after;
    gr_engine_stats_of(s->engine, &before);
    int status = gr_engine_run(s->engine, name, src, n, setup_entry, s, run_entry, &rs, 0, &f);
    fflush(stdout);
    if (status < 0) {
        if (s->tty) fputs("\r\033[K", stderr);   /* a bar may be left on the line */
        fputs(f.msg, stderr);
        status = f.status;
        gr_engine_stats_of(s->engine, &after);
        uint64_t gone = after.game_drops - before.game_drops;
        if (gone)                      /* say what the stop cost */
            fprintf(stderr, "grundy: note: the values of %llu game%s it used were dropped (a stopped query may leave them half made); the other games keep theirs%s\n",
                    (unsigned long long)gone, gone == 1 ? "" : "s", f.memory ? "; the entry may fit if run again" : "");
    }
    if (rs.compiled)                   /* keep its definitions, replacing those of their names */
        for (int k = 0; k < p.n; k++) {
            char *text = strndup(src + p.offs[k], p.lens[k]);
            int at = -1;
            for (int i = 0; i < s->ndefs; i++) if (!strcmp(s->defs[i].name, p.names[k])) at = i;
            if (at < 0 && s->ndefs == s->cap) {
                def *nd = realloc(s->defs, (size_t)(s->cap = s->cap ? 2 * s->cap : 16) * sizeof *nd);
                if (!nd) { free(text); break; }
                s->defs = nd;
            }
            if (at < 0) { at = s->ndefs++; s->defs[at].name = strdup(p.names[k]); }
            else free(s->defs[at].text);
            s->defs[at].text = text;
        }
    free(src);
    free(bare);
    parsed_free(&p);
    return status;
}

/* ---- commands ---- */
static int load_file(session *s, const char *file) {
    FILE *in = fopen(file, "rb");
    size_t len = 0;
    char *text = in ? gr_read_all(in, &len) : NULL;
    if (in) fclose(in);
    if (!text) { fprintf(stderr, "grundy: error: cannot read %s: %s\n", file, strerror(errno)); return GR_EXIT_INPUT; }
    int status = run_text(s, file, text, 1);
    free(text);
    return status;
}

/* Runs a ':' command; returns 0 to leave the session. */
static int command(session *s, char *line) {
    char *cmd = line + 1, *arg = cmd;
    while (*arg && *arg != ' ' && *arg != '\t') arg++;
    if (*arg) *arg++ = '\0';
    while (*arg == ' ' || *arg == '\t') arg++;
    for (size_t n = strlen(arg); n && (arg[n - 1] == ' ' || arg[n - 1] == '\t' || arg[n - 1] == '\r'); n--) arg[n - 1] = '\0';
    if (!strcmp(cmd, "quit") || !strcmp(cmd, "q") || !strcmp(cmd, "exit")) return 0;
    if (!strcmp(cmd, "help") || !strcmp(cmd, "h") || !strcmp(cmd, "?")) fputs(HELP, stdout);
    else if (!strcmp(cmd, "load")) {
        if (!*arg) fprintf(stderr, "grundy: error: :load needs a file name\n");
        else load_file(s, arg);
    } else if (!strcmp(cmd, "explain")) {
        if (!strcmp(arg, "on")) s->explain = 1;
        else if (!strcmp(arg, "off")) s->explain = 0;
        else fprintf(stderr, "grundy: error: :explain on or :explain off\n");
    } else if (!strcmp(cmd, "stats")) {
        gr_engine_stats st = { 0 };
        if (s->engine) gr_engine_stats_of(s->engine, &st);
        printf("values computed: %llu; entries run: %llu; memory held: %.1f MiB (games %.1f, program %.1f); "
               "values dropped: %llu time%s, one game's %llu time%s (%llu evicted for memory)\n",
               (unsigned long long)st.values_computed, (unsigned long long)st.calls, (double)st.memory / (1 << 20),
               (double)st.games_memory / (1 << 20), (double)st.program_memory / (1 << 20),
               (unsigned long long)st.drops, st.drops == 1 ? "" : "s", (unsigned long long)st.game_drops,
               st.game_drops == 1 ? "" : "s", (unsigned long long)st.evictions);
        int n = s->engine ? gr_engine_games(s->engine, NULL, 0) : 0;
        gr_engine_game *g = n > 0 ? calloc((size_t)n, sizeof *g) : NULL;
        if (g) {
            int m = gr_engine_games(s->engine, g, n);
            if (m < n) n = m;
            printf("  %-24s %14s %14s %s\n", "game", "values kept", "memory", "last used");
            for (int i = 0; i < n; i++)
                printf("  %-24s %14llu %10.1f KiB %llu entr%s ago\n", g[i].name, (unsigned long long)g[i].values, (double)g[i].bytes / 1024,
                       (unsigned long long)g[i].calls_ago, g[i].calls_ago == 1 ? "y" : "ies");
            free(g);
        }
    } else if (!strcmp(cmd, "reset")) {
        if (s->engine) gr_engine_reset(s->engine);
        printf("every value computed was dropped; the definitions stay\n");
    } else if (!strcmp(cmd, "defs")) {
        if (!s->ndefs) printf("no definitions yet (the prelude's games need none)\n");
        for (int i = 0; i < s->ndefs; i++) printf("%s\n", s->defs[i].text);
    } else {
        static const char *const CMDS[] = { "help", "load", "defs", "explain", "stats", "reset", "quit" };
        gr_suggest sg;
        gr_suggest_init(&sg, cmd);
        for (size_t i = 0; i < sizeof CMDS / sizeof *CMDS; i++) gr_suggest_offer(&sg, CMDS[i]);
        const char *best = gr_suggest_best(&sg);
        fprintf(stderr, "grundy: error: unknown command ':%s'%s%s%s; :help lists them\n", cmd,
                best ? " (did you mean ':" : "", best ? best : "", best ? "'?)" : "");
    }
    fflush(stdout);
    return 1;
}

int gr_session_main(const char *load, int explain, gr_format format, gr_session_setup_fn setup, const void *user) {
    session s = { .tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO), .explain = explain, .format = format,
                  .setup = setup, .user = user };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;    /* no SA_RESTART: a read at the prompt returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
#ifdef GRUNDY_HAVE_LIBEDIT
    char *hist = history_file();
    if (s.tty) {
        rl_readline_name = "grundy";
        using_history();
        stifle_history(HISTORY_KEPT);
        if (hist) read_history(hist);   /* none yet, or unreadable: a session without it */
    }
#endif
    int status = 0;
    if (s.tty) printf("grundy 0.1.0: type a definition or a query, :help for help, :quit to leave\n");
    if (load && (status = load_file(&s, load)) == GR_EXIT_INPUT && !s.tty) return status;
    char *entry = NULL;
    size_t elen = 0;
    for (;;) {
        char *line = read_line(&s, entry ? "   ...> " : "grundy> ");
        if (got_interrupt) {           /* Ctrl-C at the prompt: drop what was typed */
            got_interrupt = 0;
            free(line); free(entry);
            entry = NULL; elen = 0;
            if (s.tty) printf("\n");
            continue;
        }
        if (!line) {
            if (entry) { run_text(&s, "<input>", entry, 1); remember(&s, entry); }
            if (s.tty) printf("\n");
            break;
        }
        const char *t = line;
        while (*t == ' ' || *t == '\t') t++;
        if (!entry && *t == ':') {
            char *typed = strdup(t);   /* command() cuts the line into words */
            int go = command(&s, line + (t - line));
            if (go && typed) remember(&s, typed);   /* not :quit: Up in the next session brings back work */
            free(typed);
            free(line);
            if (!go) break;
            continue;
        }
        size_t ll = strlen(line);
        if (!entry && !*t) { free(line); continue; }
        char *ne = realloc(entry, elen + ll + 2);
        if (!ne) { free(line); break; }
        entry = ne;
        memcpy(entry + elen, line, ll);
        elen += ll;
        entry[elen++] = '\n';
        entry[elen] = '\0';
        int final = !*t;               /* an empty line ends an entry, finished or not */
        free(line);
        if (!final && open_brackets(entry) > 0) continue;
        if (run_text(&s, "<input>", entry, final) == 1) continue;
        /* history keeps the entry as one line, so it comes back whole */
        for (char *p = entry; *p; p++) if (*p == '\n') *p = ' ';
        while (elen && entry[elen - 1] == ' ') entry[--elen] = '\0';
        remember(&s, entry);
        free(entry);
        entry = NULL;
        elen = 0;
    }
    free(entry);
#ifdef GRUNDY_HAVE_LIBEDIT
    if (s.tty && hist) write_history(hist);   /* a home that cannot be written loses it, quietly */
    free(hist);
#endif
    gr_engine_free(s.engine);
    for (int i = 0; i < s.ndefs; i++) { free(s.defs[i].name); free(s.defs[i].text); }
    free(s.defs);
    return status == GR_EXIT_INPUT ? status : 0;
}
