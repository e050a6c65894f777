/* gamefix: a header-only fixture for unit tests that compile .game text. gf_open parses and
 * analyses a program held in a string; gf_game finds an instance by name; gf_run catches a
 * failure (gr_fail*) raised by any later call, so one bad case is reported and the test goes
 * on; gf_memo is a small hash map from byte strings to ints for memoised brute forces. Everything is static inline so each test program takes only what it uses. */
#ifndef GRUNDY_GAMEFIX_H
#define GRUNDY_GAMEFIX_H
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "eval/heap/heap.h"
#include "parse.h"
#include "sema.h"
#include "sums.h"
#include "testlib.h"
#include "eval/box/tuple.h"

typedef struct gf {
    gr_ctx c;
    gr_ast_program prog;
    gr_module mod;
    FILE *null;
    char *src;                 /* a private copy: the context keeps pointers into it */
} gf;

/* Compiles src; returns 1 on success. On failure the diagnostic is in f->c.fail_msg (or was
 * written to f->c.diag) and gf_close must still be called. quiet: diagnostics to /dev/null. */
static inline int gf_open_ex(gf *f, const char *src, int quiet) {
    memset(f, 0, sizeof *f);
    size_t len = strlen(src);
    f->src = malloc(len + 1);
    memcpy(f->src, src, len + 1);
    gr_ctx_init(&f->c, "test.game", f->src, len);
    if (quiet) {
        f->null = fopen("/dev/null", "w");
        if (f->null) f->c.diag = f->null;
    }
    jmp_buf jb;
    f->c.on_fail = &jb;
    if (setjmp(jb)) {
        f->c.on_fail = NULL;
        return 0;
    }
    if (gr_parse(&f->c, &f->prog)) {
        f->c.on_fail = NULL;
        return 0;
    }
    gr_sema(&f->c, &f->prog, &f->mod);
    f->c.on_fail = NULL;        /* later failures abort unless run under gf_run */
    return 1;
}

static inline int gf_open(gf *f, const char *src) {
    if (gf_open_ex(f, src, 0)) return 1;
    fprintf(stderr, "gamefix: this program does not compile:\n%s\n%s", src, f->c.fail_msg);
    return 0;
}

static inline void gf_close(gf *f) {
    gr_ctx_free(&f->c);
    if (f->null) fclose(f->null);
    free(f->src);
    f->null = NULL;
    f->src = NULL;
}

/* The instance whose output name is exactly name ("kayles", "corner[5, 7]"), or NULL. */
static inline gr_game *gf_game(gf *f, const char *name) {
    for (gr_game *g = f->mod.games; g; g = g->next)
        if (strcmp(g->name, name) == 0) return g;
    return NULL;
}

/* Runs body(f, arg) with failures caught: returns 1 if it finished, 0 if a library call
 * failed (the message is in f->c.fail_msg). The setjmp lives here, in a frame that modifies no
 * local after it, so callers need no volatile variables. */
typedef void (*gf_body_fn)(gf *f, void *arg);
static inline int gf_run(gf *f, gf_body_fn body, void *arg) {
    jmp_buf jb;
    f->c.on_fail = &jb;
    if (setjmp(jb)) {
        f->c.on_fail = NULL;
        return 0;
    }
    body(f, arg);
    f->c.on_fail = NULL;
    return 1;
}

/* Reports a caught failure as one failed check, with the message and a label. */
static inline void gf_report_failure(gf *f, const char *label) {
    fprintf(stderr, "%s: unexpected failure (status %d): %s", label, f->c.fail_status, f->c.fail_msg);
    CHECK(0 && "library call failed");
}

/* A single component of a heap or tuple game. */
static inline gr_comp gf_comp(gr_game *g, int64_t a, int64_t b) {
    gr_comp k;
    memset(&k, 0, sizeof k);
    k.game = g;
    k.c[0] = a;
    k.c[1] = b;
    return k;
}

/* ---- a memo for brute forces: byte-string keys, int values, open addressing ---- */
typedef struct gf_memo {
    uint8_t **keys;
    size_t *lens;
    int *vals;
    size_t cap, n;
} gf_memo;

static inline uint64_t gf_hash(const uint8_t *k, size_t len) {
    uint64_t h = 1469598103934665603ULL;          /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ k[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static inline size_t gf_memo_slot(const gf_memo *m, const uint8_t *k, size_t len) {
    size_t i = (size_t)gf_hash(k, len) & (m->cap - 1);
    while (m->keys[i] && (m->lens[i] != len || memcmp(m->keys[i], k, len) != 0)) i = (i + 1) & (m->cap - 1);
    return i;
}

/* The value stored under k, or NULL. */
static inline int *gf_memo_get(gf_memo *m, const uint8_t *k, size_t len) {
    if (!m->cap) return NULL;
    size_t i = gf_memo_slot(m, k, len);
    return m->keys[i] ? &m->vals[i] : NULL;
}

static inline void gf_memo_put(gf_memo *m, const uint8_t *k, size_t len, int v) {
    if (2 * (m->n + 1) > m->cap) {
        gf_memo old = *m;
        m->cap = old.cap ? old.cap * 2 : 1024;
        m->keys = calloc(m->cap, sizeof *m->keys);
        m->lens = calloc(m->cap, sizeof *m->lens);
        m->vals = calloc(m->cap, sizeof *m->vals);
        for (size_t i = 0; i < old.cap; i++) {
            if (!old.keys[i]) continue;
            size_t j = gf_memo_slot(m, old.keys[i], old.lens[i]);
            m->keys[j] = old.keys[i];
            m->lens[j] = old.lens[i];
            m->vals[j] = old.vals[i];
        }
        free(old.keys);
        free(old.lens);
        free(old.vals);
    }
    size_t i = gf_memo_slot(m, k, len);
    if (!m->keys[i]) {
        m->keys[i] = malloc(len ? len : 1);
        memcpy(m->keys[i], k, len);
        m->lens[i] = len;
        m->n++;
    }
    m->vals[i] = v;
}

static inline void gf_memo_free(gf_memo *m) {
    for (size_t i = 0; i < m->cap; i++) free(m->keys[i]);
    free(m->keys);
    free(m->lens);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
#endif
