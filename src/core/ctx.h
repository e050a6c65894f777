/* ctx: the run-time context every stage shares: the source being compiled (for diagnostics),
 * how failures leave (a longjmp back to the driver with an exit status), tracked heap memory
 * (so --max-memory stops us with status 3 instead of the kernel killing us, and so a failure
 * deep inside a solver frees everything), limits, and progress reporting. */
#ifndef GRUNDY_CTX_H
#define GRUNDY_CTX_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arena.h"

/* Seconds between progress lines on a pipe (c->progress_lines); the first waits as long after
 * the run began, so quick runs and the tests' captured stderr never see one. */
#define GR_PROGRESS_LINE_INTERVAL 5.0

/* --table-memory's default: 128 MiB of a long search's heap table stay in memory (besides the look-ups' window:
 * tablefile.h); Grundy's game to 2^26 fits it, so a run past that holds what it held there. */
#define GR_TABLE_MEMORY_DEFAULT ((size_t)128 << 20)

/* Exit statuses of the command-line contract. */
enum { GR_EXIT_OK = 0, GR_EXIT_REFUTED = 1, GR_EXIT_INPUT = 2, GR_EXIT_LIMIT = 3 };

/* A source location: byte offset and length into the source text. Lines and columns are
 * computed only when a diagnostic is printed. */
typedef struct gr_loc { uint32_t off, len; } gr_loc;

typedef struct gr_mem_block gr_mem_block;

/* A stretch of the source text that came from somewhere else than the file (a session's
 * entry, a query the API generated): diagnostics inside it are located from its own start and
 * under its own name. */
typedef struct gr_src_seg { uint32_t off; const char *name; } gr_src_seg;

/* A memory account: the tracked memory one owner keeps (an engine's game: what its evaluators
 * keep of it between calls, eval/cache.h). A block is charged to the account current when it
 * was allocated (gr_ctx.account; NULL: the store itself, as the IR and a call's scratch) and
 * stays charged to it when reallocated, so that dropping an owner frees exactly its blocks
 * (gr_account_drop). */
typedef struct gr_mem_account {
    size_t bytes;             /* tracked bytes charged to it now */
    uint64_t used_call;       /* the store's call that last used it (least recently used goes first) */
    uint64_t dropped;         /* times its blocks were dropped (a stopped call, eviction) */
    void *owner;              /* what it belongs to (an engine's game), for the store's owner */
    uint64_t mark;            /* the store's owner's, for its sweeps */
    struct gr_mem_account *next; /* the store's list of accounts that were ever charged */
    int listed;
} gr_mem_account;

/* What lasts: a context's two layers (as Lua's global_State and lua_State). The store is what
 * outlives a call: the definitions (the arena of the syntax tree and the IR, where the prelude
 * begins), the tracked memory (every live block, kept values and the call's scratch alike, and
 * the accounts they are charged to) and the statistics. An engine (api/engine.h) keeps one
 * store for its life and starts the rest of the context afresh at every call
 * (gr_ctx_call_init), so a field added to either layer cannot be forgotten by a copy; a
 * plain run (the command) has one call and one store. */
typedef struct gr_store {
    gr_arena arena;           /* the one arena of this compilation */
    uint32_t prelude_off;     /* where the prelude starts in src, after the program (0: none) */
    uint64_t prelude_taken;   /* FNV-1a of the texts of the prelude's rule sets the program took
                               * (0: none): a checkpoint's program is these and the program's own
                               * text, so a prelude changed elsewhere does not orphan it */
    gr_mem_block *blocks;     /* every live tracked allocation */
    size_t mem_used, mem_peak;
    gr_mem_account *accounts; /* every account ever charged (newest first) */
    gr_mem_account defs;      /* the IR's tracked memory made at run time (a set's prefix grown on demand) */
    uint64_t calls;           /* calls begun on this store (gr_ctx_call_init): the accounts' clock */
    uint64_t values_computed; /* values the evaluators computed with this store (engine statistics) */
} gr_store;

