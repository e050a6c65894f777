/* checkpoint: saving and resuming heap tables; see checkpoint.h.
 *
 * File layout (native byte order, checked by a marker):
 *   "GRUNDYCK" | u32 format | u32 0x01020304 | u64 program hash | u64 payload bytes |
 *   u64 payload checksum | payload
 *   payload: u32 records, then per record: u32 name bytes, name, GR_HEAP_SAVED i64 numbers,
 *            u64 value bytes, the values.
 * A table kept in a file (tablefile.h) saves no values here (0 bytes): they are FILE.GAME.values,
 * synced at each save, with their checksum among the record's numbers. */
#include "eval/heap/checkpoint.h"
#include "eval/heap/heapsave.h"
#include "hash.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "GRUNDYCK"
enum { FORMAT = 1, HEADER = 8 + 4 + 4 + 8 + 8 + 8 };
#define VERSION_TEXT "grundy 0.1.0 checkpoint 1"
#define SAVE_EVERY 5.0            /* seconds of work between saves ... */
#define SAVE_SHARE 30.0           /* ... and at least this many times a save's own time: a save of
                                   * 1.2 x 10^8 two-byte values (240 MB) takes 0.8 s, so saving costs
                                   * a long search about 3% (signals and --max-time save anyway) */

/* The one thing a signal handler may touch. */
static volatile sig_atomic_t caught_signal;

static void on_signal(int sig) { caught_signal = sig; }

void gr_ckpt_catch_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;   /* a second signal: the default action, at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

typedef struct record {
    const char *name;           /* points into the loaded file */
    gr_heap_saved saved;
    int claimed;                /* restored into a game of this run (saved afresh from it) */
} record;

struct gr_ckpt {
    uint64_t program;
    FILE *old;                        /* the checkpoint read, while records are read from it */
    record *recs; uint32_t nrecs;
    gr_game **games; size_t ngames;   /* games computed in this run, saved from themselves */
    double last_save, save_cost;
};

/* The checksum: FNV-1a (core/hash.h: about 2 ns a byte, 0.5 s for 240 MB), as the table files'. */

const char *gr_ckpt_values_path(gr_ctx *c, const char *game) {
    size_t n = strlen(c->checkpoint) + strlen(game) + sizeof ".." "values";
    char *p = gr_new(c, n);
    snprintf(p, n, "%s.%s.values", c->checkpoint, game);
    return p;
}

static uint64_t program_hash(const gr_ctx *c) {
    uint64_t h = gr_fnv1a(GR_FNV1A_INIT, VERSION_TEXT, sizeof VERSION_TEXT);
    /* the program's own text and the prelude's rule sets it took, not the whole prelude (a
     * prelude grown by a later version would orphan every checkpoint of a program using none) */
    size_t own = c->store.prelude_off ? c->store.prelude_off - 1u : c->src_len;
    h = gr_fnv1a(h, c->src, own);
    if (c->store.prelude_taken) h = gr_fnv1a(h, &c->store.prelude_taken, sizeof c->store.prelude_taken);
    int64_t opts[2] = { c->query_only, c->no_theory };
    h = gr_fnv1a(h, opts, sizeof opts);
    /* a long search's tables never stop at a proved period: not the same run (hashed only
     * when given, so other checkpoints keep their hash) */
    if (c->histogram) h = gr_fnv1a(h, "histogram", 9);
    return h;
}

/* ---- reading ----
 * The file is read once, in chunks, checking its checksum on the way; a record's values stay
 * in the file (their offset is kept, the file stays open) until its game claims them and reads
 * them straight into its table: a long search's values are never in memory twice. */
