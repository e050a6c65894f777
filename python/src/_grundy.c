/* _grundy: the CPython extension under the grundy package (python/grundy/__init__.py), over the
 * public C API of libgrundy (include/grundy.h) and nothing else.
 *
 * Each call runs on a thread of its own while the calling thread waits with the GIL released,
 * taking the GIL back every 50 ms to let Python run its signal handlers: when one raises
 * (KeyboardInterrupt on Ctrl-C), the call is stopped with gr_interrupt, which the library
 * answers within milliseconds, and the exception propagates. At each of those wakes a progress
 * callable, when given, is called with the library's snapshot of the call (gr_call_progress);
 * if it raises, the call is stopped the same way. A Program keeps a pool of
 * compiled gr_programs, one per call running at a time, so threads may share a Program.
 * Tables come back as a buffer object (Cells) the package wraps with numpy.frombuffer, without
 * a copy and without building against numpy's C API. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include "grundy.h"

static PyObject *GameSyntaxError, *LimitError, *GrundyError;

/* ---- Cells: a table's cells, owned, exported through the buffer protocol ---- */
typedef struct {
    PyObject_HEAD
    void *data;                /* malloc'ed by the library (or here): freed with gr_free */
    Py_ssize_t n, itemsize;
    const char *format;        /* "q": int64 values; "I": UCS-4 characters (numpy's "U1") */
} Cells;

static void cells_dealloc(Cells *self) {
    gr_free(self->data);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int cells_getbuffer(Cells *self, Py_buffer *view, int flags) {
    int rc = PyBuffer_FillInfo(view, (PyObject *)self, self->data, self->n * self->itemsize, 0, flags);
    if (rc == 0) {
        view->itemsize = self->itemsize;
        if (flags & PyBUF_FORMAT) view->format = (char *)(uintptr_t)self->format;
        if (flags & PyBUF_ND) {
            view->ndim = 1;
            view->shape = &self->n;
        }
    }
    return rc;
}

static Py_ssize_t cells_len(Cells *self) { return self->n; }

static PyBufferProcs cells_as_buffer = { (getbufferproc)cells_getbuffer, NULL };
static PySequenceMethods cells_as_sequence = { .sq_length = (lenfunc)cells_len };

static PyTypeObject CellsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "grundy._grundy.Cells",
    .tp_basicsize = sizeof(Cells),
    .tp_dealloc = (destructor)cells_dealloc,
    .tp_as_buffer = &cells_as_buffer,
    .tp_as_sequence = &cells_as_sequence,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The cells of a table, in the library's memory (wrap with numpy.frombuffer).",
};

/* ---- Program ---- */
enum { POOL_MAX = 64 };

typedef struct {
    PyObject_HEAD
    char *source, *filename;
    pthread_mutex_t lock;      /* guards pool */
    gr_program *pool[POOL_MAX];
    int npool;
} Program;

/* A gr_program for one call: from the pool, or compiled again (it compiled once already). */
static gr_program *take(Program *self) {
    gr_program *p = NULL;
    pthread_mutex_lock(&self->lock);
    if (self->npool > 0) p = self->pool[--self->npool];
    pthread_mutex_unlock(&self->lock);
    if (!p) {
        Py_BEGIN_ALLOW_THREADS
        p = gr_compile(self->source, self->filename, NULL);
        Py_END_ALLOW_THREADS
        if (!p) PyErr_NoMemory();
    }
    return p;
}

static void give_back(Program *self, gr_program *p) {
    pthread_mutex_lock(&self->lock);
    if (self->npool < POOL_MAX) { self->pool[self->npool++] = p; p = NULL; }
    pthread_mutex_unlock(&self->lock);
    gr_program_free(p);
}

/* The exception of a diagnostic: GameSyntaxError(msg, (filename, line, column, text)). */
static PyObject *syntax_error(const char *filename, const gr_diagnostic *d, const char *text) {
    /* the offending line of text */
    const char *line = text ? text : "";
    for (int l = 1; l < d->line && line; l++) {
        line = strchr(line, '\n');
        if (line) line++;
    }
    Py_ssize_t len = 0;
    if (line) while (line[len] && line[len] != '\n') len++;
    PyObject *args = Py_BuildValue("(s(siis#))", d->message, filename, d->line, d->column, line ? line : "", len);
    if (args) {
        PyErr_SetObject(GameSyntaxError, args);
        Py_DECREF(args);
    }
    return NULL;
}