typedef struct gr_ctx {
    gr_store store;           /* first, and never reinitialised by gr_ctx_call_init */
    /* ---- the call: everything below starts afresh at every call ---- */
    const char *filename;     /* as given on the command line ("<stdin>" for -) */
    const char *src;          /* NUL-terminated source text */
    size_t src_len;
    gr_mem_account *account;  /* what tracked memory allocated now is charged to (NULL: the store) */
    int no_accounts;          /* a thread team member's (core/worker.h): its blocks are its own, never
                                 charged to (nor stamping) an account of the owner's */

    jmp_buf *on_fail;         /* where gr_fail* jumps; NULL means abort() (a bug) */
    int fail_status;          /* exit status of the failure that was raised */
    char fail_msg[1024];      /* the full diagnostic text, ready to print */
    int errors;               /* diagnostics reported without jumping (parser recovery) */
    FILE *diag;               /* where diagnostics go (stderr; NULL: kept in fail_* only) */
    int fail_located;         /* the first diagnostic or the failure had a source location: */
    uint32_t fail_off;        /*   its byte offset */
    char fail_text[512];      /* its message alone (no location, no source line), for the API */

    size_t mem_limit;
    uint64_t max_positions;   /* position-graph limit (0: derive from mem_limit) */
    int64_t check_to;         /* --to N for check ... periodic (0: default) */
    int progress;             /* show a progress bar on stderr */
    int progress_lines;       /* stderr is no terminal: gr_poll prints the step every GR_PROGRESS_LINE_INTERVAL s */
    double progress_line_at;  /*   when the last line was printed (or the run began): the next waits from here */
    uint64_t progress_line_done; /*   the step's count then, for a rate */
    double progress_since;    /*   when the run began (0: unknown), for the time each line says */
    const char *progress_line_label;
    int threads;              /* --threads N: worker threads for large work (>= 1) */
    double max_time;          /* --max-time SECONDS: wall-clock limit (0: none) */
    double deadline;          /* gr_now() at which the limit is reached (0: none) */
    const char *max_time_from; /* where max_time came from when not --max-time ("the session's default"), for its message */
    int no_theory;            /* --no-theory: every query by the position graph */
    const char *checkpoint;   /* --checkpoint FILE: save and resume long runs (NULL: none) */
    struct gr_ckpt *ckpt;     /* its state while a run uses it (eval/heap/checkpoint.c) */
    int ckpt_keep;            /* a search stopped at --to: keep the checkpoint so a larger --to goes on */
    /* --histogram FILE: `check G periodic` is a long search with no period asked for (query/
     * longrun.h): no period detector, heap tables never stop at a proved period; at every
     * power of two a row of the research columns and the count of each value, printed to
     * histogram_out as the run goes (NULL: not printed; JSON lines when histogram_json) and
     * written whole to FILE. histogram_runs counts the checks that used it (one is allowed). */
    const char *histogram;
    FILE *histogram_out;
    /* --table-memory SIZE: in a long search, a heap table that would pass SIZE bytes moves to a
     * file and keeps about SIZE of it resident (eval/heap/tablefile.h; 0: the default) */
    size_t table_memory;
    int histogram_json, histogram_runs;
    int query_only;           /* --query N: run only the Nth query, 1-based (0: all) */
    int plot_width, plot_height; /* --plot-size WxH (0: the default size) */
    int no_prelude;           /* compile without the prelude's classic games (front/parse.c) */
    const gr_src_seg *segs;   /* stretches of src located by their own start, by offset (none: NULL) */
    int nsegs;
    int fail_memory;          /* the failure raised was the memory limit (an engine may then evict) */
    size_t fail_want;         /*   the bytes that were wanted then */

    /* The limit poll (gr_poll): polls left until the clock is read again, and how many polls
     * the last interval had (adapted so the clock is read about every few milliseconds). */
    uint32_t poll_left, poll_every;
    double poll_last;
    /* What is running, for the message when a limit stops it: the query (set by the query
     * runner; 0: none) and the last progress step (gr_progress_begin/update record it). */
    int query_no;
    int64_t heap_goal;        /* a streamed table's last heap (0: none): heap fills show the bar to it */
    const char *query_text;
    const char *step_label;
    uint64_t step_done, step_total;
    char limit_note[512];     /* added to a limit's message when set (e.g. heaps that grow) */
    /* The position whose rules are being evaluated (eval_n > 0: at run time), so that an
     * arithmetic error there is status 3 and names the position; 0 at compile time. */
    int eval_n;
    int64_t eval_pos[16];
    /* Asked at each clock read of gr_poll (NULL: never): the command line uses it to end a
     * run at once, quietly, when the reader of its output has gone (grundy x.game | head). */
    void (*interrupted)(struct gr_ctx *c);
    void *interrupted_user;   /* for interrupted: its owner (the API's program) */
    /* How the members of a census or a family check are computed (query/members.h): NULL, one
     * after another here; else over worker processes (--threads) or MPI ranks (grundy-mpi). */
    struct gr_spread *spread;
} gr_ctx;

