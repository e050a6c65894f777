/* binding: the web page's entry points into the library, compiled to WebAssembly with it
 * (web/CMakeLists.txt) and called from web/src/worker.js by ccall. A client of the library
 * as src/cli/main.c and src/cli/compile.c are: it compiles a program in a gr_ctx, runs its
 * queries with every failure caught by setjmp on c->on_fail, and so gives exactly what
 * `grundy program.game --threads 1 --no-progress` prints: standard output, standard error
 * (diagnostics, notes and the failure's message, in that order), and the exit status.
 *
 * Every answer is one JSON text in a malloc'd string, freed by grundy_free:
 *   grundy_run        the whole program: exit, stdout, stderr, the compile error's place, and
 *                     per query its text block and its `--format json` objects;
 *   grundy_query      one query written by the page against the program (play, a clicked
 *                     move), by the public API: gr_compile + gr_run_one on a program kept
 *                     while the source is unchanged, so its values are remembered;
 *   grundy_run_format one of the program's own queries in csv, json or text (a download).
 * One thread (no -pthread): the library's pool makes no threads when c->threads is 1. */
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
static const char *KIND_NAMES[] = { "table", "solve", "check", "plot", "dot", "options", "quotient", "census" };

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

/* What one run keeps per query, and where a failure found it. */
typedef struct run_state {
    gr_ctx c;
    gr_module mod;
    int compiled;                /* mod holds the checked program */
    text diag;                   /* what grundy prints on standard error before a failure */
    int nq;
    text *out;                   /* per query: its text block */
    text *json;                  /*   its JSON objects, one per line */
    int json_ok;                 /* how many queries' JSON is whole */
    int status;                  /* the text pass's exit status */
    int phase;                   /* 0 compile, 1 text, 2 json */
    int cur;                     /* the query running (0-based) */
    double text_start, text_seconds; /* when the text pass began, how long it ran */
    int failed_at;               /* the query a failure of the text pass stopped (-1: none) */
    char json_error[1100];       /* why the JSON pass stopped, or "" */
} run_state;

/* Compiles, runs every query's text (exactly the command's run), then every query's JSON in
 * the same context (reading the tables the text pass computed). Returns the exit status;
 * a failure in the JSON pass leaves it alone and is told in r->json_error. Apart from the
 * caller, so that no local lives across the setjmp: all state is in *r. */
static int run_program(run_state *r, double max_time) {
    gr_ctx *c = &r->c;
    jmp_buf jb;
    c->on_fail = &jb;
    if (setjmp(jb) != 0) {
        if (r->phase == 1) {     /* the command flushes the answers so far, then the message */
            text_close(&r->out[r->cur]);
            r->text_seconds = gr_now() - r->text_start;
            r->failed_at = r->cur;
            fputs(c->fail_msg, r->diag.f);
            return c->fail_status;
        }
        if (r->phase == 2) {
            text_close(&r->json[r->cur]);
            snprintf(r->json_error, sizeof r->json_error, "%s", c->fail_msg);
            return r->status;
        }
        fputs(c->fail_msg, r->diag.f);
        return c->fail_status;
    }
    gr_ast_program prog;
    if (gr_parse(c, &prog) != 0) return GR_EXIT_INPUT;
    gr_sema(c, &prog, &r->mod);
    r->compiled = 1;
    r->nq = r->mod.nqueries;
    r->out = calloc((size_t)r->nq + 1, sizeof *r->out);
    r->json = calloc((size_t)r->nq + 1, sizeof *r->json);
    if (!r->out || !r->json) gr_fail(c, GR_EXIT_LIMIT, "out of memory");
    r->status = GR_EXIT_OK;
    r->phase = 1;
    r->text_start = gr_now();
    for (r->cur = 0; r->cur < r->nq; r->cur++) {
        if (!text_open(&r->out[r->cur])) gr_fail(c, GR_EXIT_LIMIT, "out of memory");
        c->query_only = r->cur + 1;
        if (gr_run_queries_ex(c, &r->mod, GR_FMT_TEXT, r->out[r->cur].f, NULL, NULL) == GR_EXIT_REFUTED)
            r->status = GR_EXIT_REFUTED;
        text_close(&r->out[r->cur]);
    }
    /* The JSON pass gets a time budget of its own: a run that finished in text is finished. */
    r->text_seconds = gr_now() - r->text_start;
    r->phase = 2;
    c->deadline = max_time > 0 ? gr_now() + max_time : 0;
    for (r->cur = 0; r->cur < r->nq; r->cur++) {
        if (!text_open(&r->json[r->cur])) gr_fail(c, GR_EXIT_LIMIT, "out of memory");
        c->query_only = r->cur + 1;
        gr_run_queries_ex(c, &r->mod, GR_FMT_JSON, r->json[r->cur].f, NULL, NULL);
        text_close(&r->json[r->cur]);
        r->json_ok = r->cur + 1;
    }
    c->query_only = 0;
    return r->status;
}

