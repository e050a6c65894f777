/* ctx: diagnostics, failure exits and tracked memory; see ctx.h. */
#include "ctx.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct gr_mem_block {
    gr_mem_block *prev, *next;
    size_t size;
    gr_mem_account *account;  /* what it is charged to (NULL: the store) */
    uint64_t born;            /* the store's call that made it */
    max_align_t payload[];
};

/* The call's layer at its defaults: everything after the store. */
static void call_defaults(gr_ctx *c, const char *filename, const char *src, size_t len) {
    memset((char *)c + sizeof c->store, 0, sizeof *c - sizeof c->store);
    c->filename = filename;
    c->src = src;
    c->src_len = len;
    c->diag = stderr;
    c->mem_limit = (size_t)8 << 30;
    c->threads = 1;
    c->poll_left = c->poll_every = 1;
}
_Static_assert(offsetof(gr_ctx, store) == 0, "the store comes first: gr_ctx_call_init clears what follows it");

void gr_ctx_init(gr_ctx *c, const char *filename, const char *src, size_t len) {
    memset(&c->store, 0, sizeof c->store);
    gr_arena_init(&c->store.arena);
    call_defaults(c, filename, src, len);
    c->store.calls = 1;
}

void gr_ctx_call_init(gr_ctx *c, const char *filename, const char *src, size_t len) {
    call_defaults(c, filename, src, len);
    c->store.calls++;
}

gr_mem_account *gr_account_enter(gr_ctx *c, gr_mem_account *a) {
    if (c->no_accounts) return NULL;
    gr_mem_account *prev = c->account;
    c->account = a;
    if (a) a->used_call = c->store.calls;
    return prev;
}

void gr_account_drop(gr_ctx *c, gr_mem_account *a) {
    if (!a->bytes) return;
    gr_mem_block *b = c->store.blocks;
    while (b && a->bytes) {
        gr_mem_block *next = b->next;
        if (b->account == a) gr_mem_free(c, b->payload);
        b = next;
    }
    a->dropped++;
}

void gr_ctx_free_scratch(gr_ctx *c) {
    gr_mem_block *b = c->store.blocks;
    while (b) {
        gr_mem_block *next = b->next;
        if (!b->account && b->born == c->store.calls) gr_mem_free(c, b->payload);
        b = next;
    }
}

void gr_account_unlist(gr_ctx *c, gr_mem_account *a) {
    for (gr_mem_account **l = &c->store.accounts; *l; l = &(*l)->next)
        if (*l == a) { *l = a->next; break; }
    a->listed = 0;
    if (c->account == a) c->account = NULL;
}

double gr_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gr_ctx_free(gr_ctx *c) {
    gr_mem_block *b = c->store.blocks;
    while (b) {
        gr_mem_block *next = b->next;
        free(b);
        b = next;
    }
    c->store.blocks = NULL;
    c->store.mem_used = 0;
    for (gr_mem_account *a = c->store.accounts; a; a = a->next) a->bytes = 0;
    c->store.accounts = NULL;
    gr_arena_free(&c->store.arena);
}

/* The segment holding off (the last that starts at or before it), or NULL. */
static const gr_src_seg *seg_of(const gr_ctx *c, uint32_t off) {
    const gr_src_seg *at = NULL;
    for (int i = 0; i < c->nsegs; i++) if (c->segs[i].off <= off) at = &c->segs[i];
    return at;
}

/* The name a diagnostic at off gives its file: its segment's, else c->filename. */
static const char *gr_loc_file(const gr_ctx *c, uint32_t off) {
    const gr_src_seg *s = seg_of(c, off);
    return s ? s->name : c->filename;
}

void gr_line_col(const gr_ctx *c, uint32_t off, int *line, int *col) {
    int l = 1, k = 1;
    if (off > c->src_len) off = (uint32_t)c->src_len;
    const gr_src_seg *s = seg_of(c, off);
    for (uint32_t i = s ? s->off : 0; i < off; i++) {
        if (c->src[i] == '\n') { l++; k = 1; } else k++;
    }
    *line = l;
    *col = k;
}

/* Appends printf output to buf at *pos, never past cap. */
static void append(char *buf, size_t cap, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *pos, const char *fmt, ...) {
    if (*pos >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *pos, cap - *pos, fmt, ap);
    va_end(ap);
    if (n > 0) *pos += (size_t)n < cap - *pos ? (size_t)n : cap - *pos - 1;
}

