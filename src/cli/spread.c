/* spread: census and family members over worker processes; see spread.h. */
#define _GNU_SOURCE
#include "spread.h"
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "progress.h"

enum { MAX_WORKERS = 64 };

/* The memory every process sees: the next member to take, what each worker runs, and then the
 * records. */
typedef struct shared {
    atomic_int next;
    atomic_int done;
    atomic_int running[MAX_WORKERS];   /* a member index, or -1 */
} shared;

static _Noreturn void worker(gr_ctx *c, gr_rquery *q, shared *sh, gr_member_result *res, const int *todo, int ntodo, int slot) {
    for (;;) {
        int k = atomic_fetch_add(&sh->next, 1);
        if (k >= ntodo) break;
        int i = todo[k];
        atomic_store(&sh->running[slot], i);
        gr_member_result r;
        gr_member_compute_caught(c, q, i, &r);
        memcpy(&res[i], &r, sizeof r);
        atomic_store(&sh->running[slot], -1);
        atomic_fetch_add(&sh->done, 1);
    }
    _exit(0);
}

static void run(gr_spread *sp, gr_ctx *c, gr_module *m, int qi, gr_member_result *out) {
    (void)sp;
    gr_rquery *q = &m->queries[qi];
    int n = q->nmembers;
    int *order = gr_alloc(c, gr_size_mul(c, (size_t)n, sizeof *order));
    gr_member_order(c, q, order);
    int ntodo = 0;
    for (int k = 0; k < n; k++)
        if (out[order[k]].state == GR_MEMBER_TODO) order[ntodo++] = order[k];
    int nworkers = c->threads < ntodo ? c->threads : ntodo;
    if (nworkers > MAX_WORKERS) nworkers = MAX_WORKERS;
    size_t bytes = sizeof(shared) + (size_t)n * sizeof *out;
    void *map = nworkers > 1 ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0) : MAP_FAILED;
    if (map == MAP_FAILED) {   /* one worker's worth, or no shared memory: here, in order */
        for (int k = 0; k < ntodo; k++) gr_member_compute_caught(c, q, order[k], &out[order[k]]);
        gr_free(c, order);
        return;
    }
    shared *sh = map;
    gr_member_result *res = (gr_member_result *)(sh + 1);
    memcpy(res, out, (size_t)n * sizeof *out);
    atomic_init(&sh->next, 0);
    atomic_init(&sh->done, 0);
    for (int k = 0; k < MAX_WORKERS; k++) atomic_init(&sh->running[k], -1);
    fflush(NULL);   /* nothing buffered is written twice: children end with _exit */
    pid_t pids[MAX_WORKERS];
    size_t used = c->store.mem_used, share = c->mem_limit > used ? (c->mem_limit - used) / (size_t)nworkers : 0;
    pid_t parent = getpid();
    int started = 0;
    for (int w = 0; w < nworkers; w++) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL);   /* the parent gone (Ctrl-C, a closed pipe): stop */
#endif
            if (getppid() != parent) _exit(0);
            signal(SIGINT, SIG_IGN);
            c->threads = 1;
            c->progress = c->progress_lines = 0;
            c->interrupted = NULL;
            c->mem_limit = used + share;
            worker(c, q, sh, res, order, ntodo, w);
        }
        pids[started++] = pid;
    }
    gr_progress bar;
    if (started) gr_progress_begin(&bar, c, "census members", (uint64_t)ntodo);
    int live = started, status[MAX_WORKERS];
    while (live > 0) {
        for (int w = 0; w < started; w++) {
            if (pids[w] <= 0) continue;
            pid_t got = waitpid(pids[w], &status[w], WNOHANG);
            if (got == pids[w] || (got < 0 && errno != EINTR)) { pids[w] = -pids[w]; live--; }
        }
        gr_progress_update(&bar, (uint64_t)atomic_load(&sh->done));
        if (live > 0) nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
    }
    if (started) gr_progress_end(&bar);
    for (int w = 0; w < started; w++) {   /* a worker killed in a member fails that member */
        int i = atomic_load(&sh->running[w]);
        if (i < 0 || res[i].state != GR_MEMBER_TODO) continue;
        res[i].state = GR_MEMBER_FAILED;
        res[i].failure.status = GR_EXIT_LIMIT;
        snprintf(res[i].failure.msg, sizeof res[i].failure.msg, "grundy: error: member %s: the process computing it ended (%s %d)\n",
                 q->members[i]->name, WIFSIGNALED(status[w]) ? "signal" : "status",
                 WIFSIGNALED(status[w]) ? WTERMSIG(status[w]) : WEXITSTATUS(status[w]));
        snprintf(res[i].failure.text, sizeof res[i].failure.text, "member %s: the process computing it ended", q->members[i]->name);
    }
    /* A member that failed a limit other than time in its worker (whose memory is a share of the
     * limit) gets the retry a lone query gets (parallel.c): here, with all of the memory, so
     * that every --threads prints the same bytes and status. */
    for (int k = 0; k < ntodo; k++) {
        gr_member_result *r = &res[order[k]];
        if (r->state == GR_MEMBER_FAILED && r->failure.status == GR_EXIT_LIMIT && !strstr(r->failure.msg, "error: time limit of")) {
            r->state = GR_MEMBER_TODO;
            gr_member_compute_caught(c, q, order[k], r);
        }
    }
    /* whatever no worker reached (none could start, or all died early) is computed here */
    for (int k = atomic_load(&sh->next); k < ntodo; k++)
        if (res[order[k]].state == GR_MEMBER_TODO) gr_member_compute_caught(c, q, order[k], &res[order[k]]);
    memcpy(out, res, (size_t)n * sizeof *out);
    munmap(map, bytes);
    gr_free(c, order);
}

void gr_spread_processes(gr_spread *sp) {
    sp->run = run;
    sp->user = NULL;
}