/* Records the position being evaluated (n values; n = 0: none, compile time). */
void gr_eval_at(gr_ctx *c, const int64_t *pos, int n);

/* The cheap limit check every loop that can run long calls once per step: a decrement, and
 * now and then a read of the clock. Past --max-time it fails with status 3 and a message
 * naming the query and how far it got. */
void gr_poll_clock(gr_ctx *c);
/* For a thread team's member 0, which must never fail: 1 when --max-time has passed (the
 * caller stops its team, then gr_poll_clock fails as usual), and the progress line when due. */
int gr_poll_quiet(gr_ctx *c);
static inline void gr_poll(gr_ctx *c) {
    if (__builtin_expect(--c->poll_left == 0, 0)) gr_poll_clock(c);
}

/* Seconds on a monotonic clock (for --max-time and rates). */
double gr_now(void);

void gr_ctx_init(gr_ctx *c, const char *filename, const char *src, size_t len);
/* Starts a call on c: the call's layer afresh (limits and options at their defaults, no
 * failure, no account), the store kept as it is; counts the call on the store. */
void gr_ctx_call_init(gr_ctx *c, const char *filename, const char *src, size_t len);
void gr_ctx_free(gr_ctx *c);          /* frees the arena and every tracked block */

/* Accounts. gr_account_enter makes a the current account and returns the one before (for
 * gr_account_leave), stamping a with the store's call; a failure that jumps out leaves the
 * inner one current (the next call starts with none); on a context with no_accounts it does
 * nothing (returns NULL). gr_account_drop frees every block
 * charged to a (its owner must forget what pointed into them). */
gr_mem_account *gr_account_enter(gr_ctx *c, gr_mem_account *a);
static inline void gr_account_leave(gr_ctx *c, gr_mem_account *prev) { c->account = prev; }
void gr_account_drop(gr_ctx *c, gr_mem_account *a);
/* Forgets a, which must hold nothing (its memory is about to go: an arena rewound). */
void gr_account_unlist(gr_ctx *c, gr_mem_account *a);
/* Frees the blocks the call under way made and charged to no account: the scratch a failure
 * left behind (what the call kept is charged to an account, or it was garbage). */
void gr_ctx_free_scratch(gr_ctx *c);

/* Diagnostics. gr_diag_at prints "FILE:LINE:COL: error: MSG", the source line and a caret
 * (with tildes under the rest of the span) to c->diag and counts an error. gr_fail_at formats
 * the same text into c->fail_msg and jumps out with the status. gr_fail has no location
 * (resource limits): "grundy: error: MSG". */
void gr_diag_at(gr_ctx *c, gr_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void gr_fail_at(gr_ctx *c, gr_loc loc, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn void gr_fail(gr_ctx *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Raises a failure whose full text another process already made (cli/parallel.c). */
_Noreturn void gr_fail_again(gr_ctx *c, int status, const char *msg);
void gr_line_col(const gr_ctx *c, uint32_t off, int *line, int *col);

/* Tracked memory: counted against c->mem_limit (status 3 when exceeded) and freed by
 * gr_ctx_free if a failure skips the owner's own free. Never returns NULL. */
void *gr_alloc(gr_ctx *c, size_t size);           /* zeroed */
void *gr_realloc(gr_ctx *c, void *p, size_t size); /* new tail not zeroed */
void gr_mem_free(gr_ctx *c, void *p);
/* Spelt gr_free(c, p) everywhere inside; a macro, so the public gr_free(buf) of grundy.h (which
 * frees what the API returns) keeps that name for clients. */
#define gr_free(c, p) gr_mem_free((c), (p))
/* Multiplication for sizes; fails with status 3 on overflow. */
size_t gr_size_mul(gr_ctx *c, size_t a, size_t b);

/* Arena allocation that fails cleanly when malloc does. */
void *gr_new(gr_ctx *c, size_t size);
char *gr_strndup(gr_ctx *c, const char *s, size_t n);
#define GR_NEW(c, T) ((T *)gr_new((c), sizeof(T)))
#define GR_NEWN(c, T, n) ((T *)gr_new((c), gr_size_mul((c), sizeof(T), (size_t)(n))))
#endif
