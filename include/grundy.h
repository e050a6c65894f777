/* grundy.h: the public C interface of the grundy library, a compiler and solver for impartial
 * combinatorial games written in the .game language (man 5 grundy-game).
 *
 *     gr_diagnostic d;
 *     gr_program *p = gr_compile("game kayles = octal \"0.77\";", "k.game", &d);
 *     gr_answer a;
 *     if (p && gr_solve(p, "kayles(5) + kayles(3)", GR_NORMAL, &a) == 0)
 *         printf("%c %lld\n", a.outcome, (long long)a.sg);
 *     gr_program_free(p);
 *
 * Every call returns its errors (nothing is printed, nothing jumps across this interface, no
 * call exits the process). A program is compiled once and keeps what its calls computed (heap
 * tables, proved periods, boxes, position graphs, misere quotients): a solve after a table
 * reads the table, a larger table extends it. What is kept is each game's, with its own
 * memory account (gr_program_games): a call that stops while it runs (a limit, gr_interrupt)
 * drops the values of the games it used (one may be half made) and keeps the others'; a call
 * that would pass the memory limit drops the least recently used games' values until there is
 * room and runs again (only if something was dropped, under the same time limit: one clock
 * for the call); gr_program_reset drops them all at once. Programs are independent; calls on
 * one program from several threads are safe (they run one at a time, each may use threads of
 * its own), and gr_last_error tells each thread of its own last failure. Every symbol the
 * library exports starts with gr_. */
#ifndef GRUNDY_H
#define GRUNDY_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GRUNDY_BUILDING_LIBRARY) && (defined(__GNUC__) || defined(__clang__))
#define GR_API __attribute__((visibility("default")))
#else
#define GR_API
#endif

#define GR_VERSION_MAJOR 0
#define GR_VERSION_MINOR 1
#define GR_VERSION_PATCH 0

/* Error codes: 0 is success. */
enum {
    GR_OK = 0,
    GR_EINVAL = 1,   /* a bad argument: NULL where a value is needed, an empty range, ... */
    GR_EINPUT = 2,   /* bad input text (a position, a game name): see gr_last_error */
    GR_ELIMIT = 3,   /* a limit was reached (memory, positions, time): see gr_last_error */
    GR_ENOMEM = 4,   /* the library could not allocate its own bookkeeping */
    GR_EREFUTED = 5, /* gr_run: a check of the program was refuted (the output is still given) */
    GR_EINTR = 6     /* the call was stopped by gr_interrupt */
};

typedef enum gr_convention {
    GR_NORMAL = 0,   /* the player who cannot move loses */
    GR_MISERE = 1,   /* the player who cannot move wins */
    GR_ANYLEAF = 2,  /* a component with no move ends the game: the player to move wins */
    GR_EVERY = 3,    /* a move in every component that can move; none can: the mover loses */
    GR_OWN_PLAY = -1 /* gr_solve_full, gr_table_box, gr_options, gr_plot: as the query with no
                      * convention word means (a lone game's own play, else normal) */
} gr_convention;

/* Where and why input was rejected. line and column count from 1 (0: no location). */
typedef struct gr_diagnostic {
    int line, column;
    char message[512];
} gr_diagnostic;

typedef struct gr_answer {
    char outcome;            /* 'P' (the player to move loses), 'N' (wins), 'D' (a draw) */
    int has_sg;              /* sg is meaningful: normal play, no draw */
    int64_t sg;              /* Sprague-Grundy value (generalised for loopy games) */
    int has_remoteness;
    int64_t remoteness;      /* moves to the end under optimal play, when computed (the same
                              * rule as the solve query's: found where cheap, or asked for) */
    int nwinning;            /* how many winning moves there are (see gr_winning_moves) */
    gr_convention convention; /* the convention the position was solved under */
    /* Added in 0.1 (at the end, so the fields above keep their offsets). A position of a game
     * with cycles whose generalised SG value (Smith's gamma) is infinite, written ∞{K}: loopy
     * is 1 (has_sg 0) and K, the set of the finite values of its options, has nloopy members,
     * the first min(nloopy, GR_LOOPY_LISTED) of them ascending in loopy_set. */
    int loopy;
    int nloopy;
    int64_t loopy_set[64];
} gr_answer;
#define GR_LOOPY_LISTED 64

