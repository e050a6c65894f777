/* names: open addressing over FNV-1a hashes, in the arena; see names.h. */
#include "names.h"
#include <string.h>

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
    m->keys[i] = name;
    m->vals[i] = val;
    m->n++;
    return val;
}

void gr_names_set(gr_ctx *c, gr_names_map *m, const char *name, void *val) {
    gr_names_put(c, m, name, val);
    m->vals[slot(m, name)] = val;
}

void gr_names_each(const gr_names_map *m, void (*fn)(void *user, const char *name, void **val), void *user) {
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) fn(user, m->keys[i], &m->vals[i]);
}
