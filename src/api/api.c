/* api: the public C interface; see api.h and include/grundy.h. */
#include "api.h"
#include "ctx.h"
#include "engine.h"
#include "check.h"
#include "parse.h"
#include "query.h"
#include "show.h"
#include "solve.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define GR_STR2(x) #x
#define GR_STR(x) GR_STR2(x)

struct gr_program {
    char *filename;
    gr_engine *engine;           /* the program compiled once, and the values it keeps */
    gr_limits limits;
    gr_diagnostic diag;          /* of the last failed call, in any thread */
    char error[1200];            /* "WHERE:LINE:COL: error: MESSAGE", or "" */
    atomic_int cancel;           /* gr_interrupt: the running call stops at its next poll */
    /* gr_call_progress: the running call's step as its own thread last saw it (at each clock
     * read of gr_poll), copied under the lock so another thread reads it whole. */
    pthread_mutex_t progress_lock;
    gr_call_state state;
};

/* The last failure of a call made by this thread (of program `of`): with several threads on
 * one program, each reads its own. */
static _Thread_local struct { const gr_program *of; gr_diagnostic diag; char error[1200]; } mine;

/* The status of a failure raised by gr_interrupt (128 + SIGINT, as a shell reports one). */
enum { STATUS_INTERRUPTED = 130 };

GR_API const char *gr_version(void) {
    return GR_STR(GR_VERSION_MAJOR) "." GR_STR(GR_VERSION_MINOR) "." GR_STR(GR_VERSION_PATCH);
}

GR_API void (gr_free)(void *buf) { free(buf); }

GR_API const char *gr_strerror(int code) {
    switch (code) {
    case GR_OK: return "success";
    case GR_EINVAL: return "invalid argument";
    case GR_EINPUT: return "bad input";
    case GR_ELIMIT: return "a resource limit was reached";
    case GR_ENOMEM: return "out of memory";
    case GR_EREFUTED: return "a check was refuted";
    case GR_EINTR: return "interrupted";
    }
    return "unknown error code";
}

static char *dup_n(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = '\0'; }
    return d;
}

static void set_error(gr_program *p, const char *where, int line, int col, const char *msg) {
    gr_diagnostic d = { .line = line, .column = col };
    snprintf(d.message, sizeof d.message, "%s", msg);
    if (line > 0) snprintf(mine.error, sizeof mine.error, "%s:%d:%d: error: %s", where, line, col, msg);
    else snprintf(mine.error, sizeof mine.error, "%s: error: %s", where, msg);
    mine.diag = d;
    mine.of = p;
    /* the program's own copy, for a thread that asks about calls it did not make: threads
     * sharing p fail at once, so the copy is written under a lock */
    pthread_mutex_lock(&p->progress_lock);
    p->diag = d;
    memcpy(p->error, mine.error, sizeof p->error);
    pthread_mutex_unlock(&p->progress_lock);
}

static void clear_error(gr_program *p) {
    mine.error[0] = '\0';
    memset(&mine.diag, 0, sizeof mine.diag);
    mine.of = p;
}

/* One call: the generated query around the caller's text, which starts at byte `base` of it. */
typedef struct call call;
typedef int (*call_body)(call *k, gr_module *m, void *arg);
struct call {
    gr_program *p;
    gr_ctx *c;                   /* the engine's context, while the body runs */
    size_t base, user_len;
    const char *what;            /* names the caller's text in messages: "position", "game" */
    call_body body;
    void *arg;
};

static int status_code(int status) {
    return status == GR_EXIT_LIMIT ? GR_ELIMIT : status == GR_EXIT_REFUTED ? GR_EREFUTED :
           status == STATUS_INTERRUPTED ? GR_EINTR : GR_EINPUT;
}

/* Asked at every clock read of gr_poll (every few milliseconds of work). */
static void check_interrupt(gr_ctx *c) {
    gr_program *p = c->interrupted_user;
    pthread_mutex_lock(&p->progress_lock);   /* the texts live while their call runs: copy them now */
    gr_call_state *s = &p->state;
    s->query_no = c->query_no;
    snprintf(s->query, sizeof s->query, "%s", c->query_text ? c->query_text : "");
    snprintf(s->step, sizeof s->step, "%s", c->step_label ? c->step_label : "");
    s->done = c->step_done;
    s->total = c->step_total;
    pthread_mutex_unlock(&p->progress_lock);
    if (!atomic_load_explicit(&p->cancel, memory_order_relaxed)) return;
    c->poll_left = c->poll_every = 1;   /* a caught failure keeps failing at the next poll */
    gr_fail(c, STATUS_INTERRUPTED, "interrupted");
}

