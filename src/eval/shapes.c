/* shapes: which evaluator lists the options of the positions of each shape (evaluator.h's
 * gr_evaluator_of_shape), whichever evaluator lowering chose for the game. The position graph
 * (graph/grapheval.c) asks it, so that it knows none of the other evaluators' tables; a file of
 * its own rather than a part of the registry (evaluator.c), because the registry names the
 * graph's evaluator and the graph's evaluator calls this: in one file the two would call each
 * other in a circle (tests/check_calls.sh). */
#include "eval/evaluator.h"

const gr_evaluator_ops *gr_evaluator_of_shape(gr_shape shape) {
    switch (shape) {
    case SHAPE_HEAP: return &gr_heap_evaluator;
    case SHAPE_TUPLE: return &gr_table_evaluator;
    case SHAPE_GRAPH: return NULL;   /* an explicit graph: its edges, the graph's own */
    case SHAPE_FIGURE: return &gr_figure_evaluator;
    case SHAPE_COINS: return &gr_coins_evaluator;
    case SHAPE_BOARD: return &gr_board_evaluator;
    }
    return NULL;
}
