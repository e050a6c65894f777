/* compile: what main.c and play.c share (kept apart so that neither calls the other). */
#ifndef GRUNDY_CLI_COMPILE_H
#define GRUNDY_CLI_COMPILE_H
#include <stdio.h>
#include "sema.h"

/* The time limit of a session's entry and of a computer's turn in play when --max-time is not
 * given: a query that would run for hours (a misere sum the position graph searches) stops and
 * says so, and the session goes on. */
#define GR_CLI_TURN_TIME 60.0

/* Reads a whole file (NUL-terminated); NULL with errno set on failure. */
char *gr_read_all(FILE *f, size_t *len);
/* A program from standard input may leave out the ';' at the end of a line, as in the session
 * (its last one above all): when *src does not parse, and does with a ';' added where a line
 * (or lines, while a statement is open) would be whole, adds them (*src replaced: every line
 * and column stays where it was) and returns 1. */
int gr_cli_add_semis(char **src, size_t *len);
/* Parses text into *prog with c made for it (name in its locations), nothing printed and no
 * prelude added: 1 if it parses. *prog lives in c's arena; the caller frees c (gr_ctx_free). */
int gr_cli_parse_quiet(gr_ctx *c, const char *name, const char *text, size_t len, gr_ast_program *prog);
/* Compiles c's source and calls run with the module; a failure anywhere prints its diagnostic
 * and returns its exit status. */
typedef int (*gr_cli_run_fn)(gr_ctx *c, gr_module *m, const void *user);
int gr_cli_compile(gr_ctx *c, gr_cli_run_fn run, const void *user);
/* The command's usage errors (one line on standard error, status 2; arg shown escaped and
 * cut), its parsers of limits (a bad value is a usage error) and the default memory limit (3/4
 * of RAM): main.c's, shared with play.c and the session. */
_Noreturn void gr_cli_usage_error(const char *fmt, const char *arg) __attribute__((format(printf, 1, 0)));
size_t gr_cli_parse_size(const char *opt, const char *s);
double gr_cli_parse_seconds(const char *s);
size_t gr_cli_default_memory(void);
#endif
