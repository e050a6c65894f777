/* exprint.h: what the expression compiler (expr.c), its stack machine (exprvm.c) and the row
 * evaluator (exprrow.c) share: the instruction set and the built-ins' numbers, and the checked
 * arithmetic both evaluators run. Private to front/. */
#ifndef GRUNDY_EXPRINT_H
#define GRUNDY_EXPRINT_H
#include "expr.h"

enum { I_CONST, I_LOAD, I_UN, I_BIN, I_ANDJ, I_ORJ, I_BOOL, I_CALL, I_HOOK };
enum { MAX_STACK = 256 };

typedef enum { B_MIN, B_MAX, B_ABS, B_CTZ, B_CLZ, B_POPCOUNT, B_ISQRT, B_FIB, B_LOG2, B_POW, B_COUNT } builtin;

/* Checked arithmetic (exprvm.c): an overflow, a division by zero or a bad argument fails with a
 * located diagnostic (status 2 at compile time, 3 while a position's rules run). */
int64_t gr_expr_floor_div(gr_ctx *c, int64_t a, int64_t b, gr_loc loc);
int64_t gr_expr_binary(gr_ctx *c, gr_op op, int64_t a, int64_t b, gr_loc loc);
int64_t gr_expr_builtin(gr_ctx *c, int b, const int64_t *a, int argc, gr_loc loc);
#endif
