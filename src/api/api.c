/* api: the public C interface; see api.h and include/grundy.h. */
#include "api.h"
#include "ctx.h"
#include "parse.h"
#include "query.h"
#include "solve.h"
#include <stdlib.h>
#include <string.h>

#define GR_STR2(x) #x
#define GR_STR(x) GR_STR2(x)

struct gr_program {
    char *source; size_t len;
    char *filename;
    gr_limits limits;
    gr_diagnostic diag;          /* of the last failed call */
    char error[1200];            /* "WHERE:LINE:COL: error: MESSAGE", or "" */
};

GR_API const char *gr_version(void) {
    return GR_STR(GR_VERSION_MAJOR) "." GR_STR(GR_VERSION_MINOR) "." GR_STR(GR_VERSION_PATCH);
}

GR_API const char *gr_strerror(int code) {
    switch (code) {
    case GR_OK: return "success";
    case GR_EINVAL: return "invalid argument";
    case GR_EINPUT: return "bad input";
    case GR_ELIMIT: return "a resource limit was reached";
    case GR_ENOMEM: return "out of memory";
    case GR_EREFUTED: return "a check was refuted";
    }
    return "unknown error code";
}

static char *dup_n(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = '\0'; }
    return d;
}

static void set_error(gr_program *p, const char *where, int line, int col, const char *msg) {
    p->diag.line = line;
    p->diag.column = col;
    snprintf(p->diag.message, sizeof p->diag.message, "%s", msg);
    if (line > 0) snprintf(p->error, sizeof p->error, "%s:%d:%d: error: %s", where, line, col, msg);
    else snprintf(p->error, sizeof p->error, "%s: error: %s", where, msg);
}

static void clear_error(gr_program *p) {
    p->error[0] = '\0';
    memset(&p->diag, 0, sizeof p->diag);
}

/* One call: the program's text, a newline, then the generated query around the caller's
 * text, which starts at byte `base`. */
typedef struct call {
    gr_program *p;
    gr_ctx c;
    char *text;
    size_t base, user_len;
    const char *what;            /* names the caller's text in messages: "position", "game" */
} call;

typedef int (*call_body)(call *k, gr_module *m, void *arg);

static int status_code(int status) {
    return status == GR_EXIT_LIMIT ? GR_ELIMIT : status == GR_EXIT_REFUTED ? GR_EREFUTED : GR_EINPUT;
}

/* Turns the context's failure into p's error: located in the program, or in the caller's text. */
static void record_failure(call *k) {
    gr_ctx *c = &k->c;
    const char *msg = c->fail_text[0] ? c->fail_text : "bad input";
    if (!c->fail_located) { set_error(k->p, "grundy", 0, 0, msg); return; }
    if (c->fail_off >= k->base && k->user_len) {
        size_t off = c->fail_off - k->base;
        if (off > k->user_len) off = k->user_len;
        set_error(k->p, k->what, 1, (int)off + 1, msg);
        return;
    }
    int line, col;
    gr_line_col(c, c->fail_off, &line, &col);
    set_error(k->p, c->filename, line, col, msg);
}

/* Parses and checks k->text, then runs body; every failure below jumps back here. Kept apart
 * from its callers so no local of theirs lives across the setjmp. */
static int run_guarded(call *k, call_body body, void *arg) {
    jmp_buf jb;
    k->c.on_fail = &jb;
    if (setjmp(jb) != 0) {
        record_failure(k);
        return status_code(k->c.fail_status);
    }
    gr_ast_program prog;
    gr_module mod;
    if (gr_parse(&k->c, &prog) != 0) {
        record_failure(k);
        return GR_EINPUT;
    }
    gr_sema(&k->c, &prog, &mod);
    return body(k, &mod, arg);
}

/* Builds the text "SOURCE\nPREFIX USER SUFFIX" and runs body over it. */
static int with_query(gr_program *p, const char *what, const char *prefix, const char *user,
                      const char *suffix, call_body body, void *arg) {
    clear_error(p);
    size_t ulen = user ? strlen(user) : 0;
    for (size_t i = 0; i < ulen; i++)
        if (user[i] == ';' || user[i] == '\n' || user[i] == '\r' || user[i] == '#' ||
            (user[i] == '/' && user[i + 1] == '/')) {
            set_error(p, what, 1, (int)i + 1, "a single position or game name is expected here (no ';', comment or newline)");
            return GR_EINPUT;
        }
    size_t plen = strlen(prefix), slen = strlen(suffix);
    call k = { .p = p, .what = what, .user_len = ulen };
    k.text = malloc(p->len + 1 + plen + ulen + slen + 1);
    if (!k.text) return GR_ENOMEM;
    size_t n = 0;
    memcpy(k.text, p->source, p->len); n += p->len;
    k.text[n++] = '\n';
    memcpy(k.text + n, prefix, plen); n += plen;
    k.base = n;
    memcpy(k.text + n, user, ulen); n += ulen;
    memcpy(k.text + n, suffix, slen); n += slen;
    k.text[n] = '\0';
    gr_ctx_init(&k.c, p->filename, k.text, n);
    k.c.diag = NULL;
    k.c.mem_limit = p->limits.max_memory ? p->limits.max_memory : SIZE_MAX;
    k.c.max_positions = p->limits.max_positions;
    k.c.max_time = p->limits.max_time;
    if (p->limits.max_time > 0) k.c.deadline = gr_now() + p->limits.max_time;
    k.c.threads = 1;
    int rc = run_guarded(&k, body, arg);
    gr_ctx_free(&k.c);
    free(k.text);
    return rc;
}