enum { CHUNK_BYTES = 1 << 20 };
typedef struct reader { FILE *f; uint64_t left, sum, at; int bad; uint8_t *buf; } reader;
static void take(reader *r, void *out, size_t n) {
    if (r->bad || n > r->left || fread(out, 1, n, r->f) != n) { r->bad = 1; memset(out, 0, n); return; }
    r->sum = gr_fnv1a(r->sum, out, n);
    r->left -= n;
    r->at += n;
}
static void skip(reader *r, uint64_t n) {
    while (n && !r->bad) {
        size_t m = n < CHUNK_BYTES ? (size_t)n : CHUNK_BYTES;
        take(r, r->buf, m);
        n -= m;
    }
}

_Noreturn static void refuse(gr_ctx *c, struct gr_ckpt *k, const char *why) {
    if (k->old) fclose(k->old);
    k->old = NULL;
    gr_fail(c, GR_EXIT_INPUT, "checkpoint %s %s; it is not used (remove it, or name another file, to start afresh)",
            c->checkpoint, why);
}

static void load(gr_ctx *c, struct gr_ckpt *k) {
    FILE *f = fopen(c->checkpoint, "rb");
    if (!f) {
        if (errno == ENOENT) return;                 /* a first run */
        gr_fail(c, GR_EXIT_INPUT, "cannot read checkpoint %s: %s", c->checkpoint, strerror(errno));
    }
    k->old = f;                                      /* closed with the checkpoint (gr_ckpt_close) */
    uint8_t header[HEADER];
    uint32_t format = 0, marker = 0;
    uint64_t program = 0, len = 0, sum = 0;
    size_t got = fread(header, 1, HEADER, f);
    if (got < 8 || memcmp(header, MAGIC, 8)) refuse(c, k, "is not a grundy checkpoint");
    if (got < HEADER) refuse(c, k, "is damaged (its length or checksum is wrong)");
    memcpy(&format, header + 8, 4);
    memcpy(&marker, header + 12, 4);
    if (format != FORMAT || marker != 0x01020304u) refuse(c, k, "was written by another version of grundy or on another machine");
    memcpy(&program, header + 16, 8);
    memcpy(&len, header + 24, 8);
    memcpy(&sum, header + 32, 8);
    reader r = { f, len, GR_FNV1A_INIT, HEADER, 0, gr_alloc(c, CHUNK_BYTES) };
    take(&r, &k->nrecs, 4);
    if (!r.bad && k->nrecs > (uint32_t)(len / 8)) r.bad = 1;
    k->recs = gr_alloc(c, gr_size_mul(c, r.bad ? 1 : k->nrecs + 1, sizeof *k->recs));
    for (uint32_t i = 0; i < k->nrecs && !r.bad; i++) {
        record *rec = &k->recs[i];
        uint32_t nl = 0;
        take(&r, &nl, 4);
        if (r.bad || nl == 0 || nl > r.left) { r.bad = 1; break; }
        char *name = gr_alloc(c, nl + 1);
        take(&r, name, nl);
        rec->name = name;
        take(&r, rec->saved.f, sizeof rec->saved.f);
        uint64_t bytes = 0;
        take(&r, &bytes, 8);
        if (r.bad || bytes > r.left) { r.bad = 1; break; }
        rec->saved.from = f;
        rec->saved.at = r.at;
        rec->saved.file = gr_ckpt_values_path(c, name);   /* read only if the record says so */
        rec->saved.bytes = (size_t)bytes;
        skip(&r, bytes);
    }
    int err = ferror(f);
    int trailing = !r.bad && fgetc(f) != EOF;
    gr_free(c, r.buf);
    if (err) {
        fclose(f);
        k->old = NULL;
        gr_fail(c, GR_EXIT_INPUT, "cannot read checkpoint %s", c->checkpoint);
    }
    if (r.bad || r.left || trailing || r.sum != sum) refuse(c, k, "is damaged (its length, records or checksum are wrong)");
    if (program != k->program)
        refuse(c, k, "belongs to another program (another source text, rule set, query or --query)");
}

