/* evaluator: the one interface every evaluator fills, and the only way queries and sums reach
 * values. An evaluator is a table of operations (gr_evaluator_ops) over the positions of one
 * game (a gr_game of the IR: a heap, a tuple of coordinates, a vertex), the operations every
 * evaluator can answer:
 *   answers   what it can answer for a game under a convention (value kinds, GR_KIND_*), and
 *             why, in a sentence (grundy --explain prints it)
 *   value     the value of one position: SG value, outcome, remoteness (the kinds asked)
 *   fill      a box of positions in row-major order (a 1-D or 2-D table), in the order the
 *             evaluator likes best (a heap table from 0, a line kernel from (0, 0))
 *   options   every option of a position, each a sum of positions of the same game
 *   terminal  the 'terminal' rule a position matches, if any
 *   describe  what the values computed so far decided (--explain), never computing
 * An evaluator may decline (value and fill return 0) when it finds out that it cannot answer
 * (a heap rule set that is not a recurrence after all, a tuple rule set with a cycle): the
 * caller then asks the ground truth, the position graph over sums (sums/), which answers
 * every game under every convention from options and terminals alone.
 *
 * One interface per capability: what only some evaluators have is a capability, a table of
 * its own in a header beside this one (eval/cap_*.h), reached through a getter that returns
 * NULL when the game lacks it, so that no caller asks which evaluator or kernel a game has:
 *   cap_ready.h      gr_cap_ready: make a range of values ready at once and read them without
 *                    computing (heap recurrence, table recurrence)
 *   cap_heaptable.h  gr_cap_heap_table: a heap table filled from 0 (how far, prefetch, the
 *                    period proved while filling, streaming, its values as plain integers, the
 *                    rare-value classes, a check's default work budget) (heap recurrence)
 *   cap_moves.h      gr_cap_moves: the options of a wanted SG value without enumerating every
 *                    option (heap recurrence, Green Hackenbush)
 *   cap_convkernel.h gr_cap_convkernel: the heap kernels of 'anyleaf' and 'every' (heap rule
 *                    sets that never split)
 *   cap_quotient.h   gr_cap_quotient: the misere quotient of a heap rule set
 *   cap_graph.h      the position graph, the ground truth: every game has it, so its header
 *                    declares its calls directly (no getter); sums/ builds on it
 *   cap_checkpoint.h --checkpoint for the run (the heap tables are what it saves)
 * An evaluator lists the first three (ready, heap table, moves) in its gr_evaluator_caps, and
 * evaluator.c's getters read them there; the getters of the others are beside their kernels
 * (gr_cap_convkernel in heap/convkernel.c, gr_cap_quotient in heap/quotient.c), and the graph's
 * and the checkpoint's calls are declared in their headers directly. This header includes
 * none of them and no evaluator's header, and a capability header includes this one at most.
 * The questions sums ask of a rule set's form (gr_eval_is_nim, gr_eval_splits) are answered
 * below, so that no stage after eval/ reads the kernel lowering chose.
 *
 * Adding an evaluator (a dense box, a theory for misere or 'every' sums, Green Hackenbush,
 * coin turning, ...):
 *   1. add its id to gr_evaluator in lower/game.h and let lower/lower.c choose it (with the
 *      reason in g->explain), or, for an evaluator chosen by the convention rather than by
 *      lowering (the heap kernels of 'anyleaf' and 'every'), no id: evaluator.c's gr_evaluator_for picks it;
 *   2. write eval/ROOM/NAME.c (+ NAME.h for its own entry points; the rooms are heap/, box/,
 *      graph/, figure/, see src/README.md) with a const gr_evaluator_ops and, for what only it
 *      can do, the capability tables it fills (or a new cap_*.h with its getter);
 *      answer only what is proved, decline the rest; value kinds beyond SG, outcome and
 *      remoteness get a new GR_KIND_* bit and a field in gr_value;
 *   3. declare it below and put it in the registry in evaluator.c (gr_evaluator_of by its id;
 *      if it enumerates the options of a new shape, gr_evaluator_of_shape in shapes.c too);
 *   4. test it against the position graph on many random small games (tests/unit_*.c).
 * No query or sum code changes: they call gr_eval_* and the capabilities only. */
