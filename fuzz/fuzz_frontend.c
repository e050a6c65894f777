/* fuzz_frontend: a libFuzzer target for the front end of grundy (fuzz_common.h).
 *
 * Each input is a .game source. It is scanned, parsed and checked (gr_parse + gr_sema, which
 * also lowers every rule set) exactly as the command does. With GRUNDY_FUZZ_QUERIES=1 in the
 * environment the queries are run too, as fuzz_query always does. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_queries(void) {
    static int mode = -1;
    if (mode < 0) {
        const char *e = getenv("GRUNDY_FUZZ_QUERIES");
        mode = e && e[0] == '1';
    }
    return mode;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_one(data, size, run_queries());
    return 0;
}
