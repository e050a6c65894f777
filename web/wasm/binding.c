/* binding: the web page's entry points into the library, compiled to WebAssembly with it
 * (web/CMakeLists.txt) and called from web/src/worker.js by ccall. A client of the library
 * as src/cli/main.c and src/cli/compile.c are: it compiles a program in a gr_ctx, runs its
 * queries with every failure caught by setjmp on c->on_fail, and so gives exactly what
 * `grundy program.game --threads 1 --no-progress` prints: standard output, standard error
 * (diagnostics, notes and the failure's message, in that order), and the exit status.
 *
 *   grundy_run        the whole program, each query run once (gr_run_query_formats: its text
 *                     and its `--format json` lines from one computation). It tells the page as
 *                     it goes, through the hooks of web/wasm/hooks.js (functions of the module
 *                     that call Module.onQueries, onAnswer, onProgress when the worker set them):
 *                     the queries once compiled, each query's answer as soon as it ends, and
 *                     every ~0.5 s a progress line of the query that runs. It returns one JSON
 *                     text: exit, status, stderr, the compile error's place, the queries' count
 *                     of runs; the answers themselves went by the hooks.
 *   grundy_query      one query written by the page against the program (play, a clicked
 *                     move), by the public API: gr_compile + gr_run_one on a program kept
 *                     while the source is unchanged, so its values are remembered;
 *   grundy_run_format one of the program's own queries in csv, json or text (a download);
 *   grundy_options    a slice of a position's moves for play (gr_options, kept for the next
 *                     slice): a sum with 199,999 moves costs the page the few it shows.
 * Every returned JSON text is malloc'd, freed by grundy_free.
 * One thread (no -pthread): the library's pool makes no threads when c->threads is 1. A call
 * cannot be interrupted from JS (the page's Stop ends the worker; the answers sent before stay). */
#include <emscripten/emscripten.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grundy.h"
#include "ctx.h"
#include "parse.h"
#include "query.h"
#include "sema.h"
#include "show.h"

/* The exports (web/src/worker.js calls them). Times in seconds, memory in MiB, 0: the
 * default (no time limit; DEFAULT_MEMORY_MIB); check_to: the command's --to (0: default). */
char *grundy_run(const char *source, double max_time, double max_memory_mib, double check_to);
char *grundy_query(const char *source, const char *query, const char *format, double max_time, double max_memory_mib);
char *grundy_run_format(const char *source, int index, const char *format, double max_time, double max_memory_mib,
                        double check_to);
char *grundy_options(const char *source, const char *position, int convention, int offset, int limit, const char *find,
                     double max_time, double max_memory_mib);
void grundy_free(char *answer);

/* The name messages give the program, as the page's contract says. */
#define PROGRAM_NAME "program.game"
/* The memory limit when the page gives none: a quarter of what the module may grow to. */
#define DEFAULT_MEMORY_MIB 1024.0
/* ... and the most it may be: the module's memory is at most 4 GiB (-sMAXIMUM_MEMORY). */
#define MAX_MEMORY_MIB 4095.0

/* ---- a growing text (the answer being written), through a memory stream ---- */
typedef struct text { char *p; size_t n; FILE *f; } text;

static int text_open(text *t) {
    t->p = NULL;
    t->n = 0;
    t->f = open_memstream(&t->p, &t->n);
    return t->f != NULL;
}

/* Closes the stream; the text stays in t->p ("" if nothing was written). */
static void text_close(text *t) {
    if (t->f) fclose(t->f);
    t->f = NULL;
    if (!t->p) t->p = calloc(1, 1);
}

/* The whole answer as one malloc'd string; NULL only when memory ran out. */
static char *text_take(text *t) {
    text_close(t);
    return t->p;
}

static void key_string(FILE *f, const char *key, const char *value) {
    fprintf(f, "\"%s\":", key);
    if (value) gr_json_string(f, value);
    else fputs("null", f);
}

/* An answer that is only an error (no memory for a stream, a bad argument). */
static char *error_answer(const char *msg) {
    text t;
    if (!text_open(&t)) return NULL;
    fputs("{\"ok\":false,", t.f);
    key_string(t.f, "error", msg);
    fputs(",\"line\":0,\"column\":0}", t.f);
    return text_take(&t);
}

/* ---- settings shared by the calls ---- */

