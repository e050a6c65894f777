/* semaboard: sema of games on boards (see semaboard.c); private to lower/. */
#ifndef GRUNDY_SEMABOARD_H
#define GRUNDY_SEMABOARD_H
#include "semaint.h"

/* A declared board (its vertices and edges already in di, as a graph's): checked, kept in di. */
void gr_sema_board_decl(sema *s, gr_gdecl *d, decl_info *di);
/* The rule of an instance of a rule set on boards, its parameters' values in params. */
void gr_sema_board_rule(sema *s, gr_gdecl *d, decl_info *di, gr_game *g, const int64_t *params);
/* A written position of a game on boards (out->game set). */
void gr_sema_board_part(sema *s, gr_posref *p, gr_comp *out);
/* A table over a board family (r->game set). */
void gr_sema_board_table(sema *s, gr_query *q, gr_rquery *r);
#endif