/* After a failure in the text pass, the JSON of the queries that finished before it, from a
 * context of its own (the failed one may hold half-built tables): the program compiled again,
 * those queries run again in JSON, within about the time they took in text. A failure here
 * only ends the JSON early. */
static void json_again(run_state *r, gr_ctx *c2) {
    jmp_buf jb;
    c2->on_fail = &jb;
    if (setjmp(jb) != 0) {
        text_close(&r->json[r->cur]);
        snprintf(r->json_error, sizeof r->json_error, "%s", c2->fail_msg);
        return;
    }
    gr_ast_program prog;
    gr_module mod;
    if (gr_parse(c2, &prog) != 0) gr_fail(c2, GR_EXIT_INPUT, "the program did not compile again");
    gr_sema(c2, &prog, &mod);
    for (r->cur = 0; r->cur < r->failed_at; r->cur++) {
        if (!text_open(&r->json[r->cur])) gr_fail(c2, GR_EXIT_LIMIT, "out of memory");
        c2->query_only = r->cur + 1;
        gr_run_queries_ex(c2, &mod, GR_FMT_JSON, r->json[r->cur].f, NULL, NULL);
        text_close(&r->json[r->cur]);
        r->json_ok = r->cur + 1;
    }
}

static void json_before_failure(run_state *r, const char *source, double max_memory_mib, double check_to) {
    gr_ctx *c2 = calloc(1, sizeof *c2);   /* (on the heap: all that the setjmp's function changes is in memory) */
    if (!c2) return;
    gr_ctx_init(c2, PROGRAM_NAME, source, strlen(source));
    apply_settings(c2, r->text_seconds + 1.0, max_memory_mib, check_to);
    c2->diag = NULL;             /* its diagnostics were the first run's */
    json_again(r, c2);
    gr_ctx_free(c2);
    free(c2);
}

/* A query's JSON objects (one per line) as the elements of an array. */
static void json_lines(FILE *f, const char *s) {
    fputc('[', f);
    int first = 1;
    while (*s) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n) {
            if (!first) fputc(',', f);
            fwrite(s, 1, n, f);
            first = 0;
        }
        s += n + (e ? 1 : 0);
    }
    fputc(']', f);
}

