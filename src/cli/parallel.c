/* parallel: independent queries in worker processes; see parallel.h. */
#define _GNU_SOURCE
#include "parallel.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

enum { MAX_QUERIES = GR_MAX_GROUPED_QUERIES, MAX_WORKERS = 64, COPY_BYTES = 1 << 16, POLL_MS = 50 };
enum { R_START, R_DONE, R_FAILED };

/* What a worker tells the parent, in one write shorter than PIPE_BUF, so reports from several
 * workers never interleave. */
typedef struct report {
    int32_t slot, query, kind, status, len;
    char msg[sizeof ((gr_ctx *)0)->fail_msg];
} report;

typedef struct shared { atomic_int next_group; } shared;   /* in memory every process sees */

/* ---- groups ------------------------------------------------------------------------------- */

typedef struct use { uintptr_t key; int q; } use;

static int cmp_use(const void *a, const void *b) {
    uintptr_t x = ((const use *)a)->key, y = ((const use *)b)->key;
    return (x > y) - (x < y);
}

static int root(int *up, int x) {
    while (up[x] != x) x = up[x] = up[up[x]];
    return x;
}

/* group[i] for every query, groups numbered in order of their first query; returns how many
 * (-1: no memory). Queries are joined by every rule set they read, and all queries that write
 * a file are joined too. A union links the larger root under the smaller, so a group's root is
 * its first query. */
int gr_query_groups(const gr_module *m, int *group) {
    static const char writes_file = 0;
    int n = m->nqueries, up[MAX_QUERIES], num[MAX_QUERIES], ngroups = 0;
    size_t cap = 0, nuse = 0;
    for (int i = 0; i < n; i++) cap += 2 + (size_t)m->queries[i].ncomps + (size_t)m->queries[i].nmembers;
    use *u = malloc(cap * sizeof *u);
    if (!u) return -1;
    for (int i = 0; i < n; i++) {
        const gr_rquery *q = &m->queries[i];
        up[i] = i;
        if (q->game) u[nuse++] = (use){ (uintptr_t)q->game, i };
        for (int k = 0; k < q->ncomps; k++) u[nuse++] = (use){ (uintptr_t)q->comps[k].game, i };
        for (int k = 0; k < q->nmembers; k++) u[nuse++] = (use){ (uintptr_t)q->members[k], i };
        if (q->file) u[nuse++] = (use){ (uintptr_t)&writes_file, i };
    }
    qsort(u, nuse, sizeof *u, cmp_use);
    for (size_t k = 1; k < nuse; k++) {
        if (u[k].key != u[k - 1].key) continue;
        int a = root(up, u[k].q), b = root(up, u[k - 1].q);
        if (a != b) up[a > b ? a : b] = a < b ? a : b;
    }
    free(u);
    for (int i = 0; i < n; i++) {
        int r = root(up, i);
        if (r == i) num[i] = ngroups++;
        group[i] = num[r];
    }
    return ngroups;
}

/* ---- a worker ----------------------------------------------------------------------------- */

typedef struct job {
    gr_module *m;
    gr_format fmt;
    const int *group;
    int ngroups;
    const int *fds;          /* each query's temporary file */
    shared *sh;
    int report_fd;
    int slot;                /* the worker's slot in the parent's table */
} job;

static void send_report(const job *J, int query, int kind, int status, const char *msg) {
    report r = { J->slot, query, kind, status, 0, { 0 } };
    if (msg) {
        size_t len = strlen(msg);
        if (len >= sizeof r.msg) len = sizeof r.msg - 1;
        memcpy(r.msg, msg, len);
        r.len = (int32_t)len;
    }
    (void)!write(J->report_fd, &r, offsetof(report, msg) + (size_t)r.len);
}

/* Takes groups until none is left and runs their queries in file order, each into its file.
 * A failure is reported for its query, and the worker ends (the parent starts another if
 * groups remain): the failed query's rule sets may be half computed. */
