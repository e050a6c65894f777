/* engine: a program compiled once that remembers; see engine.h. */
#include "engine.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"
#include "eval/evaluator.h"

/* A definition an entry added (the session's), replayed after a drop in the order made. */
typedef struct engine_def { char *name, *text; } engine_def;

struct gr_engine {
    pthread_mutex_t lock;
    char *name;                  /* the program's name in diagnostics */
    char *program; size_t program_len;
    int prelude;                 /* the classic games may be named without a definition */
    engine_def *defs; int ndefs, defcap;
    gr_src_seg *segs; int nsegs, segcap;   /* the entries kept in the source, by name */

    /* The compiled state; live is 0 before the first call and after a drop. */
    int live;
    gr_ctx c;                    /* one context for the engine's life, in two layers: its store
                                    (the arena of the IR, the tracked memory of what evaluators
                                    keep, each game's account) lasts; the rest is the call's,
                                    started afresh at every call (gr_ctx_call_init) */
    const char *base; size_t base_len;   /* c.src between calls: program, prelude, kept entries */
    gr_sema_state *sema;
    gr_module mod;               /* the program's own queries */
    uint64_t calls, compiles, drops, computed_before;
    uint64_t game_drops, evictions, retries;
    gr_arena_mark call_mark;     /* the arena at the start of the call, past what it keeps */
};

static char *dup_text(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = '\0'; }
    return d;
}

/* Starts a call: the context's call layer afresh over src (its store as it is). */
static void arm(gr_engine *e, const char *src, size_t len, gr_engine_setup_fn setup, void *user, jmp_buf *jb) {
    gr_ctx *c = &e->c;
    gr_ctx_call_init(c, e->name, src, len);
    c->segs = e->segs;
    c->nsegs = e->nsegs;
    c->no_prelude = !e->prelude;
    if (setup) setup(c, user);   /* c->diag: where notes go (the API's setup says nowhere) */
    c->on_fail = jb;
}

static void fail_from(const gr_ctx *c, uint32_t entry_from, gr_engine_fail *f) {
    if (!f) return;
    memset(f, 0, sizeof *f);
    f->status = c->fail_status ? c->fail_status : GR_EXIT_INPUT;
    snprintf(f->msg, sizeof f->msg, "%s", c->fail_msg);
    snprintf(f->text, sizeof f->text, "%s", c->fail_text[0] ? c->fail_text : "bad input");
    f->memory = c->fail_memory;
    f->located = c->fail_located;
    if (!f->located) return;
    if (entry_from && c->fail_off >= entry_from) {
        f->in_entry = 1;
        f->entry_off = c->fail_off - entry_from;
    } else {
        gr_line_col(c, c->fail_off, &f->line, &f->col);
    }
}

/* Values computed: on the context (heap values) and on the games (box positions). */
static uint64_t computed_now(const gr_engine *e) {
    uint64_t n = e->c.store.values_computed;
    for (const gr_game *g = gr_sema_games(e->sema); g; g = g->next) n += gr_eval_computed(g);
    return n;
}

static void drop(gr_engine *e) {
    if (!e->live) return;
    if (e->sema) e->computed_before += computed_now(e);
    e->sema = NULL;
    e->c.store.values_computed = 0;
    gr_ctx_free(&e->c);
    e->live = 0;
    e->drops++;
}

/* The parser reports its first error without jumping (gr_diag_at keeps its text): raise it. */
_Noreturn static void parse_failed(gr_ctx *c) {
    char msg[sizeof c->fail_msg];
    snprintf(msg, sizeof msg, "%s", c->fail_msg);
    gr_fail_again(c, GR_EXIT_INPUT, msg);
}

static int known_name(void *user, const char *name) { return gr_sema_knows(user, name); }

