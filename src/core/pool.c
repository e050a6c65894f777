/* pool: worker threads that run one job at a time; see pool.h. A generation counter under a
 * mutex starts a job. When the caller's own share returns the job is closed: members that have
 * not started it by then (a loaded machine may not have run them yet) skip it, and the caller
 * waits only for those inside it. */
#include "pool.h"
#include <pthread.h>
#include <stdlib.h>

enum { MAX_MEMBERS = 256 };

struct gr_pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    int members;               /* the caller plus the started threads */
    int running;               /* threads inside the current job */
    int closed;                /* the current job takes no more members */
    int quit;
    uint64_t generation;       /* bumped for every job */
    gr_pool_fn fn;
    void *arg;
    pthread_t th[MAX_MEMBERS];
};

typedef struct member { gr_pool *p; int index; } member;

static void *worker(void *user) {
    gr_pool *p = ((member *)user)->p;
    int index = ((member *)user)->index;
    free(user);
    uint64_t seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->generation == seen && !p->quit) pthread_cond_wait(&p->go, &p->mu);
        if (p->quit) break;
        seen = p->generation;
        if (p->closed) continue;
        gr_pool_fn fn = p->fn;
        void *arg = p->arg;
        p->running++;
        pthread_mutex_unlock(&p->mu);
        fn(arg, index, p->members);
        pthread_mutex_lock(&p->mu);
        if (--p->running == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

gr_pool *gr_pool_new(int threads) {
    if (threads <= 1) return NULL;
    if (threads > MAX_MEMBERS) threads = MAX_MEMBERS;
    gr_pool *p = calloc(1, sizeof *p);   /* plain calloc: a pool belongs to no context (src/README.md) */
    if (!p) return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->members = 1;
    for (int i = 1; i < threads; i++) {
        member *m = malloc(sizeof *m);
        if (!m) break;
        m->p = p;
        m->index = i;
        /* members is read by started threads only inside a job, after this loop ends */
        if (pthread_create(&p->th[i], NULL, worker, m) != 0) { free(m); break; }
        p->members++;
    }
    if (p->members == 1) { gr_pool_free(p); return NULL; }
    return p;
}

int gr_pool_size(const gr_pool *p) { return p ? p->members : 1; }

void gr_pool_run(gr_pool *p, gr_pool_fn fn, void *arg) {
    if (!p) { fn(arg, 0, 1); return; }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->closed = 0;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, p->members);
    pthread_mutex_lock(&p->mu);
    p->closed = 1;
    while (p->running) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void gr_pool_free(gr_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->members; i++) pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p);
}
