/* checkresult: what a check answers (its status, the period proved, the theorem or the
 * counterexample, the research tables' columns), shared by the runner of checks (check.c) and the
 * checks it hands over (formula.c). Its own header so that formula.h need not include check.h,
 * whose runner includes formula.h: the two stay modules that do not include each other in a
 * circle. */
#ifndef GRUNDY_CHECKRESULT_H
#define GRUNDY_CHECKRESULT_H
#include <stdint.h>
#include "detect.h"

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
#endif