#ifndef GRUNDY_EVALUATOR_H
#define GRUNDY_EVALUATOR_H
#include <stddef.h>
#include <stdint.h>
#include "game.h"
#include "sema.h"

/* Value kinds, as bits. */
enum {
    GR_KIND_SG = 1,          /* Sprague-Grundy value (normal play, acyclic) */
    GR_KIND_OUTCOME = 2,     /* P, N or D for the player to move, under the convention */
    GR_KIND_REMOTENESS = 4,  /* moves to the end under optimal play (Steinhaus) */
    GR_KIND_LEAFLESS = 8,    /* 'anyleaf': the value after leaf deletion (-1 at a leaf) */
    GR_KIND_STEPS = 16       /* 'every': the step number (Smith) */
};

/* The value of one position; a kind not answered is -1. */
typedef struct gr_value {
    int outcome;             /* gr_outcome: GR_LOSS (P), GR_WIN (N), GR_DRAW (D) */
    int64_t sg;
    int64_t remoteness;
    int64_t leafless, steps;
} gr_value;

/* A box of positions: each coordinate either ranges over lo..hi or is fixed (lo == hi); at
 * most two vary (dim[0] is the row, dim[1] the column). Cells are numbered row-major. */
typedef struct gr_box {
    int ncoords;
    int64_t lo[GR_MAX_ARITY], hi[GR_MAX_ARITY];
    int ndims;
    int dim[2];
    gr_loc loc;              /* blamed for a cell that is not a position of the game */
} gr_box;

/* One option: nparts positions of the game (g->arity coordinates each, flattened). */
typedef void (*gr_option_fn)(void *user, const int64_t *parts, int nparts);

typedef struct gr_evaluator_ops {
    const char *name;        /* "heap recurrence", "table recurrence", "position graph" */
    /* GR_KIND_* bits it answers for g played under conv (0: none); a sentence in why. */
    unsigned (*answers)(const gr_game *g, gr_conv conv, char *why, size_t cap);
    /* 1 and *out filled (at least the kinds asked), or 0: declined. loc is blamed for a
     * position that is not one of the game. */
    int (*value)(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                 gr_loc loc, gr_value *out);
    /* out[cell] for every cell of the box: SG values (kind GR_KIND_SG, -1 where none),
     * outcomes (GR_KIND_OUTCOME), leaf-deleted values or step numbers. 1, or 0: declined. NULL: value cell by cell. */
    int (*fill)(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                int64_t *out);
    /* Every option of a non-terminal position, in a stable order. */
    void (*options)(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user);
    /* The gr_term_kind of the first 'terminal' rule pos matches, or -1. NULL: none. */
    int (*terminal)(gr_ctx *c, const gr_game *g, const int64_t *pos);
    /* For --explain: what the values computed so far decided ("" when nothing), never
     * computing; returns how many positions it would like computed first to say it (0: none).
     * NULL: nothing to say. */
    int64_t (*describe)(const gr_game *g, char *buf, size_t cap);
    /* The capabilities only some evaluators have (NULL: none of them). */
    const struct gr_evaluator_caps *caps;
} gr_evaluator_ops;

/* The capability tables of an evaluator (each NULL when it lacks it; eval/cap_*.h). */
typedef struct gr_evaluator_caps {
    const struct gr_ready_cap *ready;
    const struct gr_heap_table_cap *heap_table;
    const struct gr_moves_cap *moves;
} gr_evaluator_caps;

