/* mpi: census and family members over MPI ranks; see mpi.h. */
#define _GNU_SOURCE
#include "mpi.h"
#include <mpi.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "members.h"
#include "parallel.h"
#include "progress.h"
#include "hash.h"

enum { TAG_TASK = 1, TAG_RESULT = 2, TAG_STOP = 3, TAG_OUTPUT = 4 };

typedef struct task { int32_t query, member, status, pad; } task;
typedef struct result_msg { int32_t query, member; gr_member_result r; } result_msg;

/* What rank 0 keeps: the ranks, the checkpoint (its file and the records read back). */
typedef struct mpi_state {
    int rank, size;
    int serving;                 /* the other ranks are in gr_mpi_serve */
    const char *ckpt_path;
    FILE *ckpt;
    uint64_t program;            /* the hash the checkpoint's header carries */
    result_msg *saved; int nsaved;
    int resumed;
    gr_spread spread;
    int *owner;                  /* the rank answering each query (members.h spreads within rank 0's) */
    int *consumed;               /* rank 0: the answers of other ranks' queries it has taken */
    int nqueries;
} mpi_state;

/* An answer of another rank: the query, its exit (0, 1 refuted, else a failure's status), the
 * lengths of the answer's bytes and of the failure's text, which follow. */
typedef struct output_head { int32_t query, status, len, msglen; } output_head;

static mpi_state S;              /* one per process: MPI itself is process-wide */

static const char MAGIC[16] = "grundy-census1\n";

int gr_mpi_begin(int *argc, char ***argv) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &S.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &S.size);
    if (S.rank > 0) {   /* rank 0 speaks for the job */
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) { dup2(fd, STDOUT_FILENO); dup2(fd, STDERR_FILENO); close(fd); }
    }
    return S.rank;
}

/* ---- the checkpoint (rank 0) ---------------------------------------------------------------- */

static void ckpt_open(gr_ctx *c) {
    S.program = gr_fnv1a(GR_FNV1A_INIT, c->src, c->src_len);
    S.program = gr_fnv1a(S.program, &c->check_to, sizeof c->check_to);
    S.program = gr_fnv1a(S.program, &c->no_theory, sizeof c->no_theory);
    FILE *f = fopen(S.ckpt_path, "rb");
    if (f) {
        char magic[sizeof MAGIC];
        uint64_t program;
        if (fread(magic, 1, sizeof magic, f) != sizeof magic || memcmp(magic, MAGIC, sizeof magic) ||
            fread(&program, sizeof program, 1, f) != 1 || program != S.program) {
            fclose(f);
            gr_fail(c, GR_EXIT_INPUT, "%s is not a checkpoint of this program (another file, other options, or damaged); "
                    "remove it or name another file", S.ckpt_path);
        }
        for (;;) {
            result_msg m;
            uint64_t sum;
            if (fread(&m, sizeof m, 1, f) != 1 || fread(&sum, sizeof sum, 1, f) != 1) break;   /* the end, or a torn record */
            if (sum != gr_fnv1a(S.program, &m, sizeof m) || m.r.state != GR_MEMBER_DONE) break;
            S.saved = realloc(S.saved, (size_t)(S.nsaved + 1) * sizeof *S.saved);
            if (!S.saved) gr_fail(c, GR_EXIT_LIMIT, "out of memory reading %s", S.ckpt_path);
            S.saved[S.nsaved++] = m;
        }
        fclose(f);
    }
    /* Rewritten whole: the header and the good records, so a torn tail is dropped. */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", S.ckpt_path);
    S.ckpt = fopen(tmp, "wb");
    if (!S.ckpt) gr_fail(c, GR_EXIT_LIMIT, "cannot write the checkpoint %s: %s", tmp, strerror(errno));
    fwrite(MAGIC, 1, sizeof MAGIC, S.ckpt);
    fwrite(&S.program, sizeof S.program, 1, S.ckpt);
    for (int i = 0; i < S.nsaved; i++) {
        uint64_t sum = gr_fnv1a(S.program, &S.saved[i], sizeof S.saved[i]);
        fwrite(&S.saved[i], sizeof S.saved[i], 1, S.ckpt);
        fwrite(&sum, sizeof sum, 1, S.ckpt);
    }
    if (fflush(S.ckpt) != 0 || rename(tmp, S.ckpt_path) != 0)
        gr_fail(c, GR_EXIT_LIMIT, "cannot write the checkpoint %s: %s", S.ckpt_path, strerror(errno));
}

