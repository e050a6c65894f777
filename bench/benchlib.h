/* benchlib: what the benchmarks share: a monotonic clock, an allocation that exits when
 * memory runs out, and compiling a .game source held in a string. Header-only, so each
 * benchmark stays one file. Failures print their message and exit: right for a benchmark. */
#ifndef GRUNDY_BENCHLIB_H
#define GRUNDY_BENCHLIB_H
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "parse.h"
#include "sema.h"

static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The machine's load average (Linux), printed as a line "load average L on C cores" with note
 * added when it reaches busy_from less than the cores: a bench's times on a busy machine are
 * the scheduler's shares. -1 where there is none. */
static inline double print_load(double busy_from, const char *note) {
    FILE *la = fopen("/proc/loadavg", "r");
    double load = -1;
    if (la) {
        if (fscanf(la, "%lf", &load) != 1) load = -1;
        fclose(la);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (load >= 0) printf("load average %.2f on %ld cores%s\n", load, cores, load >= (double)cores - busy_from ? note : "");
    return load;
}

static inline void *xmalloc(size_t n) {
    void *p = calloc(1, n);
    if (!p) { fprintf(stderr, "bench: out of memory (%zu bytes)\n", n); exit(2); }
    return p;
}

/* A compiled source kept alive while its games are used. */
typedef struct unit {
    gr_ctx c;
    gr_ast_program prog;
    gr_module mod;
} unit;

/* Compiles src (on_fail stays NULL: a failure prints its message and aborts) and returns the
 * instance called name. */
static inline gr_game *compile(unit *u, const char *src, const char *name) {
    gr_ctx_init(&u->c, "bench", src, strlen(src));
    u->c.mem_limit = (size_t)20 << 30;
    u->c.max_positions = UINT64_C(1) << 31;
    if (gr_parse(&u->c, &u->prog) != 0) { fprintf(stderr, "bench: cannot parse %s\n", src); exit(2); }
    gr_sema(&u->c, &u->prog, &u->mod);
    for (gr_game *g = u->mod.games; g; g = g->next)
        if (strcmp(g->name, name) == 0) return g;
    fprintf(stderr, "bench: no game %s\n", name);
    exit(2);
}
#endif