/* The evaluators (one file each in eval/) and the registry. */
extern const gr_evaluator_ops gr_heap_evaluator;    /* heap/heapeval.c */
extern const gr_evaluator_ops gr_table_evaluator;   /* box/tableeval.c */
extern const gr_evaluator_ops gr_graph_evaluator;   /* graph/grapheval.c */
extern const gr_evaluator_ops gr_figure_evaluator;  /* figure/figureeval.c: Green Hackenbush */
extern const gr_evaluator_ops gr_coins_evaluator;   /* figure/figureeval.c: coin turning */
extern const gr_evaluator_ops gr_board_evaluator;   /* board/boardeval.c: games on boards */
extern const gr_evaluator_ops gr_convkernel_evaluator; /* heap/convkernel.c: heaps under anyleaf, every */
const gr_evaluator_ops *gr_evaluator_of(const gr_game *g);
/* The evaluator whose options enumerate the moves of positions of this shape (heaps, tuples,
 * figures, coin rows), whichever evaluator lowering chose for the game; NULL for an explicit
 * graph, whose moves are its edges. The position graph asks it (shapes.c). */
const gr_evaluator_ops *gr_evaluator_of_shape(gr_shape shape);

/* What queries and sums call. */
unsigned gr_eval_answers(const gr_game *g, gr_conv conv, char *why, size_t cap);
int gr_eval_value(gr_ctx *c, gr_game *g, gr_conv conv, const int64_t *pos, unsigned kinds,
                  gr_loc loc, gr_value *out);
/* The SG value of pos under normal play, or -1 if the evaluator declines. */
int64_t gr_eval_sg(gr_ctx *c, gr_game *g, const int64_t *pos, gr_loc loc);
int gr_eval_fill(gr_ctx *c, gr_game *g, gr_conv conv, const gr_box *box, unsigned kind,
                 int64_t *out);
/* Options of pos; a terminal position has none. */
void gr_eval_options(gr_ctx *c, gr_game *g, const int64_t *pos, gr_option_fn fn, void *user);
int gr_eval_terminal(gr_ctx *c, const gr_game *g, const int64_t *pos);
int64_t gr_eval_describe(const gr_game *g, char *buf, size_t cap);
/* The text of pos from `at` in buf (cut at cap; the end returned, past cap if it did not fit):
 * "name(coordinates)", a vertex "name.v", a coin row by its heads, a figure with edge >= 0 that
 * cut marked ("h - (c - d)"). */
size_t gr_eval_render(const gr_game *g, const int64_t *pos, int edge, char *buf, size_t cap, size_t at);
/* Questions on the form of a rule set that sums ask, answered here so that no stage after eval/
 * reads the kernel lowering chose (lower/game.h): g is Nim (every smaller heap an option, so
 * sg(n) = n: a heap's value and weight need no table); a move of g, a heap rule set, may leave
 * two heaps or more (its positions below heap n are then partitions of n, not n + 1 heaps). */
int gr_eval_is_nim(const gr_game *g);
int gr_eval_splits(const gr_game *g);
/* Every option of pos, counted. */
uint64_t gr_eval_count_options(gr_ctx *c, gr_game *g, const int64_t *pos);
/* Positions the box evaluators valued for g so far (heap values are counted on the context,
 * gr_ctx.store.values_computed): an engine's statistics. */
uint64_t gr_eval_computed(const gr_game *g);
/* Values g's cache holds now: heap values in its table and positions its box evaluators valued. */
uint64_t gr_eval_kept(const gr_game *g);
/* Shared by evaluators: SG values and outcomes under normal play while g is a recurrence (the
 * why is g->explain); the 'terminal' rules of a rule set (-1 for games without rules). */
unsigned gr_answers_normal_recurrence(const gr_game *g, gr_conv conv, char *why, size_t cap);
int gr_rules_terminal_of(gr_ctx *c, const gr_game *g, const int64_t *pos);
/* The coordinates of cell i of a box; the number of cells (0 past 2^62). */
void gr_box_cell(const gr_box *box, int64_t i, int64_t *pos);
int64_t gr_box_cells(const gr_box *box, int64_t *rows, int64_t *cols);

#endif
