/* fuzz_common: what both libFuzzer targets share: one input, a .game source, compiled (and
 * with queries, run) exactly as the command does, with failures caught by the same setjmp,
 * diagnostics and output to /dev/null, and everything freed by gr_ctx_free (so
 * AddressSanitizer's leak check covers the library's tracked memory). Queries run under small
 * limits: 64 MiB of tracked memory, 10000 positions per graph, 'check ... periodic' to 200, and
 * one second of wall clock (--max-time), so a slow input stops with status 3, never a timeout. */
#ifndef GRUNDY_FUZZ_COMMON_H
#define GRUNDY_FUZZ_COMMON_H
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctx.h"
#include "parse.h"
#include "query.h"
#include "sema.h"

/* Opened once, lazily, and kept for the whole run. */
static FILE *fuzz_devnull(void) {
    static FILE *f;
    if (!f) {
        f = fopen("/dev/null", "w");
        if (!f) abort();
    }
    return f;
}

static void fuzz_one(const uint8_t *data, size_t size, int queries) {
    if (size > (1u << 16)) return;
    char *src = malloc(size + 1);
    if (!src) return;
    memcpy(src, data, size);
    src[size] = '\0';

    gr_ctx c;
    gr_ctx_init(&c, "fuzz.game", src, size);
    c.diag = fuzz_devnull();
    c.mem_limit = (size_t)64 << 20;
    c.max_positions = 10000;
    c.check_to = 200;
    c.progress = 0;
    c.max_time = 1.0;
    c.deadline = gr_now() + c.max_time;
    jmp_buf jb;
    c.on_fail = &jb;
    if (setjmp(jb) == 0) {
        gr_ast_program prog;
        gr_module mod;
        if (gr_parse(&c, &prog) == 0) {
            gr_sema(&c, &prog, &mod);
            if (queries) gr_run_queries(&c, &mod, GR_FMT_JSON, fuzz_devnull());
        }
    }
    gr_ctx_free(&c);
    free(src);
}
#endif