static int compile_body(call *k, gr_module *m, void *arg) { (void)k; (void)m; (void)arg; return GR_OK; }

GR_API gr_program *gr_compile(const char *source, const char *filename, gr_diagnostic *diag) {
    if (diag) memset(diag, 0, sizeof *diag);
    if (!source) {
        if (diag) snprintf(diag->message, sizeof diag->message, "no source text");
        return NULL;
    }
    gr_program *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->len = strlen(source);
    p->source = dup_n(source, p->len);
    p->filename = dup_n(filename ? filename : "<source>", strlen(filename ? filename : "<source>"));
    if (!p->source || !p->filename) { gr_program_free(p); return NULL; }
    if (with_query(p, "program", "", "", "", compile_body, NULL) != GR_OK) {
        if (diag) *diag = p->diag;
        gr_program_free(p);
        return NULL;
    }
    return p;
}

GR_API void gr_program_free(gr_program *p) {
    if (!p) return;
    free(p->source);
    free(p->filename);
    free(p);
}

GR_API int gr_set_limits(gr_program *p, const gr_limits *limits) {
    if (!p || !limits || limits->max_time < 0) return GR_EINVAL;
    p->limits = *limits;
    return GR_OK;
}

GR_API const char *gr_last_error(const gr_program *p) { return p ? p->error : "no program"; }
GR_API const gr_diagnostic *gr_last_diagnostic(const gr_program *p) { return p ? &p->diag : NULL; }

static const char *conv_word(gr_convention conv) {
    switch (conv) {
    case GR_NORMAL: return "normal";
    case GR_MISERE: return "misere";
    case GR_ANYLEAF: return "anyleaf";
    case GR_EVERY: return "every";
    }
    return NULL;
}

/* ---- solve ---- */
typedef struct solve_arg {
    gr_answer *ans;
    char *buf; size_t cap, used;
    int count, want_moves;
} solve_arg;

static void collect_move(void *user, const char *text, uint32_t id) {
    (void)id;
    solve_arg *a = user;
    a->count++;
    size_t n = strlen(text) + 1;
    if (a->buf && a->used + n <= a->cap) {
        memcpy(a->buf + a->used, text, n);
        a->used += n;
    }
}

static int solve_body(call *k, gr_module *m, void *arg) {
    solve_arg *a = arg;
    gr_rquery *q = &m->queries[m->nqueries - 1];
    gr_solution sol;
    gr_sum_solve(&k->c, m, q->comps, q->ncomps, q->conv, &sol, collect_move, a);
    static const char outcome[] = { 'P', 'N', 'D' };
    gr_answer *ans = a->ans;
    memset(ans, 0, sizeof *ans);
    ans->outcome = outcome[sol.outcome];
    ans->has_sg = sol.sg >= 0;
    ans->sg = sol.sg >= 0 ? sol.sg : 0;
    ans->has_remoteness = sol.remoteness >= 0;
    ans->remoteness = sol.remoteness >= 0 ? sol.remoteness : 0;
    ans->nwinning = a->count;
    return GR_OK;
}

static int solve_common(gr_program *p, const char *position, gr_convention conv, solve_arg *a) {
    const char *word = conv_word(conv);
    if (!p) return GR_EINVAL;
    if (!position || !word) { clear_error(p); set_error(p, "grundy", 0, 0, !word ? "unknown convention" : "no position"); return GR_EINVAL; }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "solve %s ", word);
    return with_query(p, "position", prefix, position, ";\n", solve_body, a);
}

GR_API int gr_solve(gr_program *p, const char *position, gr_convention conv, gr_answer *ans) {
    gr_answer scratch;
    solve_arg a = { .ans = ans ? ans : &scratch };
    if (!ans) return GR_EINVAL;
    return solve_common(p, position, conv, &a);
}