/* The memory limit in bytes: at most what the module can address (size_t is 32 bits here, so
 * 4096 MiB would wrap to 0). */
static size_t memory_limit(double mib) {
    if (!(mib > 0)) mib = DEFAULT_MEMORY_MIB;
    if (mib > MAX_MEMORY_MIB) mib = MAX_MEMORY_MIB;
    return (size_t)(mib * 1048576.0);
}

static void apply_settings(gr_ctx *c, double max_time, double max_memory_mib, double check_to) {
    c->mem_limit = memory_limit(max_memory_mib);
    c->threads = 1;
    c->progress = c->progress_lines = 0;   /* as --no-progress: the page shows its own state */
    c->check_to = check_to > 0 ? (int64_t)check_to : 0;
    c->max_time = max_time > 0 ? max_time : 0;
    c->deadline = max_time > 0 ? gr_now() + max_time : 0;
}

/* ---- the whole program: grundy_run ---- */

/* The page's hooks (web/wasm/hooks.js, linked with --js-library): each calls the Module's
 * handler of that name when the worker has set one, and does nothing otherwise. */
/* the queries once compiled: a JSON array of {index, text, kind, line} */
extern void grundy_js_queries(const char *json);
/* query index (1-based) ended: its text block and its JSON lines (finished 0: a failure cut it,
 * json is NULL and text is what the command had printed of it); a plot's table as JSON (table:
 * what `table` of the same positions answers, for the page to draw at once), else NULL */
extern void grundy_js_answer(int index, const char *text, int text_len, const char *json, int json_len, int finished,
                             const char *table, int table_len);
/* the query that runs and how far it got (label NULL: no step yet), seconds since it began */
extern void grundy_js_progress(int index, const char *label, double done, double total, double seconds);

/* The most values of a table whose JSON the page is given (4 Mi values, about 15 MB of JSON:
 * the page's grid shows 2,000 of them, its plot all). A larger table runs in text alone (the
 * command's text shows its first and last rows), so no JSON text of tens or hundreds of MB is
 * built in the module and copied to the page; its card shows that text. */
#define JSON_MAX_VALUES 4194304.0

/* A table's (or a plot's) count of values. */
static double table_values(const gr_rquery *q) {
    double n = 1;
    for (int k = 0; k < q->ncoords; k++)
        if (q->varies[k]) n *= (double)(q->hi[k] - q->lo[k]) + 1.0;
    return n;
}

static int json_wanted(const gr_rquery *q) {
    if (q->kind != Q_TABLE || q->vertex_list) return 1;
    return table_values(q) <= JSON_MAX_VALUES;
}

/* Seconds between progress lines (the first comes as long after the query starts). */
#define PROGRESS_INTERVAL 0.5

/* What one run keeps, and where a failure found it. */
typedef struct run_state {
    gr_ctx c;
    gr_module mod;
    int compiled;                /* mod holds the checked program */
    text diag;                   /* what grundy prints on standard error before a failure */
    int cur;                     /* the query running (0-based), -1: none */
    text out, json;              /* its text block and its JSON lines */
    text table;                  /* a plot's picture: its table's JSON line (p NULL: none) */
    double query_start, progress_at; /* when it began, when the last progress line went */
    int query_runs;              /* gr_run_query_formats calls of this run (one per query) */
} run_state;

/* The limit poll's hook (c->interrupted, at each clock read, every few ms): a progress line
 * for the page every PROGRESS_INTERVAL s. */
static void progress_poll(gr_ctx *c) {
    run_state *r = c->interrupted_user;
    double t = gr_now();
    if (r->cur < 0 || t - r->progress_at < PROGRESS_INTERVAL) return;
    r->progress_at = t;
    grundy_js_progress(r->cur + 1, c->step_label, (double)c->step_done, (double)c->step_total, t - r->query_start);
}

/* The queries as the page names them: {index, text (as written: a check or census claim gets
 * its word back), kind, line}. */
