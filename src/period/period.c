/* period: the pure functions on a sequence; see period.h. */
#include "period.h"

/* Differences through unsigned arithmetic: exact for values in [0, 2^63), and never undefined
 * behaviour whatever the caller passes. */
static inline int64_t delta(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

int64_t gr_period_preperiod(const int64_t *v, int64_t n, int64_t p, int64_t s) {
    int64_t e = n - p > 0 ? n - p : 0;
    while (e > 0 && delta(v[e - 1 + p], v[e - 1]) == s) e--;
    return e;
}

int64_t gr_period_first_mismatch(const int64_t *v, int64_t n, int64_t p, int64_t s, int64_t from) {
    for (int64_t i = from < 0 ? 0 : from; i < n - p; i++)
        if (delta(v[i + p], v[i]) != s) return i;
    return -1;
}

int64_t gr_period_back(gr_value_fn v, const void *user, int64_t p, int64_t e) {
    while (e > 0 && v(user, e - 1 + p) == v(user, e - 1)) e--;
    return e;
}

int64_t gr_period_least_divisor(gr_value_fn v, const void *user, int64_t p, int64_t e) {
    for (int64_t d = 1; d < p; d++) {
        if (p % d) continue;
        int ok = 1;
        for (int64_t n = e; n < e + p && ok; n++) ok = v(user, n + d) == v(user, n);
        if (ok) return d;
    }
    return p;
}

int gr_period_plausible(int64_t n, int64_t p, int64_t e) {
    if (p < 1 || e < 0 || p > n || e > n) return 0;
    return 2 * (e + p) <= n && n - p - e >= 2 * p;
}