static _Noreturn void worker(gr_ctx *c, const job *J) {
    jmp_buf jb;
    volatile int cur = -1;
    FILE *volatile f = NULL;
    c->on_fail = &jb;
    if (setjmp(jb)) {
        if (f) fflush(f);
        if (c->progress) fputs("\r\033[K", stderr);
        send_report(J, cur, R_FAILED, c->fail_status, c->fail_msg);
        _exit(0);
    }
    for (;;) {
        int gi = atomic_fetch_add(&J->sh->next_group, 1);
        if (gi >= J->ngroups) break;
        for (int i = 0; i < J->m->nqueries; i++) {
            if (J->group[i] != gi) continue;
            cur = i;
            send_report(J, i, R_START, 0, NULL);
            int fd = dup(J->fds[i]);
            f = fd >= 0 ? fdopen(fd, "w") : NULL;
            if (!f) gr_fail(c, GR_EXIT_LIMIT, "cannot write a temporary file for query %d: %s", i + 1, strerror(errno));
            int refuted = gr_run_query(c, J->m, i, J->fmt, f, i > 0);
            FILE *done = f;
            f = NULL;
            if (fclose(done) != 0) gr_fail(c, GR_EXIT_LIMIT, "cannot write a temporary file for query %d: %s", i + 1, strerror(errno));
            send_report(J, i, R_DONE, refuted, NULL);
        }
    }
    _exit(0);
}

/* ---- the parent --------------------------------------------------------------------------- */

typedef struct run {
    int n, nworkers;
    FILE *tmp[MAX_QUERIES];
    int fds[MAX_QUERIES];
    int state[MAX_QUERIES];      /* -1 pending, else the R_DONE or R_FAILED report's kind */
    int status[MAX_QUERIES];     /* R_DONE: refuted; R_FAILED: exit status */
    char *msg[MAX_QUERIES];      /* R_FAILED: the failure's text */
    off_t copied[MAX_QUERIES];   /* bytes of the answer already printed */
    pid_t pid[MAX_WORKERS];      /* 0: no live worker in the slot */
    int running[MAX_WORKERS];    /* the query a worker last started */
    int pipe_fd[2];
    shared *sh;
    char *buf;                   /* for copying answers */
    unsigned char rbuf[2 * sizeof(report)];
    size_t rlen;
    int bar;                     /* a worker draws a progress bar on the terminal */
} run;

static void cleanup(run *r) {
    for (int k = 0; k < r->nworkers; k++)
        if (r->pid[k] > 0) kill(r->pid[k], SIGKILL);
    for (int k = 0; k < r->nworkers; k++)
        if (r->pid[k] > 0) while (waitpid(r->pid[k], NULL, 0) < 0 && errno == EINTR) {}
    for (int i = 0; i < r->n; i++) {
        if (r->tmp[i]) fclose(r->tmp[i]);
        free(r->msg[i]);
    }
    if (r->pipe_fd[0] >= 0) close(r->pipe_fd[0]);
    if (r->pipe_fd[1] >= 0) close(r->pipe_fd[1]);
    if (r->sh) munmap(r->sh, sizeof *r->sh);
    free(r->buf);
    free(r);
}

/* Copies what query i's answer has gained since the last call. */
static void copy_new(run *r, int i, FILE *out) {
    for (;;) {
        ssize_t got = pread(r->fds[i], r->buf, COPY_BYTES, r->copied[i]);
        if (got <= 0) break;
        if (r->bar) fputs("\r\033[K", stderr);   /* a worker's bar may be on the line */
        fwrite(r->buf, 1, (size_t)got, out);
        r->copied[i] += got;
    }
}

/* Reads whatever reports have arrived (without blocking) and records them. */
static void read_reports(run *r) {
    for (;;) {
        ssize_t got = read(r->pipe_fd[0], r->rbuf + r->rlen, sizeof r->rbuf - r->rlen);
        if (got <= 0) return;
        r->rlen += (size_t)got;
        size_t head = offsetof(report, msg);
        for (;;) {
            report rep;
            if (r->rlen < head) break;
            memcpy(&rep, r->rbuf, head);
            size_t whole = head + (size_t)rep.len;
            if (r->rlen < whole) break;
            int q = rep.query;
            if (q >= 0 && q < r->n) {
                if (rep.kind == R_START) {
                    if (rep.slot >= 0 && rep.slot < r->nworkers) r->running[rep.slot] = q;
                } else {
                    r->state[q] = rep.kind;
                    r->status[q] = rep.status;
                    if (rep.kind == R_FAILED) {
                        free(r->msg[q]);
                        r->msg[q] = malloc((size_t)rep.len + 1);
                        if (r->msg[q]) {
                            memcpy(r->msg[q], r->rbuf + head, (size_t)rep.len);
                            r->msg[q][rep.len] = '\0';
                        }
                    }
                }
            }
            memmove(r->rbuf, r->rbuf + whole, r->rlen - whole);
            r->rlen -= whole;
        }
    }
}

