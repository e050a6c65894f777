/* TEMPORARY stub until check.c lands. */
#include "check.h"
__attribute__((weak)) void gr_check_run(gr_ctx *c, gr_rquery *q, gr_check_result *out);
__attribute__((weak)) void gr_check_run(gr_ctx *c, gr_rquery *q, gr_check_result *out) {
    (void)out; gr_fail_at(c, q->q->loc, GR_EXIT_INPUT, "check: not supported yet");
}