/* The program's limits on a call's context. */
static void setup_call(gr_ctx *c, void *user) {
    gr_program *p = user;
    c->mem_limit = p->limits.max_memory ? p->limits.max_memory : SIZE_MAX;
    c->max_positions = p->limits.max_positions;
    c->max_time = p->limits.max_time;
    if (p->limits.max_time > 0) c->deadline = gr_now() + p->limits.max_time;
    c->threads = p->limits.threads > 0 ? p->limits.threads : 1;
    c->interrupted = check_interrupt;
    c->interrupted_user = p;
    c->diag = NULL;              /* a library prints nothing: errors are returned */
    /* the engine's context outlives calls: a step of the last call is not this one's */
    c->step_label = c->query_text = NULL;
    c->query_no = 0;
    c->step_done = c->step_total = 0;
    pthread_mutex_lock(&p->progress_lock);
    memset(&p->state, 0, sizeof p->state);
    pthread_mutex_unlock(&p->progress_lock);
}

/* Turns the engine's failure into p's error: located in the program, or in the caller's text. */
static void record_failure(call *k, const gr_engine_fail *f) {
    if (!f->located) { set_error(k->p, "grundy", 0, 0, f->text); return; }
    if (f->in_entry) {
        size_t off = f->entry_off >= k->base ? f->entry_off - k->base : 0;
        if (off > k->user_len) off = k->user_len;
        set_error(k->p, k->what, 1, (int)off + 1, f->text);   /* the caller's text, even when empty */
        return;
    }
    set_error(k->p, k->p->filename, f->line, f->col, f->text);
}

static int engine_body(gr_ctx *c, gr_module *m, void *arg) {
    call *k = arg;
    k->c = c;
    if (k->user_len && m->nqueries > 0) c->query_text = m->queries[m->nqueries - 1].text;   /* the entry's one query */
    return k->body(k, m, k->arg);
}

/* Runs body over the program's own queries (no user text). */
static int with_program(gr_program *p, call_body body, void *arg) {
    clear_error(p);
    call k = { .p = p, .what = "program", .body = body, .arg = arg };
    gr_engine_fail f;
    atomic_store(&p->cancel, 0);
    int rc = gr_engine_run(p->engine, p->filename, NULL, 0, setup_call, p, engine_body, &k, 0, &f);   /* it writes a stream */
    if (rc < 0) { record_failure(&k, &f); return status_code(f.status); }
    return rc;
}

/* Compiles "PREFIX USER SUFFIX" against the program and runs body over it. */
static int with_query_ex(gr_program *p, const char *what, const char *prefix, const char *user,
                         const char *suffix, call_body body, void *arg, int retry) {
    clear_error(p);
    size_t ulen = user ? strlen(user) : 0;
    for (size_t i = 0; i < ulen; i++)
        if (user[i] == ';' || user[i] == '\n' || user[i] == '\r' || user[i] == '#' ||
            (user[i] == '/' && user[i + 1] == '/')) {
            set_error(p, what, 1, (int)i + 1, "a single position or game name is expected here (no ';', comment or newline)");
            return GR_EINPUT;
        }
    /* nothing to read: say so at the caller's text, not at the generated query's ';' */
    size_t blank = 0;
    while (blank < ulen && (user[blank] == ' ' || user[blank] == '\t')) blank++;
    if (blank == ulen) {
        char msg[64];
        snprintf(msg, sizeof msg, "no %s given (the text is empty)", what);
        set_error(p, what, 1, 1, msg);
        return GR_EINPUT;
    }
    size_t plen = strlen(prefix), slen = strlen(suffix);
    call k = { .p = p, .what = what, .user_len = ulen, .base = plen, .body = body, .arg = arg };
    char *text = malloc(plen + ulen + slen + 1);
    if (!text) return GR_ENOMEM;
    memcpy(text, prefix, plen);
    memcpy(text + plen, user, ulen);
    memcpy(text + plen + ulen, suffix, slen + 1);
    gr_engine_fail f;
    atomic_store(&p->cancel, 0);
    int rc = gr_engine_run(p->engine, what, text, plen + ulen + slen, setup_call, p, engine_body, &k, retry, &f);
    free(text);
    if (rc < 0) { record_failure(&k, &f); return status_code(f.status); }
    return rc;
}