void gr_ckpt_open(gr_ctx *c) {
    if (!c->checkpoint || c->ckpt) return;
    struct gr_ckpt *k = gr_alloc(c, sizeof *k);
    k->program = program_hash(c);
    k->last_save = gr_now();
    load(c, k);
    c->ckpt = k;
}

void gr_ckpt_claim(gr_ctx *c, gr_game *g) {
    struct gr_ckpt *k = c->ckpt;
    for (size_t i = 0; i < k->ngames; i++) if (k->games[i] == g) return;
    k->games = gr_realloc(c, k->games, gr_size_mul(c, k->ngames + 1, sizeof *k->games));
    k->games[k->ngames++] = g;
    for (uint32_t i = 0; i < k->nrecs; i++) {
        record *rec = &k->recs[i];
        if (rec->claimed || strcmp(rec->name, g->name)) continue;
        rec->claimed = 1;
        int r = gr_heap_restore(c, g, &rec->saved);
        if (r == -2) {
            char why[1200];
            snprintf(why, sizeof why, "keeps its values in %s, which is missing, short or not the one it saved", rec->saved.file);
            refuse(c, k, why);
        }
        if (r < 0) refuse(c, k, "is damaged (a saved table does not fit its game)");
    }
    /* once every record is in a table, the file is not read again */
    uint32_t left = 0;
    for (uint32_t i = 0; i < k->nrecs; i++) left += !k->recs[i].claimed;
    if (!left && k->old) {
        fclose(k->old);
        k->old = NULL;
    }
}

/* ---- writing ---- */
typedef struct writer { FILE *f; uint64_t sum, len; } writer;
static void put(writer *w, const void *p, size_t n) {
    if (!n) return;
    fwrite(p, 1, n, w->f);
    w->sum = gr_fnv1a(w->sum, p, n);
    w->len += n;
}

static void put_record(gr_ctx *c, writer *w, const char *name, const gr_heap_saved *s) {
    uint32_t nl = (uint32_t)strlen(name);
    uint64_t bytes = s->bytes;
    put(w, &nl, 4);
    put(w, name, nl);
    put(w, s->f, sizeof s->f);
    put(w, &bytes, 8);
    if (!s->bytes) return;                          /* none, or in the table's own file */
    if (s->values) { put(w, s->values, s->bytes); return; }
    /* a record of the file read, not claimed by this run: copied from it (the old file stays
     * readable through its handle after the rename) */
    uint8_t *buf = gr_alloc(c, CHUNK_BYTES);
    int bad = fseeko(s->from, (off_t)s->at, SEEK_SET) != 0;
    for (size_t left = s->bytes; left && !bad;) {
        size_t m = left < CHUNK_BYTES ? left : CHUNK_BYTES;
        bad = fread(buf, 1, m, s->from) != m;
        put(w, buf, m);
        left -= m;
    }
    gr_free(c, buf);
    if (bad) gr_fail(c, GR_EXIT_LIMIT, "cannot read checkpoint %s again to save it", c->checkpoint);
}