/* Starts a worker in slot k. The child never returns: it ends with _exit, so nothing buffered
 * in the parent's streams is written twice. Returns 0 if no process could be made. */
static int spawn(run *r, int k, gr_ctx *c, job J, size_t mem_each) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return 0;
    if (pid == 0) {
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* the parent gone (Ctrl-C, a closed pipe): stop */
#endif
        if (getppid() != parent) _exit(0);
        signal(SIGINT, SIG_IGN);            /* the parent says where an interrupt stopped */
        close(r->pipe_fd[0]);
        c->mem_limit = mem_each;
        c->progress = c->progress && k == 0;   /* one bar on the terminal, not several */
        c->progress_lines = c->progress_lines && k == 0;
        c->interrupted = NULL;
        J.slot = k;
        worker(c, &J);
    }
    r->pid[k] = pid;
    r->running[k] = -1;
    return 1;
}

/* Reaps the workers that ended. One that died in a query it had not finished fails that query
 * (a signal: the system killed it, or a bug). Returns how many are still running. */
static int reap(run *r) {
    int live = 0;
    for (int k = 0; k < r->nworkers; k++) {
        if (r->pid[k] <= 0) continue;
        int ws;
        pid_t got = waitpid(r->pid[k], &ws, WNOHANG);
        if (got == 0) { live++; continue; }
        if (got < 0 && errno == EINTR) { live++; continue; }
        r->pid[k] = 0;
        read_reports(r);                  /* its last words come before its death is judged */
        int q = r->running[k];
        if (q >= 0 && r->state[q] < 0) {
            char text[256];
            if (WIFSIGNALED(ws))
                snprintf(text, sizeof text, "grundy: error: query %d: the process running it was killed by signal %d (%s)\n",
                         q + 1, WTERMSIG(ws), strsignal(WTERMSIG(ws)));
            else
                snprintf(text, sizeof text, "grundy: error: query %d: the process running it ended without an answer\n", q + 1);
            r->state[q] = R_FAILED;
            r->status[q] = GR_EXIT_LIMIT;
            r->msg[q] = strdup(text);
        }
    }
    return live;
}

/* A stream onto out that drops its first `skip` bytes (all of them while skip < 0): the
 * serial rerun after a failure, whose first answers are already printed. */
typedef struct skip_out { FILE *f, *out; int64_t skip; } skip_out;

static ssize_t skip_write(void *cookie, const char *b, size_t len) {
    skip_out *s = cookie;
    size_t drop = s->skip < 0 ? len : (uint64_t)s->skip < len ? (size_t)s->skip : len;
    if (s->skip > 0) s->skip -= (int64_t)drop;
    if (len > drop && fwrite(b + drop, 1, len - drop, s->out) != len - drop) return -1;
    if (len > drop) fflush(s->out);
    return (ssize_t)len;
}

static int time_limit(const char *msg) { return msg && strstr(msg, "error: time limit of") != NULL; }

