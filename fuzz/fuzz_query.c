/* fuzz_query: a libFuzzer target for the whole query path of grundy (fuzz_common.h): each
 * input is compiled and its queries (table, solve, check, under every convention, by every
 * evaluator) run to JSON under small limits of memory, positions and time. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_one(data, size, 1);
    return 0;
}