/* Raises the error of a failed call on p; `text` is the caller's text the call was about. */
static PyObject *raise_for(Program *self, gr_program *p, int rc, const char *text) {
    const gr_diagnostic *d = gr_last_diagnostic(p);
    const char *msg = gr_last_error(p);
    if (rc == GR_ELIMIT) {
        /* the library names the command's options: name the keywords instead */
        static const char *opt[][2] = { { "--max-time", "max_time" }, { "--max-memory", "max_memory" },
                                        { "--max-positions", "max_positions" } };
        char says[sizeof d->message + 64];
        snprintf(says, sizeof says, "%s", d->message[0] ? d->message : msg);
        for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++) {
            char *at = strstr(says, opt[i][0]);
            if (at) memmove(at + strlen(opt[i][1]), at + strlen(opt[i][0]), strlen(at + strlen(opt[i][0])) + 1),
                    memcpy(at, opt[i][1], strlen(opt[i][1]));
        }
        PyErr_SetString(LimitError, says);
    }
    else if (rc == GR_ENOMEM) PyErr_NoMemory();
    else if (rc == GR_EINTR) PyErr_SetNone(PyExc_KeyboardInterrupt);
    else if (rc == GR_EINPUT && d->line > 0) {
        /* located in the program (its own file name) or in the caller's text ("position:1:13") */
        size_t flen = strlen(self->filename);
        int in_program = !strncmp(msg, self->filename, flen) && msg[flen] == ':';
        if (in_program) syntax_error(self->filename, d, self->source);
        else {
            char where[32];
            const char *colon = strchr(msg, ':');
            snprintf(where, sizeof where, "<%.*s>", colon ? (int)(colon - msg) : 4, colon ? msg : "text");
            syntax_error(where, d, text);
        }
    } else if (rc == GR_EINPUT || rc == GR_EINVAL) PyErr_SetString(PyExc_ValueError, d->message[0] ? d->message : gr_strerror(rc));
    else PyErr_SetString(GrundyError, msg[0] ? msg : gr_strerror(rc));
    return NULL;
}

/* ---- running a call off the GIL, interruptibly ---- */
typedef struct job {
    gr_program *p;
    int (*fn)(struct job *);
    void *arg;
    int rc;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_int done;           /* set under mu, read without it by a waiter that spins first */
} job;

/* Marks j done (under its lock) with the call's code. */
static void job_finish(job *j, int rc) {
    pthread_mutex_lock(&j->mu);
    j->rc = rc;
    atomic_store(&j->done, 1);
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

/* The threads calls run on, kept between calls: a thread made for every call cost about as
 * much as a small solve (clone3, and the page faults of a fresh stack under the parser), and
 * made a loop of solves 2.8x the command's time. A runner waits for a job, runs it, and goes
 * back on the idle stack; one is made only when none is idle (calls from several Python
 * threads at once), and they last as long as the process. */
typedef struct runner {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic(job *) job;        /* the job handed to it, NULL while it waits */
    struct runner *next;       /* on the idle stack */
} runner;

/* How long a waiter looks before it sleeps: about 100 microseconds of pause instructions. */
enum { SPIN_TURNS = 2000 };
static inline void spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static runner *idle_runners;

static void *runner_main(void *v) {
    runner *r = v;
    for (;;) {
        /* A loop of calls hands the next job within microseconds: look for it a while before
         * sleeping, so that neither side pays a futex wake for every call. */
        for (int spin = 0; spin < SPIN_TURNS && !atomic_load(&r->job); spin++) spin_pause();
        pthread_mutex_lock(&r->mu);
        while (!atomic_load(&r->job)) pthread_cond_wait(&r->cv, &r->mu);
        job *j = atomic_exchange(&r->job, NULL);
        pthread_mutex_unlock(&r->mu);
        int rc = j->fn(j);
        /* back on the idle stack before the caller hears it is done, so its next call finds it
         * (a job handed to it meanwhile waits in r->job for the loop's next turn) */
        pthread_mutex_lock(&idle_lock);
        r->next = idle_runners;
        idle_runners = r;
        pthread_mutex_unlock(&idle_lock);
        job_finish(j, rc);
    }
    return NULL;
}

/* Hands j to an idle runner (or a new one); 0 if no thread could be had. */
static int runner_start(job *j) {
    pthread_mutex_lock(&idle_lock);
    runner *r = idle_runners;
    if (r) idle_runners = r->next;
    pthread_mutex_unlock(&idle_lock);
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r) return 0;
        pthread_mutex_init(&r->mu, NULL);
        pthread_cond_init(&r->cv, NULL);
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        int bad = pthread_create(&t, &at, runner_main, r);
        pthread_attr_destroy(&at);
        if (bad) {
            pthread_cond_destroy(&r->cv);
            pthread_mutex_destroy(&r->mu);
            free(r);
            return 0;
        }
    }
    pthread_mutex_lock(&r->mu);
    atomic_store(&r->job, j);
    pthread_cond_signal(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return 1;
}

