/* simd: the run-time choice of the hot loops' vector paths (see simd.h). */
#include "simd.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[GR_SIMD_LEVELS] = { "scalar", "sse2", "avx2", "avx512" };

const char *gr_simd_name(int level) {
    return level >= 0 && level < GR_SIMD_LEVELS ? names[level] : "?";
}

int gr_simd_parse(const char *name) {
    for (int i = 0; i < GR_SIMD_LEVELS; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

int gr_simd_best(void) {
#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
        __builtin_cpu_supports("bmi2"))
        return GR_SIMD_AVX512;
    if (__builtin_cpu_supports("avx2")) return GR_SIMD_AVX2;
    return GR_SIMD_SSE2;
#elif defined(__SSE2__)
    return GR_SIMD_SSE2;     /* WebAssembly with -msse2 (Emscripten's SSE2 over wasm SIMD) */
#else
    return GR_SIMD_SCALAR;
#endif
}

/* -1 until chosen; then the level. Relaxed: every thread computes the same value. */
static atomic_int chosen = -1;

static int clamp(int want, const char *why) {
    int best = gr_simd_best();
    if (want > best) {
        fprintf(stderr, "grundy: %s asks for the %s path, which this processor or build lacks: using %s\n", why,
                gr_simd_name(want), gr_simd_name(best));
        return best;
    }
    return want;
}

static int from_env(void) {
    const char *e = getenv("GRUNDY_SIMD");
    if (!e || !*e) return gr_simd_best();
    int want = gr_simd_parse(e);
    if (want < 0) {
        fprintf(stderr, "grundy: GRUNDY_SIMD=%s is none of scalar, sse2, avx2, avx512: using %s\n", e,
                gr_simd_name(gr_simd_best()));
        return gr_simd_best();
    }
    return clamp(want, "GRUNDY_SIMD");
}

int gr_simd_level(void) {
    int l = atomic_load_explicit(&chosen, memory_order_relaxed);
    if (l >= 0) return l;
    l = from_env();
    int expect = -1;
    if (!atomic_compare_exchange_strong(&chosen, &expect, l)) return expect;   /* another thread's */
    return l;
}

int gr_simd_force(int level) {
    int l = level < 0 ? from_env() : clamp(level >= GR_SIMD_LEVELS ? GR_SIMD_LEVELS - 1 : level, "gr_simd_force");
    atomic_store(&chosen, l);
    return l;
}
