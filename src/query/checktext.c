/* checktext: message text for 'check' answers; see checktext.h. */
#include "checktext.h"
#include <stdarg.h>
#include <stdio.h>

void gr_check_textf(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

void gr_check_appendf(char *buf, size_t cap, size_t *pos, const char *fmt, ...) {
    if (*pos + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *pos, cap - *pos, fmt, ap);
    va_end(ap);
    if (n > 0) *pos += (size_t)n < cap - *pos ? (size_t)n : cap - *pos - 1;
}
