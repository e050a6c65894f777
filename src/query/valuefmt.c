/* valuefmt: one value in each format; see valuefmt.h. */
#include "valuefmt.h"
#include <string.h>

int gr_value_str(char *buf, size_t cap, gr_format fmt, int64_t v, const gr_loopy *l) {
    if (v >= 0) return snprintf(buf, cap, "%lld", (long long)v);
    if (!gr_is_loopy(v) || !l) return snprintf(buf, cap, "%s", fmt == GR_FMT_TEXT ? "-" : "");
    size_t nk;
    const int64_t *k = gr_loopy_set(l, v, &nk);
    int quote = fmt == GR_FMT_CSV && nk > 1;   /* a CSV cell with commas is quoted */
    size_t n = (size_t)snprintf(buf, cap, "%s%s{", quote ? "\"" : "", fmt == GR_FMT_TEXT ? "∞" : "inf");
    for (size_t i = 0; i < nk; i++)
        n += (size_t)snprintf(n < cap ? buf + n : NULL, n < cap ? cap - n : 0, "%s%lld", i ? "," : "", (long long)k[i]);
    n += (size_t)snprintf(n < cap ? buf + n : NULL, n < cap ? cap - n : 0, "}%s", quote ? "\"" : "");
    return (int)n;
}

int gr_value_width(const char *text) {
    int w = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) w += (*p & 0xC0) != 0x80;
    return w;
}

void gr_value_pad(FILE *out, int w, const char *s) {
    for (int pad = w - gr_value_width(s); pad > 0; pad--) fputc(' ', out);
    fputs(s, out);
}

void gr_value_json(FILE *out, int64_t v, const gr_loopy *l) {
    if (v >= 0) { fprintf(out, "%lld", (long long)v); return; }
    if (!gr_is_loopy(v) || !l) { fputs("null", out); return; }
    size_t nk;
    const int64_t *k = gr_loopy_set(l, v, &nk);
    fputs("{\"loopy\":[", out);
    for (size_t i = 0; i < nk; i++) fprintf(out, "%s%lld", i ? "," : "", (long long)k[i]);
    fputs("]}", out);
}