/* Resource limits of a program; 0 means the default (no limit on memory and time, positions
 * derived from memory). */
typedef struct gr_limits {
    size_t max_memory;       /* bytes */
    uint64_t max_positions;  /* positions of a position graph */
    double max_time;         /* seconds of wall clock per call */
    int threads;             /* worker threads for large work (0: one, the calling thread) */
} gr_limits;

typedef struct gr_program gr_program;

/* Frees a buffer the library returned (gr_run, gr_explain_program, gr_solve_full,
 * gr_table_box, gr_options, gr_plot). NULL is ignored. */
GR_API void (gr_free)(void *buf);   /* (in parentheses: clear of a macro of the library's sources) */

/* The library's version, "MAJOR.MINOR.PATCH". */
GR_API const char *gr_version(void);
/* A sentence for an error code. */
GR_API const char *gr_strerror(int code);

/* Compiles a .game program (its queries are checked, not run). filename is used in messages
 * and may be NULL. On bad input returns NULL and fills *diag (which may be NULL). */
GR_API gr_program *gr_compile(const char *source, const char *filename, gr_diagnostic *diag);
GR_API void gr_program_free(gr_program *p);
GR_API int gr_set_limits(gr_program *p, const gr_limits *limits);
/* Drops every value the program keeps (its tables, periods, boxes, graphs, quotients). */
GR_API void gr_program_reset(gr_program *p);
/* What the program's engine did so far. */
typedef struct gr_stats {
    uint64_t values_computed; /* values its evaluators computed (heap values, box cells, ...) */
    uint64_t calls;           /* calls answered */
    uint64_t compiles;        /* times the program was compiled: 1, plus one after each drop */
    uint64_t drops;           /* times what it kept was dropped (resets, limits, eviction) */
    size_t memory;            /* bytes it holds now (kept values and the compiled program) */
    /* Added in 0.1 (at the end, so the fields above keep their offsets). memory in parts: */
    size_t games_memory;      /* the games' values (each game's, gr_program_games) */
    size_t program_memory;    /* the compiled program (definitions, their IR) */
    size_t other_memory;      /* held by no game (0 between calls unless something leaks) */
    uint64_t game_drops;      /* times one game's values were dropped: a call stopped (a limit,
                               * gr_interrupt) while it used them, the memory limit, a redefinition */
    uint64_t evictions;       /* of them, for the memory limit (least recently used game first) */
    uint64_t retries;         /* calls run again after an eviction made room */
} gr_stats;
GR_API int gr_program_stats(gr_program *p, gr_stats *out);
/* What the program keeps of one game (an instance: "kayles", "bash[3]"). */
typedef struct gr_game_stats {
    char name[128];           /* as written in output, cut to fit */
    size_t bytes;             /* memory its values hold (its heap table, boxes, quotient, ...) */
    uint64_t values;          /* values kept: heap values in its table, positions in its boxes */
    uint64_t last_call;       /* the program's call that last used it (larger: more recent) */
    uint64_t drops;           /* times its values were dropped */
} gr_game_stats;
/* The games that hold values, in the order they were first used: up to cap of them into out
 * (out may be NULL when cap is 0), *count set to how many there are. */
GR_API int gr_program_games(gr_program *p, gr_game_stats *out, int cap, int *count);
/* Asks the call running on p to stop: it returns GR_EINTR within milliseconds of work (with
 * threads, when the block of work under way ends), and p answers the next call as before. Only an atomic store: callable from another thread or a signal
 * handler. An interrupt while no call runs is forgotten when the next call starts. */
GR_API void gr_interrupt(gr_program *p);
/* How far the call running on p has got, for a progress display from another thread (as
 * gr_interrupt, callable while the call runs). A snapshot taken every few milliseconds of
 * work; a call has several steps, each counting from 0. Between calls it holds the last call's
 * last snapshot. */
typedef struct gr_call_state {
    int query_no;             /* gr_run: the query running (1-based, in file order); 0 otherwise */
    char query[256];          /* its text, as a limit names it ("table normal kayles(0..99)", a
                               * check's claim), or "" */
    char step[64];            /* the step under way: a game's name while its values are computed,
                               * "exploring positions", "check"; "" before the first step */
    uint64_t done, total;     /* of that step's units (heaps, cells, positions); total 0: not known */
} gr_call_state;
GR_API int gr_call_progress(gr_program *p, gr_call_state *out);

