/* names: open addressing over FNV-1a hashes, in the arena; see names.h. */
#include "names.h"
#include <stdlib.h>
#include <string.h>

/* One change: a map's header (before it grew), a slot of a map, or a pointer elsewhere. */
typedef struct undo { gr_names_map *m; gr_names_map whole; size_t i; const char *key; void *val; void **where; } undo;
struct gr_names_log { undo *v; size_t n, cap; int broken; };

gr_names_log *gr_names_log_new(void) { return calloc(1, sizeof(gr_names_log)); }

static void record(gr_names_log *log, undo u) {
    if (!log || log->broken) return;
    if (log->n == log->cap) {
        size_t cap = log->cap ? 2 * log->cap : 32;
        undo *v = realloc(log->v, cap * sizeof *v);
        if (!v) { log->broken = 1; return; }
        log->v = v;
        log->cap = cap;
    }
    log->v[log->n++] = u;
}

void gr_names_log_ptr(gr_names_log *log, void *where) {
    record(log, (undo){ .where = where, .val = *(void **)where });
}

int gr_names_log_undo(gr_names_log *log) {
    if (!log) return 1;
    int ok = !log->broken;
    for (size_t k = log->n; ok && k-- > 0;) {
        undo *u = &log->v[k];
        if (u->where) { *u->where = u->val; continue; }
        *u->m = u->whole;                     /* the header then (arrays still in the arena) */
        if (u->i != SIZE_MAX) { u->m->keys[u->i] = u->key; u->m->vals[u->i] = u->val; }
    }
    gr_names_log_free(log);
    return ok;
}

void gr_names_log_free(gr_names_log *log) {
    if (!log) return;
    free(log->v);
    free(log);
}

/* Records slot i of m (and m's header: its count) before a write. */
static void note_slot(gr_names_map *m, size_t i) {
    if (m->log) record(m->log, (undo){ .m = m, .whole = *m, .i = i, .key = m->keys[i], .val = m->vals[i] });
}

static size_t hash(const char *s) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 0x100000001b3ULL; }
    return (size_t)(h ^ (h >> 32));
}

static size_t slot(const gr_names_map *m, const char *name) {
    size_t i = hash(name) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], name) != 0) i = (i + 1) & (m->cap - 1);
    return i;
}

void *gr_names_get(const gr_names_map *m, const char *name) {
    if (!m->cap) return NULL;
    size_t i = slot(m, name);
    return m->keys[i] ? m->vals[i] : NULL;
}

void *gr_names_put(gr_ctx *c, gr_names_map *m, const char *name, void *val) {
    if (2 * (m->n + 1) > m->cap) {
        if (m->log) record(m->log, (undo){ .m = m, .whole = *m, .i = SIZE_MAX });
        gr_names_map old = *m;
        m->cap = old.cap ? old.cap * 2 : 64;
        m->keys = GR_NEWN(c, const char *, m->cap);
        m->vals = GR_NEWN(c, void *, m->cap);
        memset(m->keys, 0, m->cap * sizeof *m->keys);
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) {
                size_t j = slot(m, old.keys[i]);
                m->keys[j] = old.keys[i];
                m->vals[j] = old.vals[i];
                m->n++;
            }
    }
    size_t i = slot(m, name);
    if (m->keys[i]) return m->vals[i];
    note_slot(m, i);
    m->keys[i] = name;
    m->vals[i] = val;
    m->n++;
    return val;
}

void gr_names_set(gr_ctx *c, gr_names_map *m, const char *name, void *val) {
    gr_names_put(c, m, name, val);
    size_t i = slot(m, name);
    note_slot(m, i);
    m->vals[i] = val;
}

void gr_names_each(gr_names_map *m, void (*fn)(void *user, const char *name, void **val), void *user) {
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) {
            void *was = m->vals[i];
            fn(user, m->keys[i], &m->vals[i]);
            if (m->vals[i] != was && m->log) {   /* journaled as it was */
                void *now = m->vals[i];
                m->vals[i] = was;
                note_slot(m, i);
                m->vals[i] = now;
            }
        }
}
