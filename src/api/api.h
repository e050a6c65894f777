/* api: the public C interface (include/grundy.h) over the stages. A gr_program is an engine
 * (engine.h): the program compiled once, keeping what its calls compute. Each call turns its
 * arguments into one generated query (the position, game and range, or claim asked for),
 * which the engine compiles against the program and runs; every failure below comes back as
 * a GR_E... code and a located message (in the caller's text when it is there), kept per
 * thread. Calls on one program are serialised by the engine's lock; programs share nothing. */
#ifndef GRUNDY_API_H
#define GRUNDY_API_H
#include "grundy.h"
#endif
