/* tbcode: take-and-break codes in CGSuite spelling ("0.77", "4!.0", "0.[3]", "0.&32;") parsed into
 * the IR's digit table (game.h: gr_tbcode), and the digit of any place, periodic codes included.
 * It lives in lower, before every evaluator, so the heap kernels read digits without reaching
 * back into the semantic pass. */
#ifndef GRUNDY_TBCODE_H
#define GRUNDY_TBCODE_H
#include "game.h"

/* Parses a take-and-break code; loc points at the string token (with its quotes) for
 * diagnostics (status 2). gr_tb_digit (declared in game.h) is defined here too. */
void gr_parse_tbcode(gr_ctx *c, const char *code, gr_loc loc, gr_tbcode *out);
#endif