/* Waits up to `seconds` for the job; returns whether it is done. */
static int wait_job(job *j, double seconds) {
    for (int spin = 0; spin < SPIN_TURNS && !atomic_load(&j->done); spin++) spin_pause();
    pthread_mutex_lock(&j->mu);
    if (!j->done) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)(seconds * 1e9);
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&j->cv, &j->mu, &ts);
    }
    int done = j->done;
    pthread_mutex_unlock(&j->mu);
    return done;
}

/* progress(query, step, done, total) with the call's snapshot; -1 if it raised. */
static int report_progress(job *j, PyObject *progress) {
    gr_call_state st;
    if (gr_call_progress(j->p, &st) != GR_OK) return 0;
    PyObject *r = PyObject_CallFunction(progress, "ssKK", st.query, st.step, (unsigned long long)st.done,
                                        (unsigned long long)st.total);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
}

/* ---- a call on the main thread, stopped by SIGINT ----
 * The common case (the main thread, no progress callable) runs the call right here, with the
 * GIL released: handing it to a runner cost ~85 microseconds a call on a loaded machine (a
 * thread to wake and schedule), more than a small solve. Python's own SIGINT handler only
 * marks the signal for later, so while the call runs a handler of ours stops it
 * (gr_interrupt is one atomic store, safe in a handler) and, once it is back, the signal is
 * given to Python as if it came then (PyErr_SetInterruptEx), so KeyboardInterrupt, or the
 * user's own handler, follows as before. */
static unsigned long main_thread_id;
static gr_program *_Atomic inline_program;
static volatile sig_atomic_t inline_interrupted;

static void inline_sigint(int sig) {
    (void)sig;
    inline_interrupted = 1;
    gr_program *p = atomic_load(&inline_program);
    if (p) gr_interrupt(p);
}

/* 1 with the call run (j->rc set; -1 with KeyboardInterrupt's exception set in *raised), 0
 * when this thread cannot run it so (not the main thread, or SIGINT not Python's to handle). */
static int run_inline(job *j, int *raised) {
    if (PyThread_get_thread_ident() != main_thread_id) return 0;
    struct sigaction mine, old;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler == SIG_IGN || old.sa_handler == SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
        return 0;
    memset(&mine, 0, sizeof mine);
    mine.sa_handler = inline_sigint;
    sigemptyset(&mine.sa_mask);
    atomic_store(&inline_program, j->p);
    inline_interrupted = 0;
    if (sigaction(SIGINT, &mine, NULL) != 0) return 0;
    Py_BEGIN_ALLOW_THREADS
    j->rc = j->fn(j);
    Py_END_ALLOW_THREADS
    sigaction(SIGINT, &old, NULL);
    atomic_store(&inline_program, NULL);
    if (inline_interrupted) {
        PyErr_SetInterruptEx(SIGINT);
        *raised = PyErr_CheckSignals() < 0;
    }
    return 1;
}

/* Runs j->fn on j->p; returns its code, or -1 with a Python exception set (a signal handler or
 * the progress callable raised: the call was interrupted). */
static int run_job(job *j, PyObject *progress) {
    int raised_inline = 0;
    if (!progress && run_inline(j, &raised_inline)) return raised_inline ? -1 : j->rc;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    atomic_store(&j->done, 0);
    int raised = 0;
    if (!runner_start(j)) {
        /* no thread to spare: run here, without the GIL, not interruptible */
        Py_BEGIN_ALLOW_THREADS
        j->rc = j->fn(j);
        Py_END_ALLOW_THREADS
    } else {
        for (;;) {
            int done;
            Py_BEGIN_ALLOW_THREADS
            done = wait_job(j, 0.05);
            Py_END_ALLOW_THREADS
            if (done) break;
            if (PyErr_CheckSignals() < 0 || (progress && report_progress(j, progress) < 0)) {
                /* asked again until it ends: a call that had not started yet clears the flag */
                raised = 1;
                Py_BEGIN_ALLOW_THREADS
                do gr_interrupt(j->p);
                while (!wait_job(j, 0.05));
                Py_END_ALLOW_THREADS
                break;
            }
        }
    }
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
    return raised ? -1 : j->rc;
}

/* The limits every call takes as keywords. */
/* progress: a callable (step, done, total), or None. */
typedef struct limits { int threads; unsigned long long max_memory, max_positions; double max_time; PyObject *progress; } limits;
#define LIMIT_KEYWORDS "threads", "max_memory", "max_positions", "max_time", "progress"
#define LIMIT_FORMAT "iKKdO"
#define LIMIT_ARGS(l) &(l).threads, &(l).max_memory, &(l).max_positions, &(l).max_time, &(l).progress

