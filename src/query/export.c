/* export: what every query's output shares: JSON and CSV strings, and a file written whole or not at
 * all (a temporary file beside it, then a rename) for plot and dot; see show.h. */
#include "show.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void gr_write_file(gr_ctx *c, const char *path, int (*write)(void *user, FILE *f), void *user) {
    size_t n = strlen(path);
    char *tmp = gr_alloc(c, n + 16);
    snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        gr_free(c, tmp);
        gr_fail(c, GR_EXIT_LIMIT, "cannot write %s: %s", path, strerror(e));
    }
    /* mkstemp makes the file private (0600); the file we write is an ordinary one. */
    mode_t mask = umask(0);
    umask(mask);
    (void)!fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    int bad = !f || write(user, f) != 0;
    int e = errno;
    if (f) { bad |= ferror(f) != 0; bad |= fclose(f) != 0; if (!bad) e = errno; }
    else close(fd);
    if (!bad && rename(tmp, path) != 0) { bad = 1; e = errno; }
    if (bad) {
        unlink(tmp);
        gr_free(c, tmp);
        gr_fail(c, GR_EXIT_LIMIT, "cannot write %s: %s", path, e ? strerror(e) : "write failed");
    }
    gr_free(c, tmp);
}

void gr_json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
        else if (ch == '\n') fputs("\\n", out);
        else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
        else fputc(ch, out);
    }
    fputc('"', out);
}

void gr_csv_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);    /* CSV doubles a quote inside quotes */
        fputc(*s, out);
    }
    fputc('"', out);
}
