/* format: the output formats of the queries' answers, readable text, CSV and JSON (the machine
 * formats of the contract). Its own header so that the queries query.c dispatches to (census,
 * family, tables) name the format without including query.h, whose runner includes theirs: the
 * runner and the queries stay modules that do not include each other in a circle. */
#ifndef GRUNDY_FORMAT_H
#define GRUNDY_FORMAT_H

typedef enum { GR_FMT_TEXT, GR_FMT_CSV, GR_FMT_JSON } gr_format;
#endif
