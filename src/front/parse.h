/* parse: runs the reentrant flex scanner and the pure bison parser over ctx->src and builds
 * the syntax tree. On the first lexical or syntax error it prints one diagnostic
 * (FILE:LINE:COL, the line, a caret) and returns nonzero. */
#ifndef GRUNDY_PARSE_H
#define GRUNDY_PARSE_H
#include "ast.h"

/* State shared by the scanner (as yyextra) and the parser (as a %param). */
typedef struct gr_parser_state {
    gr_ctx *ctx;
    gr_ast_program *prog;
    uint32_t pos;          /* byte offset of the scanner */
    int failed;
    int depth;             /* open ( [ { brackets, kept below GR_MAX_NESTING */
    int uses_star;         /* a '*n' nim heap was written (the prelude's '*' is then added) */
} gr_parser_state;

/* The location type of the grammar: a byte span [off, end). */
typedef struct gr_yyltype { uint32_t off, end; } gr_yyltype;
#define YYLTYPE gr_yyltype
#define YYLTYPE_IS_DECLARED 1

static inline gr_loc gr_span(gr_yyltype l) { return (gr_loc){ l.off, l.end > l.off ? l.end - l.off : 0 }; }

/* Limits of the front end, each a located error past it: brackets nested deeper than
 * GR_MAX_NESTING, identifiers longer than GR_MAX_IDENT bytes, strings longer than
 * GR_MAX_STRING. (Unbracketed nesting, such as a long run of unary minus signs, is bounded by
 * the parser's stack, also with a located error.) */
enum { GR_MAX_NESTING = 1024, GR_MAX_IDENT = 255, GR_MAX_STRING = 4096 };

/* Parses c->src into out, then adds the prelude's rule sets the program names and does not
 * define (c->src then holds the prelude too, after the program; c->no_prelude: none). */
int gr_parse(gr_ctx *c, gr_ast_program *out);
/* Parses an entry that follows a program parsed before (c->src[from, end): a query the API
 * made, a line of the session) into out, then adds the prelude's rule sets (in c->src from
 * c->store.prelude_off, where gr_parse put it) that the entry names, out does not declare and
 * known(user, name) says are not declared yet. */
int gr_parse_more(gr_ctx *c, uint32_t from, gr_ast_program *out, int (*known)(void *user, const char *name),
                  void *user);
/* The names of the prelude's games, in its order (at most cap); returns how many. */
int gr_prelude_names(char (*names)[32], int cap);
#endif
