/* testlib: see testlib.h. */
#include "testlib.h"

int t_failures, t_checks;

int t_check(int ok, const char *what, const char *file, int line) {
    t_checks++;
    if (!ok) {
        t_failures++;
        if (t_failures <= 20) fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

int t_check_eq(long long a, long long b, const char *as, const char *bs, const char *file, int line) {
    t_checks++;
    if (a != b) {
        t_failures++;
        if (t_failures <= 20)
            fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", file, line, as, bs, a, b);
    }
    return a == b;
}

int t_finish(const char *name) {
    printf("%s: %d passed, %d failed\n", name, t_checks - t_failures, t_failures);
    return t_failures ? 1 : 0;
}

uint64_t t_next(t_rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int64_t t_range(t_rng *r, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int64_t)(span ? t_next(r) % span : t_next(r));
}