/* Bodies that only fill their answer may run twice (engine.h's retry after eviction). */
static int with_query(gr_program *p, const char *what, const char *prefix, const char *user,
                      const char *suffix, call_body body, void *arg) {
    return with_query_ex(p, what, prefix, user, suffix, body, arg, 1);
}

GR_API gr_program *gr_compile(const char *source, const char *filename, gr_diagnostic *diag) {
    if (diag) memset(diag, 0, sizeof *diag);
    if (!source) {
        if (diag) snprintf(diag->message, sizeof diag->message, "no source text");
        return NULL;
    }
    gr_program *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->progress_lock, NULL);
    p->filename = dup_n(filename ? filename : "<source>", strlen(filename ? filename : "<source>"));
    gr_engine_fail f;
    if (p->filename) p->engine = gr_engine_open(p->filename, source, strlen(source), 1, setup_call, p, &f);
    if (!p->engine) {
        if (diag && p->filename) {
            diag->line = f.located ? f.line : 0;
            diag->column = f.located ? f.col : 0;
            snprintf(diag->message, sizeof diag->message, "%s", f.text);
        }
        gr_program_free(p);
        return NULL;
    }
    return p;
}

GR_API void gr_program_free(gr_program *p) {
    if (!p) return;
    if (mine.of == p) mine.of = NULL;
    gr_engine_free(p->engine);
    pthread_mutex_destroy(&p->progress_lock);
    free(p->filename);
    free(p);
}

GR_API void gr_program_reset(gr_program *p) {
    if (p) gr_engine_reset(p->engine);
}

GR_API int gr_program_stats(gr_program *p, gr_stats *out) {
    if (!p || !out) return GR_EINVAL;
    gr_engine_stats st;
    gr_engine_stats_of(p->engine, &st);
    *out = (gr_stats){ .values_computed = st.values_computed, .calls = st.calls, .compiles = st.compiles,
                       .drops = st.drops, .memory = st.memory, .games_memory = st.games_memory,
                       .program_memory = st.program_memory, .other_memory = st.other_memory,
                       .game_drops = st.game_drops, .evictions = st.evictions, .retries = st.retries };
    return GR_OK;
}

GR_API int gr_program_games(gr_program *p, gr_game_stats *out, int cap, int *count) {
    if (!p || !count || cap < 0 || (cap && !out)) return GR_EINVAL;
    gr_engine_game *g = cap ? calloc((size_t)cap, sizeof *g) : NULL;
    if (cap && !g) return GR_ENOMEM;
    int n = gr_engine_games(p->engine, g, cap);
    for (int i = 0; i < n && i < cap; i++) {
        out[i] = (gr_game_stats){ .bytes = g[i].bytes, .values = g[i].values, .last_call = g[i].last_call, .drops = g[i].drops };
        snprintf(out[i].name, sizeof out[i].name, "%s", g[i].name);
    }
    free(g);
    *count = n;
    return GR_OK;
}

GR_API int gr_set_limits(gr_program *p, const gr_limits *limits) {
    if (!p || !limits || limits->max_time < 0 || limits->threads < 0 || limits->threads > 256) return GR_EINVAL;
    p->limits = *limits;
    return GR_OK;
}

GR_API void gr_interrupt(gr_program *p) {
    if (p) atomic_store(&p->cancel, 1);
}

GR_API int gr_call_progress(gr_program *p, gr_call_state *out) {
    if (!p || !out) return GR_EINVAL;
    pthread_mutex_lock(&p->progress_lock);
    *out = p->state;
    pthread_mutex_unlock(&p->progress_lock);
    return GR_OK;
}

GR_API const char *gr_last_error(const gr_program *p) { return !p ? "no program" : mine.of == p ? mine.error : p->error; }
GR_API const gr_diagnostic *gr_last_diagnostic(const gr_program *p) { return !p ? NULL : mine.of == p ? &mine.diag : &p->diag; }

static const char *conv_word(gr_convention conv) {
    switch (conv) {
    case GR_NORMAL: return "normal";
    case GR_MISERE: return "misere";
    case GR_ANYLEAF: return "anyleaf";
    case GR_EVERY: return "every";
    case GR_OWN_PLAY: return "";
    }
    return NULL;
}

