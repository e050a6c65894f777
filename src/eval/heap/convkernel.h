/* convkernel: the heap kernels of the 'anyleaf' and 'every' conventions, their evaluator
 * (gr_convkernel_evaluator) and their capability (cap_convkernel.h, where what they compute is
 * said): the calls the room's own files and the tests make directly. */
#ifndef GRUNDY_CONVKERNEL_H
#define GRUNDY_CONVKERNEL_H
#include "eval/cap_convkernel.h"

/* Does a kernel apply to g (a heap rule set whose moves never split)? 0 if not. */
int gr_convkernel_fits(const gr_game *g);
void gr_convkernel_describe(const gr_game *g, char *buf, size_t cap);
int gr_convkernel_value(gr_ctx *c, gr_game *g, int64_t n, gr_hcval *out);
#endif
