/* tbcode: take-and-break codes parsed and read; see tbcode.h. */
#include "tbcode.h"
#include <ctype.h>
#include <string.h>

static int base32_value(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    ch = (char)toupper((unsigned char)ch);
    if (ch >= 'A' && ch <= 'V') return ch - 'A' + 10;
    return -1;
}

gr_tbdigit gr_tb_digit(const gr_tbcode *code, int64_t place) {
    if (place < code->ndigits) return code->d[place];
    if (code->period > 0) {
        int64_t pre = code->ndigits - code->period;
        return code->d[pre + (place - pre) % code->period];
    }
    return (gr_tbdigit){ 0, 0 };
}

void gr_parse_tbcode(gr_ctx *c, const char *code, gr_loc loc, gr_tbcode *out) {
    /* Locations inside the string: the token starts with its quote. */
#define AT(i) ((gr_loc){ loc.off + 1 + (uint32_t)(i), 1 })
    size_t len = strlen(code);
    gr_tbdigit *d = GR_NEWN(c, gr_tbdigit, len + 2);
    int nd = 0, before_point = 0, seen_point = 0, period_start = -1, period_end = -1;
    for (size_t i = 0; i < len; i++) {
        char ch = code[i];
        if (ch == '.') {
            if (seen_point) gr_fail_at(c, AT(i), GR_EXIT_INPUT, "a take-and-break code has one point");
            seen_point = 1;
            continue;
        }
        if (ch == '[') {
            if (!seen_point || period_start >= 0) gr_fail_at(c, AT(i), GR_EXIT_INPUT, "'[' starts the repeating digits, after the point, once");
            period_start = nd;
            continue;
        }
        if (ch == ']') {
            if (period_start < 0 || i + 1 != len) gr_fail_at(c, AT(i), GR_EXIT_INPUT, "']' must close the repeating digits at the end of the code");
            if (nd == period_start) gr_fail_at(c, AT(i), GR_EXIT_INPUT, "the repeating part '[...]' is empty");
            period_end = nd;
            continue;
        }
        uint32_t mask;
        if (ch == '&') {
            size_t j = i + 1;
            uint64_t v = 0;
            while (j < len && isdigit((unsigned char)code[j]) && v < (1u << 30)) v = v * 10 + (uint64_t)(code[j++] - '0');
            if (j == i + 1 || j >= len || code[j] != ';' || v >= (1u << 30))
                gr_fail_at(c, AT(i), GR_EXIT_INPUT, "'&' must be followed by a number below 2^30 and ';' (as in \"0.&32;\")");
            mask = (uint32_t)v;
            i = j;
        } else {
            int v = base32_value(ch);
            if (v < 0)
                gr_fail_at(c, AT(i), GR_EXIT_INPUT, "'%c' is not a take-and-break digit (0-9, A-V, or &N;)", ch);
            mask = (uint32_t)v;
        }
        size_t digit_at = i;
        uint8_t cons = TB_ANY;
        if (i + 1 < len && (code[i + 1] == '!' || code[i + 1] == '?' || code[i + 1] == '=')) {
            cons = code[i + 1] == '!' ? TB_UNEQUAL : code[i + 1] == '?' ? TB_SOMEUNEQUAL : TB_EQUAL;
            i++;
        }
        if (!seen_point) {
            if (before_point && !strchr(code, '.'))
                gr_fail_at(c, loc, GR_EXIT_INPUT, "a take-and-break code needs a point, as in \"0.77\" or \"4!.0\"");
            if (before_point) gr_fail_at(c, AT(digit_at), GR_EXIT_INPUT, "only one digit may stand before the point (additive digits are not supported)");
            before_point = 1;
            if (mask & 3u) gr_fail_at(c, AT(digit_at), GR_EXIT_INPUT, "the digit before the point removes no tokens, so it may only split a heap into two or more (4, 8, C, ...)");
        } else if (!before_point && nd == 0) {
            d[nd++] = (gr_tbdigit){ 0, 0 };   /* ".77" means "0.77" */
            before_point = 1;
        }
        d[nd++] = (gr_tbdigit){ mask, cons };
    }
    if (!seen_point) gr_fail_at(c, loc, GR_EXIT_INPUT, "a take-and-break code needs a point, as in \"0.77\" or \"4!.0\"");
    if (period_start >= 0 && period_end < 0) gr_fail_at(c, loc, GR_EXIT_INPUT, "'[' is not closed by ']'");
    if (nd == 0) d[nd++] = (gr_tbdigit){ 0, 0 };
    out->d = d;
    out->ndigits = nd;
    out->period = period_start >= 0 ? period_end - period_start : 0;
    out->max_heaps = 0;
    out->last_place = -1;
    for (int i = 0; i < nd; i++) {
        if (d[i].mask) out->last_place = i;
        for (int h = 31; h >= 0; h--)
            if (d[i].mask >> h & 1u) { if (h > out->max_heaps) out->max_heaps = h; break; }
    }
    if (out->period > 0) {
        int any = 0;
        for (int i = nd - out->period; i < nd; i++) any |= d[i].mask != 0;
        if (any) out->last_place = INT32_MAX; else out->period = 0;
    }
#undef AT
}