static void send_queries(run_state *r) {
    static const char *KIND_NAMES[] = { "table", "solve", "check", "plot", "dot", "options", "quotient", "census" };
    text t;
    if (!text_open(&t)) gr_fail(&r->c, GR_EXIT_LIMIT, "out of memory");
    fputc('[', t.f);
    for (int i = 0; i < r->mod.nqueries; i++) {
        const gr_rquery *q = &r->mod.queries[i];
        int line = 0, col = 0;
        gr_line_col(&r->c, q->q->loc.off, &line, &col);
        fprintf(t.f, "%s{\"index\":%d,\"text\":", i ? "," : "", i + 1);
        if (q->kind == Q_CHECK || q->kind == Q_CENSUS) {
            fputs(q->kind == Q_CHECK ? "\"check " : "\"census ", t.f);
            text one;
            if (text_open(&one)) {
                gr_json_string(one.f, q->text);
                text_close(&one);
                fputs(one.p + 1, t.f);   /* without its opening quote */
                free(one.p);
            } else fputc('"', t.f);
        } else gr_json_string(t.f, q->text);
        fprintf(t.f, ",\"kind\":\"%s\",\"line\":%d", KIND_NAMES[q->kind], line);
        /* a table's (or plot's) coordinates by the game's own names, for the page's axes */
        const char **names = (q->kind == Q_TABLE || q->kind == Q_PLOT) && q->game && q->game->rules
                                 ? q->game->rules->coord_names : NULL;
        if (names) {
            fputs(",\"coords\":[", t.f);
            for (int k = 0; k < q->ncoords; k++) {
                if (k) fputc(',', t.f);
                gr_json_string(t.f, names[k] ? names[k] : "");
            }
            fputc(']', t.f);
        }
        fputc('}', t.f);
    }
    fputc(']', t.f);
    text_close(&t);
    grundy_js_queries(t.p);
    free(t.p);
}

/* The query's answer (finished 0: a failure cut it); its JSON when it was made. */
static void send_answer(run_state *r, int finished) {
    int json = finished && json_wanted(&r->mod.queries[r->cur]);
    text_close(&r->out);
    text_close(&r->json);
    int table = finished && r->table.p;
    grundy_js_answer(r->cur + 1, r->out.p, (int)r->out.n, json ? r->json.p : NULL, json ? (int)r->json.n : 0, finished,
                     table ? r->table.p : NULL, table ? (int)r->table.n : 0);
    free(r->out.p);
    free(r->json.p);
    free(r->table.p);
    r->out.p = r->json.p = r->table.p = NULL;
}

/* A plot's picture for the page: the same query run as the table it draws (its values are the
 * ones the plot just computed, kept by the evaluator), written as that table's JSON line into
 * r->table, so the page draws the plot with its answer rather than asking again after the run. */
static void plot_table(run_state *r, int i) {
    gr_rquery *q = &r->mod.queries[i];
    if (!text_open(&r->table)) gr_fail(&r->c, GR_EXIT_LIMIT, "out of memory");
    FILE *outs[3] = { NULL, NULL, r->table.f };
    q->kind = Q_TABLE;
    gr_run_query_formats(&r->c, &r->mod, i, outs, 0);
    q->kind = Q_PLOT;
    text_close(&r->table);
}

/* Compiles, then runs each query once into its text and its JSON and sends both. Returns the
 * exit status. Apart from the caller, so that no local lives across the setjmp: all state is
 * in *r. */
static int run_program(run_state *r) {
    gr_ctx *c = &r->c;
    jmp_buf jb;
    c->on_fail = &jb;
    if (setjmp(jb) != 0) {
        if (r->cur >= 0) send_answer(r, 0);   /* the command prints what it had, then the message */
        r->cur = -1;
        fputs(c->fail_msg, r->diag.f);
        return c->fail_status;
    }
    gr_ast_program prog;
    if (gr_parse(c, &prog) != 0) return GR_EXIT_INPUT;
    gr_sema(c, &prog, &r->mod);
    r->compiled = 1;
    send_queries(r);
    int status = GR_EXIT_OK;
    for (int i = 0; i < r->mod.nqueries; i++) {
        if (!text_open(&r->out) || !text_open(&r->json)) gr_fail(c, GR_EXIT_LIMIT, "out of memory");
        r->cur = i;
        r->query_start = r->progress_at = gr_now();
        grundy_js_progress(i + 1, NULL, 0, 0, 0);
        FILE *outs[3] = { r->out.f, NULL, json_wanted(&r->mod.queries[i]) ? r->json.f : NULL };
        r->query_runs++;
        if (gr_run_query_formats(c, &r->mod, i, outs, i > 0)) status = GR_EXIT_REFUTED;
        /* (a plot past the JSON bound is drawn from a table the page asks for, or not at all) */
        if (r->mod.queries[i].kind == Q_PLOT && outs[2] && table_values(&r->mod.queries[i]) <= JSON_MAX_VALUES)
            plot_table(r, i);
        send_answer(r, 1);
        r->cur = -1;
    }
    return status;
}