/* A gr_program with the limits set, or NULL with an exception. */
static gr_program *prepare(Program *self, limits *l) {
    if (l->threads < 0 || l->threads > 256) { PyErr_SetString(PyExc_ValueError, "threads must be from 1 to 256 (0: one)"); return NULL; }
    if (l->max_time < 0) { PyErr_SetString(PyExc_ValueError, "max_time must be >= 0 (0: none)"); return NULL; }
    if (l->progress == Py_None) l->progress = NULL;
    if (l->progress && !PyCallable_Check(l->progress)) { PyErr_SetString(PyExc_TypeError, "progress must be callable"); return NULL; }
    gr_program *p = take(self);
    if (!p) return NULL;
    gr_limits lim = { .max_memory = (size_t)l->max_memory, .max_positions = l->max_positions,
                      .max_time = l->max_time, .threads = l->threads };
    gr_set_limits(p, &lim);
    return p;
}

/* Runs fn(arg) on a program of the pool with the limits l: returns its code (GR_OK, or
 * GR_EREFUTED from gr_run), or -1 with an exception set (the call failed: `text` is what it was
 * about, for a located error; or a signal handler raised). After -1 the caller frees whatever
 * the call returned, since an interrupt may come after the call finished. */
static int call(Program *self, limits *l, int (*fn)(job *), void *arg, const char *text) {
    gr_program *p = prepare(self, l);
    if (!p) return -1;
    job j = { .p = p, .fn = fn, .arg = arg };
    int rc = run_job(&j, l->progress);
    if (rc > 0 && rc != GR_EREFUTED) {
        raise_for(self, p, rc, text);
        rc = -1;
    }
    give_back(self, p);
    return rc;
}

static int program_init(Program *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = { "source", "filename", NULL };
    const char *source, *filename = "<source>";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|s", kwlist, &source, &filename)) return -1;
    self->source = strdup(source);
    self->filename = strdup(filename);
    if (!self->source || !self->filename) { PyErr_NoMemory(); return -1; }
    gr_diagnostic d;
    gr_program *p;
    Py_BEGIN_ALLOW_THREADS
    p = gr_compile(self->source, self->filename, &d);
    Py_END_ALLOW_THREADS
    if (!p) {
        if (d.line > 0) syntax_error(self->filename, &d, self->source);
        else PyErr_SetString(d.message[0] ? GameSyntaxError : PyExc_MemoryError, d.message[0] ? d.message : "out of memory");
        return -1;
    }
    self->pool[self->npool++] = p;
    return 0;
}

static PyObject *program_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)args; (void)kw;
    Program *self = (Program *)type->tp_alloc(type, 0);
    if (self) pthread_mutex_init(&self->lock, NULL);
    return (PyObject *)self;
}

static void program_dealloc(Program *self) {
    for (int i = 0; i < self->npool; i++) gr_program_free(self->pool[i]);
    pthread_mutex_destroy(&self->lock);
    free(self->source);
    free(self->filename);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ---- table ---- */
typedef struct table_args {
    const char *game; int n; int64_t lo[16], hi[16]; int conv, kind;
    gr_table_data out;
} table_args;

static int do_table(job *j) {
    table_args *a = j->arg;
    return gr_table_box(j->p, a->game, a->n, a->lo, a->hi, (gr_convention)a->conv, (gr_cell_kind)a->kind, &a->out);
}

/* K of a loopy value ∞{K}: a frozenset of its n members. */
static PyObject *loopy_set(const int64_t *k, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(k[i]);
        if (!x) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, x);
    }
    if (!list) return NULL;
    PyObject *set = PyFrozenSet_New(list);
    Py_DECREF(list);
    return set;
}

/* lo and hi: sequences of the same length (at most 16) of integers. */
static int read_box(PyObject *lo, PyObject *hi, int64_t *l, int64_t *h, int *n) {
    Py_ssize_t nl = PySequence_Size(lo), nh = PySequence_Size(hi);
    if (nl < 0 || nh < 0) return -1;
    if (nl != nh || nl < 1 || nl > 16) { PyErr_SetString(PyExc_ValueError, "a table takes 1 to 16 coordinates"); return -1; }
    for (Py_ssize_t i = 0; i < nl; i++) {
        PyObject *a = PySequence_GetItem(lo, i), *b = PySequence_GetItem(hi, i);
        l[i] = a ? PyLong_AsLongLong(a) : -1;
        h[i] = b ? PyLong_AsLongLong(b) : -1;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (PyErr_Occurred()) return -1;
    }
    *n = (int)nl;
    return 0;
}

