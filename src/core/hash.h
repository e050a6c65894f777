/* hash: FNV-1a over bytes, 64 bits, a byte at a time (about 2 ns a byte). The checksum of
 * checkpoints (eval/heap/checkpoint.c) and of the table files beside them (tablefile.c), which
 * extend it as values are added, so both must use this one; also grundy-mpi's checkpoint
 * (cli/mpi.c) and the text sets' hash (textset.c). */
#ifndef GRUNDY_HASH_H
#define GRUNDY_HASH_H
#include <stddef.h>
#include <stdint.h>

#define GR_FNV1A_INIT UINT64_C(0xcbf29ce484222325)

static inline uint64_t gr_fnv1a(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= UINT64_C(0x100000001b3); }
    return h;
}
#endif
