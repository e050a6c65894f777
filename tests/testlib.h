/* testlib: the few helpers the unit tests share: checks that count failures, and a
 * deterministic random generator (tests must be reproducible). */
#ifndef GRUNDY_TESTLIB_H
#define GRUNDY_TESTLIB_H
#include <stdint.h>
#include <stdio.h>

extern int t_failures;
extern int t_checks;
#define CHECK(cond) t_check((cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ(a, b) t_check_eq((long long)(a), (long long)(b), #a, #b, __FILE__, __LINE__)
int t_check(int ok, const char *what, const char *file, int line);
int t_check_eq(long long a, long long b, const char *as, const char *bs, const char *file, int line);
/* A fast path (a theory, an evaluator) decided `decided` of its `total` random cases: prints the
 * share and checks it is at least `least` (a stated share, below the seeded runs' own), so a
 * path that declines everything, or nearly, fails the test instead of passing vacuously. */
int t_share(const char *what, long long decided, long long total, double least);
/* Prints "N passed, M failed" and returns the exit status. */
int t_finish(const char *name);

/* T_SANITIZED: built with AddressSanitizer or ThreadSanitizer (gcc or clang); such runs are
 * about ten times slower, so tests do less. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define T_SANITIZED 1
#endif
#endif
#if (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)) && !defined(T_SANITIZED)
#define T_SANITIZED 1
#endif

typedef struct { uint64_t s; } t_rng;
uint64_t t_next(t_rng *r);
int64_t t_range(t_rng *r, int64_t lo, int64_t hi); /* uniform in [lo, hi] */
/* A random test's campaign knobs: T_SEED (mixed into every test's own seeds, 0 by default, so
 * that ctest always runs the same cases; each `t_rng` starts from t_seed(its own)) and T_SCALE
 * (how many times the cases, 1 by default, where a test takes it: unit_boards), e.g.
 * `T_SEED=7 T_SCALE=20 build/tests/unit_boards` for a longer search with other boards. A
 * count a test asserts of its fixed cases may not hold under another seed: read the failure. */
uint64_t t_seed(uint64_t own);
int t_scale(void);
/* Writes two random heap rule sets into src: `game s = subtract {...}` (1 to 3 amounts in
 * 1..max_take) and `game o = octal "0.d..."` (1 to 3 digits); returns the length written. */
size_t t_random_sub_octal(t_rng *r, char *src, size_t cap, int max_take);

/* Naive periodicity, the reference of the period tests: does v[i + p] = v[i] + s hold for every
 * e <= i < n - p, and the least such e (every e tried from 0 upwards). */
int t_agrees_from(const int64_t *v, int64_t n, int64_t p, int64_t s, int64_t e);
int64_t t_naive_preperiod(const int64_t *v, int64_t n, int64_t p, int64_t s);

/* A list of move texts, to compare a theory's winning moves with the position graph's: mkeep
 * adds one, mtheory takes every move reported, mgraph (with pg set) only the moves to P
 * positions of pg; msort orders the list, mfree empties it. */
struct gr_pg;
typedef struct mlist { char **v; size_t n, cap; struct gr_pg *pg; int64_t remoteness; } mlist;
void mkeep(mlist *l, const char *text);
void mtheory(void *u, const char *text, uint32_t id);
void mgraph(void *u, const char *text, uint32_t id);
void msort(mlist *l);
void mfree(mlist *l);
/* Does a theory's list a agree with the graph's b (both sorted here)? All moves equal, or with
 * partial one move that is among the graph's. Prints both lists when not. */
int mcompare(mlist *a, mlist *b, int partial);
/* The position graph's answer for a sum under conv: its outcome, and in l (whose pg it sets
 * while it lives) the moves to P positions and the sum's remoteness (-1: a draw). */
struct gr_ctx; struct gr_module; struct gr_comp;
int mgraph_solve(struct gr_ctx *c, struct gr_module *m, const struct gr_comp *comps, int n, int conv, mlist *l);
/* A theory's decided answer (outcome, its moves in a, partial: one move of many) against the
 * graph of the sum: 1 if the outcomes and the moves agree, else 0 with both printed. */
int mcheck_theory(struct gr_ctx *c, struct gr_module *m, const struct gr_comp *comps, int n, int conv,
                  int outcome, int partial, mlist *a);
#endif