static PyObject *program_table(Program *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = { "game", "lo", "hi", "convention", "kind", LIMIT_KEYWORDS, NULL };
    table_args a = { 0 };
    PyObject *lo, *hi;
    limits l = { 0 };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sOOii|" LIMIT_FORMAT, kwlist, &a.game, &lo, &hi, &a.conv, &a.kind, LIMIT_ARGS(l)))
        return NULL;
    if (read_box(lo, hi, a.lo, a.hi, &a.n) < 0) return NULL;
    if (call(self, &l, do_table, &a, a.game) < 0) { gr_free(a.out.values); return NULL; }
    /* the loopy cells' sets (a cell v <= -2 is set -2 - v), read before the block is freed */
    PyObject *sets = PyList_New((Py_ssize_t)a.out.nloopy);
    for (int64_t j = 0; sets && j < a.out.nloopy; j++) {
        PyObject *k = loopy_set(a.out.loopy_values + a.out.loopy_off[j], (int)(a.out.loopy_off[j + 1] - a.out.loopy_off[j]));
        if (!k) { Py_CLEAR(sets); break; }
        PyList_SET_ITEM(sets, (Py_ssize_t)j, k);
    }
    if (!sets) { gr_free(a.out.values); return NULL; }
    Cells *c = PyObject_New(Cells, &CellsType);
    if (!c) { gr_free(a.out.values); Py_DECREF(sets); return NULL; }
    c->n = (Py_ssize_t)(a.out.rows * a.out.cols);
    if (a.out.kind == GR_CELL_OUTCOME) {   /* 'P', 'N', 'D' as UCS-4: numpy's "U1" */
        uint32_t *u = malloc(c->n ? (size_t)c->n * sizeof *u : 1);
        if (!u) { gr_free(a.out.values); Py_DECREF(c); Py_DECREF(sets); return PyErr_NoMemory(); }
        for (Py_ssize_t i = 0; i < c->n; i++) u[i] = (uint32_t)a.out.values[i];
        gr_free(a.out.values);
        c->data = u;
        c->itemsize = 4;
        c->format = "I";
    } else {
        c->data = a.out.values;
        c->itemsize = 8;
        c->format = "q";
    }
    return Py_BuildValue("(NiiiiN)", (PyObject *)c, (int)a.out.kind, (int)a.out.convention, a.out.ndims, (int)a.out.cols, sets);
}

/* A value the library may not have: None then. */
static PyObject *int_or_none(int has, long long v) { return has ? PyLong_FromLongLong(v) : Py_NewRef(Py_None); }
/* An SG value as Python has it: an int, None, or for a loopy value ∞{K} the frozenset K
 * (grundy.Loopy wraps it). */
static PyObject *sg_value(int has, long long v, int loopy, const int64_t *set, int n) {
    return loopy ? loopy_set(set, n) : int_or_none(has, v);
}

/* ---- solve, options: a position and a convention ---- */
typedef struct at_position { const char *position; int conv; } at_position;

static int parse_position(PyObject *args, PyObject *kw, at_position *at, limits *l) {
    static char *kwlist[] = { "position", "convention", LIMIT_KEYWORDS, NULL };
    return PyArg_ParseTupleAndKeywords(args, kw, "si|" LIMIT_FORMAT, kwlist, &at->position, &at->conv, LIMIT_ARGS(*l));
}

typedef struct solve_args { at_position at; gr_answer ans; char **moves; } solve_args;

static int do_solve(job *j) {
    solve_args *a = j->arg;
    return gr_solve_full(j->p, a->at.position, (gr_convention)a->at.conv, &a->ans, &a->moves);
}

static PyObject *program_solve(Program *self, PyObject *args, PyObject *kw) {
    solve_args a = { 0 };
    limits l = { 0 };
    if (!parse_position(args, kw, &a.at, &l)) return NULL;
    if (call(self, &l, do_solve, &a, a.at.position) < 0) { gr_free(a.moves); return NULL; }
    PyObject *moves = PyList_New(a.ans.nwinning);
    for (int i = 0; moves && i < a.ans.nwinning; i++) {
        PyObject *s = PyUnicode_FromString(a.moves[i]);
        if (!s) { Py_CLEAR(moves); break; }
        PyList_SET_ITEM(moves, i, s);
    }
    gr_free(a.moves);
    if (!moves) return NULL;
    int nk = a.ans.nloopy < GR_LOOPY_LISTED ? a.ans.nloopy : GR_LOOPY_LISTED;
    PyObject *sg = sg_value(a.ans.has_sg, a.ans.sg, a.ans.loopy, a.ans.loopy_set, nk);
    if (!sg) { Py_DECREF(moves); return NULL; }
    PyObject *rem = int_or_none(a.ans.has_remoteness, a.ans.remoteness);
    return Py_BuildValue("(CNNNi)", a.ans.outcome, sg, rem, moves, (int)a.ans.convention);
}

