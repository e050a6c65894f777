/* checktext: the message text of 'check' answers (check.c, formula.c), written into the fixed
 * buffers of gr_check_result: cut at the buffer's end, never past it. */
#ifndef GRUNDY_CHECKTEXT_H
#define GRUNDY_CHECKTEXT_H
#include <stddef.h>

/* snprintf into buf (truncation is fine for text, and keeps -Wformat-truncation quiet about the
 * lengths it cannot bound). */
void gr_check_textf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Appends at *pos, never past cap (the text is cut at the end of the buffer). */
void gr_check_appendf(char *buf, size_t cap, size_t *pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#endif
