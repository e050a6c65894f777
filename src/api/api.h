/* api: the public C interface (include/grundy.h) over the stages. Each call compiles the
 * program's text again together with one generated query (the position or table asked for)
 * in a fresh gr_ctx of its own, catches every failure of the stages below with a setjmp of
 * its own, and turns it into a GR_E... code and a located message. Nothing is shared between
 * programs, so threads may use different programs at once. */
#ifndef GRUNDY_API_H
#define GRUNDY_API_H
#include "grundy.h"
#endif