int gr_parallel_queries(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out, gr_query_start_fn start, void *user) {
    int n = m->nqueries, group[MAX_QUERIES];
    if (c->threads < 2 || c->query_only || c->checkpoint || n < 2 || n > MAX_QUERIES) return -1;
    int ngroups = gr_query_groups(m, group);
    if (ngroups < 2) return -1;
    run *r = calloc(1, sizeof *r);
    if (!r) return -1;
    r->n = n;
    r->bar = c->progress;
    r->nworkers = c->threads < ngroups ? c->threads : ngroups;
    if (r->nworkers > MAX_WORKERS) r->nworkers = MAX_WORKERS;
    r->pipe_fd[0] = r->pipe_fd[1] = -1;
    r->buf = malloc(COPY_BYTES);
    r->sh = mmap(NULL, sizeof *r->sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r->sh == MAP_FAILED) r->sh = NULL;
    int ok = r->buf && r->sh && pipe(r->pipe_fd) == 0;
    for (int i = 0; i < n && ok; i++) {
        r->state[i] = -1;
        ok = (r->tmp[i] = tmpfile()) != NULL;
        if (ok) r->fds[i] = fileno(r->tmp[i]);
    }
    if (!ok) { cleanup(r); return -1; }
    atomic_init(&r->sh->next_group, 0);
    {
        int fl = fcntl(r->pipe_fd[0], F_GETFL);
        if (fl < 0 || fcntl(r->pipe_fd[0], F_SETFL, fl | O_NONBLOCK) < 0) { cleanup(r); return -1; }
    }
    job J = { m, fmt, group, ngroups, r->fds, r->sh, r->pipe_fd[1], 0 };
    size_t mem_each = c->mem_limit / (size_t)r->nworkers;
    fflush(out);
    fflush(stderr);
    int started = 0;
    for (int k = 0; k < r->nworkers; k++) started += spawn(r, k, c, J, mem_each);
    if (!started) { cleanup(r); return -1; }

    int refuted = 0, cur = 0;
    if (start) start(user, 0, n, &m->queries[0]);
    while (cur < n) {
        read_reports(r);
        copy_new(r, cur, out);
        if (r->state[cur] < 0) {
            int live = reap(r);
            if (r->state[cur] >= 0) continue;
            /* a worker that ended after a failure leaves groups to another */
            for (int k = 0; k < r->nworkers && atomic_load(&r->sh->next_group) < ngroups; k++)
                if (r->pid[k] <= 0 && spawn(r, k, c, J, mem_each)) live++;
            if (!live && r->state[cur] < 0) {
                r->state[cur] = R_FAILED;
                r->status[cur] = GR_EXIT_LIMIT;
                r->msg[cur] = strdup("grundy: error: no process left to run the remaining queries\n");
                continue;
            }
            fflush(out);
            if (c->interrupted) c->interrupted(c);   /* the reader gone: end as serially */
            struct pollfd p = { r->pipe_fd[0], POLLIN, 0 };
            (void)poll(&p, 1, POLL_MS);
            continue;
        }
        fflush(out);
        if (r->state[cur] == R_FAILED) {
            int status = r->status[cur];
            char msg[sizeof c->fail_msg];
            snprintf(msg, sizeof msg, "%s", r->msg[cur] ? r->msg[cur] : "grundy: error: a query failed\n");
            int from = cur;
            off_t shown = r->copied[cur];
            cleanup(r);
            if (status == GR_EXIT_LIMIT && !time_limit(msg)) {
                /* Perhaps only the worker's share of the memory was too small: the file again,
                 * in this process, with all of it; the answers already printed go nowhere. */
                static skip_out tail;             /* static: a failure may longjmp past it */
                tail.out = out;
                if (!tail.f) tail.f = fopencookie(&tail, "w", (cookie_io_functions_t){ .write = skip_write });
                if (tail.f) {
                    refuted = 0;
                    for (int i = 0; i < n; i++) {
                        if (start && i >= from) start(user, i, n, &m->queries[i]);
                        /* before the failed query: nothing; the failed one: past what is shown */
                        tail.skip = i < from ? -1 : i == from ? (int64_t)shown : 0;
                        refuted |= gr_run_query(c, m, i, fmt, tail.f, i > 0);
                    }
                    return refuted ? GR_EXIT_REFUTED : GR_EXIT_OK;
                }
            }
            gr_fail_again(c, status, msg);
        }
        refuted |= r->status[cur];
        if (++cur < n && start) start(user, cur, n, &m->queries[cur]);
    }
    cleanup(r);
    return refuted ? GR_EXIT_REFUTED : GR_EXIT_OK;
}
