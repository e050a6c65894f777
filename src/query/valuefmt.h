/* valuefmt: a value (an SG value, a loopy one, none) as each format writes it, so that tables,
 * solves, options and dot labels show one value alike: text "3", "∞{1,2}" (infinity of the set
 * K, sums/loopy.h), "-" for none; CSV "3", "inf{1}" (quoted when K has a comma), "" for none;
 * JSON 3, {"loopy":[1,2]}, null. */
#ifndef GRUNDY_VALUEFMT_H
#define GRUNDY_VALUEFMT_H
#include <stdio.h>
#include "format.h"
#include "loopy.h"

/* Value v (loopy ones' sets in l, which may be NULL when v is not loopy) as fmt writes it,
 * into buf (NUL-terminated, cut to cap); text and CSV only. Returns the length it needs. */
int gr_value_str(char *buf, size_t cap, gr_format fmt, int64_t v, const gr_loopy *l);
/* The columns the text of a value takes (∞ is one column of three bytes). */
int gr_value_width(const char *text);
/* Writes s right-aligned in w columns. */
void gr_value_pad(FILE *out, int w, const char *s);
void gr_value_json(FILE *out, int64_t v, const gr_loopy *l);
#endif
