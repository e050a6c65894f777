/* play: "grundy play FILE.game POSITION": a game against the solver in the terminal. */
#ifndef GRUNDY_PLAY_H
#define GRUNDY_PLAY_H
/* argv[0] is "play"; returns the exit status. */
int gr_play_main(int argc, char **argv);
/* From main.c: reads a whole file (NUL-terminated); NULL with errno set on failure. */
#include <stdio.h>
char *gr_read_all(FILE *f, size_t *len);
/* From main.c: compiles c's source and calls run with the module; a failure anywhere prints
 * its diagnostic and returns its exit status. */
#include "sema.h"
typedef int (*gr_cli_run_fn)(gr_ctx *c, gr_module *m, const void *user);
int gr_cli_compile(gr_ctx *c, gr_cli_run_fn run, const void *user);
/* From main.c: the command's parsers of limits (a bad value is a usage error, status 2) and
 * the default memory limit (3/4 of RAM). */
size_t gr_cli_parse_size(const char *s);
double gr_cli_parse_seconds(const char *s);
size_t gr_cli_default_memory(void);
#endif