/* The message of the last failed call on p, with its location in the text it was about
 * (the program, or the position or game given to the call), or "" after a success. */
GR_API const char *gr_last_error(const gr_program *p);
GR_API const gr_diagnostic *gr_last_diagnostic(const gr_program *p);

/* Solves a position written as in a 'solve' query ("kayles(3) + nim(2)", "g.a") under conv. */
GR_API int gr_solve(gr_program *p, const char *position, gr_convention conv, gr_answer *ans);
/* The positions the winning moves of position lead to, written as the position is: up to cap
 * of them, each NUL-terminated, into buf (size bufsize) one after another. Returns 0 and sets
 * *count to how many there are, or an error code. */
GR_API int gr_winning_moves(gr_program *p, const char *position, gr_convention conv,
                            char *buf, size_t bufsize, int *count);
/* The SG values of game (a rule set with heap positions, "kayles" or "bash[3]") at from..to,
 * into values[0 .. to - from]; -1 where a position has no SG value. */
GR_API int gr_table(gr_program *p, const char *game, int64_t from, int64_t to, int64_t *values);
/* Outcomes ('P', 'N', 'D') of game at from..to under conv, into outcomes[0 .. to - from]. */
GR_API int gr_table_outcomes(gr_program *p, const char *game, int64_t from, int64_t to,
                             gr_convention conv, char *outcomes);
/* gr_solve and the winning moves at once, as the solve query answers them (every call that
 * solves follows the query's one remoteness rule: found where cheap, else has_remoteness 0;
 * a position ending in the word "remoteness", "kayles(9) + kayles(12) remoteness", asks for it
 * as the query does, within the limits). conv may be GR_OWN_PLAY. *moves (may be NULL) gets an array of ans->nwinning strings, one block freed
 * with gr_free (NULL when there are none). */
GR_API int gr_solve_full(gr_program *p, const char *position, gr_convention conv, gr_answer *ans,
                         char ***moves);

/* What the cells of a table hold. */
typedef enum gr_cell_kind {
    GR_CELL_SG = 0,          /* SG values, -1 where none, <= -2 loopy (gr_table_data) */
    GR_CELL_OUTCOME = 1,     /* 'P', 'N', 'D' */
    GR_CELL_REMOTENESS = 2   /* moves to the end (step numbers under every), -1 for a draw */
} gr_cell_kind;

typedef struct gr_table_data {
    gr_cell_kind kind;       /* what the cells hold: as the table query answers, so an SG table
                               * under misere or every holds outcomes, under anyleaf the values
                               * after leaf deletion */
    gr_convention convention; /* the convention of the table */
    int ndims;                /* coordinates that vary: 0, 1 or 2 */
    int64_t rows, cols;       /* cells along the first varying coordinate, the second (1 if none) */
    int64_t *values;          /* rows * cols cells, row-major; freed with gr_free */
    /* Added in 0.1 (at the end). An SG cell v <= -2 is a loopy value ∞{K} (see gr_answer):
     * K is set j = -2 - v, loopy_values[loopy_off[j] .. loopy_off[j + 1]) ascending; nloopy
     * sets in all (equal sets are one). They live in the block of values (one gr_free). */
    int64_t nloopy;
    const int64_t *loopy_off;
    const int64_t *loopy_values;
} gr_table_data;

/* A table as the query "table [conv] game(lo[0]..hi[0], ...) [kind]" computes it: ncoords
 * coordinates (1 to 16), coordinate i over lo[i]..hi[i] (fixed where lo[i] == hi[i]), at most
 * two varying. conv may be GR_OWN_PLAY. */
GR_API int gr_table_box(gr_program *p, const char *game, int ncoords, const int64_t *lo,
                        const int64_t *hi, gr_convention conv, gr_cell_kind kind, gr_table_data *out);