/* ---- solve ---- */
typedef struct solve_arg {
    gr_answer *ans;
    char *buf; size_t cap, used;
    int count;
    gr_ctx *grow;                /* gr_solve_full: buf is tracked memory grown to fit */
    int full;                    /* gr_solve_full: every move kept, in a block of its own */
} solve_arg;

static void collect_move(void *user, const char *text, uint32_t id) {
    (void)id;
    solve_arg *a = user;
    a->count++;
    size_t n = strlen(text) + 1;
    if (a->grow && a->used + n > a->cap) {
        a->cap = (a->used + n) * 2;
        a->buf = gr_realloc(a->grow, a->buf, a->cap);
    }
    if (a->buf && a->used + n <= a->cap) {
        memcpy(a->buf + a->used, text, n);
        a->used += n;
    }
}

static int solve_body(call *k, gr_module *m, void *arg) {
    solve_arg *a = arg;
    a->count = 0;                /* from the start: a call may run again (engine.h's retry) */
    a->used = 0;
    if (a->full) { a->buf = NULL; a->cap = 0; }
    gr_rquery *q = &m->queries[m->nqueries - 1];
    gr_solution sol;
    gr_conv conv = gr_sum_convention(q->comps, q->ncomps, q->q->has_conv, q->conv);
    if (a->full) a->grow = k->c;
    /* the solve query's own path and remoteness rule (sums/solve.h), as every face has them */
    gr_sum_solve(k->c, m, q->comps, q->ncomps, conv, q->q->outcome == TK_REMOTENESS, &sol, collect_move, a);
    static const char outcome[] = { 'P', 'N', 'D' };
    gr_answer *ans = a->ans;
    memset(ans, 0, sizeof *ans);
    ans->convention = (gr_convention)conv;
    ans->outcome = outcome[sol.outcome];
    ans->has_sg = sol.sg >= 0;
    ans->sg = sol.sg >= 0 ? sol.sg : 0;
    ans->has_remoteness = sol.remoteness >= 0;
    ans->remoteness = sol.remoteness >= 0 ? sol.remoteness : 0;
    ans->nwinning = a->count;
    if (gr_is_loopy(sol.sg)) {   /* ∞{K}: K's first members, ascending */
        size_t nk;
        const int64_t *kset = gr_loopy_set(&sol.loopy, sol.sg, &nk);
        ans->loopy = 1;
        ans->nloopy = (int)nk;
        for (size_t i = 0; i < nk && i < GR_LOOPY_LISTED; i++) ans->loopy_set[i] = kset[i];
    }
    gr_solution_free(&sol);
    if (a->full) {   /* the moves, out of tracked memory into one block the caller frees */
        size_t head = (size_t)a->count * sizeof(char *);
        char **v = a->count ? malloc(head + a->used) : NULL;
        if (a->count && !v) return GR_ENOMEM;
        if (v) {
            char *text = memcpy((char *)v + head, a->buf, a->used);
            for (int i = 0; i < a->count; i++) { v[i] = text; text += strlen(text) + 1; }
        }
        gr_free(k->c, a->buf);
        a->buf = (char *)v;
    }
    return GR_OK;
}

static int solve_common(gr_program *p, const char *position, gr_convention conv, solve_arg *a) {
    const char *word = conv_word(conv);
    if (!p) return GR_EINVAL;
    if (!position || !word) { clear_error(p); set_error(p, "grundy", 0, 0, !word ? "unknown convention" : "no position"); return GR_EINVAL; }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "solve %s%s", word, *word ? " " : "");
    return with_query(p, "position", prefix, position, ";\n", solve_body, a);
}

GR_API int gr_solve(gr_program *p, const char *position, gr_convention conv, gr_answer *ans) {
    gr_answer scratch;
    solve_arg a = { .ans = ans ? ans : &scratch };
    if (!ans) return GR_EINVAL;
    return solve_common(p, position, conv, &a);
}

