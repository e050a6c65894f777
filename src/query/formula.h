/* formula: 'check G: FORMULA for x in lo..hi, ...', a conjecture over positions tested on every
 * assignment of its bound variables in odometer order (the innermost long range of a heap
 * recurrence in blocks across threads); the first assignment that makes the formula 0 refutes.
 * Values come from the evaluators (evaluator.h), made ready for the range first, else from the
 * position graph. A formula over positions is never proved. */
#ifndef GRUNDY_FORMULA_H
#define GRUNDY_FORMULA_H
#include "sema.h"
#include "checkresult.h"

void gr_check_formula(gr_ctx *c, gr_rquery *q, gr_check_result *out);
#endif
