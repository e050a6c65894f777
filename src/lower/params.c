/* params: code and set parameters of families; see params.h. */
#include "params.h"
#include <string.h>
#include "tbcode.h"

/* Interns a code; returns its index. */
static int64_t gr_codebook_add(gr_ctx *c, gr_codebook *b, const char *code) {
    for (int i = 0; i < b->n; i++)
        if (!strcmp(b->v[i], code)) return i;
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 64;
        const char **v = GR_NEWN(c, const char *, cap);
        if (b->n) memcpy(v, b->v, (size_t)b->n * sizeof *v);
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n] = code;
    return b->n++;
}

gr_param_kind gr_bind_param_kind(gr_bind_kind k) {
    return k == BIND_SUBSETS ? GR_PARAM_SET : k == BIND_RANGE ? GR_PARAM_NUMBER : GR_PARAM_CODE;
}

static const char DIGITS[] = "0123456789ABCDEF";

typedef struct listing { gr_ctx *c; gr_codebook *book; int64_t *out; int n, max; gr_loc loc; } listing;

static void push(listing *l, int64_t v) {
    if (l->n >= l->max)
        gr_fail_at(l->c, l->loc, GR_EXIT_INPUT, "a family has at most %d members; this one has more", l->max);
    l->out[l->n++] = v;
}

/* Every code 0.d1..dj (j <= k, dj nonzero) over base digits, in numeric order: an iterative
 * depth-first walk over the digit strings, each emitted before its extensions. */
static void list_codes(listing *l, int base, int k) {
    char code[2 + 16 + 1] = "0.";
    int digit[16];
    int depth = 0;
    digit[0] = -1;
    while (depth >= 0) {
        if (++digit[depth] >= base) { depth--; continue; }
        code[2 + depth] = DIGITS[digit[depth]];
        code[3 + depth] = '\0';
        if (digit[depth]) push(l, gr_codebook_add(l->c, l->book, gr_strndup(l->c, code, strlen(code))));
        if (depth + 1 < k) { depth++; digit[depth] = -1; }
    }
}

int64_t *gr_param_values(gr_ctx *c, gr_codebook *book, const gr_binding *b, int64_t lo, int64_t hi, int max, int *n) {
    listing l = { c, book, NULL, 0, max, b->range_loc };
    switch (b->kind) {
    case BIND_OCTAL: case BIND_HEX: {
        int base = b->kind == BIND_OCTAL ? 8 : 16;
        if (lo < 1 || lo > 16)
            gr_fail_at(c, b->range_loc, GR_EXIT_INPUT, "%s(k) lists the codes of 1 to k digits; k is from 1 to 16, not %lld",
                       b->kind == BIND_OCTAL ? "octal" : "hex", (long long)lo);
        l.out = GR_NEWN(c, int64_t, max);
        list_codes(&l, base, (int)lo);
        break;
    }
    case BIND_CODES:
        l.out = GR_NEWN(c, int64_t, b->ncodes);
        for (int i = 0; i < b->ncodes; i++) {
            gr_tbcode tb;
            gr_parse_tbcode(c, b->codes[i], b->code_locs[i], &tb);   /* a bad code fails here, at its string */
            int64_t v = gr_codebook_add(c, book, b->codes[i]);
            for (int k = 0; k < l.n; k++)
                if (l.out[k] == v) gr_fail_at(c, b->code_locs[i], GR_EXIT_INPUT, "\"%s\" is listed twice", b->codes[i]);
            push(&l, v);
        }
        break;
    case BIND_SUBSETS: {
        if (lo < 1 || hi > 64 || lo > hi)
            gr_fail_at(c, b->range_loc, GR_EXIT_INPUT, "subsets(lo..hi) takes amounts with 1 <= lo <= hi <= 64, not %lld..%lld",
                       (long long)lo, (long long)hi);
        if (hi - lo + 1 > 20 || ((int64_t)1 << (hi - lo + 1)) - 1 > max)
            gr_fail_at(c, b->range_loc, GR_EXIT_INPUT, "subsets(%lld..%lld) has %s nonempty subsets; a family has at most %d members",
                       (long long)lo, (long long)hi, hi - lo + 1 > 20 ? "millions of" : "too many", max);
        int w = (int)(hi - lo + 1);
        l.out = GR_NEWN(c, int64_t, ((int64_t)1 << w) - 1);
        for (uint64_t m = 1; m < (UINT64_C(1) << w); m++) push(&l, (int64_t)(m << (lo - 1)));
        break;
    }
    case BIND_RANGE: break;
    }
    *n = l.n;
    return l.out;
}

void gr_param_text(const gr_codebook *book, gr_param_kind kind, int64_t v, char *buf, size_t cap) {
    if (kind == GR_PARAM_CODE) { snprintf(buf, cap, "%s", book->v[v]); return; }
    if (kind == GR_PARAM_NUMBER) { snprintf(buf, cap, "%lld", (long long)v); return; }
    size_t pos = (size_t)snprintf(buf, cap, "{");
    for (int a = 1; a <= 64 && pos < cap; a++)
        if ((uint64_t)v >> (a - 1) & 1) pos += (size_t)snprintf(buf + pos, cap - pos, "%s%d", pos > 1 ? ", " : "", a);
    if (pos < cap) snprintf(buf + pos, cap - pos, "}");
}
