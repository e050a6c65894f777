/* params: a family's parameters that range over codes or sets rather than numbers
 * ('for c in octal(3)', 'hex(2)', '{"0.77", "0.07"}', 'for S in subsets(1..8)'). A parameter's
 * value stays an int64 as every parameter's: a code is its index in the compilation's code book
 * (the strings, each once), a set of amounts lo..hi <= 64 is a bit mask (bit a - 1 for amount a).
 * Enumeration orders are fixed, so a family's members (and a census's rows) come out the same
 * on every run: codes in numeric order (0.001 < 0.01 < 0.011 < 0.02 ...), sets by mask. */
#ifndef GRUNDY_PARAMS_H
#define GRUNDY_PARAMS_H
#include "ast.h"

/* The kind of a parameter's value (gr_bind_kind's families fold to these). */
typedef enum { GR_PARAM_NUMBER, GR_PARAM_CODE, GR_PARAM_SET } gr_param_kind;

typedef struct gr_codebook { const char **v; int n, cap; } gr_codebook;

/* The parameter kind a binding gives its variable. */
gr_param_kind gr_bind_param_kind(gr_bind_kind k);

/* The values of a code or set binding, in their fixed order (*n of them, at most max: more
 * fails at the binding, status 2). k/lo/hi are the evaluated arguments (octal(k), hex(k),
 * subsets(lo..hi)); list codes are parsed to be checked. */
int64_t *gr_param_values(gr_ctx *c, gr_codebook *book, const gr_binding *b, int64_t lo, int64_t hi, int max, int *n);

/* A parameter's value as text: "0.77", "{1, 3, 4}" or a number. */
void gr_param_text(const gr_codebook *book, gr_param_kind kind, int64_t v, char *buf, size_t cap);
#endif