GR_API int gr_solve_full(gr_program *p, const char *position, gr_convention conv, gr_answer *ans,
                         char ***moves) {
    if (moves) *moves = NULL;
    if (!ans) return GR_EINVAL;
    solve_arg a = { .ans = ans, .full = 1 };
    int rc = solve_common(p, position, conv, &a);
    if (rc == GR_OK && moves) *moves = (char **)(void *)a.buf;
    else if (rc == GR_OK) free(a.buf);
    return rc;
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
    int64_t *vals = a->values ? a->values : gr_alloc(k->c, gr_size_mul(k->c, (size_t)n, sizeof *vals));
    gr_sum_table(k->c, m, q->game, q->conv, &box, NULL, 0, a->values ? GR_KIND_SG : GR_KIND_OUTCOME, vals, NULL);
    if (a->outcomes) {
        static const char outcome[] = { 'P', 'N', 'D' };
        for (int64_t i = 0; i < n; i++) a->outcomes[i] = outcome[vals[i]];
        gr_free(k->c, vals);
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

/* ---- tables and pictures over a box, options, checks: answers as data ---- */

/* "(lo..hi, v, ...) KIND" for a box of ncoords coordinates, or an error in p. */
static int box_text(gr_program *p, char *buf, size_t cap, int ncoords, const int64_t *lo, const int64_t *hi,
                    gr_cell_kind kind, int plot) {
    const char *why = NULL;
    int varying = 0;
    double cells = 1;
    if (ncoords < 1 || ncoords > 16 || !lo || !hi) why = "a box needs 1 to 16 coordinates";
    for (int i = 0; !why && i < ncoords; i++) {
        if (lo[i] > hi[i]) why = "each coordinate's range must satisfy from <= to";
        else if (lo[i] < hi[i]) { varying++; cells *= (double)hi[i] - (double)lo[i] + 1; }
    }
    if (!why && varying > 2) why = "at most two coordinates of a table vary";
    if (!why && cells >= (double)(INT64_C(1) << 40)) why = "a table has fewer than 2^40 cells";
    if (!why && (kind < GR_CELL_SG || kind > GR_CELL_REMOTENESS || (plot && kind == GR_CELL_REMOTENESS)))
        why = plot ? "a picture shows SG values or outcomes" : "unknown kind of cell";
    if (why) { set_error(p, "grundy", 0, 0, why); return GR_EINVAL; }
    size_t n = 0;
    buf[n++] = '(';
    for (int i = 0; i < ncoords; i++) {
        if (lo[i] == hi[i]) n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? ", " : "", (long long)lo[i]);
        else n += (size_t)snprintf(buf + n, cap - n, "%s%lld..%lld", i ? ", " : "", (long long)lo[i], (long long)hi[i]);
    }
    static const char *words[] = { "", " outcome", " remoteness" };
    snprintf(buf + n, cap - n, ")%s", words[kind]);
    return GR_OK;
}

/* The convention word and the checks every call over a game or a position makes. */
static const char *conv_prefix(gr_program *p, char *buf, size_t cap, const char *query, const void *text,
                               gr_convention conv) {
    const char *word = conv_word(conv);
    clear_error(p);
    if (!text || !word) { set_error(p, "grundy", 0, 0, !word ? "unknown convention" : "no game or position"); return NULL; }
    snprintf(buf, cap, "%s %s%s", query, word, *word ? " " : "");
    return buf;
}

typedef struct box_arg { gr_table_data *out; } box_arg;

static int box_body(call *k, gr_module *m, void *arg) {
    box_arg *a = arg;
    gr_rquery *q = &m->queries[m->nqueries - 1];
    if (q->vertex_list) {
        set_error(k->p, k->what, 1, 1, "a table over a box takes a rule set with coordinates (not a graph's vertices)");
        return GR_EINPUT;
    }
    k->c->query_text = q->text;
    int64_t rows, cols;
    int outcome;
    gr_conv conv;
    gr_loopy loopy;
    int64_t *vals = gr_table_values(k->c, m, q, &rows, &cols, &outcome, &conv, &loopy);
    size_t n = (size_t)rows * (size_t)cols;
    /* one block: the cells, then the loopy sets' offsets and members (loopy.h's store) */
    size_t nsets = loopy.sets.count, nmembers = loopy.sets.nbytes / sizeof(int64_t);
    int64_t *v = malloc((n + nsets + 1 + nmembers) * sizeof *v);
    if (!v) { gr_free(k->c, vals); gr_loopy_free(&loopy); return GR_ENOMEM; }
    static const char OUTCOME[] = { 'P', 'N', 'D' };
    if (outcome) for (size_t i = 0; i < n; i++) v[i] = OUTCOME[vals[i]];
    else memcpy(v, vals, n * sizeof *v);
    int64_t *off = v + n, *members = off + nsets + 1;
    off[0] = 0;
    for (size_t j = 0; j < nsets; j++) {
        size_t nk;
        const int64_t *kset = gr_loopy_set(&loopy, -2 - (int64_t)j, &nk);
        memcpy(members + off[j], kset, nk * sizeof *kset);
        off[j + 1] = off[j] + (int64_t)nk;
    }
    gr_free(k->c, vals);
    gr_loopy_free(&loopy);
    *a->out = (gr_table_data){ .kind = outcome ? GR_CELL_OUTCOME : q->q->outcome == TK_REMOTENESS ? GR_CELL_REMOTENESS : GR_CELL_SG,
                               .convention = (gr_convention)conv, .ndims = q->ndims, .rows = rows, .cols = cols, .values = v,
                               .nloopy = (int64_t)nsets, .loopy_off = off, .loopy_values = members };
    return GR_OK;
}

GR_API int gr_table_box(gr_program *p, const char *game, int ncoords, const int64_t *lo,
                        const int64_t *hi, gr_convention conv, gr_cell_kind kind, gr_table_data *out) {
    if (!p || !out) return GR_EINVAL;
    memset(out, 0, sizeof *out);
    char prefix[32], suffix[1200];
    if (!conv_prefix(p, prefix, sizeof prefix, "table", game, conv)) return GR_EINVAL;
    int rc = box_text(p, suffix, sizeof suffix - 4, ncoords, lo, hi, kind, 0);
    if (rc) return rc;
    strcat(suffix, ";\n");
    box_arg a = { out };
    return with_query(p, "game", prefix, game, suffix, box_body, &a);
}

/* gr_options: the moves collected in tracked memory, then one block for the caller. */
typedef struct options_arg {
    gr_ctx *c;
    gr_option *v; size_t n, cap;
    size_t text_len;
    int64_t *sets; size_t nsets, capsets;   /* loopy options' sets, back to back (loopy_set: an offset here) */
} options_arg;

static void keep_option(void *user, const char *text, int64_t sg, int outcome, const gr_loopy *loopy) {
    options_arg *a = user;
    static const char OUTCOME[] = { 'P', 'N', 'D' };
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->v = gr_realloc(a->c, a->v, gr_size_mul(a->c, a->cap, sizeof *a->v));
    }
    gr_option o = { .position = text, .outcome = OUTCOME[outcome], .has_sg = sg >= 0, .sg = sg >= 0 ? sg : 0 };
    if (gr_is_loopy(sg)) {
        size_t nk;
        const int64_t *kset = gr_loopy_set(loopy, sg, &nk);
        if (a->nsets + nk > a->capsets) {
            a->capsets = 2 * (a->nsets + nk) + 16;
            a->sets = gr_realloc(a->c, a->sets, gr_size_mul(a->c, a->capsets, sizeof *a->sets));
        }
        if (nk) memcpy(a->sets + a->nsets, kset, nk * sizeof *kset);   /* (∞{}: no block yet) */
        o.loopy = 1;
        o.nloopy = (int)nk;
        o.loopy_set = (const int64_t *)(uintptr_t)a->nsets;   /* an offset until the block is made */
        a->nsets += nk;
    }
    a->v[a->n++] = o;
    a->text_len += strlen(text) + 1;
}