/* Compiles the program and replays the definitions entries made. 0, or -1 with *fail. */
static int compile(gr_engine *e, gr_engine_setup_fn setup, void *user, gr_engine_fail *fail) {
    jmp_buf jb;
    memset(&e->c, 0, sizeof e->c);
    gr_ctx_init(&e->c, e->name, e->program, e->program_len);
    for (int i = 0; i < e->nsegs; i++) free((void *)(uintptr_t)e->segs[i].name);
    e->nsegs = 0;
    e->live = 1;
    e->compiles++;
    arm(e, e->program, e->program_len, setup, user, &jb);
    if (setjmp(jb) != 0) {
        fail_from(&e->c, 0, fail);
        drop(e);
        e->drops--;             /* not a drop of values: there were none */
        return -1;
    }
    gr_ctx *c = &e->c;
    gr_ast_program prog;
    FILE *notes = c->diag;
    c->diag = NULL;              /* the client prints a syntax error's text (gr_engine_fail.msg) */
    if (gr_parse(c, &prog) != 0) parse_failed(c);
    c->diag = notes;
    e->sema = gr_sema_open(c, &prog, &e->mod);
    e->base = c->src;
    e->base_len = c->src_len;
    for (int i = 0; i < e->ndefs; i++) {       /* the session's definitions, as entries */
        size_t n = strlen(e->defs[i].text);
        char *t = gr_new(c, e->base_len + 1 + n + 1);
        memcpy(t, e->base, e->base_len);
        t[e->base_len] = '\n';
        memcpy(t + e->base_len + 1, e->defs[i].text, n + 1);
        c->src = t;
        c->src_len = e->base_len + 1 + n;
        gr_ast_program more;
        c->diag = NULL;
        if (gr_parse_more(c, (uint32_t)e->base_len + 1, &more, known_name, e->sema) != 0)
            gr_fail(c, GR_EXIT_INPUT, "a definition kept from before does not parse again (a bug)");
        c->diag = notes;
        gr_module m;
        gr_sema_more(e->sema, c, &more, &m);
        e->base = c->src;
        e->base_len = c->src_len;
    }
    c->on_fail = NULL;
    return 0;
}

gr_engine *gr_engine_open(const char *name, const char *text, size_t len, int prelude,
                          gr_engine_setup_fn setup, void *user, gr_engine_fail *fail) {
    if (fail) memset(fail, 0, sizeof *fail);
    gr_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    pthread_mutex_init(&e->lock, NULL);
    e->name = dup_text(name, strlen(name));
    e->program = dup_text(text, len);
    e->program_len = len;
    e->prelude = prelude;
    if (!e->name || !e->program || compile(e, setup, user, fail) != 0) {
        gr_engine_free(e);
        return NULL;
    }
    return e;
}

