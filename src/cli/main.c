/* main: the grundy command line, a thin client of the library. Reads a .game file (or
 * standard input), compiles it and runs its queries. Nothing is written before the whole file
 * compiled, so an input error leaves standard output empty; then each query's answer is
 * written and flushed when that query ends, so a run stopped by a limit or by Ctrl-C keeps
 * every finished answer. "grundy play" is src/cli/play.c. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include "eval/cap_checkpoint.h"
#include "ctx.h"
#include "parse.h"
#include "parallel.h"
#include "compile.h"
#include "play.h"
#include "query.h"
#include "sema.h"
#include "session.h"
#include "suggest.h"
#include "spread.h"
#ifdef GRUNDY_MPI
#include "mpi.h"
#endif

static const char USAGE[] =
    "usage: grundy FILE.game [options]      (FILE '-' reads standard input)\n"
    "       grundy [-i FILE.game] [options]  an interactive session (no file, on a terminal)\n"
    "       grundy play FILE.game \"POSITION\" [--first human|computer] [--convention C]\n"
    "  --format text|csv|json   output format (default text)\n"
    "  -i, --interactive        a session: load FILE (if given), then read definitions and queries\n"
    "  --explain                say which evaluator and kernel each rule set gets, and why\n"
    "  --to N                   how far 'check ... periodic' may compute (default 100000)\n"
    "  --max-positions N        the most positions a position graph may hold\n"
    "  --max-memory SIZE        memory limit, e.g. 512M or 4G (default: 3/4 of RAM)\n"
    "  --max-time SECONDS       wall-clock limit; past it the run stops with status 3\n"
    "  --threads N              worker threads for large work, census members (default: all cores)\n"
    "  --checkpoint FILE        save long runs to FILE and resume from it\n"
    "  --histogram FILE         'check G periodic' as a long search with no period asked for: a row\n"
    "                           of columns and value counts at every power of two, saved to FILE (CSV)\n"
    "  --table-memory SIZE      a long search keeps about SIZE of its heap table in memory, the rest\n"
    "                           in a file beside the checkpoint, or a temporary one (default 128M)\n"
    "  --query N                run only the Nth query (1-based, in file order)\n"
    "  --no-theory              answer every query by the position graph (the ground truth)\n"
    "  --plot-size WxH          the size of plots in pixels\n"
    "  --progress, --no-progress  progress bar on a terminal, a line every 5 s elsewhere (default: on)\n"
    "  -h, --help, --version\n"
    "exit status: 0 ok, 1 a check was refuted, 2 bad input, 3 a resource limit was reached\n";

typedef struct options {
    const char *file;
    gr_format format;
    int explain, progress, no_theory, interactive;
    int64_t to;
    double max_time;
    int threads, query;
    const char *checkpoint, *histogram;
    int plot_width, plot_height;
    uint64_t max_positions;
    size_t max_memory, table_memory;
} options;


/* The reader of a pipe on standard output has gone: end at once, quietly, as a program
 * killed by SIGPIPE does. (POLLERR on the write end of a pipe means no reader is left.) */
static void stdout_gone(gr_ctx *c) {
    (void)c;
    struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
    if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) {
        raise(SIGPIPE);
        _exit(128 + SIGPIPE);
    }
}

/* An unknown option: the nearest known one, if any is close. */
_Noreturn static void unknown_option(const char *name) {
    static const char *const KNOWN[] = { "--format", "--explain", "--to", "--max-positions", "--max-memory", "--max-time",
        "--threads", "--checkpoint", "--histogram", "--table-memory", "--query", "--no-theory", "--plot-size", "--progress", "--no-progress", "--help",
        "--version", "--interactive" };
    gr_suggest sg;
    gr_suggest_init(&sg, name);
    for (size_t k = 0; k < sizeof KNOWN / sizeof *KNOWN; k++) gr_suggest_offer(&sg, KNOWN[k]);
    const char *best = gr_suggest_best(&sg);
    if (!best) gr_cli_usage_error("unknown option '%s'", name);
    char shown[160];
    snprintf(shown, sizeof shown, "%.80s' (did you mean '%s'?)", name, best);
    gr_cli_usage_error("unknown option '%s", shown);
}

static uint64_t parse_count(const char *opt, const char *s) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-') gr_cli_usage_error("%s needs a non-negative whole number", opt);
    return v;
}



static void parse_plot_size(const char *s, int *w, int *h) {
    char *end;
    errno = 0;
    long a = strtol(s, &end, 10);
    if (errno || end == s || (*end != 'x' && *end != 'X') || a < 16 || a > 20000)
        gr_cli_usage_error("--plot-size needs WIDTHxHEIGHT in pixels (16 to 20000), not '%s'", s);
    const char *p = end + 1;
    long b = strtol(p, &end, 10);
    if (errno || end == p || *end || b < 16 || b > 20000)
        gr_cli_usage_error("--plot-size needs WIDTHxHEIGHT in pixels (16 to 20000), not '%s'", s);
    *w = (int)a;
    *h = (int)b;
}