static int options_body(call *k, gr_module *m, void *arg) {
    options_arg *a = arg;
    *a = (options_arg){ .c = k->c };   /* from the start: a call may run again */
    gr_list_options(k->c, m, &m->queries[m->nqueries - 1], keep_option, a);
    /* the texts live in the call's arena: copy them beside the array, and the loopy sets */
    size_t head = a->n * sizeof *a->v, sets = a->nsets * sizeof *a->sets;
    gr_option *v = malloc(head + sets + a->text_len + 1);
    if (!v) { gr_free(k->c, a->sets); return GR_ENOMEM; }
    int64_t *members = (int64_t *)(void *)((char *)v + head);   /* gr_option's alignment is int64_t's */
    if (sets) memcpy(members, a->sets, sets);
    char *text = (char *)v + head + sets;
    for (size_t i = 0; i < a->n; i++) {
        size_t len = strlen(a->v[i].position) + 1;
        v[i] = a->v[i];
        v[i].position = memcpy(text, a->v[i].position, len);
        if (v[i].loopy) v[i].loopy_set = members + (uintptr_t)a->v[i].loopy_set;
        text += len;
    }
    gr_free(k->c, a->v);
    gr_free(k->c, a->sets);
    a->v = v;
    return GR_OK;
}

GR_API int gr_options(gr_program *p, const char *position, gr_convention conv,
                      gr_option **options, int *count) {
    if (!p || !options || !count) return GR_EINVAL;
    *options = NULL;
    *count = 0;
    char prefix[32];
    if (!conv_prefix(p, prefix, sizeof prefix, "options", position, conv)) return GR_EINVAL;
    options_arg a = { 0 };
    int rc = with_query(p, "position", prefix, position, ";\n", options_body, &a);
    if (rc == GR_OK) { *options = a.v; *count = (int)a.n; }
    return rc;
}