static void ckpt_record(const result_msg *m) {
    if (!S.ckpt || m->r.state != GR_MEMBER_DONE) return;
    uint64_t sum = gr_fnv1a(S.program, m, sizeof *m);
    fwrite(m, sizeof *m, 1, S.ckpt);
    fwrite(&sum, sizeof sum, 1, S.ckpt);
    fflush(S.ckpt);
    fdatasync(fileno(S.ckpt));
}

/* Waits for a message from source with tag (MPI_ANY_*) without spinning: Open MPI's blocking
 * receive polls at full speed, which would take a core from the rank sharing it. Probes back
 * off from 0.1 ms to 10 ms. */
static void wait_message(int source, int tag, MPI_Status *st) {
    long ns = 100 * 1000;
    for (;;) {
        int ready = 0;
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &ready, st);
        if (ready) return;
        nanosleep(&(struct timespec){ 0, ns }, NULL);
        if (ns < 10 * 1000 * 1000) ns *= 2;
    }
}

/* ---- rank 0: handing out members ------------------------------------------------------------ */

/* A failed member names its rank: status 3, whatever stopped it there. */
static void name_rank(gr_rquery *q, int i, gr_member_result *r) {
    if (r->state != GR_MEMBER_FAILED) return;
    char why[sizeof r->failure.text];
    snprintf(why, sizeof why, "%.300s", r->failure.text[0] ? r->failure.text : r->failure.msg);
    r->failure.status = GR_EXIT_LIMIT;
    r->failure.located = 0;
    snprintf(r->failure.text, sizeof r->failure.text, "member %.100s failed on rank %d: %.300s", q->members[i]->name, (int)r->rank, why);
    snprintf(r->failure.msg, sizeof r->failure.msg, "grundy: error: %.500s\n", r->failure.text);
}

static void take(gr_rquery *q, int qi, result_msg *m, int src, gr_member_result *res) {
    m->r.rank = src;
    name_rank(q, m->member, &m->r);
    res[m->member] = m->r;
    m->query = qi;
    ckpt_record(m);
}

