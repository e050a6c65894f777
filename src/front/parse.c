/* parse: drives the generated scanner and parser; see parse.h. */
#include "parse.h"
#include "parser.h"
#include "lexer.h"

int gr_parse(gr_ctx *c, gr_ast_program *out) {
    gr_parser_state st = { .ctx = c, .prog = out, .pos = 0, .failed = 0 };
    ast_program_init(out);
    yyscan_t scanner;
    if (yylex_init_extra(&st, &scanner) != 0) gr_fail(c, GR_EXIT_LIMIT, "cannot start the scanner");
    YY_BUFFER_STATE buf = yy_scan_bytes(c->src, (int)c->src_len, scanner);
    int rc = yyparse(scanner, &st);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    return rc != 0 || st.failed;
}