static void write_run(FILE *f, run_state *r, int status) {
    gr_ctx *c = &r->c;
    text_close(&r->diag);
    fprintf(f, "{\"exit\":%d,\"status\":\"%s\",", status, status <= GR_EXIT_REFUTED ? "done" : "error");
    /* standard output: the blocks of the queries that ran (the last maybe cut by a failure) */
    fputs("\"stdout\":\"", f);
    for (int i = 0; i < r->nq && r->out && r->out[i].p; i++) {
        text one;
        if (!text_open(&one)) break;
        gr_json_string(one.f, r->out[i].p);
        text_close(&one);
        fwrite(one.p + 1, 1, strlen(one.p) - 2, f);   /* without its quotes: the blocks join */
        free(one.p);
    }
    fputs("\",", f);
    key_string(f, "stderr", r->diag.p);
    fputs(",\"diagnostic\":", f);
    if (status == GR_EXIT_INPUT && c->fail_located) {
        int line, col;
        gr_line_col(c, c->fail_off, &line, &col);
        fprintf(f, "{\"line\":%d,\"column\":%d,", line, col);
        key_string(f, "message", c->fail_text);
        fputc('}', f);
    } else fputs("null", f);
    fputs(",\"queries\":[", f);
    for (int i = 0; r->compiled && i < r->nq; i++) {
        const gr_rquery *q = &r->mod.queries[i];
        int line = 0, col = 0;
        gr_line_col(c, q->q->loc.off, &line, &col);
        fprintf(f, "%s{\"index\":%d,", i ? "," : "", i + 1);
        /* as written; check and census claims are kept without their word (the CSV block's header adds it too) */
        char *written = malloc(strlen(q->text) + 8);
        if (written) sprintf(written, "%s%s", q->kind == Q_CHECK ? "check " : q->kind == Q_CENSUS ? "census " : "", q->text);
        key_string(f, "text", written ? written : q->text);
        free(written);
        fprintf(f, ",\"kind\":\"%s\",\"line\":%d,", KIND_NAMES[q->kind], line);
        key_string(f, "output", r->out && r->out[i].p ? r->out[i].p : NULL);
        fputs(",\"json\":", f);
        if (i < r->json_ok) json_lines(f, r->json[i].p);
        else fputs("null", f);
        fputc('}', f);
    }
    fputc(']', f);
    if (r->json_error[0]) { fputc(',', f); key_string(f, "json_error", r->json_error); }
    fputc('}', f);
}

static void run_state_free(run_state *r) {
    for (int i = 0; i < r->nq; i++) {
        if (r->out) { text_close(&r->out[i]); free(r->out[i].p); }
        if (r->json) { text_close(&r->json[i]); free(r->json[i].p); }
    }
    free(r->out);
    free(r->json);
    text_close(&r->diag);
    free(r->diag.p);
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
    r->failed_at = -1;
    int status = run_program(r, max_time);
    if (r->failed_at > 0) json_before_failure(r, source, max_memory_mib, check_to);
    text t;
    char *answer = NULL;
    if (text_open(&t)) {
        write_run(t.f, r, status);
        answer = text_take(&t);
    }
    gr_ctx_free(&r->c);
    run_state_free(r);
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

static void kept_drop(void) {
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

EMSCRIPTEN_KEEPALIVE char *grundy_query(const char *source, const char *query, const char *format, double max_time,
                                        double max_memory_mib) {
    if (!source || !query || !format) return error_answer("no program text, query or format");
    text t;
    if (!text_open(&t)) return NULL;
    if (!kept.p || strcmp(kept.source, source) != 0) {
        kept_drop();
        gr_diagnostic d;
        kept.p = gr_compile(source, PROGRAM_NAME, &d);
        if (!kept.p) {            /* the program itself is wrong: its diagnostic, as the command says it */
            char msg[700];
            if (d.line > 0) snprintf(msg, sizeof msg, "%s:%d:%d: error: %s", PROGRAM_NAME, d.line, d.column, d.message);
            else snprintf(msg, sizeof msg, "%s: error: %s", PROGRAM_NAME, d.message);
            write_failure(t.f, msg, d.line, d.column, "program");
            return text_take(&t);
        }
        kept.source = strdup(source);
        if (!kept.source) { kept_drop(); fclose(t.f); free(t.p); return NULL; }
    }
    gr_limits lim = { .max_memory = memory_limit(max_memory_mib),
                      .max_time = max_time > 0 ? max_time : 0, .threads = 1 };
    gr_set_limits(kept.p, &lim);
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

/* Frees an answer of the calls above. */
EMSCRIPTEN_KEEPALIVE void grundy_free(char *answer) { free(answer); }