static void spread_run(gr_spread *sp, gr_ctx *c, gr_module *mod, int qi, gr_member_result *res) {
    (void)sp;
    gr_rquery *q = &mod->queries[qi];
    int n = q->nmembers;
    for (int k = 0; k < S.nsaved; k++)
        if (S.saved[k].query == qi && S.saved[k].member >= 0 && S.saved[k].member < n && res[S.saved[k].member].state == GR_MEMBER_TODO) {
            res[S.saved[k].member] = S.saved[k].r;
            S.resumed++;
        }
    int *order = malloc((size_t)n * sizeof *order);
    result_msg *m = malloc(sizeof *m);
    if (!order || !m) { free(order); free(m); gr_fail(c, GR_EXIT_LIMIT, "out of memory handing out members"); }
    gr_member_order(c, q, order);
    int front = 0, back = -1;
    for (int k = 0; k < n; k++)
        if (res[order[k]].state == GR_MEMBER_TODO) order[++back] = order[k];
    int outstanding = 0, failed = 0, done = 0;
    gr_progress bar;
    gr_progress_begin(&bar, c, "members over the ranks", (uint64_t)(back + 1));
    for (int r = 1; r < S.size && front <= back; r++) {   /* one member to each rank, the longest first */
        task t = { qi, order[front++], 0, 0 };
        MPI_Send(&t, sizeof t, MPI_BYTE, r, TAG_TASK, MPI_COMM_WORLD);
        outstanding++;
    }
    while (outstanding > 0 || (front <= back && !failed)) {
        int ready = 0;
        MPI_Status st;
        if (outstanding > 0) {
            if (front <= back && !failed) MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &ready, &st);
            else { wait_message(MPI_ANY_SOURCE, TAG_RESULT, &st); ready = 1; }   /* nothing left to do here */
        }
        if (ready) {
            MPI_Recv(m, sizeof *m, MPI_BYTE, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
            outstanding--;
            take(q, qi, m, st.MPI_SOURCE, res);
            gr_progress_update(&bar, (uint64_t)++done);
            failed |= m->r.state == GR_MEMBER_FAILED;
            if (front <= back && !failed) {
                task t = { qi, order[front++], 0, 0 };
                MPI_Send(&t, sizeof t, MPI_BYTE, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
                outstanding++;
            }
            continue;
        }
        /* Rank 0 itself: the shortest member left, then back to the messages. */
        m->member = order[back--];
        gr_member_compute_caught(c, q, m->member, &m->r);
        take(q, qi, m, 0, res);
        gr_progress_update(&bar, (uint64_t)++done);
        failed |= m->r.state == GR_MEMBER_FAILED;
    }
    gr_progress_end(&bar);
    free(m);
    free(order);
}

/* ---- independent queries over the ranks ------------------------------------------------------ */

/* The owner of every query, the same on every rank: groups of independent queries (parallel.h)
 * go round the ranks other than 0, except the groups of a census or family check, whose
 * members rank 0 spreads itself. One rank, --query, or too many queries: all rank 0's. */
static void assign_queries(gr_ctx *c, gr_module *m) {
    int n = m->nqueries;
    S.owner = calloc((size_t)(n ? n : 1), sizeof *S.owner);
    S.consumed = calloc((size_t)(n ? n : 1), sizeof *S.consumed);
    if (!S.owner || !S.consumed) gr_fail(c, GR_EXIT_LIMIT, "out of memory assigning queries to ranks");
    if (S.size < 2 || c->query_only || n < 2 || n > GR_MAX_GROUPED_QUERIES) return;
    int group[GR_MAX_GROUPED_QUERIES], home[GR_MAX_GROUPED_QUERIES];
    int ngroups = gr_query_groups(m, group);
    if (ngroups < 0) return;
    for (int g = 0; g < ngroups; g++) home[g] = -1;
    for (int i = 0; i < n; i++)
        if (m->queries[i].nmembers > 1 && (m->queries[i].kind == Q_CENSUS || m->queries[i].check == CK_PERIODIC)) home[group[i]] = 0;
    int next = 0;
    for (int g = 0; g < ngroups; g++)
        if (home[g] < 0) home[g] = 1 + next++ % (S.size - 1);
    for (int i = 0; i < n; i++) S.owner[i] = home[group[i]];
}

/* A rank other than 0 answers its queries in file order, each into memory, and sends each
 * answer without waiting for rank 0 to take it; after a failure the rest are sent empty
 * (rank 0 stops at the failure, but takes every message before the job ends). */
static MPI_Request *answer_queries(gr_ctx *c, gr_module *m, gr_format fmt, int *nreq) {
    MPI_Request *req = calloc((size_t)m->nqueries + 1, sizeof *req);
    *nreq = 0;
    volatile int failed = 0;
    for (int i = 0; i < m->nqueries && req; i++) {
        if (S.owner[i] != S.rank) continue;
        char *buf = NULL;
        size_t len = 0;
        output_head h = { i, 0, 0, 0 };
        FILE *f = failed ? NULL : open_memstream(&buf, &len);
        if (f) {
            jmp_buf jb, *outer = c->on_fail;
            c->on_fail = &jb;
            if (setjmp(jb) == 0) h.status = gr_run_query(c, m, i, fmt, f, i > 0);
            else { h.status = c->fail_status; h.msglen = (int32_t)strlen(c->fail_msg) + 1; failed = 1; }
            c->on_fail = outer;
            fclose(f);
        } else if (!failed) { h.status = GR_EXIT_LIMIT; failed = 1; }
        h.len = (int32_t)len;
        size_t total = sizeof h + len + (size_t)h.msglen;
        char *msg = malloc(total);
        if (!msg) MPI_Abort(MPI_COMM_WORLD, GR_EXIT_LIMIT);
        memcpy(msg, &h, sizeof h);
        if (len) memcpy(msg + sizeof h, buf, len);
        if (h.msglen) memcpy(msg + sizeof h + len, c->fail_msg, (size_t)h.msglen);
        free(buf);
        MPI_Isend(msg, (int)total, MPI_BYTE, 0, TAG_OUTPUT, MPI_COMM_WORLD, &req[(*nreq)++]);
    }
    return req;
}

/* Rank 0 takes the next answer of query i's rank (answers come in file order). */
static char *take_answer(int i, output_head *h) {
    MPI_Status st;
    int count;
    wait_message(S.owner[i], TAG_OUTPUT, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    char *msg = malloc((size_t)count + 1);
    if (!msg) MPI_Abort(MPI_COMM_WORLD, GR_EXIT_LIMIT);
    MPI_Recv(msg, count, MPI_BYTE, S.owner[i], TAG_OUTPUT, MPI_COMM_WORLD, &st);
    memcpy(h, msg, sizeof *h);
    msg[count] = '\0';
    S.consumed[i] = 1;
    return msg;
}

int gr_mpi_run_queries(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out, gr_query_start_fn start, void *user) {
    int refuted = 0;
    if (c->query_only > m->nqueries)
        gr_fail(c, GR_EXIT_INPUT, "--query %d: the file has %d quer%s", c->query_only, m->nqueries, m->nqueries == 1 ? "y" : "ies");
    for (int i = 0; i < m->nqueries; i++) {
        if (c->query_only && i + 1 != c->query_only) continue;
        if (start) start(user, i, m->nqueries, &m->queries[i]);
        if (S.owner[i] == 0) { refuted |= gr_run_query(c, m, i, fmt, out, i > 0 && !c->query_only); continue; }
        output_head h;
        char *msg = take_answer(i, &h);
        fwrite(msg + sizeof h, 1, (size_t)h.len, out);
        fflush(out);
        if (h.status > GR_EXIT_REFUTED) {
            gr_failure f = { .status = h.status };
            snprintf(f.msg, sizeof f.msg, "%s", h.msglen ? msg + sizeof h + h.len : "grundy: error: a rank failed\n");
            free(msg);
            gr_failure_raise(c, &f);
        }
        refuted |= h.status == GR_EXIT_REFUTED;
        free(msg);
    }
    return refuted ? GR_EXIT_REFUTED : GR_EXIT_OK;
}

/* ---- the other ranks ------------------------------------------------------------------------ */

int gr_mpi_serve(gr_ctx *c, gr_module *mod, gr_format fmt) {
    S.nqueries = mod->nqueries;
    assign_queries(c, mod);
    if (S.rank == 0) {
        S.serving = S.size > 1;   /* from here on the other ranks wait for a stop, whatever happens */
        S.ckpt_path = c->checkpoint;
        c->checkpoint = NULL;     /* the heap-table checkpoint is grundy's; here FILE holds members */
        if (S.ckpt_path) ckpt_open(c);
        if (S.nsaved) fprintf(stderr, "grundy-mpi: %s holds %d finished member%s; they are not computed again\n", S.ckpt_path,
                              S.nsaved, S.nsaved == 1 ? "" : "s");
        S.spread.run = spread_run;
        c->spread = &S.spread;
        return -1;
    }
    c->checkpoint = NULL;
    c->progress = c->progress_lines = 0;
    int nreq;
    MPI_Request *req = answer_queries(c, mod, fmt, &nreq);
    result_msg *m = malloc(sizeof *m);
    for (;;) {
        task t;
        MPI_Status st;
        wait_message(0, MPI_ANY_TAG, &st);
        MPI_Recv(&t, sizeof t, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_STOP) {   /* rank 0 has taken every answer: the sends are done */
            if (req) MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
            free(req);
            free(m);
            return t.status;
        }
        if (!m || t.query < 0 || t.query >= mod->nqueries || t.member < 0 || t.member >= mod->queries[t.query].nmembers) {
            free(m);
            MPI_Abort(MPI_COMM_WORLD, GR_EXIT_LIMIT);   /* cannot happen: every rank compiled the same file */
        }
        m->query = t.query;
        m->member = t.member;
        gr_member_compute_caught(c, &mod->queries[t.query], t.member, &m->r);
        MPI_Send(m, sizeof *m, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
}

int gr_mpi_end(gr_ctx *c, int status) {
    (void)c;
    if (S.rank == 0) {
        for (int i = 0; S.serving && S.owner && i < S.nqueries; i++)   /* answers a failure left untaken */
            if (S.owner[i] > 0 && !S.consumed[i]) {
                output_head h;
                free(take_answer(i, &h));
            }
        if (S.serving)
            for (int r = 1; r < S.size; r++) {
                task t = { 0, 0, status, 0 };
                MPI_Send(&t, sizeof t, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
            }
        if (S.ckpt) {
            fclose(S.ckpt);
            if (status == GR_EXIT_OK || status == GR_EXIT_REFUTED) remove(S.ckpt_path);   /* finished: nothing to resume */
        }
        free(S.saved);
    }
    free(S.owner);
    free(S.consumed);
    MPI_Finalize();
    return status;
}
