/* check: runs 'check' queries. Finds and proves periodicity of heap games (least period p,
 * preperiod e, saltus s), decides stated periodicity claims, and tests formula conjectures
 * over ranges of positions, reporting the first counterexample. See docs/periodicity.md for
 * the theorems and the windows each certificate verifies. */
#ifndef GRUNDY_CHECK_H
#define GRUNDY_CHECK_H
#include <stdio.h>
#include "detect.h"
#include "sema.h"

/* NONE: `check G periodic` found no period (not a claim that held); exits 0 like holds. Appended:
 * checkpoint records and the C API keep the values before it. */
typedef enum { GR_CHECK_PROVED, GR_CHECK_HOLDS, GR_CHECK_REFUTED, GR_CHECK_NONE } gr_check_status;

/* The status as text, CSV and JSON print it. */
static inline const char *gr_check_status_name(gr_check_status s) {
    static const char *const names[] = { "proved", "holds", "refuted", "none" };
    return names[s];
}

typedef struct gr_check_result {
    gr_check_status status;
    int has_period;                   /* period/preperiod (and saltus) are meaningful */
    int64_t period, preperiod, saltus;
    int64_t checked_to;               /* the largest heap (or the count of positions) examined */
    char theorem[512];                /* text: the theorem and the window verified, or why none */
    int has_counterexample;
    char counterexample_json[1024];   /* a JSON object, e.g. {"n":16,"sg":2,"sg_n_plus_p":1} */
    char counterexample_text[1024];   /* the same for people */
    /* check G periodic: the research tables' columns over heaps 0..checked_to (has_columns);
     * they are printed when the rare-value kernel ran (columns.has_rare) */
    int has_columns;
    gr_value_columns columns;
} gr_check_result;

void gr_check_run(gr_ctx *c, gr_rquery *q, gr_check_result *out);
/* The columns of a periodic check where the rare-value kernel ran (nothing otherwise): JSON
 * members ,"largest":..,"last_rare":.. and a text line with the given indent. */
void gr_check_columns_json(const gr_check_result *r, FILE *out);
/* ,"rare_kernel":true|false where the columns were made: whether the rare-value kernel computed
 * the values (its classes are the columns'), or a plain kernel did (the classes the values give).
 * Written last in the object, after "theorem", so that the fields before it stay as they were. */
void gr_check_kernel_json(const gr_check_result *r, FILE *out);
/* The rare-value columns alone (rare_mask .. last_rare), for rows that write largest themselves. */
void gr_check_rare_json(const gr_check_result *r, FILE *out);
void gr_check_columns_text(const gr_check_result *r, const char *indent, FILE *out);
/* The same columns in CSV, after a row's other cells: the header's tail GR_CHECK_COLUMNS_CSV
 * and a row's cells,
 * empty where the rare-value kernel did not run (last_rare also when no heap is rare). */
#define GR_CHECK_COLUMNS_CSV ",largest,largest_at,rare_mask,rare_heap_parity,rare_count,last_rare"
void gr_check_columns_csv(const gr_check_result *r, FILE *out);
#endif