GR_API int gr_winning_moves(gr_program *p, const char *position, gr_convention conv,
                            char *buf, size_t bufsize, int *count) {
    gr_answer ans;
    solve_arg a = { .ans = &ans, .buf = buf, .cap = buf ? bufsize : 0 };
    int rc = solve_common(p, position, conv, &a);
    if (rc == GR_OK && count) *count = a.count;
    return rc;
}

/* ---- tables ---- */
typedef struct table_arg {
    int64_t from, to;
    int64_t *values; char *outcomes;
} table_arg;

static int table_body(call *k, gr_module *m, void *arg) {
    table_arg *a = arg;
    gr_rquery *q = &m->queries[m->nqueries - 1];
    if (q->vertex_list || q->ncoords != 1) {
        set_error(k->p, k->what, 1, 1, "gr_table takes a rule set with heap positions (one coordinate)");
        return GR_EINPUT;
    }
    gr_box box = { .ncoords = 1, .ndims = 1, .loc = q->q->loc };
    box.lo[0] = a->from;
    box.hi[0] = a->to;
    int64_t n = a->to - a->from + 1;
    int64_t *vals = a->values ? a->values : gr_alloc(&k->c, gr_size_mul(&k->c, (size_t)n, sizeof *vals));
    gr_sum_table(&k->c, m, q->game, q->conv, &box, NULL, 0, a->values ? GR_KIND_SG : GR_KIND_OUTCOME, vals);
    if (a->outcomes) {
        static const char outcome[] = { 'P', 'N', 'D' };
        for (int64_t i = 0; i < n; i++) a->outcomes[i] = outcome[vals[i]];
    }
    return GR_OK;
}

static int table_common(gr_program *p, const char *game, gr_convention conv, table_arg *a) {
    const char *word = conv_word(conv);
    if (!p) return GR_EINVAL;
    clear_error(p);
    if (!game || !word || a->from < 0 || a->to < a->from || a->to - a->from >= (INT64_C(1) << 40)) {
        set_error(p, "grundy", 0, 0, !game ? "no game" : !word ? "unknown convention" :
                  "the range must satisfy 0 <= from <= to, with fewer than 2^40 values");
        return GR_EINVAL;
    }
    char suffix[96];
    snprintf(suffix, sizeof suffix, "(%lld..%lld);\n", (long long)a->from, (long long)a->to);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "table %s ", word);
    return with_query(p, "game", prefix, game, suffix, table_body, a);
}

GR_API int gr_table(gr_program *p, const char *game, int64_t from, int64_t to, int64_t *values) {
    table_arg a = { from, to, values, NULL };
    if (!values) return GR_EINVAL;
    return table_common(p, game, GR_NORMAL, &a);
}

GR_API int gr_table_outcomes(gr_program *p, const char *game, int64_t from, int64_t to,
                             gr_convention conv, char *outcomes) {
    table_arg a = { from, to, NULL, outcomes };
    if (!outcomes) return GR_EINVAL;
    return table_common(p, game, conv, &a);
}

/* ---- whole programs ---- */
typedef struct run_arg { int explain; gr_format fmt; FILE *out; } run_arg;

static int run_body(call *k, gr_module *m, void *arg) {
    run_arg *a = arg;
    if (a->explain) { gr_explain(&k->c, m, a->out); return GR_OK; }
    return gr_run_queries(&k->c, m, a->fmt, a->out) == GR_EXIT_REFUTED ? GR_EREFUTED : GR_OK;
}

static int run_to_string(gr_program *p, run_arg *a, char **out, size_t *out_len) {
    if (!p || !out) return GR_EINVAL;
    *out = NULL;
    char *buf = NULL;
    size_t len = 0;
    a->out = open_memstream(&buf, &len);
    if (!a->out) return GR_ENOMEM;
    int rc = with_query(p, "program", "", "", "", run_body, a);
    fclose(a->out);
    if (rc != GR_OK && rc != GR_EREFUTED) { free(buf); return rc; }
    *out = buf;
    if (out_len) *out_len = len;
    return rc;
}

GR_API int gr_run(gr_program *p, const char *format, char **out, size_t *out_len) {
    run_arg a = { 0, GR_FMT_TEXT, NULL };
    if (!format || !strcmp(format, "text")) a.fmt = GR_FMT_TEXT;
    else if (!strcmp(format, "csv")) a.fmt = GR_FMT_CSV;
    else if (!strcmp(format, "json")) a.fmt = GR_FMT_JSON;
    else return GR_EINVAL;
    return run_to_string(p, &a, out, out_len);
}

GR_API int gr_explain_program(gr_program *p, char **out, size_t *out_len) {
    run_arg a = { 1, GR_FMT_TEXT, NULL };
    return run_to_string(p, &a, out, out_len);
}