void gr_engine_free(gr_engine *e) {
    if (!e) return;
    drop(e);
    for (int i = 0; i < e->ndefs; i++) { free(e->defs[i].name); free(e->defs[i].text); }
    free(e->defs);
    for (int i = 0; i < e->nsegs; i++) free((void *)(uintptr_t)e->segs[i].name);
    free(e->segs);
    free(e->name);
    free(e->program);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

void gr_engine_reset(gr_engine *e) {
    pthread_mutex_lock(&e->lock);
    drop(e);
    pthread_mutex_unlock(&e->lock);
}

void gr_engine_stats_of(gr_engine *e, gr_engine_stats *out) {
    pthread_mutex_lock(&e->lock);
    memset(out, 0, sizeof *out);
    out->values_computed = e->computed_before + (e->live && e->sema ? computed_now(e) : 0);
    out->calls = e->calls;
    out->compiles = e->compiles;
    out->drops = e->drops;
    out->game_drops = e->game_drops;
    out->evictions = e->evictions;
    out->retries = e->retries;
    if (e->live) {
        out->memory = e->c.store.mem_used + e->c.store.arena.total;
        out->program_memory = e->c.store.arena.total + e->c.store.defs.bytes;
        size_t games = 0;
        for (gr_game *g = gr_sema_games(e->sema); g; g = g->next) games += g->state->mem.bytes;
        out->games_memory = games;
        out->other_memory = e->c.store.mem_used - games - e->c.store.defs.bytes;
    }
    pthread_mutex_unlock(&e->lock);
}

int gr_engine_games(gr_engine *e, gr_engine_game *out, int cap) {
    pthread_mutex_lock(&e->lock);
    int n = 0;
    if (e->live)
        for (gr_game *g = gr_sema_games(e->sema); g; g = g->next) {
            if (!g->state->cache && !g->state->mem.bytes) continue;
            if (n < cap) {
                gr_engine_game *o = &out[n];
                memset(o, 0, sizeof *o);
                snprintf(o->name, sizeof o->name, "%s", g->name);
                o->bytes = g->state->mem.bytes;
                o->values = gr_eval_kept(g);
                o->computed = gr_eval_computed(g);
                o->last_call = g->state->mem.used_call;
                o->calls_ago = e->c.store.calls - g->state->mem.used_call;
                o->drops = g->state->mem.dropped;
            }
            n++;
        }
    pthread_mutex_unlock(&e->lock);
    return n;
}

/* Keeps the definitions an entry made, for a compilation after a drop (replacing any of the
 * same name), and the entry's text under its name for the diagnostics of what it defined. */
static void keep_entry(gr_engine *e, const gr_ast_program *prog, const char *entry_name, uint32_t entry_from) {
    const gr_ctx *c = &e->c;
    for (const gr_gdecl *d = prog->decls; d; d = d->next) {
        if (d->loc.off < entry_from) continue;        /* the prelude's, named by the entry */
        char *text = dup_text(c->src + d->loc.off, d->loc.len);
        if (!text) continue;
        int at = -1;
        for (int i = 0; i < e->ndefs; i++) if (!strcmp(e->defs[i].name, d->name)) at = i;
        if (at >= 0) { free(e->defs[at].text); e->defs[at].text = text; continue; }
        if (e->ndefs == e->defcap) {
            int cap = e->defcap ? 2 * e->defcap : 8;
            engine_def *nd = realloc(e->defs, (size_t)cap * sizeof *nd);
            if (!nd) { free(text); continue; }
            e->defs = nd;
            e->defcap = cap;
        }
        char *name = dup_text(d->name, strlen(d->name));
        if (!name) { free(text); continue; }
        e->defs[e->ndefs++] = (engine_def){ name, text };
    }
    if (e->nsegs == e->segcap) {
        int cap = e->segcap ? 2 * e->segcap : 8;
        gr_src_seg *ns = realloc(e->segs, (size_t)cap * sizeof *ns);
        if (!ns) return;
        e->segs = ns;
        e->segcap = cap;
    }
    char *nm = dup_text(entry_name, strlen(entry_name));
    if (nm) e->segs[e->nsegs++] = (gr_src_seg){ entry_from, nm };
}

/* ---- each game's values ---- */
/* Drops what the evaluators kept of g (its cache, every block charged to its account). */
static void drop_game(gr_engine *e, gr_game *g) {
    if (!g->state->cache && !g->state->mem.bytes) return;
    e->computed_before += gr_eval_computed(g);
    gr_account_drop(&e->c, &g->state->mem);
    g->state->cache = NULL;
    e->game_drops++;
}

/* Marks the live games' accounts with stamp (so that an account unmarked belongs to a game
 * that left: a redefinition, or an entry undone). */
static void mark_live(gr_engine *e, uint64_t stamp) {
    for (gr_game *g = gr_sema_games(e->sema); g; g = g->next) g->state->mem.mark = stamp;
}

/* The accounts of games that are no longer live hold nothing and are forgotten (their games
 * stay in the arena until it is rewound or freed, so nothing points at them after). */
static void sweep_gone(gr_engine *e) {
    gr_ctx *c = &e->c;
    uint64_t stamp = c->store.calls;
    mark_live(e, stamp);
    for (gr_mem_account *a = c->store.accounts, *next; a; a = next) {
        next = a->next;
        if (a == &c->store.defs || a->mark == stamp) continue;
        gr_game *g = a->owner;
        if (g) {
            e->computed_before += gr_eval_computed(g);
            g->state->cache = NULL;
        }
        gr_account_drop(c, a);
        gr_account_unlist(c, a);
    }
}

/* A call stopped while it ran: the games it used may be half made (a cache being grown when
 * the longjmp came), the others are as the calls before left them. Drops the first, frees the
 * call's scratch, keeps the rest. */
static void drop_made(gr_engine *e) {
    gr_ctx *c = &e->c;
    for (gr_game *g = gr_sema_games(e->sema); g; g = g->next)
        if (g->state->mem.used_call == c->store.calls) drop_game(e, g);
    c->account = NULL;
    gr_ctx_free_scratch(c);
}

/* Eviction: drops the least recently used games' values (those the call under way did not
 * use) until at least need bytes are free; returns the bytes freed. */
static size_t evict(gr_engine *e, size_t need) {
    gr_ctx *c = &e->c;
    size_t freed = 0;
    while (freed < need) {
        gr_game *lru = NULL;
        for (gr_game *g = gr_sema_games(e->sema); g; g = g->next)
            if (g->state->mem.bytes && g->state->mem.used_call != c->store.calls &&
                (!lru || g->state->mem.used_call < lru->state->mem.used_call)) lru = g;
        if (!lru) break;
        freed += lru->state->mem.bytes;
        drop_game(e, lru);
        e->evictions++;
    }
    return freed;
}

/* The part of a call that may fail: apart, so that no local of the caller lives across the
 * setjmp. *deadline: the call's one clock (< 0: not started; set from the first attempt's
 * limits, kept through a retry). *held_by_call: on a memory failure, the bytes the call's
 * games and scratch had taken (dropped with them). */
static int run_guarded(gr_engine *e, const char *entry_name, const char *entry, size_t len,
                       gr_engine_setup_fn setup, void *user, gr_engine_body_fn body, void *arg,
                       gr_engine_fail *fail, double *deadline, size_t *held_by_call) {
    jmp_buf jb;
    gr_ctx *c = &e->c;
    e->call_mark = gr_arena_mark_of(&c->store.arena);
    uint32_t from = entry ? (uint32_t)e->base_len + 1 : 0;
    char *volatile text = NULL;
    volatile int running = 0;
    gr_sema_txn *volatile txn = NULL;
    gr_mem_account *volatile accounts_before = NULL;
    gr_src_seg here[64];          /* the entry's segment after the kept ones (read by the handler too) */
    arm(e, e->base, e->base_len, setup, user, &jb);
    if (*deadline < 0) *deadline = c->deadline;
    else c->deadline = *deadline;          /* a retry: the clock of the call's first attempt */
    accounts_before = c->store.accounts;
    if (setjmp(jb) != 0) {
        fail_from(c, from, fail);
        if (fail) fail->want = c->fail_want;
        free(text);
        c->src = e->base;
        c->src_len = e->base_len;
        c->segs = e->segs;
        c->nsegs = e->nsegs;
        if (!running) {              /* its own syntax, names or checks: the engine as it was */
            int undone = gr_sema_undo(e->sema, txn);
            txn = NULL;
            for (gr_mem_account *a = c->store.accounts; a && a != accounts_before; a = a->next) gr_account_drop(c, a);
            sweep_gone(e);           /* the accounts of the games it made (in the arena, about to go) */
            for (gr_game *g = gr_sema_games(e->sema); g; g = g->next)
                if (!g->state->mem.bytes) g->state->cache = NULL;   /* a cache it began, dropped above */
            c->account = NULL;
            gr_ctx_free_scratch(c);
            gr_arena_rewind(&c->store.arena, &e->call_mark);
            if (!undone) drop(e);    /* no journal: start afresh at the next call */
        } else {
            size_t before = c->store.mem_used;
            drop_made(e);            /* what it was making; the other games' values stay */
            *held_by_call = before - c->store.mem_used;
            gr_arena_rewind(&c->store.arena, &e->call_mark);   /* the entry's syntax, unless it was kept */
        }
        c->on_fail = NULL;
        return -1;
    }
    gr_module m = e->mod;
    if (entry) {
        if ((uint64_t)e->base_len + len + 2 > UINT32_MAX) gr_fail(c, GR_EXIT_LIMIT, "the program and its entries pass 4 GiB");
        text = malloc(e->base_len + 1 + len + 1);
        if (!text) gr_fail(c, GR_EXIT_LIMIT, "out of memory");
        memcpy(text, e->base, e->base_len);
        text[e->base_len] = '\n';
        memcpy(text + from, entry, len);
        text[from + len] = '\0';
        c->src = text;
        c->src_len = from + len;
        int n = e->nsegs < 63 ? e->nsegs : 63;
        if (n) memcpy(here, e->segs + e->nsegs - n, (size_t)n * sizeof *here);
        here[n] = (gr_src_seg){ from, entry_name };
        c->segs = here;
        c->nsegs = n + 1;
        txn = gr_sema_begin(e->sema);
        uint64_t gen = gr_sema_generation(e->sema);
        gr_ast_program prog;
        FILE *notes = c->diag;
        c->diag = NULL;          /* the client prints a syntax error's text (gr_engine_fail.msg) */
        if (gr_parse_more(c, from, &prog, known_name, e->sema) != 0) parse_failed(c);
        c->diag = notes;
        gr_sema_more(e->sema, c, &prog, &m);
        gr_sema_keep(e->sema, txn);
        txn = NULL;
        if (gr_sema_generation(e->sema) != gen) {   /* it defined or made something: keep its text */
            char *kept = gr_new(c, c->src_len + 1);
            memcpy(kept, text, c->src_len + 1);
            e->base = kept;
            e->base_len = c->src_len;
            c->src = kept;
            keep_entry(e, &prog, entry_name, from);
            c->segs = e->segs;
            c->nsegs = e->nsegs;
            free(text);
            text = NULL;
            e->call_mark = gr_arena_mark_of(&c->store.arena);   /* what it made stays */
            sweep_gone(e);       /* a redefinition: the old instances' values go */
        }
    }
    c->account = NULL;           /* what the call allocates outside a game is its scratch */
    running = 1;
    int rc = body(c, &m, arg);
    running = 0;
    if (text) {
        c->src = e->base;
        c->src_len = e->base_len;
        c->segs = e->segs;
        c->nsegs = e->nsegs;
        free(text);
        text = NULL;
        gr_arena_rewind(&c->store.arena, &e->call_mark);
    }
    c->account = NULL;
    c->on_fail = NULL;
    return rc;
}

int gr_engine_run(gr_engine *e, const char *entry_name, const char *entry, size_t len,
                  gr_engine_setup_fn setup, void *user, gr_engine_body_fn body, void *arg,
                  int retry, gr_engine_fail *fail) {
    if (fail) memset(fail, 0, sizeof *fail);
    pthread_mutex_lock(&e->lock);
    int rc = -1;
    double deadline = -1;        /* one clock for the whole call, retries included */
    for (;;) {
        if (!e->live && compile(e, setup, user, fail) != 0) break;
        e->calls++;
        gr_engine_fail f;
        size_t held = 0;
        rc = run_guarded(e, entry_name, entry ? entry : NULL, entry ? len : 0, setup, user, body, arg, &f, &deadline, &held);
        if (rc >= 0) break;
        /* Past the memory limit: make room by the least recently used games' values (so that
         * the call may fit when run again, by its client if not here) and run again, only when
         * something was evicted (what the call had made was dropped with it, so a retry
         * repeats only that). */
        size_t freed = f.memory && e->live ? evict(e, held + f.want) : 0;
        if (!(retry && freed > 0)) {
            if (fail) *fail = f;
            break;
        }
        e->retries++;
    }
    pthread_mutex_unlock(&e->lock);
    return rc;
}
