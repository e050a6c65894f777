/* engine: a program compiled once that remembers. It holds the program's syntax tree and IR
 * (built once, by gr_parse and gr_sema_open) and one long-lived run-time context whose tracked
 * memory keeps what the evaluators computed (heap tables, proved periods, boxes, position
 * graphs, quotients) from one call to the next. Each call compiles only its entry (a query the
 * API generated, a line of the session, a turn of play) against the definitions known so far,
 * runs it, and gives back the entry's syntax (the arena is rewound) unless the entry added
 * definitions or instances. The public API (api.c), the session and play are its clients.
 *
 * Eviction: nothing is dropped while calls succeed and the memory limit holds. A call that
 * stops while it runs (a limit, an interrupt, an error at run time) may have left a value half
 * computed, so the engine drops everything it kept and compiles the program again at the next
 * call; a call that fails in its own syntax or names changes nothing. A call that passes the
 * memory limit while the engine held values of earlier calls is run once more from an empty
 * engine when its client allows (gr_engine_run's `retry`). gr_engine_reset drops everything.
 *
 * Threads: calls on one engine are serialised by its lock; a call may still use threads of
 * its own (--threads). Different engines share nothing. */
#ifndef GRUNDY_ENGINE_H
#define GRUNDY_ENGINE_H
#include <stdint.h>
#include "ctx.h"
#include "sema.h"

typedef struct gr_engine gr_engine;

/* Sets a call's limits and options on its context (called before every compilation and call). */
typedef void (*gr_engine_setup_fn)(gr_ctx *c, void *user);
/* The work of a call over the module of its entry (or of the program's own queries). */
typedef int (*gr_engine_body_fn)(gr_ctx *c, gr_module *m, void *arg);

/* How a call failed (status 0: it did not). */
typedef struct gr_engine_fail {
    int status;                /* the exit status: GR_EXIT_INPUT, GR_EXIT_LIMIT, ... */
    char msg[1024];            /* the whole diagnostic, as the command prints it */
    char text[512];            /* its message alone */
    int located;               /* it has a place in the source: */
    int in_entry;              /*   in the call's entry, at byte entry_off of it */
    uint32_t entry_off;
    int line, col;             /*   else in the program, at this line and column */
    int memory;                /* it was the memory limit: */
    size_t want;               /*   the bytes then wanted */
} gr_engine_fail;

/* Compiles the program (text of len bytes, named name in diagnostics). NULL with *fail filled
 * when it has an error (or memory runs out). */
gr_engine *gr_engine_open(const char *name, const char *text, size_t len, int prelude,
                          gr_engine_setup_fn setup, void *user, gr_engine_fail *fail);
void gr_engine_free(gr_engine *e);

/* One call: compiles entry (len bytes named entry_name; NULL: the program's own queries) and
 * runs body over it. Returns body's result, or -1 with *fail filled. With retry, a call that
 * passed the memory limit while values of earlier calls were held runs again from an empty
 * engine (body must then be safe to run twice). */
int gr_engine_run(gr_engine *e, const char *entry_name, const char *entry, size_t len,
                  gr_engine_setup_fn setup, void *user, gr_engine_body_fn body, void *arg,
                  int retry, gr_engine_fail *fail);

/* Drops every value kept (the program is compiled again at the next call). */
void gr_engine_reset(gr_engine *e);

typedef struct gr_engine_stats {
    uint64_t values_computed;  /* values the evaluators computed, over the engine's life */
    uint64_t calls;            /* calls run */
    uint64_t compiles;         /* times the program was compiled (1 + drops) */
    uint64_t drops;            /* times what was kept was dropped (failures, resets, eviction) */
    size_t memory;             /* bytes held now: values kept and the compiled program */
    uint64_t game_drops;       /* times one game's values were dropped (a stopped call, eviction, redefinition) */
    uint64_t evictions;        /* of them, games evicted for the memory limit (least recently used first) */
    uint64_t retries;          /* calls run again after an eviction */
    size_t program_memory;     /* of memory: the compiled program (its arena and the IR's tracked memory) */
    size_t games_memory;       /*   the games' values (the sum of gr_engine_games' bytes) */
    size_t other_memory;       /*   tracked memory held by no game (0 between calls, unless a leak) */
} gr_engine_stats;
void gr_engine_stats_of(gr_engine *e, gr_engine_stats *out);

/* One game's values kept (gr_engine_games). */
typedef struct gr_engine_game {
    char name[128];            /* as written in output ("kayles", "bash[3]"), cut to fit */
    size_t bytes;              /* tracked memory its values hold */
    uint64_t values;           /* values kept: heap values in its table, positions in its boxes */
    uint64_t computed;         /* box positions valued since its values were last dropped */
    uint64_t last_call;        /* the engine's call that last used it (the larger, the more recent) */
    uint64_t calls_ago;        /* calls since (0: the last call used it) */
    uint64_t drops;            /* times its values were dropped */
} gr_engine_game;
/* The games that hold values, in order of first use: up to cap into out; returns how many
 * there are. */
int gr_engine_games(gr_engine *e, gr_engine_game *out, int cap);
#endif