/* ---- options ---- */
typedef struct options_args { at_position at; gr_option *v; int n; } options_args;

static int do_options(job *j) {
    options_args *a = j->arg;
    return gr_options(j->p, a->at.position, (gr_convention)a->at.conv, &a->v, &a->n);
}

static PyObject *program_options(Program *self, PyObject *args, PyObject *kw) {
    options_args a = { 0 };
    limits l = { 0 };
    if (!parse_position(args, kw, &a.at, &l)) return NULL;
    if (call(self, &l, do_options, &a, a.at.position) < 0) { gr_free(a.v); return NULL; }
    PyObject *list = PyList_New(a.n);
    for (int i = 0; list && i < a.n; i++) {
        PyObject *sg = sg_value(a.v[i].has_sg, a.v[i].sg, a.v[i].loopy, a.v[i].loopy_set, a.v[i].nloopy);
        PyObject *t = sg ? Py_BuildValue("(sCN)", a.v[i].position, a.v[i].outcome, sg) : NULL;
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, t);
    }
    gr_free(a.v);
    return list;
}

/* ---- check ---- */
typedef struct check_args { const char *claim; long long to; gr_check_answer out; } check_args;

static int do_check(job *j) {
    check_args *a = j->arg;
    return gr_check_to(j->p, a->claim, a->to, &a->out);
}

static PyObject *program_check(Program *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = { "claim", "to", LIMIT_KEYWORDS, NULL };
    check_args a = { 0 };
    limits l = { 0 };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|L" LIMIT_FORMAT, kwlist, &a.claim, &a.to, LIMIT_ARGS(l))) return NULL;
    if (call(self, &l, do_check, &a, a.claim) < 0) return NULL;
    static const char *status[] = { "proved", "holds", "refuted", "none" };
    gr_check_answer *r = &a.out;
    PyObject *period = int_or_none(r->has_period, r->period);
    PyObject *pre = int_or_none(r->has_period, r->preperiod);
    PyObject *saltus = int_or_none(r->has_period, r->saltus);
    PyObject *cex = r->has_counterexample ? PyUnicode_FromString(r->counterexample) : Py_NewRef(Py_None);
    /* the research tables' columns, None where the rare-value kernel did not run */
    int cols = r->has_columns;
    PyObject *mask = cols ? PyLong_FromUnsignedLongLong(r->rare_mask) : Py_NewRef(Py_None);
    PyObject *parity = cols ? PyBool_FromLong(r->rare_heap_parity) : Py_NewRef(Py_None);
    return Py_BuildValue("(sNNNLNsNNNNNN)", status[r->status], period, pre, saltus, (long long)r->checked_to, cex,
                         r->theorem, int_or_none(cols, r->largest), int_or_none(cols, r->largest_at), mask, parity,
                         int_or_none(cols, r->rare_count), int_or_none(cols && r->last_rare >= 0, r->last_rare));
}

/* ---- plot ---- */
typedef struct plot_args {
    const char *game; int n; int64_t lo[16], hi[16]; int conv, kind, width, height; const char *format;
    unsigned char *image; size_t len;
} plot_args;

static int do_plot(job *j) {
    plot_args *a = j->arg;
    return gr_plot(j->p, a->game, a->n, a->lo, a->hi, (gr_convention)a->conv, (gr_cell_kind)a->kind, a->format,
                   a->width, a->height, &a->image, &a->len);
}

static PyObject *program_plot(Program *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = { "game", "lo", "hi", "convention", "kind", "format", "width", "height", LIMIT_KEYWORDS, NULL };
    plot_args a = { 0 };
    PyObject *lo, *hi;
    limits l = { 0 };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "sOOiisii|" LIMIT_FORMAT, kwlist, &a.game, &lo, &hi, &a.conv, &a.kind,
                                     &a.format, &a.width, &a.height, LIMIT_ARGS(l)))
        return NULL;
    if (read_box(lo, hi, a.lo, a.hi, &a.n) < 0) return NULL;
    if (call(self, &l, do_plot, &a, a.game) < 0) { gr_free(a.image); return NULL; }
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)a.image, (Py_ssize_t)a.len);
    gr_free(a.image);
    return bytes;
}

/* ---- run, explain ---- */
typedef struct run_args { const char *format; int explain; char *out; size_t len; } run_args;

static int do_run(job *j) {
    run_args *a = j->arg;
    return a->explain ? gr_explain_program(j->p, &a->out, &a->len) : gr_run(j->p, a->format, &a->out, &a->len);
}