/* Every error met while a query runs names it: "in query N: TEXT" (a time limit's message
 * already says so). */
static void query_note(const gr_ctx *c, char *buf, size_t cap, size_t *pos, const char *before, const char *after) {
    if (c->query_no <= 0 || strstr(buf, " in query ")) return;
    const char *q = c->query_text ? c->query_text : "";
    size_t len = strlen(q);
    append(buf, cap, pos, "%sin query %d: %.*s%s%s", before, c->query_no, len > 120 ? 120 : (int)len, q, len > 120 ? "..." : "", after);
}

/* Formats a located diagnostic: header, the source line, a caret line. */
static void format_diag(const gr_ctx *c, gr_loc loc, char *buf, size_t cap, const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
static void format_diag(const gr_ctx *c, gr_loc loc, char *buf, size_t cap, const char *fmt,
                        va_list ap) {
    int line, col;
    gr_line_col(c, loc.off, &line, &col);
    size_t pos = 0;
    append(buf, cap, &pos, "%s:%d:%d: error: ", gr_loc_file(c, loc.off), line, col);
    if (pos < cap) {
        int n = vsnprintf(buf + pos, cap - pos, fmt, ap);
        if (n > 0) pos += (size_t)n < cap - pos ? (size_t)n : cap - pos - 1;
    }
    append(buf, cap, &pos, "\n");
    size_t start = loc.off > c->src_len ? c->src_len : loc.off;
    while (start > 0 && c->src[start - 1] != '\n') start--;
    size_t end = start;
    while (end < c->src_len && c->src[end] != '\n') end++;
    /* A long line is shown as a window around the caret, marked with "...", so the caret and
     * the message always fit. */
    size_t from = start, to = end, at = loc.off < end ? loc.off : end;
    int cut_left = 0, cut_right = 0;
    if (end - start > 200) {
        if (at - start > 80) { from = at - 60; cut_left = 1; }
        if (end - from > 160) { to = from + 160; cut_right = 1; }
    }
    append(buf, cap, &pos, "%5d | %s%.*s%s\n      | %s", line, cut_left ? "..." : "", (int)(to - from), c->src + from,
           cut_right ? "..." : "", cut_left ? "   " : "");
    /* Tabs in the prefix are copied so the caret lines up in a terminal. */
    for (size_t i = from; i < loc.off && i < to; i++) append(buf, cap, &pos, "%c", c->src[i] == '\t' ? '\t' : ' ');
    append(buf, cap, &pos, "^");
    for (uint32_t i = 1; i < loc.len && loc.off + i < to; i++) append(buf, cap, &pos, "~");
    append(buf, cap, &pos, "\n");
    query_note(c, buf, cap, &pos, "      = ", "\n");
}

/* Keeps the message alone and its location for callers of the library (the first
 * diagnostic wins; a failure replaces it). */
static void note(gr_ctx *c, int located, uint32_t off, const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
static void note(gr_ctx *c, int located, uint32_t off, const char *fmt, va_list ap) {
    c->fail_located = located;
    c->fail_off = off;
    vsnprintf(c->fail_text, sizeof c->fail_text, fmt, ap);
}

void gr_diag_at(gr_ctx *c, gr_loc loc, const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    if (!c->errors) {
        va_list aq;
        va_copy(aq, ap);
        note(c, 1, loc.off, fmt, aq);
        va_end(aq);
    }
    format_diag(c, loc, buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!c->errors) {            /* the first, whole, for a caller that prints it later */
        size_t n = strlen(buf);
        if (n >= sizeof c->fail_msg) n = sizeof c->fail_msg - 1;
        memcpy(c->fail_msg, buf, n);
        c->fail_msg[n] = '\0';
    }
    if (c->diag) fputs(buf, c->diag);
    c->errors++;
}

_Noreturn static void jump(gr_ctx *c, int status) {
    c->fail_status = status;
    if (!c->on_fail) {
        fputs(c->fail_msg, stderr);
        abort();
    }
    longjmp(*c->on_fail, 1);
}

void gr_fail_again(gr_ctx *c, int status, const char *msg) {
    snprintf(c->fail_msg, sizeof c->fail_msg, "%s", msg);
    jump(c, status);
}

void gr_fail_at(gr_ctx *c, gr_loc loc, int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list aq;
    va_copy(aq, ap);
    note(c, 1, loc.off, fmt, aq);
    va_end(aq);
    format_diag(c, loc, c->fail_msg, sizeof c->fail_msg, fmt, ap);
    va_end(ap);
    jump(c, status);
}

void gr_fail(gr_ctx *c, int status, const char *fmt, ...) {
    size_t pos = 0;
    append(c->fail_msg, sizeof c->fail_msg, &pos, "grundy: error: ");
    va_list ap;
    va_start(ap, fmt);
    va_list aq;
    va_copy(aq, ap);
    note(c, 0, 0, fmt, aq);
    va_end(aq);
    int n = vsnprintf(c->fail_msg + pos, sizeof c->fail_msg - pos, fmt, ap);
    va_end(ap);
    if (n > 0) pos += (size_t)n < sizeof c->fail_msg - pos ? (size_t)n : sizeof c->fail_msg - pos - 1;
    if (status == GR_EXIT_LIMIT && c->limit_note[0]) append(c->fail_msg, sizeof c->fail_msg, &pos, "; %s", c->limit_note);
    query_note(c, c->fail_msg, sizeof c->fail_msg, &pos, " (", ")");
    append(c->fail_msg, sizeof c->fail_msg, &pos, "\n");
    jump(c, status);
}

size_t gr_size_mul(gr_ctx *c, size_t a, size_t b) {
    size_t r;
    if (__builtin_mul_overflow(a, b, &r))
        gr_fail(c, GR_EXIT_LIMIT, "a table of %zu x %zu bytes does not fit in memory", a, b);
    return r;
}

/* refused: the system had no memory to give (below the limit, or with none set); else the
 * limit was reached. Each says which, so "limit N MiB" never names a limit nobody set. */
static void over_limit(gr_ctx *c, size_t want, int refused) {
    c->fail_memory = 1;
    c->fail_want = want;
    if (refused || c->mem_limit == SIZE_MAX)
        gr_fail(c, GR_EXIT_LIMIT, "out of memory: %zu MiB in use, %zu MiB more wanted, %s",
                c->store.mem_used >> 20, want >> 20,
                c->mem_limit == SIZE_MAX ? "no memory limit set (set one with --max-memory to stop sooner)"
                                         : "the system refused it below the limit (lower --max-memory)");
    gr_fail(c, GR_EXIT_LIMIT,
            "memory limit reached: %zu MiB in use, %zu MiB more wanted, limit %zu MiB "
            "(raise it with --max-memory)",
            c->store.mem_used >> 20, want >> 20, c->mem_limit >> 20);
}

void *gr_alloc(gr_ctx *c, size_t size) {
    gr_store *s = &c->store;
    if (size > c->mem_limit || s->mem_used > c->mem_limit - size) over_limit(c, size, 0);
    gr_mem_block *b = calloc(1, sizeof *b + size);
    if (!b) over_limit(c, size, 1);
    b->size = size;
    b->prev = NULL;
    b->next = s->blocks;
    if (s->blocks) s->blocks->prev = b;
    s->blocks = b;
    s->mem_used += size;
    if (s->mem_used > s->mem_peak) s->mem_peak = s->mem_used;
    b->born = s->calls;
    gr_mem_account *a = b->account = c->account;
    if (a) {
        a->bytes += size;
        if (!a->listed) { a->listed = 1; a->next = s->accounts; s->accounts = a; }
    }
    return b->payload;
}

static gr_mem_block *block_of(void *p) {
    return (gr_mem_block *)((char *)p - offsetof(gr_mem_block, payload));
}

void *gr_realloc(gr_ctx *c, void *p, size_t size) {
    if (!p) return gr_alloc(c, size);
    gr_store *s = &c->store;
    gr_mem_block *b = block_of(p);
    size_t old = b->size;
    if (size > old && (size - old > c->mem_limit || s->mem_used > c->mem_limit - (size - old)))
        over_limit(c, size - old, 0);
    /* Unlink first: realloc may move the block. */
    gr_mem_block *prev = b->prev, *next = b->next;
    gr_mem_block *nb = realloc(b, sizeof *nb + size);
    if (!nb) over_limit(c, size, 1);
    if (prev) prev->next = nb; else s->blocks = nb;
    if (next) next->prev = nb;
    nb->size = size;
    if (nb->account) nb->account->bytes = nb->account->bytes - old + size;   /* charged where it was made */
    s->mem_used = s->mem_used - old + size;
    if (s->mem_used > s->mem_peak) s->mem_peak = s->mem_used;
    return nb->payload;
}

void gr_mem_free(gr_ctx *c, void *p) {
    if (!p) return;
    gr_mem_block *b = block_of(p);
    if (b->prev) b->prev->next = b->next; else c->store.blocks = b->next;
    if (b->next) b->next->prev = b->prev;
    c->store.mem_used -= b->size;
    if (b->account) b->account->bytes -= b->size;
    free(b);
}

void *gr_new(gr_ctx *c, size_t size) {
    void *p = gr_arena_alloc(&c->store.arena, size);
    if (!p) over_limit(c, size, 1);
    return p;
}

char *gr_strndup(gr_ctx *c, const char *s, size_t n) {
    char *p = gr_arena_strndup(&c->store.arena, s, n);
    if (!p) over_limit(c, n, 1);
    return p;
}

/* ---- the time limit ---- */
/* A line for a log (standard error is no terminal): what a bar would show, every few seconds
 * of any loop that polls, whether or not its step updates a bar. */
static void progress_line(gr_ctx *c, double t) {
    char where[200] = "", step[160] = "", rate[48] = "";
    size_t pos = 0;
    if (c->query_no > 0 && c->query_text)
        append(where, sizeof where, &pos, "query %d (%.120s%s): ", c->query_no, c->query_text,
               strlen(c->query_text) > 120 ? "..." : "");
    if (c->step_label) {
        pos = 0;
        append(step, sizeof step, &pos, "%.80s: %llu", c->step_label, (unsigned long long)c->step_done);
        if (c->step_total) append(step, sizeof step, &pos, " of %llu", (unsigned long long)c->step_total);
        append(step, sizeof step, &pos, " done");
        if (c->step_label == c->progress_line_label && c->step_done >= c->progress_line_done && t > c->progress_line_at)
            snprintf(rate, sizeof rate, ", %.0f/s", (double)(c->step_done - c->progress_line_done) / (t - c->progress_line_at));
    } else snprintf(step, sizeof step, "running");
    char since[32] = "";
    if (c->progress_since > 0) snprintf(since, sizeof since, ", %.0f s in", t - c->progress_since);
    fprintf(stderr, "grundy: %s%s%s%s\n", where, step, rate, since);
    fflush(stderr);
    c->progress_line_at = t;
    c->progress_line_done = c->step_done;
    c->progress_line_label = c->step_label;
}

int gr_poll_quiet(gr_ctx *c) {
    double t = gr_now();
    if (c->progress_lines && t - c->progress_line_at >= GR_PROGRESS_LINE_INTERVAL) progress_line(c, t);
    return c->deadline > 0 && t >= c->deadline;
}

void gr_poll_clock(gr_ctx *c) {
    double t = gr_now();
    /* Aim at one clock read every 1 to 4 ms of work, whatever a step costs. */
    double dt = t - c->poll_last;
    if (c->poll_last > 0 && dt < 0.001 && c->poll_every < (1u << 20)) c->poll_every *= 2;
    else if (dt > 0.004 && c->poll_every > 1) c->poll_every /= 2;
    c->poll_last = t;
    c->poll_left = c->poll_every;
    if (c->interrupted) c->interrupted(c);
    if (c->progress_lines && t - c->progress_line_at >= GR_PROGRESS_LINE_INTERVAL) progress_line(c, t);
    if (c->deadline <= 0 || t < c->deadline) return;
    char where[512] = "";
    size_t pos = 0;
    if (c->query_no > 0) {
        const char *q = c->query_text ? c->query_text : "";
        size_t len = strlen(q);
        append(where, sizeof where, &pos, " in query %d (%.*s%s)", c->query_no, len > 120 ? 120 : (int)len, q,
               len > 120 ? "..." : "");
    }
    if (c->step_label) {
        append(where, sizeof where, &pos, "; %.80s: %llu", c->step_label, (unsigned long long)c->step_done);
        if (c->step_total) append(where, sizeof where, &pos, " of %llu", (unsigned long long)c->step_total);
        append(where, sizeof where, &pos, " done");
    }
    c->poll_left = c->poll_every = 1;   /* a caught failure keeps failing at the next poll */
    gr_fail(c, GR_EXIT_LIMIT, "time limit of %g s reached%s (%s%sraise it with --max-time)", c->max_time, where,
            c->max_time_from ? c->max_time_from : "", c->max_time_from ? "; " : "");
}

void gr_eval_at(gr_ctx *c, const int64_t *pos, int n) {
    if (n > 16) n = 16;
    c->eval_n = n;
    if (n > 0) memcpy(c->eval_pos, pos, (size_t)n * sizeof *pos);
}
