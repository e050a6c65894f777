/* fuzz_session: a libFuzzer target for the engine as the session drives it (api/engine.h):
 * each input is a session, one entry a line, run against one engine that remembers: good and
 * failing definitions, redefinitions, queries (a position alone is not special here: the
 * session's rewriting is the command's), and two commands, ':reset' (drop every value) and
 * ':stats' (each game's account read). Entries run under small limits (16 MiB of tracked
 * memory, so that games are evicted and calls retried; 10000 positions per graph; 'check ...
 * periodic' to 200; a fifth of a second each, at most 32 entries: within CI's -timeout=10).
 * A definition that fails its checks must leave the engine as it was, a stopped call must keep
 * the other games' values sound: a crash, a leak (the engine is freed at the end of each
 * input) or a sanitizer report is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctx.h"
#include "engine.h"
#include "query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull(void) {
    static FILE *f;
    if (!f) {
        f = fopen("/dev/null", "w");
        if (!f) abort();
    }
    return f;
}

static void setup(gr_ctx *c, void *user) {
    (void)user;
    c->diag = NULL;
    c->mem_limit = (size_t)16 << 20;
    c->max_positions = 10000;
    c->check_to = 200;
    c->progress = 0;
    c->max_time = 0.2;
    c->deadline = gr_now() + c->max_time;
}

static int body(gr_ctx *c, gr_module *m, void *user) {
    (void)user;
    return gr_run_queries_ex(c, m, GR_FMT_TEXT, devnull(), NULL, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 14)) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    gr_engine_fail f;
    gr_engine *e = gr_engine_open("<session>", "", 0, 1, setup, NULL, &f);
    if (!e) { free(text); return 0; }
    int entries = 0;
    for (char *line = text, *next; line && *line && entries < 32; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        size_t n = strlen(line);
        if (!n) continue;
        entries++;
        if (!strcmp(line, ":reset")) { gr_engine_reset(e); continue; }
        if (!strcmp(line, ":stats")) {
            gr_engine_stats st;
            gr_engine_stats_of(e, &st);
            gr_engine_game games[8];
            int k = gr_engine_games(e, games, 8);
            size_t sum = 0;
            for (int i = 0; i < k && i < 8; i++) sum += games[i].bytes;
            if (k <= 8 && sum != st.games_memory) abort();   /* the accounts add up */
            continue;
        }
        gr_engine_run(e, "<input>", line, n, setup, NULL, body, NULL, 1, &f);
        gr_engine_stats st;
        gr_engine_stats_of(e, &st);
        if (st.other_memory) abort();                        /* a call leaves no scratch behind */
    }
    gr_engine_free(e);
    free(text);
    return 0;
}
