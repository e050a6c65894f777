/* simd: which vector instructions the kernels' hot loops use, chosen once at run time from what
 * the processor has (the rare-value kernel's pair search and look-ups, src/eval/heap/sparse*.c).
 * The library is built for the baseline of its target (x86-64: SSE2); the wider paths are
 * functions compiled for their instruction sets (target attributes) and called only when
 * __builtin_cpu_supports says the processor runs them. Every path gives the same values.
 *
 * GRUNDY_SIMD=avx512|avx2|sse2|scalar in the environment (read once), or gr_simd_force, picks
 * a path for tests and benchmarks; a path the processor (or the build: WebAssembly, other
 * architectures) lacks falls back to the best one below it, with a note on stderr. */
#ifndef GRUNDY_SIMD_H
#define GRUNDY_SIMD_H

enum {
    GR_SIMD_SCALAR = 0,   /* portable C (words of 64 bits) */
    GR_SIMD_SSE2 = 1,     /* 16 bytes: every x86-64; WebAssembly through -msimd128 -msse2 */
    GR_SIMD_AVX2 = 2,     /* 32 bytes (AVX2) */
    GR_SIMD_AVX512 = 3,   /* 64 bytes (AVX-512 F, BW, VBMI and VBMI2) */
    GR_SIMD_LEVELS = 4
};

/* The path in use: forced, or from GRUNDY_SIMD, or the best the processor has. */
int gr_simd_level(void);
/* The best path this build and processor run. */
int gr_simd_best(void);
/* Forces a path (clamped to gr_simd_best(), with a note on stderr when it is not there);
 * -1: back to GRUNDY_SIMD or the best. Returns the path now in use. Not for use while a
 * kernel runs on other threads (tests and benchmarks call it between runs). */
int gr_simd_force(int level);
/* "scalar", "sse2", "avx2", "avx512"; and back (-1 if unknown). */
const char *gr_simd_name(int level);
int gr_simd_parse(const char *name);
#endif
