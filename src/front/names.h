/* names: a map from names to pointers for the front end (declarations, graph vertices), so
 * that looking a name up costs O(its length) and 10^5 declarations compile in linear time.
 * Lives in the compilation's arena. */
#ifndef GRUNDY_NAMES_H
#define GRUNDY_NAMES_H
#include "ctx.h"

typedef struct gr_names_log gr_names_log;

typedef struct gr_names_map {
    const char **keys;
    void **vals;
    size_t cap, n;      /* cap is a power of two (0: empty) */
    gr_names_log *log;  /* where the changes are journaled (NULL: nowhere) */
} gr_names_map;

/* A journal of changes that can be undone (an engine's entry that fails its checks leaves the
 * names as they were): the maps that point to it record every write, and gr_names_log_ptr a
 * pointer about to be written elsewhere (a list's link). Undone in reverse order, before the
 * arena that holds what was added is rewound. malloc'd; a journal that could not grow is
 * broken (gr_names_log_undo returns 0: the caller must start afresh). */
gr_names_log *gr_names_log_new(void);
void gr_names_log_ptr(gr_names_log *log, void *where);
int gr_names_log_undo(gr_names_log *log);   /* undoes and frees */
void gr_names_log_free(gr_names_log *log);  /* keeps the changes */

/* The value stored under name, or NULL. */
void *gr_names_get(const gr_names_map *m, const char *name);
/* Stores val under name unless the name is there; returns the value now stored. */
void *gr_names_put(gr_ctx *c, gr_names_map *m, const char *name, void *val);
/* Stores val under name, replacing what was there (NULL: as good as absent to gr_names_get). */
void gr_names_set(gr_ctx *c, gr_names_map *m, const char *name, void *val);
/* Calls fn for every name stored (val may be changed in place). */
void gr_names_each(gr_names_map *m, void (*fn)(void *user, const char *name, void **val), void *user);
#endif
