/* compile: what main.c and play.c share (kept apart so that neither calls the other). */
#ifndef GRUNDY_CLI_COMPILE_H
#define GRUNDY_CLI_COMPILE_H
#include <stdio.h>
#include "sema.h"

/* Reads a whole file (NUL-terminated); NULL with errno set on failure. */
char *gr_read_all(FILE *f, size_t *len);
/* Compiles c's source and calls run with the module; a failure anywhere prints its diagnostic
 * and returns its exit status. */
typedef int (*gr_cli_run_fn)(gr_ctx *c, gr_module *m, const void *user);
int gr_cli_compile(gr_ctx *c, gr_cli_run_fn run, const void *user);
#endif
