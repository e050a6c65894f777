/* fuzz_frontend: a libFuzzer target for the front end of grundy.
 *
 * Each input is a .game source. It is scanned, parsed and checked (gr_parse + gr_sema, which
 * also lowers every rule set) exactly as the command does, with failures caught by the same
 * setjmp mechanism and everything freed by gr_ctx_free. Diagnostics go to /dev/null.
 *
 * With GRUNDY_FUZZ_QUERIES=1 in the environment the queries are run too (JSON to /dev/null),
 * under tiny limits: 64 MiB of tracked memory, 10000 positions per position graph, 'check ...
 * periodic' up to 200. Expect slow inputs (timeouts) in that mode: a rule with a huge 'for'
 * range is legitimately slow. The default mode is the front end alone. */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctx.h"
#include "parse.h"
#include "query.h"
#include "sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Opened once, lazily, and kept for the whole run. */
static FILE *devnull(void) {
    static FILE *f;
    if (!f) {
        f = fopen("/dev/null", "w");
        if (!f) abort();
    }
    return f;
}

static int run_queries(void) {
    static int mode = -1;
    if (mode < 0) {
        const char *e = getenv("GRUNDY_FUZZ_QUERIES");
        mode = e && e[0] == '1';
    }
    return mode;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 16)) return 0;
    char *src = malloc(size + 1);
    if (!src) return 0;
    memcpy(src, data, size);
    src[size] = '\0';

    gr_ctx c;
    gr_ctx_init(&c, "fuzz.game", src, size);
    c.diag = devnull();
    c.mem_limit = (size_t)64 << 20;
    c.max_positions = 10000;
    c.check_to = 200;
    c.progress = 0;
    jmp_buf jb;
    c.on_fail = &jb;
    if (setjmp(jb) == 0) {
        gr_ast_program prog;
        gr_module mod;
        if (gr_parse(&c, &prog) == 0) {
            gr_sema(&c, &prog, &mod);
            if (run_queries()) gr_run_queries(&c, &mod, GR_FMT_JSON, devnull());
        }
    }
    gr_ctx_free(&c);
    free(src);
    return 0;
}