static void write_run(FILE *f, run_state *r, int status) {
    gr_ctx *c = &r->c;
    text_close(&r->diag);
    fprintf(f, "{\"exit\":%d,\"status\":\"%s\",", status, status <= GR_EXIT_REFUTED ? "done" : "error");
    key_string(f, "stderr", r->diag.p);
    fputs(",\"diagnostic\":", f);
    if (status == GR_EXIT_INPUT && c->fail_located) {
        int line, col;
        gr_line_col(c, c->fail_off, &line, &col);
        fprintf(f, "{\"line\":%d,\"column\":%d,", line, col);
        key_string(f, "message", c->fail_text);
        fputc('}', f);
    } else fputs("null", f);
    fprintf(f, ",\"nqueries\":%d,\"query_runs\":%d}", r->compiled ? r->mod.nqueries : 0, r->query_runs);
}

/* Runs a whole program as `grundy program.game` does; see the file's comment. */
EMSCRIPTEN_KEEPALIVE char *grundy_run(const char *source, double max_time, double max_memory_mib, double check_to) {
    if (!source) return error_answer("no program text");
    run_state *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    if (!text_open(&r->diag)) { free(r); return NULL; }
    gr_ctx_init(&r->c, PROGRAM_NAME, source, strlen(source));
    apply_settings(&r->c, max_time, max_memory_mib, check_to);
    r->c.diag = r->diag.f;       /* diagnostics and notes: the command's standard error */
    r->c.interrupted = progress_poll;
    r->c.interrupted_user = r;
    r->cur = -1;
    int status = run_program(r);
    text t;
    char *answer = NULL;
    if (text_open(&t)) {
        write_run(t.f, r, status);
        answer = text_take(&t);
    }
    gr_ctx_free(&r->c);
    text_close(&r->out);
    text_close(&r->json);
    text_close(&r->table);
    free(r->out.p);
    free(r->json.p);
    free(r->table.p);
    text_close(&r->diag);
    free(r->diag.p);
    free(r);
    return answer;
}

/* ---- one of the program's own queries in a format: grundy_run_format ---- */

typedef struct one_state { gr_ctx c; text out, diag; int index; gr_format fmt; } one_state;

/* `grundy program.game --query INDEX --format FMT`: its status; the output in r->out. */
static int run_one_query(one_state *r) {
    gr_ctx *c = &r->c;
    jmp_buf jb;
    c->on_fail = &jb;
    if (setjmp(jb) != 0) {
        fputs(c->fail_msg, r->diag.f);
        return c->fail_status;
    }
    gr_ast_program prog;
    gr_module mod;
    if (gr_parse(c, &prog) != 0) return GR_EXIT_INPUT;
    gr_sema(c, &prog, &mod);
    c->query_only = r->index;
    return gr_run_queries_ex(c, &mod, r->fmt, r->out.f, NULL, NULL);
}

EMSCRIPTEN_KEEPALIVE char *grundy_run_format(const char *source, int index, const char *format, double max_time,
                                             double max_memory_mib, double check_to) {
    if (!source || !format) return error_answer("no program text or format");
    gr_format fmt;
    if (!strcmp(format, "text")) fmt = GR_FMT_TEXT;
    else if (!strcmp(format, "csv")) fmt = GR_FMT_CSV;
    else if (!strcmp(format, "json")) fmt = GR_FMT_JSON;
    else return error_answer("the format is text, csv or json");
    if (index < 1) return error_answer("queries are numbered from 1");
    one_state *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    char *answer = NULL;
    if (text_open(&r->out) && text_open(&r->diag)) {
        r->index = index;
        r->fmt = fmt;
        gr_ctx_init(&r->c, PROGRAM_NAME, source, strlen(source));
        apply_settings(&r->c, max_time, max_memory_mib, check_to);
        r->c.diag = r->diag.f;
        int status = run_one_query(r);
        text_close(&r->out);
        text_close(&r->diag);
        text t;
        if (text_open(&t)) {
            fprintf(t.f, "{\"ok\":%s,\"exit\":%d,", status <= GR_EXIT_REFUTED ? "true" : "false", status);
            key_string(t.f, "output", r->out.p);
            fputc(',', t.f);
            key_string(t.f, "error", r->diag.p);
            fputc('}', t.f);
            answer = text_take(&t);
        }
        gr_ctx_free(&r->c);
    }
    text_close(&r->out);
    text_close(&r->diag);
    free(r->out.p);
    free(r->diag.p);
    free(r);
    return answer;
}