static PyObject *program_run(Program *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = { "format", "explain", LIMIT_KEYWORDS, NULL };
    run_args a = { "text", 0, NULL, 0 };
    limits l = { 0 };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|sp" LIMIT_FORMAT, kwlist, &a.format, &a.explain, LIMIT_ARGS(l)))
        return NULL;
    if (strcmp(a.format, "text") && strcmp(a.format, "csv") && strcmp(a.format, "json"))
        return PyErr_Format(PyExc_ValueError, "format is 'text', 'csv' or 'json', not '%s'", a.format);
    int rc = call(self, &l, do_run, &a, "");
    if (rc < 0) { gr_free(a.out); return NULL; }
    PyObject *s = PyUnicode_FromStringAndSize(a.out, (Py_ssize_t)a.len);
    gr_free(a.out);
    return s ? Py_BuildValue("(NO)", s, rc == GR_EREFUTED ? Py_True : Py_False) : NULL;
}

/* ---- one query of the caller's (quotient, census, genus tables) ---- */
typedef struct one_args { const char *query, *format; char *out; size_t len; } one_args;

static int do_one(job *j) {
    one_args *a = j->arg;
    return gr_run_one(j->p, a->query, a->format, &a->out, &a->len);
}

static PyObject *program_run_one(Program *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = { "query", "format", LIMIT_KEYWORDS, NULL };
    one_args a = { NULL, "json", NULL, 0 };
    limits l = { 0 };
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|s" LIMIT_FORMAT, kwlist, &a.query, &a.format, LIMIT_ARGS(l)))
        return NULL;
    int rc = call(self, &l, do_one, &a, a.query);
    if (rc < 0) { gr_free(a.out); return NULL; }
    PyObject *s = PyUnicode_FromStringAndSize(a.out, (Py_ssize_t)a.len);
    gr_free(a.out);
    return s;
}

/* Every program of the pool drops what it keeps. */
static PyObject *program_reset(Program *self, PyObject *unused) {
    (void)unused;
    pthread_mutex_lock(&self->lock);
    for (int i = 0; i < self->npool; i++) gr_program_reset(self->pool[i]);
    pthread_mutex_unlock(&self->lock);
    Py_RETURN_NONE;
}

/* The engines' counters, added over the pool (the programs not in use now), and each game's
 * values kept ("games": one dict per game, its bytes added over the pool, its values the most
 * any program of the pool keeps). */
static PyObject *program_stats(Program *self, PyObject *unused) {
    (void)unused;
    gr_stats sum = { 0 };
    PyObject *games = PyDict_New();
    if (!games) return NULL;
    pthread_mutex_lock(&self->lock);
    for (int i = 0; i < self->npool; i++) {
        gr_stats st;
        if (gr_program_stats(self->pool[i], &st) != GR_OK) continue;
        sum.values_computed += st.values_computed;
        sum.calls += st.calls;
        sum.compiles += st.compiles;
        sum.drops += st.drops;
        sum.memory += st.memory;
        sum.games_memory += st.games_memory;
        sum.program_memory += st.program_memory;
        sum.game_drops += st.game_drops;
        sum.evictions += st.evictions;
        sum.retries += st.retries;
        int n = 0;
        if (gr_program_games(self->pool[i], NULL, 0, &n) != GR_OK || n <= 0) continue;
        gr_game_stats *g = calloc((size_t)n, sizeof *g);
        if (!g) continue;
        int m = 0;
        if (gr_program_games(self->pool[i], g, n, &m) == GR_OK) {
            if (m < n) n = m;
            for (int k = 0; k < n; k++) {
                PyObject *d = PyDict_GetItemString(games, g[k].name);   /* borrowed */
                unsigned long long bytes = g[k].bytes, values = g[k].values, drops = g[k].drops;
                if (d) {
                    bytes += PyLong_AsUnsignedLongLong(PyDict_GetItemString(d, "bytes"));
                    unsigned long long v = PyLong_AsUnsignedLongLong(PyDict_GetItemString(d, "values"));
                    if (v > values) values = v;
                    drops += PyLong_AsUnsignedLongLong(PyDict_GetItemString(d, "drops"));
                }
                PyObject *nd = Py_BuildValue("{s:s,s:K,s:K,s:K}", "name", g[k].name, "bytes", bytes, "values", values,
                                             "drops", drops);
                if (nd) { PyDict_SetItemString(games, g[k].name, nd); Py_DECREF(nd); }
            }
        }
        free(g);
    }
    pthread_mutex_unlock(&self->lock);
    PyObject *list = PyDict_Values(games);
    Py_DECREF(games);
    if (!list) return NULL;
    PyObject *r = Py_BuildValue("{s:K,s:K,s:K,s:K,s:n,s:n,s:n,s:K,s:K,s:K,s:N}", "values_computed", (unsigned long long)sum.values_computed,
                                "calls", (unsigned long long)sum.calls, "compiles", (unsigned long long)sum.compiles,
                                "drops", (unsigned long long)sum.drops, "memory", (Py_ssize_t)sum.memory,
                                "games_memory", (Py_ssize_t)sum.games_memory, "program_memory", (Py_ssize_t)sum.program_memory,
                                "game_drops", (unsigned long long)sum.game_drops, "evictions", (unsigned long long)sum.evictions,
                                "retries", (unsigned long long)sum.retries, "games", list);
    return r;
}

