/* session: "grundy" with no file on a terminal (or "grundy -i FILE.game"): definitions and
 * queries typed line by line, each query answered at once with the text a file gives. A thin
 * client of the library: every entry is compiled afresh with the definitions accepted so far
 * (a definition of a known name replaces it), so nothing is answered differently from a file. */
#ifndef GRUNDY_SESSION_H
#define GRUNDY_SESSION_H
#include "ctx.h"
#include "format.h"

/* Copies the command line's settings (limits, threads, ...) into a new compilation. */
typedef void (*gr_session_setup_fn)(gr_ctx *c, const void *user);

/* Runs the session on standard input (with line editing and history when it is a terminal
 * and libedit was found), loading load (may be NULL) first; every query's answer in format
 * (the command line's --format, as its other options apply to every query). Returns the exit
 * status: 0, or 2 when load has an error. */
int gr_session_main(const char *load, int explain, gr_format format, gr_session_setup_fn setup, const void *user);
#endif
