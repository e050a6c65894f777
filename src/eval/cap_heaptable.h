/* cap_heaptable: the capability of a heap table, the SG values of heaps 0, 1, 2, ... filled in
 * order (evaluator.h explains capabilities). Only the heap recurrence has it. Its values leave
 * it as plain integers (copied into int64_t or uint16_t arrays), never as the kernels' own
 * width-packed table; period/ reads them so (the check queries, the research columns). */
#ifndef GRUNDY_CAP_HEAPTABLE_H
#define GRUNDY_CAP_HEAPTABLE_H
#include "eval/evaluator.h"

typedef struct gr_heap_table_cap {
    /* How many heaps are ready (the table's length): a rate to read ahead at. */
    int64_t (*filled)(const gr_game *g);
    /* Computes ahead towards heap hi what cannot fail, silently: kernels that are always
     * recurrences, a general rule block tentatively (stopping before a heap that would fail). */
    void (*prefetch)(gr_ctx *c, gr_game *g, int64_t hi);
    /* A period proved from the values so far: 1 and *period, *pre, *saltus (nim: sg(n) = n,
     * period 1 from 0 with saltus 1; the window theorems prove saltus 0); 0 none. */
    int (*period)(const gr_game *g, int64_t *period, int64_t *pre, int64_t *saltus);
    /* 1 if a 1-D table of g under conv streams (ensure block by block, then ready), holding no
     * array of cells. */
    int (*streams)(const gr_game *g, gr_conv conv);
    /* The values of heaps lo..lo+n-1 (lo + n <= filled) copied to out; read16 copies nothing
     * and returns 0 when one of them passes 65535. */
    void (*read)(const gr_game *g, int64_t lo, int64_t n, int64_t *out);
    int (*read16)(const gr_game *g, int64_t lo, int64_t n, uint16_t *out);
    /* The rare-value kernel's latest classes, for the research tables' columns (the mask of
     * rare values, the parity of heaps holding them, the common class): 1, or 0 when no such
     * kernel ran. */
    int (*rare_classes)(const gr_game *g, uint64_t *mask, int *heap_parity, int *common);
    /* Where it did not run (or not yet), the orientation of the classes it would take, as the
     * published tables count them: the parity of the code's split places (0 or 1, -1 when they
     * differ; period/detect.h: gr_detect_rare_classes_as), or -2 (GR_RARE_ANY) for a game it
     * does not handle: then the smaller side of any split. */
    int (*rare_orientation)(const gr_game *g);
    /* The options a check of periodicity may enumerate by default before it stops computing
     * (kernels whose work per heap grows with the heap); 0: unbounded, the heap bound suffices. */
    uint64_t (*check_budget)(const gr_game *g);
} gr_heap_table_cap;

/* g's capability, or NULL when its evaluator lacks it. */
const gr_heap_table_cap *gr_cap_heap_table(const gr_game *g);
#endif
