/* format: the output formats of the queries' answers, readable text, CSV and JSON (the machine
 * formats of the contract). Its own header so that the queries query.c dispatches to (census,
 * family, tables) name the format without including query.h, whose runner includes theirs: the
 * runner and the queries stay modules that do not include each other in a circle. */
#ifndef GRUNDY_FORMAT_H
#define GRUNDY_FORMAT_H
#include <stdio.h>

typedef enum { GR_FMT_TEXT, GR_FMT_CSV, GR_FMT_JSON } gr_format;

/* Where one answer goes: a stream per format, indexed by gr_format (NULL: not wanted). Each
 * query makes its answer once, as data, and then writes it to every stream of the sink in that
 * stream's format: the formats compute nothing of their own, so text, CSV and JSON of one run
 * agree and cost the same. */
typedef struct gr_sink { FILE *out[3]; } gr_sink;
/* for (each format fmt with a stream out in sink s) body */
#define GR_SINK_EACH(s, fmt, out) \
    for (gr_format fmt = GR_FMT_TEXT; fmt <= GR_FMT_JSON; fmt = (gr_format)(fmt + 1)) \
        for (FILE *out = (s)->out[fmt]; out; out = NULL)
#endif
