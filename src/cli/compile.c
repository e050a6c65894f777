/* compile: what the command and "grundy play" share: reading a file whole, and compiling it
 * with every failure turned into its diagnostic and exit status; see compile.h. */
#include "compile.h"
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include "parse.h"
#include <math.h>
#include <string.h>
#include <unistd.h>

/* Reads the whole input; NULL with errno set on failure. */
char *gr_read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n + 1 >= cap) {
            if (cap > ((size_t)1 << 30)) { free(buf); errno = EFBIG; return NULL; }
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); return NULL; }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) { free(buf); return NULL; }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int gr_cli_parse_quiet(gr_ctx *c, const char *name, const char *text, size_t len, gr_ast_program *prog) {
    gr_ctx_init(c, name, text, len);
    c->diag = NULL;
    c->no_prelude = 1;
    jmp_buf jb;
    c->on_fail = &jb;
    int ok = setjmp(jb) == 0 && gr_parse(c, prog) == 0;
    c->on_fail = NULL;   /* jb ends here */
    return ok;
}

/* Does text parse (nothing printed, no prelude)? */
static int parses(const char *text, size_t len) {
    gr_ctx c;
    gr_ast_program prog;
    int ok = gr_cli_parse_quiet(&c, "<stdin>", text, len, &prog);
    gr_ctx_free(&c);
    return ok;
}

/* Does t[0..n) parse with a ';' added at its end (before a last newline)? */
static int parses_with_semi(const char *t, size_t n, char *scratch) {
    size_t body = n && t[n - 1] == '\n' ? n - 1 : n;
    memcpy(scratch, t, body);
    scratch[body] = ';';
    memcpy(scratch + body + 1, t + body, n - body);
    scratch[n + 1] = '\0';
    return parses(scratch, n + 1);
}

int gr_cli_add_semis(char **src, size_t *len) {
    const char *s = *src;
    size_t n = *len;
    if (parses(s, n)) return 0;
    /* as the session reads it: lines gathered until they parse, with a ';' added at the end of
     * such an entry when that makes it whole; the ';' goes before the newline, so every line
     * and column of the text stays where it was */
    char *out = malloc(2 * n + 2), *scratch = malloc(n + 2);
    size_t o = 0, start = 0;
    for (size_t e = 0; out && scratch && e < n;) {
        while (e < n && s[e++] != '\n') {}
        const char *t = s + start;
        size_t m = e - start;
        if (parses(t, m)) {
            memcpy(out + o, t, m); o += m; start = e;
        } else if (parses_with_semi(t, m, scratch)) {
            memcpy(out + o, scratch, m + 1); o += m + 1; start = e;
        }
    }
    int added = 0;
    if (out && scratch) {
        memcpy(out + o, s + start, n - start);
        o += n - start;
        out[o] = '\0';
        added = o != n && parses(out, o);   /* else the program's own error is shown */
    }
    free(scratch);
    if (!added) { free(out); return 0; }
    free(*src);
    *src = out;
    *len = o;
    return 1;
}

/* Parses, checks and calls run; every failure below longjmps back here with its status. Kept
 * apart from main so that no local of main lives across the setjmp. */
int gr_cli_compile(gr_ctx *c, gr_cli_run_fn run, const void *user) {
    jmp_buf jb;
    c->on_fail = &jb;
    if (setjmp(jb) != 0) {
        if (c->progress) fputs("\r\033[K", stderr);   /* a bar may be left on the line */
        fflush(stdout);
        fputs(c->fail_msg, stderr);
        return c->fail_status;
    }
    gr_ast_program prog;
    gr_module mod;
    if (gr_parse(c, &prog) != 0) return GR_EXIT_INPUT;
    gr_sema(c, &prog, &mod);
    return run(c, &mod, user);
}

/* One line on standard error, status 2. The argument is shown with bytes outside printable
 * ASCII escaped and cut at 80, so a bad option never garbles the terminal. */
void gr_cli_usage_error(const char *fmt, const char *arg) {
    char shown[400];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)arg; *p && n + 8 < sizeof shown; p++) {
        if (p - (const unsigned char *)arg >= 80) { n += (size_t)snprintf(shown + n, sizeof shown - n, "..."); break; }
        if (*p >= 0x20 && *p < 0x7f) shown[n++] = (char)*p;
        else n += (size_t)snprintf(shown + n, sizeof shown - n, "\\x%02x", *p);
    }
    shown[n] = '\0';
    fprintf(stderr, "grundy: error: ");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    fprintf(stderr, fmt, shown);
#pragma GCC diagnostic pop
    fprintf(stderr, " (grundy --help lists the options)\n");
    exit(GR_EXIT_INPUT);
}

/* "--max-memory needs a size such as 512M or 4G, not 'x'" for the option named (literal
 * formats: the usage error's argument is escaped and cut, the text around it is not) */
_Noreturn static void bad_size(const char *opt, const char *s) {
    if (!strcmp(opt, "--table-memory")) gr_cli_usage_error("--table-memory needs a size such as 512M or 4G, not '%s'", s);
    gr_cli_usage_error("--max-memory needs a size such as 512M or 4G, not '%s'", s);
}

size_t gr_cli_parse_size(const char *opt, const char *s) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v <= 0) bad_size(opt, s);
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; end++; break;
    case 'm': case 'M': v *= 1024.0 * 1024; end++; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
    case '\0': break;
    default: bad_size(opt, s);
    }
    if (*end == 'B' || *end == 'b') end++;
    if (*end || v > 1e18) bad_size(opt, s);
    return (size_t)v;
}

double gr_cli_parse_seconds(const char *s) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0) || v > 1e9) gr_cli_usage_error("--max-time needs a positive number of seconds, not '%s'", s);
    return v;
}

size_t gr_cli_default_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return (size_t)4 << 30;
    return (size_t)pages / 4 * 3 * (size_t)page;
}