static int default_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}


static options parse_args(int argc, char **argv) {
    options o = { .format = GR_FMT_TEXT, .progress = -1, .max_memory = gr_cli_default_memory(),
                  .threads = default_threads() };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(USAGE, stdout); exit(0); }
        if (!strcmp(a, "--version")) { puts("grundy 0.1.0"); exit(0); }
        if (!strcmp(a, "--explain")) { o.explain = 1; continue; }
        if (!strcmp(a, "-i") || !strcmp(a, "--interactive")) { o.interactive = 1; continue; }
        if (!strcmp(a, "--progress")) { o.progress = 1; continue; }
        if (!strcmp(a, "--no-progress")) { o.progress = 0; continue; }
        if (!strcmp(a, "--no-theory")) { o.no_theory = 1; continue; }
        if (a[0] == '-' && a[1] == '-') {
            const char *eq = strchr(a, '=');
            char name[64];
            size_t len = eq ? (size_t)(eq - a) : strlen(a);
            if (len >= sizeof name) unknown_option(a);
            memcpy(name, a, len);
            name[len] = '\0';
            static const char *const WITH_VALUE[] = { "--format", "--to", "--max-positions", "--max-memory",
                "--max-time", "--threads", "--checkpoint", "--histogram", "--table-memory", "--query", "--plot-size" };
            int known = 0;
            for (size_t k = 0; k < sizeof WITH_VALUE / sizeof *WITH_VALUE; k++) known |= !strcmp(name, WITH_VALUE[k]);
            if (!known) unknown_option(name);
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else gr_cli_usage_error("option '%s' needs a value", a);
            if (!strcmp(name, "--format")) {
                if (!strcmp(val, "text")) o.format = GR_FMT_TEXT;
                else if (!strcmp(val, "csv")) o.format = GR_FMT_CSV;
                else if (!strcmp(val, "json")) o.format = GR_FMT_JSON;
                else gr_cli_usage_error("--format is text, csv or json, not '%s'", val);
            } else if (!strcmp(name, "--to")) o.to = (int64_t)parse_count("--to", val);
            else if (!strcmp(name, "--max-positions")) o.max_positions = parse_count("--max-positions", val);
            else if (!strcmp(name, "--max-memory")) o.max_memory = gr_cli_parse_size("--max-memory", val);
            else if (!strcmp(name, "--max-time")) o.max_time = gr_cli_parse_seconds(val);
            else if (!strcmp(name, "--threads")) {
                uint64_t t = parse_count("--threads", val);
                if (t < 1 || t > 256) gr_cli_usage_error("--threads needs a number from 1 to 256, not '%s'", val);
                o.threads = (int)t;
            } else if (!strcmp(name, "--checkpoint")) {
                if (!*val) gr_cli_usage_error("%s", "--checkpoint needs a file name");
                o.checkpoint = val;
            } else if (!strcmp(name, "--histogram")) {
                if (!*val) gr_cli_usage_error("%s", "--histogram needs a file name");
                o.histogram = val;
            } else if (!strcmp(name, "--table-memory")) {
                o.table_memory = gr_cli_parse_size("--table-memory", val);
            } else if (!strcmp(name, "--query")) {
                uint64_t q = parse_count("--query", val);
                if (q < 1 || q > 1000000000) gr_cli_usage_error("--query needs a query number from 1, not '%s'", val);
                o.query = (int)q;
            } else if (!strcmp(name, "--plot-size")) parse_plot_size(val, &o.plot_width, &o.plot_height);
            else gr_cli_usage_error("unknown option '%s'", name);
            continue;
        }
        if (o.file) gr_cli_usage_error("one input file at a time ('%s' is a second)", a);
        o.file = a;
    }
    return o;
}

/* Ctrl-C: the answers of finished queries are already written and flushed; the handler says
 * which query it stopped in and leaves at once (exit status 130, the shell's convention for
 * SIGINT). It may only touch what a signal handler may, so the message is made before each
 * query starts, in one of two buffers, and published by an index. */
static char interrupt_msg[2][512];
static volatile sig_atomic_t interrupt_which = -1;
static volatile sig_atomic_t interrupt_bar;

static void on_interrupt(int sig) {
    (void)sig;
    if (interrupt_bar) (void)!write(STDERR_FILENO, "\r\033[K", 4);
    int w = interrupt_which;
    const char *msg = w >= 0 ? interrupt_msg[w] : "grundy: interrupted before any query ran\n";
    (void)!write(STDERR_FILENO, msg, strlen(msg));
    _exit(130);
}