/* One move of gr_options: the position it leads to, its outcome, its SG value (normal play). */
typedef struct gr_option {
    const char *position;
    char outcome;             /* 'P', 'N', 'D' */
    int has_sg;
    int64_t sg;
    /* Added in 0.1 (at the end). A loopy value ∞{K} (see gr_answer): loopy 1, K's nloopy
     * members ascending at loopy_set (inside the block of options). */
    int loopy;
    int nloopy;
    const int64_t *loopy_set;
} gr_option;

/* Every move from position, once per distinct result, as the options query lists them: an
 * array of *count options in one block (their strings inside it) freed with gr_free. */
GR_API int gr_options(gr_program *p, const char *position, gr_convention conv,
                      gr_option **options, int *count);

/* GR_NONE: a periodicity check (`G periodic`) found no period in the heaps it computed; not a
 * failure and not a claim that held. Claims that hold up to the bound are GR_HOLDS. */
typedef enum gr_verdict { GR_PROVED = 0, GR_HOLDS = 1, GR_REFUTED = 2, GR_NONE = 3 } gr_verdict;

typedef struct gr_check_answer {
    gr_verdict status;        /* proved (a theorem applies), holds (on the range checked), refuted, none */
    int has_period;
    int64_t period, preperiod, saltus;
    int64_t checked_to;       /* the largest heap (or the count of positions) examined */
    int has_counterexample;
    char counterexample[1024];/* for people, as the check query prints it */
    char theorem[512];        /* the theorem and the window verified, or why none applies */
    /* Added in 0.1 (at the end, so the fields above keep their offsets). The research tables'
     * columns of a periodic check where the rare-value kernel ran (has_columns; 0 otherwise),
     * over heaps 0..checked_to, as `check G periodic` prints them (docs/periodicity.md): the
     * largest value and the least heap holding it; heap n >= 1 is rare when parity(sg(n) &
     * rare_mask), xor the parity of n if rare_heap_parity, differs from the common class;
     * rare_count such heaps, the last at last_rare (-1: none). */
    int has_columns;
    int64_t largest, largest_at;
    uint64_t rare_mask;
    int rare_heap_parity;
    int64_t rare_count, last_rare;
} gr_check_answer;

/* Decides a claim written as after 'check' ("kayles periodic", "bash[3]: P(n) <=> n % 4 == 0
 * for n in 0..100"). A refuted claim is an answer: the call returns 0. A periodic check over
 * a family's parameters is one answer per member: use gr_run for it. */
GR_API int gr_check(gr_program *p, const char *claim, gr_check_answer *out);
/* The same with the command's --to N: how far a periodic check may compute (0: the default,
 * 100000 heaps for the fast kernels). */
GR_API int gr_check_to(gr_program *p, const char *claim, int64_t to, gr_check_answer *out);

/* A picture of the table gr_table_box would give (SG values or outcomes), as the plot query
 * draws it: format "png" or "svg"; width, height in pixels (0: the default size). *image gets
 * the file's bytes (*len of them), freed with gr_free. */
GR_API int gr_plot(gr_program *p, const char *game, int ncoords, const int64_t *lo, const int64_t *hi,
                   gr_convention conv, gr_cell_kind kind, const char *format, int width, int height,
                   unsigned char **image, size_t *len);

/* Runs the program's own queries and writes their answers in format "text", "csv" or
 * "json" to *out (a NUL-terminated string the caller frees with gr_free; *out_len its length,
 * which may be NULL). Returns 0, GR_EREFUTED if a check was refuted (the output is still
 * given), or another error code. */
GR_API int gr_run(gr_program *p, const char *format, char **out, size_t *out_len);
/* Runs one query written as in a .game file, without its ';' ("quotient kayles(0..30)",
 * "census g[c] for c in octal(2) to 1000", "table kayles(0..20) genus"), against the program's
 * definitions (not its own queries), and writes its answer as gr_run does. A statement that is
 * not a query (table, solve, check, options, plot, dot, quotient, census) is GR_EINPUT; an error
 * in the text is located in it ("query:1:COL"). */
GR_API int gr_run_one(gr_program *p, const char *query, const char *format, char **out, size_t *out_len);
/* Which evaluator and kernel every rule set gets, and why (grundy --explain). */
GR_API int gr_explain_program(gr_program *p, char **out, size_t *out_len);

#ifdef __cplusplus
}
#endif
#endif