/* ---- one query against the program: grundy_query ---- */

/* The program the page's queries run against, kept while its text is unchanged so that the
 * engine's values (tables, graphs) serve the next move of a play. One per module: the page
 * has one editor, and the worker one module. */
static struct kept { char *source; gr_program *p; } kept;

static void moves_drop(void);

static void kept_drop(void) {
    moves_drop();                 /* the moves kept were the old program's */
    gr_program_free(kept.p);
    free(kept.source);
    kept.p = NULL;
    kept.source = NULL;
}

static void write_failure(FILE *f, const char *error, int line, int column, const char *where) {
    fputs("{\"ok\":false,", f);
    key_string(f, "error", error);
    fprintf(f, ",\"line\":%d,\"column\":%d,\"where\":\"%s\"}", line, column, where);
}

/* kept.p compiled from source (again only when the text changed), the limits set; 0: it does
 * not compile, or memory ran out (the failure is written to f). */
static int kept_compile(const char *source, FILE *f, double max_time, double max_memory_mib) {
    if (!kept.p || strcmp(kept.source, source) != 0) {
        kept_drop();
        gr_diagnostic d;
        kept.p = gr_compile(source, PROGRAM_NAME, &d);
        if (!kept.p) {            /* the program itself is wrong: its diagnostic, as the command says it */
            char msg[700];
            if (d.line > 0) snprintf(msg, sizeof msg, "%s:%d:%d: error: %s", PROGRAM_NAME, d.line, d.column, d.message);
            else snprintf(msg, sizeof msg, "%s: error: %s", PROGRAM_NAME, d.message);
            write_failure(f, msg, d.line, d.column, "program");
            return 0;
        }
        kept.source = strdup(source);
        if (!kept.source) { kept_drop(); write_failure(f, "out of memory", 0, 0, "program"); return 0; }
    }
    gr_limits lim = { .max_memory = memory_limit(max_memory_mib),
                      .max_time = max_time > 0 ? max_time : 0, .threads = 1 };
    gr_set_limits(kept.p, &lim);
    return 1;
}

EMSCRIPTEN_KEEPALIVE char *grundy_query(const char *source, const char *query, const char *format, double max_time,
                                        double max_memory_mib) {
    if (!source || !query || !format) return error_answer("no program text, query or format");
    text t;
    if (!text_open(&t)) return NULL;
    if (!kept_compile(source, t.f, max_time, max_memory_mib)) return text_take(&t);
    char *out = NULL;
    size_t len = 0;
    int rc = gr_run_one(kept.p, query, format, &out, &len);
    if (rc == GR_OK || rc == GR_EREFUTED) {
        fputs("{\"ok\":true,", t.f);
        key_string(t.f, "output", out ? out : "");
        fputc('}', t.f);
    } else {
        const gr_diagnostic *d = gr_last_diagnostic(kept.p);
        write_failure(t.f, gr_last_error(kept.p), d ? d->line : 0, d ? d->column : 0, "query");
    }
    (gr_free)(out);   /* the API's gr_free (ctx.h's macro of that name takes two arguments) */
    return text_take(&t);
}

/* ---- play's moves: grundy_options ---- */

/* The last position's moves (gr_options), while the program and the position are the same:
 * the page asks for them a slice at a time. */
static struct kept_moves { char *position; int conv; gr_option *v; int n; } moves;

static void moves_drop(void) {
    (gr_free)(moves.v);
    free(moves.position);
    memset(&moves, 0, sizeof moves);
}

/* s without blanks, its parts (split at '+' outside brackets) in order, into out (size cap):
 * a typed move matches a move written with other spacing or its parts in another order. */