static void note_query_start(void *user, int index, int nqueries, const gr_rquery *q) {
    (void)user;
    int w = interrupt_which == 0 ? 1 : 0;
    if (index == 0)
        snprintf(interrupt_msg[w], sizeof interrupt_msg[w], "grundy: interrupted in query 1 of %d (%.300s%s); no answer was finished\n",
                 nqueries, q->kind == Q_CHECK ? "check " : "", q->text);
    else
        snprintf(interrupt_msg[w], sizeof interrupt_msg[w], "grundy: interrupted in query %d of %d (%s%.300s); the answers above are complete\n",
                 index + 1, nqueries, q->kind == Q_CHECK ? "check " : "", q->text);
    interrupt_which = w;
}

static int run_file(gr_ctx *c, gr_module *mod, const void *user) {
    const options *o = user;
    if (o->explain) { gr_explain(c, mod, stdout); return GR_EXIT_OK; }
#ifdef GRUNDY_MPI
    int served = gr_mpi_serve(c, mod, o->format);   /* grundy-mpi: ranks other than 0 serve rank 0 */
    if (served >= 0) return served;
    return gr_mpi_run_queries(c, mod, o->format, stdout, note_query_start, NULL);
#else
    if (c->checkpoint) gr_ckpt_open(c);   /* resumes a saved run, or refuses a foreign file */
    gr_spread procs;
    if (c->threads > 1 && !c->checkpoint) {   /* census and family members over processes */
        gr_spread_processes(&procs);
        c->spread = &procs;
    }
    /* (a long search prints its rows as it goes: in this process) */
    int status = c->histogram ? -1 : gr_parallel_queries(c, mod, o->format, stdout, note_query_start, NULL);
    if (status < 0) status = gr_run_queries_ex(c, mod, o->format, stdout, note_query_start, NULL);
    return gr_ckpt_close(c, status);
#endif
}

/* The command line's settings for one compilation (the session makes one per entry). */
static void apply_options(gr_ctx *c, const void *user) {
    const options *o = user;
    c->mem_limit = o->max_memory;
    c->max_positions = o->max_positions;
    c->check_to = o->to;
    c->progress = o->progress < 0 ? isatty(2) : o->progress;
    /* a pipe or a file (a batch job's log): a line every few seconds, unless --no-progress */
    c->progress_lines = o->progress != 0 && !isatty(2);
    c->progress_line_at = c->progress_since = gr_now();
    c->threads = o->threads;
    c->max_time = o->max_time;
    if (o->max_time > 0) c->deadline = gr_now() + o->max_time;
    c->no_theory = o->no_theory;
    c->plot_width = o->plot_width;
    c->plot_height = o->plot_height;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_DFL);   /* a closed pipe ends the run quietly, whatever the parent set */
    if (argc > 1 && !strcmp(argv[1], "play")) return gr_play_main(argc - 1, argv + 1);
#ifdef GRUNDY_MPI
    gr_mpi_begin(&argc, &argv);
#endif
    options o = parse_args(argc, argv);
    if (o.interactive || (!o.file && isatty(STDIN_FILENO))) {
        if (o.file && !strcmp(o.file, "-")) gr_cli_usage_error("%s", "-i reads the session from standard input; give it a file to load, or none");
        return gr_session_main(o.file, o.explain, o.format, apply_options, &o);
    }
    if (!o.file) o.file = "-";   /* standard input is not a terminal: it holds the program */
    int from_stdin = !strcmp(o.file, "-");
    FILE *in = from_stdin ? stdin : fopen(o.file, "rb");
    size_t len = 0;
    char *src = in ? gr_read_all(in, &len) : NULL;
    if (!src) {
        fprintf(stderr, "grundy: error: cannot read %s: %s\n", from_stdin ? "standard input" : o.file, strerror(errno));
        return GR_EXIT_INPUT;
    }
    if (!from_stdin) fclose(in);
    else gr_cli_add_semis(&src, &len);   /* piped with no file: as the session, no ';' needed at a line's end */

    gr_ctx c;
    gr_ctx_init(&c, from_stdin ? "<stdin>" : o.file, src, len);
    apply_options(&c, &o);
    c.checkpoint = o.checkpoint;
    c.query_only = o.query;
    c.histogram = o.histogram;
    c.table_memory = o.table_memory;
    struct stat st;
    if (fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode)) c.interrupted = stdout_gone;

    interrupt_bar = c.progress;
    if (o.checkpoint) gr_ckpt_catch_signals();   /* a signal saves the run at a safe point */
    else {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
    }
    int status = gr_cli_compile(&c, run_file, &o);
#ifdef GRUNDY_MPI
    status = gr_mpi_end(&c, status);
#endif
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "grundy: error: writing the output failed: %s\n", strerror(errno));
        if (status == GR_EXIT_OK || status == GR_EXIT_REFUTED) status = GR_EXIT_LIMIT;
    }
    gr_ctx_free(&c);
    free(src);
    return status;
}