/* Writes FILE.tmp and renames it over FILE. */
static void save(gr_ctx *c, struct gr_ckpt *k) {
    double t0 = gr_now();
    size_t nlen = strlen(c->checkpoint);
    char *tmp = gr_alloc(c, nlen + 5);
    memcpy(tmp, c->checkpoint, nlen);
    memcpy(tmp + nlen, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    if (!f) gr_fail(c, GR_EXIT_LIMIT, "cannot write checkpoint %s: %s", tmp, strerror(errno));
    uint8_t header[HEADER] = { 0 };
    fwrite(header, 1, HEADER, f);
    writer w = { f, GR_FNV1A_INIT, 0 };
    uint32_t count = 0;
    gr_heap_saved s;
    for (size_t i = 0; i < k->ngames; i++) count += (uint32_t)gr_heap_save(c, k->games[i], &s);
    for (uint32_t i = 0; i < k->nrecs; i++) count += !k->recs[i].claimed;
    put(&w, &count, 4);
    for (size_t i = 0; i < k->ngames; i++)
        if (gr_heap_save(c, k->games[i], &s)) put_record(c, &w, k->games[i]->name, &s);
    for (uint32_t i = 0; i < k->nrecs; i++)          /* tables this run has not reached yet */
        if (!k->recs[i].claimed) put_record(c, &w, k->recs[i].name, &k->recs[i].saved);
    uint32_t format = FORMAT, marker = 0x01020304u;
    memcpy(header, MAGIC, 8);
    memcpy(header + 8, &format, 4);
    memcpy(header + 12, &marker, 4);
    memcpy(header + 16, &k->program, 8);
    memcpy(header + 24, &w.len, 8);
    memcpy(header + 32, &w.sum, 8);
    int bad = fseek(f, 0, SEEK_SET) != 0 || fwrite(header, 1, HEADER, f) != HEADER || fflush(f) != 0 ||
              ferror(f) || fsync(fileno(f)) != 0;
    int err = errno;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, c->checkpoint) != 0) {
        if (!bad) err = errno;
        remove(tmp);
        gr_fail(c, GR_EXIT_LIMIT, "cannot write checkpoint %s: %s", c->checkpoint, strerror(err));
    }
    gr_free(c, tmp);
    k->last_save = gr_now();
    k->save_cost = k->last_save - t0;
}

/* Stops after a signal: the work so far is saved first. */
static void stop_if_signalled(gr_ctx *c, struct gr_ckpt *k) {
    int sig = caught_signal;
    if (!sig) return;
    save(c, k);
    gr_fail(c, 128 + sig, "interrupted by %s; the work so far is saved in %s: run the same command again to resume",
            sig == SIGINT ? "SIGINT" : "SIGTERM", c->checkpoint);
}

void gr_ckpt_point(gr_ctx *c, gr_game *g) {
    struct gr_ckpt *k = c->ckpt;
    (void)g;
    stop_if_signalled(c, k);
    double now = gr_now(), wait = k->save_cost * SAVE_SHARE;
    if (c->deadline > 0 && now >= c->deadline) {
        /* --max-time is about to stop the run (the caller's next clock poll): keep its work */
        save(c, k);
        snprintf(c->limit_note, sizeof c->limit_note, "the work so far is saved in %s: run the same command again "
                 "(with a larger --max-time) to resume", c->checkpoint);
        return;
    }
    if (now - k->last_save >= (wait > SAVE_EVERY ? wait : SAVE_EVERY)) save(c, k);
}

int gr_ckpt_close(gr_ctx *c, int status) {
    struct gr_ckpt *k = c->ckpt;
    if (!k) return status;
    stop_if_signalled(c, k);
    if (c->ckpt_keep && status == GR_EXIT_OK) {
        /* a search that stopped at --to: its values stay, for a run with a larger --to */
        save(c, k);
        if (c->progress) {
            fprintf(stderr, "grundy: the values computed are kept in %s", c->checkpoint);
            gr_heap_saved s;
            for (size_t i = 0; i < k->ngames; i++)     /* a table in its own file (tablefile.h) */
                if (gr_heap_save(c, k->games[i], &s) && !s.values && !s.bytes)
                    fprintf(stderr, " and %s", gr_ckpt_values_path(c, k->games[i]->name));
            fprintf(stderr, ": the same command with a larger --to goes on from them\n");
        }
    } else if (status == GR_EXIT_OK || status == GR_EXIT_REFUTED) {
        remove(c->checkpoint);
        /* and the values files beside it (tablefile.h), which only it refers to */
        for (size_t i = 0; i < k->ngames; i++) remove(gr_ckpt_values_path(c, k->games[i]->name));
        for (uint32_t i = 0; i < k->nrecs; i++) remove(k->recs[i].saved.file);
    }
    if (k->old) fclose(k->old);
    k->old = NULL;
    return status;
}