typedef struct check_arg { gr_check_answer *out; int64_t to; } check_arg;

static int check_body(call *k, gr_module *m, void *arg) {
    const check_arg *a = arg;
    gr_check_answer *out = a->out;
    gr_rquery *q = &m->queries[m->nqueries - 1];
    if (q->nmembers && q->check != CK_FORMULA) {
        set_error(k->p, "grundy", 0, 0, "a periodic check over a family's parameters answers once per member: run it with gr_run");
        return GR_EINPUT;
    }
    k->c->query_text = q->text;
    k->c->check_to = a->to;
    gr_check_result r;
    memset(&r, 0, sizeof r);
    gr_check_run(k->c, q, &r);
    memset(out, 0, sizeof *out);
    out->status = r.status == GR_CHECK_PROVED ? GR_PROVED : r.status == GR_CHECK_HOLDS ? GR_HOLDS
                : r.status == GR_CHECK_NONE ? GR_NONE : GR_REFUTED;
    out->has_period = r.has_period;
    if (r.has_period) { out->period = r.period; out->preperiod = r.preperiod; out->saltus = r.saltus; }
    out->checked_to = r.checked_to;
    out->has_counterexample = r.has_counterexample;
    if (r.has_counterexample) snprintf(out->counterexample, sizeof out->counterexample, "%s", r.counterexample_text);
    snprintf(out->theorem, sizeof out->theorem, "%s", r.theorem);
    const gr_value_columns *col = &r.columns;
    out->last_rare = -1;
    if (r.has_columns && col->has_rare) {   /* as the check query prints them (gr_check_columns_json) */
        out->has_columns = 1;
        out->largest = col->largest;
        out->largest_at = col->largest_at;
        out->rare_mask = col->rare_mask;
        out->rare_heap_parity = col->rare_heap_parity;
        out->rare_count = col->rare_count;
        out->last_rare = col->last_rare;
    }
    return GR_OK;
}

GR_API int gr_check_to(gr_program *p, const char *claim, int64_t to, gr_check_answer *out) {
    if (!p || !out) return GR_EINVAL;
    memset(out, 0, sizeof *out);
    clear_error(p);
    if (!claim) { set_error(p, "grundy", 0, 0, "no claim"); return GR_EINVAL; }
    if (to < 0) { set_error(p, "grundy", 0, 0, "the heap a check may compute to is >= 0 (0: the default)"); return GR_EINVAL; }
    check_arg a = { out, to };
    return with_query(p, "claim", "check ", claim, ";\n", check_body, &a);
}

GR_API int gr_check(gr_program *p, const char *claim, gr_check_answer *out) { return gr_check_to(p, claim, 0, out); }

typedef struct plot_arg { FILE *f; int width, height; } plot_arg;

static int plot_body(call *k, gr_module *m, void *arg) {
    plot_arg *a = arg;
    gr_rquery *q = &m->queries[m->nqueries - 1];
    if (q->vertex_list || q->ndims < 1) {
        set_error(k->p, k->what, 1, 1, "a picture takes a rule set with coordinates (not a graph's vertices), at least one varying");
        return GR_EINPUT;
    }
    k->c->query_text = q->text;
    k->c->plot_width = a->width;
    k->c->plot_height = a->height;
    gr_plot_to(k->c, m, q, a->f, &a->width, &a->height);
    return GR_OK;
}

