/* engine: a program compiled once that remembers. It holds the program's syntax tree and IR
 * (built once, by gr_parse and gr_sema_open) and one long-lived run-time context in two
 * layers, as Lua splits global_State from lua_State:
 *   what lasts, the context's store (gr_store, core/ctx.h, first in gr_ctx and never
 *     reinitialised): the arena of the definitions (syntax tree, IR), the tracked memory of
 *     what the evaluators keep (eval/cache.h: heap tables and their kernels' state, proved periods,
 *     dense boxes and tuple memos, the 'anyleaf' and 'every' heap kernels, misere quotients; a
 *     position graph lives for one query only), each block
 *     charged to its game's memory account (gr_game_state.mem), the statistics;
 *   what one call carries, the rest of the context, started afresh at every call
 *     (gr_ctx_call_init): limits and options (the client's setup), progress, the failure, the
 *     account being charged, and one deadline for the whole call, its retry included.
 * Each call compiles only its entry (a query the API generated, a line of the session, a turn
 * of play) against the definitions known so far, runs it, and gives back the entry's syntax
 * (the arena is rewound) unless the entry added definitions or instances. The public API
 * (api.c), the session and play are its clients.
 *
 * What a failure drops:
 *   in the entry's own syntax, names or checks (a definition that fails them included):
 *     nothing; what its definitions changed is undone (gr_sema_undo) and the arena rewound,
 *     the engine is exactly as it was;
 *   while running (a limit, an interrupt, an error at run time): the values of the games the
 *     call used (an account stamped by this call: one may be half made) and the call's scratch;
 *     every other game keeps its values;
 *   past the memory limit: as while running, then the least recently used games' values (by
 *     the last call that used each, never this call's) are evicted until what the call had and
 *     wanted is free, and, when the client allows (`retry`), the call runs again, only if
 *     something was evicted (the session runs it again only when asked).
 * A redefinition drops the old instances' values; gr_engine_reset drops everything (the
 * program is compiled again at the next call).
 *
 * Threads: calls on one engine are serialised by its lock; a call may still use threads of
 * its own (--threads; their contexts have stores of their own, charged to no account). Different
 * engines share nothing. */
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
 * passed the memory limit runs again after the least recently used games' values were
 * evicted, when some were (body must then be safe to run twice); its deadline is its first
 * attempt's. */
int gr_engine_run(gr_engine *e, const char *entry_name, const char *entry, size_t len,
                  gr_engine_setup_fn setup, void *user, gr_engine_body_fn body, void *arg,
                  int retry, gr_engine_fail *fail);

/* Drops every value kept (the program is compiled again at the next call). */
void gr_engine_reset(gr_engine *e);

typedef struct gr_engine_stats {
    uint64_t values_computed;  /* values the evaluators computed, over the engine's life */
    uint64_t calls;            /* calls run */
    uint64_t compiles;         /* times the program was compiled (1 + drops) */
    uint64_t drops;            /* times everything kept was dropped (resets; a broken journal) */
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
