/* octscan: the inner loop of the octal kernels (heap.c serially, octpar.c across threads):
 * the splits (a, r - a) for a from `a` to `half`, with tr = t + r, their xors OR-ed into four
 * 64-bit masks while values are below 64 (four chains, so the ORs overlap), else marked in a
 * byte array. Macros, so each table width gets its own loop. `a` is advanced past `half`. */
#ifndef GRUNDY_OCTSCAN_H
#define GRUNDY_OCTSCAN_H

#define GR_OCT_SCAN_MASKS(t, tr, a, half, m0, m1, m2, m3)                                         \
    do {                                                                                          \
        for (; (a) + 3 <= (half); (a) += 4) {                                                     \
            m0 |= UINT64_C(1) << ((t)[a] ^ (tr)[-(a)]);                                           \
            m1 |= UINT64_C(1) << ((t)[(a) + 1] ^ (tr)[-(a) - 1]);                                 \
            m2 |= UINT64_C(1) << ((t)[(a) + 2] ^ (tr)[-(a) - 2]);                                 \
            m3 |= UINT64_C(1) << ((t)[(a) + 3] ^ (tr)[-(a) - 3]);                                 \
        }                                                                                         \
        for (; (a) <= (half); (a)++) m0 |= UINT64_C(1) << ((t)[a] ^ (tr)[-(a)]);                 \
    } while (0)

#define GR_OCT_SCAN_BYTES(t, tr, a, half, s)                                                      \
    do {                                                                                          \
        for (; (a) + 3 <= (half); (a) += 4) {                                                     \
            (s)[(t)[a] ^ (tr)[-(a)]] = 1;                                                         \
            (s)[(t)[(a) + 1] ^ (tr)[-(a) - 1]] = 1;                                               \
            (s)[(t)[(a) + 2] ^ (tr)[-(a) - 2]] = 1;                                               \
            (s)[(t)[(a) + 3] ^ (tr)[-(a) - 3]] = 1;                                               \
        }                                                                                         \
        for (; (a) <= (half); (a)++) (s)[(t)[a] ^ (tr)[-(a)]] = 1;                                \
    } while (0)
#endif
