/* game: the lowered form of a rule set (the IR), shared by every evaluator.
 *
 * A gr_rules is one rule set declaration compiled once: its expressions as frame-slot code.
 * A gr_game is an instance of it with concrete parameter values (bash[3] and bash[4] are two
 * games), plus its lowering decision (evaluator and kernel, with the reason, for --explain)
 * and the solver state grown on demand (the SG table of a heap game, ...). */
#ifndef GRUNDY_GAME_H
#define GRUNDY_GAME_H
#include "ast.h"
#include "expr.h"

typedef enum { SHAPE_HEAP, SHAPE_TUPLE, SHAPE_GRAPH,
               SHAPE_FIGURE,   /* a Hackenbush figure (hackenbush.h); a position is a mask of cut edges */
               SHAPE_COINS,    /* a row of coins (turning.h); a position is a mask of heads */
               SHAPE_BOARD     /* a board less removed vertices (board.h) */
} gr_shape;

/* The evaluators lowering chooses from (eval/evaluator.c's registry maps each id to its table):
 * heap recurrence, table recurrence, position graph, Green Hackenbush, coin turning. (The heap
 * kernels of 'anyleaf' and 'every' have no id: the registry picks them by the convention.) */
typedef enum { GR_LOSS = 0, GR_WIN = 1, GR_DRAW = 2 } gr_outcome; /* P, N, D for the mover */
typedef enum { EVAL_HEAP, EVAL_TABLE, EVAL_GRAPH, EVAL_FIGURE, EVAL_COINS, EVAL_BOARD } gr_evaluator;
typedef enum {
    KER_NIM,           /* subtract 1..: sg(n) = n */
    KER_SUBTRACT,      /* finite subtraction set: |S| word operations per heap */
    KER_SUBTRACT_INF,  /* an infinite subtraction set (open range or generator) */
    KER_OCTAL,         /* take-and-break, at most two heaps after a move, no constraints */
    KER_TB,            /* any take-and-break code (3+ heaps, '!', '?', '=', periodic digits) */
    KER_RULES,         /* general rules, interpreted */
    KER_TUPLE,         /* tuple positions */
    KER_LINES,         /* pairs whose moves slide along rows, columns, diagonals (Wythoff) */
    KER_GRAPH,         /* explicit graph */
    KER_HACKENBUSH,    /* Green Hackenbush: colon and fusion principles */
    KER_TURNING,       /* coin turning: single-head values, xor of the heads */
    KER_BOARD          /* games on boards: components under canonical forms (eval/board/) */
} gr_kernel;

/* ---- take-and-break codes ---- */
enum { TB_ANY = 0, TB_UNEQUAL = 1, TB_SOMEUNEQUAL = 2, TB_EQUAL = 3 };
typedef struct gr_tbdigit { uint32_t mask; uint8_t constraint; } gr_tbdigit; /* bit h: may leave h heaps */
typedef struct gr_tbcode {
    gr_tbdigit *d;      /* d[0] is the digit before the point (remove 0 tokens) */
    int ndigits;        /* places 0..ndigits-1 given explicitly */
    int period;         /* >0: the last `period` digits repeat forever ("0.[3]") */
    int max_heaps;      /* most heaps a move leaves */
    int last_place;     /* t: the place of the last nonzero digit (-1: none; INT32_MAX: periodic) */
} gr_tbcode;
gr_tbdigit gr_tb_digit(const gr_tbcode *code, int64_t place);

/* ---- general rules ---- */
typedef struct gr_rbinding { int slot; gr_code *lo, *hi; const char *name; gr_loc loc; } gr_rbinding;
typedef struct gr_rpart { gr_code **coords; } gr_rpart;      /* one position of the target */
typedef struct gr_rmove {
    gr_rbinding *binds; int nbinds;
    gr_code *guard;                /* where ..., or NULL */
    gr_rpart *parts; int nparts;   /* the target: a sum of nparts positions (1 for a plain target) */
    int is_sum;                    /* written with { } */
    gr_loc loc;
} gr_rmove;
typedef struct gr_rterm { gr_code *cond; gr_term_kind kind; gr_loc loc; } gr_rterm;

typedef struct gr_rules {
    gr_gdecl *decl;
    int nparams;                   /* slots 0..nparams-1 */
    int arity;                     /* position coordinates, slots nparams..nparams+arity-1 */
    int nslots;
    gr_code *where;                /* position (...) where COND, or NULL */
    gr_rmove *moves; int nmoves;
    gr_rterm *terms; int nterms;
    const char **coord_names;
} gr_rules;

/* ---- the instance ---- */
typedef struct gr_game gr_game;

/* What the evaluators find out and keep about an instance while it runs: the only part of a
 * game that changes after lowering. */
typedef struct gr_game_state {
    struct gr_eval_cache *cache;   /* what the evaluators keep between calls (eval/cache.h), opaque here */
    gr_mem_account mem;            /* the tracked memory of the cache (core/ctx.h; owner: the game) */
    int not_recurrence;            /* a move was found that does not lead to smaller heaps */
    const struct gr_rmove *grow_move; /* heap rules: a move that leads to larger heaps (grow.h) */
    int64_t grow_max;              /* the largest heap of it reached in a position graph */
    char found[256];               /* what running found out, said after explain ("; but heap 7 ...") */
} gr_game_state;
struct gr_game {
    const char *name;              /* as written in output: "kayles", "bash[3]" */
    gr_gdecl *decl;
    int64_t *params; int nparams;
    gr_shape shape;
    int arity;                     /* coordinates of a position (1 for heaps, 1 vertex) */
    gr_conv play;            /* the convention when played alone */
    gr_evaluator evaluator;
    gr_kernel kernel;
    char explain[512];

    /* subtraction */
    int64_t *sub; size_t nsub, subcap;  /* sorted; for an infinite set, the prefix made so far */
    int64_t sub_open_from;         /* KER_SUBTRACT_INF open range: every k >= this (0: none) */
    const gr_set *sub_gen;         /* a set builder, generated on demand */
    /* A set builder's prefix (sub, gen_next, gen_done) is the one thing of the IR made later, on
     * demand: the same fixed set whatever asks, so it is a memo, not an answer of a query. */
    gr_code *gen_elem; int gen_slot; int64_t gen_next, gen_hi; int gen_has_hi, gen_done;
    gr_tbcode tb;                  /* KER_OCTAL, KER_TB */
    gr_rules *rules;               /* KER_RULES, KER_TUPLE */

    /* graph */
    const char **vertices; int nvertices;
    int32_t *adj_off, *adj;        /* CSR successors */
    struct gr_figure *figure;      /* SHAPE_FIGURE */
    struct gr_turning *turning;    /* SHAPE_COINS */
    const struct gr_board_rule *board_rule;      /* SHAPE_BOARD: the rule (board.h) */
    const struct gr_board_named **boards; int nboards, boards_cap;   /* the named boards its positions use */

    /* What running the game finds out (made with the instance; the rest of the IR stays as
     * lowering left it, so an engine runs one IR for many calls). */
    struct gr_game_state *state;
    gr_game *next;
};
#endif
