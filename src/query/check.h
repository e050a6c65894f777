/* check: runs 'check' queries. Finds and proves periodicity of heap games (least period p,
 * preperiod e, saltus s), decides stated periodicity claims, and tests formula conjectures
 * over ranges of positions, reporting the first counterexample. See docs/periodicity.md for
 * the theorems and the windows each certificate verifies. */
#ifndef GRUNDY_CHECK_H
#define GRUNDY_CHECK_H
#include <stdio.h>
#include "sema.h"
#include "checkresult.h"

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