GR_API int gr_plot(gr_program *p, const char *game, int ncoords, const int64_t *lo, const int64_t *hi,
                   gr_convention conv, gr_cell_kind kind, const char *format, int width, int height,
                   unsigned char **image, size_t *len) {
    if (!p || !image || !len) return GR_EINVAL;
    *image = NULL;
    *len = 0;
    char prefix[32], suffix[1200];
    if (!conv_prefix(p, prefix, sizeof prefix, "plot", game, conv)) return GR_EINVAL;
    int svg = format && !strcmp(format, "svg");
    if ((format && !svg && strcmp(format, "png")) || width < 0 || height < 0 || width > 20000 || height > 20000 ||
        (width && width < 16) || (height && height < 16)) {
        set_error(p, "grundy", 0, 0, "a picture is \"png\" or \"svg\", 16 to 20000 pixels each way (0: the default size)");
        return GR_EINVAL;
    }
    int rc = box_text(p, suffix, sizeof suffix - 32, ncoords, lo, hi, kind, 1);
    if (rc) return rc;
    strcat(suffix, svg ? " to \"picture.svg\";\n" : " to \"picture.png\";\n");
    char *buf = NULL;
    size_t n = 0;
    plot_arg a = { open_memstream(&buf, &n), width, height };
    if (!a.f) return GR_ENOMEM;
    rc = with_query_ex(p, "game", prefix, game, suffix, plot_body, &a, 0);   /* it writes a stream */
    fclose(a.f);
    if (rc != GR_OK) { free(buf); return rc; }
    *image = (unsigned char *)buf;
    *len = n;
    return GR_OK;
}

/* ---- whole programs ---- */
typedef struct run_arg { int explain; gr_format fmt; FILE *out; } run_arg;

static int run_body(call *k, gr_module *m, void *arg) {
    run_arg *a = arg;
    if (a->explain) { gr_explain(k->c, m, a->out); return GR_OK; }
    return gr_run_queries(k->c, m, a->fmt, a->out) == GR_EXIT_REFUTED ? GR_EREFUTED : GR_OK;
}

static int run_to_string(gr_program *p, run_arg *a, char **out, size_t *out_len) {
    if (!p || !out) return GR_EINVAL;
    *out = NULL;
    char *buf = NULL;
    size_t len = 0;
    a->out = open_memstream(&buf, &len);
    if (!a->out) return GR_ENOMEM;
    int rc = with_program(p, run_body, a);
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

/* One query: its entry's module holds that query alone. */
static int run_one_body(call *k, gr_module *m, void *arg) {
    run_arg *a = arg;
    return gr_run_queries(k->c, m, a->fmt, a->out) == GR_EXIT_REFUTED ? GR_EREFUTED : GR_OK;
}

GR_API int gr_run_one(gr_program *p, const char *query, const char *format, char **out, size_t *out_len) {
    if (!p || !query || !out) return GR_EINVAL;
    *out = NULL;
    run_arg a = { 0, GR_FMT_TEXT, NULL };
    if (!format || !strcmp(format, "text")) a.fmt = GR_FMT_TEXT;
    else if (!strcmp(format, "csv")) a.fmt = GR_FMT_CSV;
    else if (!strcmp(format, "json")) a.fmt = GR_FMT_JSON;
    else return GR_EINVAL;
    /* a query, not a definition: an entry that defines would change what p answers later */
    static const char *const kinds[] = { "table", "solve", "check", "options", "plot", "dot", "quotient", "census" };
    size_t skip = strspn(query, " \t"), word = strcspn(query + skip, " \t(");
    int known = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        known |= word == strlen(kinds[i]) && !strncmp(query + skip, kinds[i], word);
    if (!known && query[skip]) {
        clear_error(p);
        set_error(p, "query", 1, (int)skip + 1, "a query is expected here (table, solve, check, options, plot, dot, quotient or census)");
        return GR_EINPUT;
    }
    char *buf = NULL;
    size_t len = 0;
    a.out = open_memstream(&buf, &len);
    if (!a.out) return GR_ENOMEM;
    int rc = with_query_ex(p, "query", "", query, ";\n", run_one_body, &a, 0);   /* it writes a stream */
    fclose(a.out);
    if (rc != GR_OK && rc != GR_EREFUTED) { free(buf); return rc; }
    *out = buf;
    if (out_len) *out_len = len;
    return rc;
}

GR_API int gr_explain_program(gr_program *p, char **out, size_t *out_len) {
    run_arg a = { 1, GR_FMT_TEXT, NULL };
    return run_to_string(p, &a, out, out_len);
}
