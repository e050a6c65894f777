/* compile: what the command and "grundy play" share: reading a file whole, and compiling it
 * with every failure turned into its diagnostic and exit status; see compile.h. */
#include "compile.h"
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include "parse.h"

/* Reads the whole input; NULL with errno set on failure. */
char *gr_read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > ((size_t)1 << 30)) { free(buf); errno = EFBIG; return NULL; }
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); return NULL; }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) { free(buf); return NULL; }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Parses, checks and calls run; every failure below longjmps back here with its status. Kept
 * apart from main so that no local of main lives across the setjmp. */
int gr_cli_compile(gr_ctx *c, gr_cli_run_fn run, const void *user) {
    jmp_buf jb;
    c->on_fail = &jb;
    if (setjmp(jb) != 0) {
        if (c->progress) fputs("\r\033[K", stderr);   /* a bar may be left on the line */
        fflush(stdout);
        fputs(c->fail_msg, stderr);
        return c->fail_status;
    }
    gr_ast_program prog;
    gr_module mod;
    if (gr_parse(c, &prog) != 0) return GR_EXIT_INPUT;
    gr_sema(c, &prog, &mod);
    return run(c, &mod, user);
}