static int part_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static void move_key(const char *s, char *out, size_t cap) {
    char flat[1024], *parts[64];
    size_t n = 0;
    int depth = 0, np = 0;
    for (; *s && n + 1 < sizeof flat; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\n') continue;
        depth += (*s == '(' || *s == '{' || *s == '[') - (*s == ')' || *s == '}' || *s == ']');
        flat[n++] = depth == 0 && *s == '+' ? '\0' : *s;
    }
    flat[n] = '\0';
    for (size_t i = 0; i < n && np < 64; i += strlen(flat + i) + 1)
        if (flat[i]) parts[np++] = flat + i;
    qsort(parts, (size_t)np, sizeof *parts, part_cmp);
    size_t w = 0;
    out[0] = '\0';
    for (int k = 0; k < np && w + 1 < cap; k++)
        w += (size_t)snprintf(out + w, cap - w, "%s%s", k ? "+" : "", parts[k]);
}

static int same_but_blanks(const char *a, const char *b) {
    for (;;) {
        while (*a == ' ' || *a == '\t') a++;
        while (*b == ' ' || *b == '\t') b++;
        if (*a != *b) return 0;
        if (!*a) return 1;
        a++, b++;
    }
}

static void write_option(FILE *f, const gr_option *o) {
    fputs("{\"position\":", f);
    gr_json_string(f, o->position);
    if (o->has_sg) fprintf(f, ",\"sg\":%lld", (long long)o->sg);
    else fputs(",\"sg\":null", f);
    fprintf(f, ",\"outcome\":\"%c\"}", o->outcome);
}

/* convention: 0 normal, 1 misere, 2 anyleaf, 3 every, -1 as `options POS` (the game's own).
 * {ok, count, offset, options: [the slice, as the options query's JSON writes them], firstP,
 * firstD (the first move of that outcome, -1: none), found (find's index, -1: not a move; only
 * when find is given)}; a failure as grundy_query's. */
EMSCRIPTEN_KEEPALIVE char *grundy_options(const char *source, const char *position, int convention, int offset, int limit,
                                          const char *find, double max_time, double max_memory_mib) {
    if (!source || !position) return error_answer("no program text or position");
    text t;
    if (!text_open(&t)) return NULL;
    if (!kept_compile(source, t.f, max_time, max_memory_mib)) return text_take(&t);
    if (!moves.position || strcmp(moves.position, position) != 0 || moves.conv != convention) {
        moves_drop();
        gr_option *v = NULL;
        int n = 0;
        int rc = gr_options(kept.p, position, (gr_convention)convention, &v, &n);
        if (rc != GR_OK) {
            const gr_diagnostic *d = gr_last_diagnostic(kept.p);
            write_failure(t.f, gr_last_error(kept.p), d ? d->line : 0, d ? d->column : 0, "position");
            return text_take(&t);
        }
        moves.position = strdup(position);
        moves.conv = convention;
        moves.v = v;
        moves.n = n;
        if (!moves.position) { moves_drop(); fclose(t.f); free(t.p); return NULL; }
    }
    int first_p = -1, first_d = -1, found = -1;
    for (int i = 0; i < moves.n; i++) {
        if (first_p < 0 && moves.v[i].outcome == 'P') first_p = i;
        if (first_d < 0 && moves.v[i].outcome == 'D') first_d = i;
    }
    if (find && *find) {
        char want[1024], key[1024];
        move_key(find, want, sizeof want);
        for (int i = 0; i < moves.n && found < 0; i++)   /* as written (but blanks) first: quick */
            if (same_but_blanks(moves.v[i].position, find)) found = i;
        for (int i = 0; i < moves.n && found < 0; i++) {
            move_key(moves.v[i].position, key, sizeof key);
            if (!strcmp(key, want)) found = i;
        }
    }
    if (offset < 0) offset = 0;
    int end = limit < 0 || offset + limit > moves.n ? moves.n : offset + limit;
    fprintf(t.f, "{\"ok\":true,\"count\":%d,\"offset\":%d,\"firstP\":%d,\"firstD\":%d,\"found\":%d,\"options\":[",
            moves.n, offset, first_p, first_d, found);
    for (int i = offset; i < end; i++) {
        if (i > offset) fputc(',', t.f);
        write_option(t.f, &moves.v[i]);
    }
    fputs("]}", t.f);
    return text_take(&t);
}

/* Frees an answer of the calls above. */
EMSCRIPTEN_KEEPALIVE void grundy_free(char *answer) { free(answer); }