static PyMethodDef program_methods[] = {
    { "reset", (PyCFunction)program_reset, METH_NOARGS, "reset() -> None: drop every value kept" },
    { "stats", (PyCFunction)program_stats, METH_NOARGS,
      "stats() -> {values_computed, calls, compiles, drops, memory, games_memory, program_memory, game_drops, evictions, retries, games}" },
    { "table", (PyCFunction)(void (*)(void))program_table, METH_VARARGS | METH_KEYWORDS,
      "table(game, lo, hi, convention, kind, **limits) -> (cells, kind, convention, ndims, cols)" },
    { "solve", (PyCFunction)(void (*)(void))program_solve, METH_VARARGS | METH_KEYWORDS,
      "solve(position, convention, **limits) -> (outcome, sg, remoteness, winning_moves, convention)" },
    { "options", (PyCFunction)(void (*)(void))program_options, METH_VARARGS | METH_KEYWORDS,
      "options(position, convention, **limits) -> [(position, outcome, sg)]" },
    { "check", (PyCFunction)(void (*)(void))program_check, METH_VARARGS | METH_KEYWORDS,
      "check(claim, to=0, **limits) -> (status, period, preperiod, saltus, checked_to, counterexample, theorem, largest, "
      "largest_at, rare_mask, rare_heap_parity, rare_count, last_rare)" },
    { "plot", (PyCFunction)(void (*)(void))program_plot, METH_VARARGS | METH_KEYWORDS,
      "plot(game, lo, hi, convention, kind, format, width, height, **limits) -> bytes" },
    { "run_one", (PyCFunction)(void (*)(void))program_run_one, METH_VARARGS | METH_KEYWORDS,
      "run_one(query, format='json', **limits) -> output: one query against the program's definitions" },
    { "run", (PyCFunction)(void (*)(void))program_run, METH_VARARGS | METH_KEYWORDS,
      "run(format='text', explain=False, **limits) -> (output, refuted)" },
    { NULL, NULL, 0, NULL },
};

static PyTypeObject ProgramType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "grundy._grundy.Program",
    .tp_basicsize = sizeof(Program),
    .tp_new = program_new,
    .tp_init = (initproc)program_init,
    .tp_dealloc = (destructor)program_dealloc,
    .tp_methods = program_methods,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Program(source, filename='<source>'): a compiled .game program (the low-level face).",
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_grundy", "The C extension under the grundy package.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__grundy(void);
PyMODINIT_FUNC PyInit__grundy(void) {
    if (PyType_Ready(&CellsType) < 0 || PyType_Ready(&ProgramType) < 0) return NULL;
    /* the main thread's id, for run_inline (the module may be imported from another thread) */
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    main_thread_id = ident ? PyLong_AsUnsignedLong(ident) : 0;
    Py_XDECREF(ident);
    Py_XDECREF(main);
    Py_XDECREF(threading);
    if (PyErr_Occurred()) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    GrundyError = PyErr_NewExceptionWithDoc("grundy.GrundyError", "A failure of the grundy library.", NULL, NULL);
    GameSyntaxError = PyErr_NewExceptionWithDoc("grundy.GameSyntaxError",
        "Bad .game text (a program, a position or a game name), with filename, lineno, offset and text.",
        PyExc_SyntaxError, NULL);
    LimitError = PyErr_NewExceptionWithDoc("grundy.LimitError",
        "A limit (max_time, max_memory, max_positions, or a value too large) stopped the work.", GrundyError, NULL);
    if (!GrundyError || !GameSyntaxError || !LimitError ||
        PyModule_AddObjectRef(m, "GrundyError", GrundyError) < 0 ||
        PyModule_AddObjectRef(m, "GameSyntaxError", GameSyntaxError) < 0 ||
        PyModule_AddObjectRef(m, "LimitError", LimitError) < 0 ||
        PyModule_AddObjectRef(m, "Program", (PyObject *)&ProgramType) < 0 ||
        PyModule_AddObjectRef(m, "Cells", (PyObject *)&CellsType) < 0 ||
        PyModule_AddStringConstant(m, "library_version", gr_version()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
