/* parser.y: the grammar of the .game language. A pure, reentrant LALR(1) parser: the actions
 * build the syntax tree with the ast_*() constructors. A few also check what the grammar
 * leaves open, as syntax errors at the token: words it reads as any identifier (hex(k),
 * subsets(lo..hi), a table's kind) and a period clause given twice. Meaning is checked later,
 * in sema. */
%define api.pure full
%define parse.error custom
%locations
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {gr_parser_state *st}

%code requires {
#include "parse.h"
typedef void *yyscan_t;
}

%code {
#include <ctype.h>
#include <string.h>
#include "lexer.h"
#include "suggest.h"
static void yyerror(YYLTYPE *loc, yyscan_t scanner, gr_parser_state *st, const char *msg);
static void table_kind_error(YYLTYPE *loc, yyscan_t scanner, gr_parser_state *st, const char *word);
static int misspelt_form(gr_parser_state *st, const YYLTYPE *loc);
#define C (st->ctx)
#define L(x) gr_span(x)
/* Byte spans: a rule covers its first through its last symbol. */
#define YYLLOC_DEFAULT(Cur, Rhs, N) do { \
    if (N) { (Cur).off = YYRHSLOC(Rhs, 1).off; (Cur).end = YYRHSLOC(Rhs, N).end; } \
    else { (Cur).off = (Cur).end = YYRHSLOC(Rhs, 0).end; } } while (0)
}

%union {
    int64_t num;
    const char *str;
    gr_expr *expr;
    gr_exprs exprs;
    gr_set *set;
    gr_target *target;
    gr_bindings bindings;
    gr_binding binding;
    gr_names names;
    gr_item *item;
    gr_gdecl *decl;
    gr_query *query;
    gr_gameref gameref;
    gr_posref posref;
    gr_coord coord;
    int flag;
}

%token GAME "game" GRAPH "graph" BOARD "board" HACKENBUSH "hackenbush" TURNING "turning" FLIP "flip" SUBTRACT "subtract" OCTAL "octal" HEAP "heap" ALLBUT "allbut"
%token POSITION "position" MOVE "move" FOR "for" IN "in" WHERE "where"
%token TERMINAL "terminal" WHEN "when" WINS "wins" LOSES "loses" PLAY "play"
%token NORMAL "normal" MISERE "misere" ANYLEAF "anyleaf" EVERY "every"
%token TABLE "table" SOLVE "solve" CHECK "check" PERIODIC "periodic" PERIOD "period"
%token PREPERIOD "preperiod" SALTUS "saltus" OUTCOME "outcome"
%token PLOT "plot" DOT "dot" OPTIONS "options" TO "to" CENSUS "census"
%token QUOTIENT "quotient"
%token ARROW "->" DOTDOT ".." IFF "<=>" SHL "<<" SHR ">>" LE "<=" GE ">=" EQ "==" NE "!="
%token ANDAND "&&" OROR "||"
%token LEXERROR "invalid token"
%token <str> IDENT "identifier" STRING "string"
%token <num> INT "integer"

%nonassoc IFF
%left OROR
%left ANDAND
%nonassoc '<' LE '>' GE EQ NE
%left '|'
%left '^'
%left '&'
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <expr> expr expr_opt where_opt call_arg within_opt
%type <exprs> exprs exprs_opt call_args
%type <set> set set_items set_item
%type <target> target tuple target_parts target_part flip_parts flip_part
%type <bindings> bindings for_opt
%type <binding> param_binding code_list
%type <names> idents vnames params_opt chain
%type <str> vname
%type <item> items item flips flip
%type <decl> game_decl graph_decl graph_items figure_decl figure_items board_decl board_items
%type <query> query show_query census_query table_query check_tail period_clauses sum table_coords
%type <coord> table_coord
%type <gameref> gameref
%type <posref> posref board_verts
%type <flag> convention conv_opt misere_opt term_opt kind_opt solve_kind_opt

%start program

%%

program
    : %empty
    | program statement
    ;

statement
    : game_decl                  { ast_add_decl(st->prog, $1); }
    | graph_decl                 { ast_add_decl(st->prog, $1); }
    | figure_decl                { ast_add_decl(st->prog, $1); }
    | board_decl                 { ast_add_decl(st->prog, $1); }
    | query                      { ast_add_query(st->prog, $1); }
    | ';'
    ;

/* ---- rule sets ---- */
game_decl
    : GAME IDENT params_opt '=' SUBTRACT set misere_opt ';'
        { $$ = ast_gdecl(C, L(@$), GD_SUBTRACT); ast_gdecl_head($$, $2, L(@2), $3); $$->set = $6; $$->misere = $7; }
    | GAME IDENT params_opt '=' SUBTRACT ALLBUT set misere_opt ';'
        { $$ = ast_gdecl(C, L(@$), GD_SUBTRACT); ast_gdecl_head($$, $2, L(@2), $3); $$->set = $7; $$->allbut = 1; $$->misere = $8; }
    | GAME IDENT params_opt '=' OCTAL STRING misere_opt ';'
        { $$ = ast_gdecl(C, L(@$), GD_OCTAL); ast_gdecl_head($$, $2, L(@2), $3); $$->code = $6; $$->code_loc = L(@6); $$->misere = $7; }
    | GAME IDENT params_opt '=' OCTAL IDENT misere_opt ';'
        { $$ = ast_gdecl(C, L(@$), GD_OCTAL); ast_gdecl_head($$, $2, L(@2), $3); $$->code_param = $6; $$->code_loc = L(@6); $$->misere = $7; }
    | GAME IDENT params_opt '{' items '}'
        { $$ = ast_gdecl(C, L(@$), GD_BLOCK); ast_gdecl_head($$, $2, L(@2), $3); $$->items = ast_items_reverse($5); }
    | GAME IDENT params_opt '=' BOARD IDENT within_opt where_opt misere_opt ';'
        { if (strcmp($6, "vertex") && strcmp($6, "edge")) { yyerror(&@6, scanner, st, "a rule on boards chooses a 'vertex' or an 'edge'"); YYABORT; }
          $$ = ast_gdecl(C, L(@$), GD_BOARDRULE); ast_gdecl_head($$, $2, L(@2), $3); $$->board_edge = !strcmp($6, "edge");
          $$->board_radius = $7; $$->board_where = $8; $$->misere = $9; }
    | GAME IDENT params_opt '=' IDENT misere_opt ';'
        { $$ = ast_gdecl(C, L(@$), GD_ALIAS); ast_gdecl_head($$, $2, L(@2), $3); $$->alias_of = $5; $$->code_loc = L(@5); $$->misere = $6; }
    | GAME IDENT params_opt '=' TURNING '{' flips '}'
        { $$ = ast_gdecl(C, L(@$), GD_TURNING); ast_gdecl_head($$, $2, L(@2), $3); $$->items = ast_items_reverse($7); }
    ;

/* coin turning: each line flips a set of coins, 'x' the rightmost (it must show heads); the
 * list is built backwards (left recursion keeps the parser's stack flat) and reversed */
flips
    : %empty                     { $$ = NULL; }
    | flips flip                 { $$ = $2; $$->next = $1; }
    ;

flip
    : FLIP flip_parts for_opt where_opt ';'
        { $$ = ast_item(C, L(@$), IT_MOVE); $$->target = $2; $$->bindings = $3; $$->cond = $4; }
    ;

flip_parts
    : flip_part                  { $$ = ast_target_sum(C, L(@$)); ast_target_sum_push(C, $$, $1); }
    | flip_parts ',' flip_part   { $$ = $1; ast_target_sum_push(C, $$, $3); }
    ;

flip_part
    : expr                       { $$ = ast_target_expr(C, L(@$), $1); }
    | expr DOTDOT expr           { gr_exprs v = {0}; ast_exprs_push(C, &v, $1); ast_exprs_push(C, &v, $3);
                                   $$ = ast_target_tuple(C, L(@$), v); $$->kind = TG_RANGE; }
    ;

params_opt
    : %empty                     { $$ = (gr_names){0}; }
    | '[' idents ']'             { $$ = $2; }
    ;

idents
    : IDENT                      { $$ = (gr_names){0}; ast_names_push(C, &$$, $1, L(@1)); }
    | idents ',' IDENT           { $$ = $1; ast_names_push(C, &$$, $3, L(@3)); }
    ;

misere_opt
    : %empty                     { $$ = 0; }
    | MISERE                     { $$ = 1; }
    ;

set
    : expr                       { $$ = ast_set_range(C, L(@$), $1, $1); }
    | expr DOTDOT expr           { $$ = ast_set_range(C, L(@$), $1, $3); }
    | expr DOTDOT                { $$ = ast_set_range(C, L(@$), $1, NULL); }
    | '{' '}'                    { $$ = ast_set_list(C, L(@$)); }
    | '{' set_items '}'          { $$ = $2; $$->loc = L(@$); }
    | '{' expr ':' IDENT GE expr '}'
        { $$ = ast_set_builder(C, L(@$), $2, $4, L(@4), $6, NULL, 0); }
    | '{' expr ':' IDENT '>' expr '}'
        { $$ = ast_set_builder(C, L(@$), $2, $4, L(@4), $6, NULL, 1); }
    | '{' expr ':' IDENT IN expr DOTDOT expr_opt '}'
        { $$ = ast_set_builder(C, L(@$), $2, $4, L(@4), $6, $8, 0); }
    ;

set_items
    : set_item                   { $$ = ast_set_list(C, L(@$)); ast_set_list_push(C, $$, $1); }
    | set_items ',' set_item     { $$ = $1; ast_set_list_push(C, $$, $3); }
    ;

set_item
    : expr                       { $$ = ast_set_range(C, L(@$), $1, $1); }
    | expr DOTDOT expr           { $$ = ast_set_range(C, L(@$), $1, $3); }
    | expr DOTDOT                { $$ = ast_set_range(C, L(@$), $1, NULL); }
    ;

/* Left recursive, so a long block never deepens the parser's stack: built in reverse, put
 * back in order by ast_items_reverse. */
items
    : %empty                     { $$ = NULL; }
    | items item                 { $$ = $2; $$->next = $1; }
    ;

item
    : HEAP IDENT ';'
        { $$ = ast_item(C, L(@$), IT_HEAP); gr_names n = {0}; ast_names_push(C, &n, $2, L(@2));
          $$->names = n.v; $$->name_locs = n.locs; $$->nnames = n.n; }
    | POSITION '(' idents ')' where_opt ';'
        { $$ = ast_item(C, L(@$), IT_POSITION); $$->names = $3.v; $$->name_locs = $3.locs; $$->nnames = $3.n; $$->cond = $5; }
    | MOVE ARROW target for_opt where_opt ';'
        { $$ = ast_item(C, L(@$), IT_MOVE); $$->target = $3; $$->bindings = $4; $$->cond = $5; }
    | TERMINAL WHEN expr term_opt ';'
        { $$ = ast_item(C, L(@$), IT_TERMINAL); $$->cond = $3; $$->term = $4; }
    | PLAY convention ';'
        { $$ = ast_item(C, L(@$), IT_PLAY); $$->play = $2; }
    ;

term_opt
    : %empty                     { $$ = TERM_LEAF; }
    | WINS                       { $$ = TERM_WINS; }
    | LOSES                      { $$ = TERM_LOSES; }
    ;

target
    : expr                       { $$ = ast_target_expr(C, L(@$), $1); }
    | tuple                      { $$ = $1; }
    | '{' '}'                    { $$ = ast_target_sum(C, L(@$)); }
    | '{' target_parts '}'       { $$ = $2; $$->loc = L(@$); }
    ;

tuple
    : '(' expr ',' exprs ')'
        { gr_exprs v = {0}; ast_exprs_push(C, &v, $2); for (int i = 0; i < $4.n; i++) ast_exprs_push(C, &v, $4.v[i]);
          $$ = ast_target_tuple(C, L(@$), v); }
    ;

target_parts
    : target_part                { $$ = ast_target_sum(C, L(@$)); ast_target_sum_push(C, $$, $1); }
    | target_parts ',' target_part { $$ = $1; ast_target_sum_push(C, $$, $3); }
    ;

target_part
    : expr                       { $$ = ast_target_expr(C, L(@$), $1); }
    | tuple                      { $$ = $1; }
    ;

for_opt
    : %empty                     { $$ = (gr_bindings){0}; }
    | FOR bindings               { $$ = $2; }
    ;

bindings
    : IDENT IN expr DOTDOT expr  { $$ = (gr_bindings){0}; ast_bindings_push(C, &$$, $1, L(@1), $3, $5); }
    | bindings ',' IDENT IN expr DOTDOT expr { $$ = $1; ast_bindings_push(C, &$$, $3, L(@3), $5, $7); }
    | IDENT IN '{' set_items '}'
        { $$ = (gr_bindings){0}; $4->loc = L(@3); $4->loc.len = @5.end - @3.off;
          if (!ast_bindings_set(C, &$$, $1, L(@1), $4)) { yyerror(&@4, scanner, st, "a binding's set is finite: no open range 'lo..' in it"); YYABORT; } }
    | bindings ',' IDENT IN '{' set_items '}'
        { $$ = $1; $6->loc = L(@5); $6->loc.len = @7.end - @5.off;
          if (!ast_bindings_set(C, &$$, $3, L(@3), $6)) { yyerror(&@6, scanner, st, "a binding's set is finite: no open range 'lo..' in it"); YYABORT; } }
    | param_binding              { $$ = (gr_bindings){0}; ast_bindings_add(C, &$$, $1); }
    | bindings ',' param_binding { $$ = $1; ast_bindings_add(C, &$$, $3); }
    ;

/* A family parameter over codes or sets (census.h): octal(k), hex(k), {"0.77", ...}, subsets(lo..hi). */
param_binding
    : IDENT IN OCTAL '(' expr ')'
        { $$ = (gr_binding){ .name = $1, .loc = L(@1), .lo = $5, .kind = BIND_OCTAL, .range_loc = L(@3) }; $$.range_loc.len = @6.end - @3.off; }
    | IDENT IN expr
        { int range = $3->kind == EX_CALL && $3->nargs == 1 && $3->args[0]->kind == EX_RANGE;
          if (range && strcmp($3->name, "subsets")) { YYLTYPE at = @3; at.end = at.off + (uint32_t)strlen($3->name); yyerror(&at, scanner, st, "a range in parentheses is written subsets(lo..hi)"); YYABORT; }
          if (range) $$ = (gr_binding){ .name = $1, .loc = L(@1), .lo = $3->args[0]->a, .hi = $3->args[0]->b, .kind = BIND_SUBSETS, .range_loc = L(@3) };
          else if ($3->kind != EX_CALL || strcmp($3->name, "hex") || $3->nargs != 1 || $3->args[0]->kind == EX_RANGE) {
              yyerror(&@3, scanner, st, "a binding ranges over lo..hi, octal(k), hex(k), subsets(lo..hi) or a list of codes {\"0.77\", ...}"); YYABORT; }
          else $$ = (gr_binding){ .name = $1, .loc = L(@1), .lo = $3->args[0], .kind = BIND_HEX, .range_loc = L(@3) }; }
    | IDENT IN '{' code_list '}'
        { $$ = $4; $$.name = $1; $$.loc = L(@1); $$.range_loc = L(@3); $$.range_loc.len = @5.end - @3.off; }
    ;

code_list
    : STRING                     { $$ = (gr_binding){ .kind = BIND_CODES }; ast_binding_code(C, &$$, $1, L(@1)); }
    | code_list ',' STRING       { $$ = $1; ast_binding_code(C, &$$, $3, L(@3)); }
    ;

where_opt
    : %empty                     { $$ = NULL; }
    | WHERE expr                 { $$ = $2; }
    ;

/* ---- graphs ---- */
graph_decl
    : GRAPH IDENT '{' graph_items '}'
        { $$ = $4; $$->loc = L(@$); ast_gdecl_head($$, $2, L(@2), (gr_names){0}); }
    ;

graph_items
    : %empty                     { $$ = ast_gdecl(C, L(@$), GD_GRAPH); }
    | graph_items vname ARROW vnames ';' { $$ = $1; ast_graph_edge(C, $$, $2, L(@2), $4); }
    | graph_items vname ';'      { $$ = $1; ast_graph_edge(C, $$, $2, L(@2), (gr_names){0}); }
    ;

/* ---- boards: undirected edges between named vertices (a vertex alone on its line is isolated) ---- */
board_decl
    : BOARD IDENT '{' board_items '}'
        { $$ = $4; $$->loc = L(@$); ast_gdecl_head($$, $2, L(@2), (gr_names){0}); }
    ;

board_items
    : %empty                     { $$ = ast_gdecl(C, L(@$), GD_BOARD); }
    | board_items vname '-' vnames ';' { $$ = $1; ast_graph_edge(C, $$, $2, L(@2), $4); }
    | board_items vname ';'      { $$ = $1; ast_graph_edge(C, $$, $2, L(@2), (gr_names){0}); }
    ;

/* 'within R' after a board rule: every vertex at distance at most R of what a move chose leaves */
within_opt
    : %empty                     { $$ = NULL; }
    | IDENT expr                 { if (strcmp($1, "within")) { yyerror(&@1, scanner, st, "expected 'within', 'where', 'misere' or ';' after the rule's choice"); YYABORT; }
                                   $$ = $2; }
    ;

/* ---- Green Hackenbush figures: chains of undirected edges, 'ground' the root ---- */
figure_decl
    : HACKENBUSH IDENT '{' figure_items '}'
        { $$ = $4; $$->loc = L(@$); ast_gdecl_head($$, $2, L(@2), (gr_names){0}); }
    ;

figure_items
    : %empty                     { $$ = ast_gdecl(C, L(@$), GD_HACKENBUSH); }
    | figure_items vname '-' chain ';' { $$ = $1; ast_graph_edge(C, $$, $2, L(@2), $4); }
    ;

chain
    : vname                      { $$ = (gr_names){0}; ast_names_push(C, &$$, $1, L(@1)); }
    | chain '-' vname            { $$ = $1; ast_names_push(C, &$$, $3, L(@3)); }
    ;

vnames
    : vname                      { $$ = (gr_names){0}; ast_names_push(C, &$$, $1, L(@1)); }
    | vnames ',' vname           { $$ = $1; ast_names_push(C, &$$, $3, L(@3)); }
    ;

vname
    : IDENT                      { $$ = $1; }
    | INT                        { char b[24]; snprintf(b, sizeof b, "%lld", (long long)$1); $$ = gr_strndup(C, b, strlen(b)); }
    ;

/* ---- queries ---- */
query
    : table_query ';'            { $$ = $1; }
    | SOLVE conv_opt sum solve_kind_opt ';'
        { $$ = $3; $$->conv = $2 < 0 ? CONV_NORMAL : $2; $$->has_conv = $2 >= 0; $$->outcome = $4; $$->loc = (gr_loc){ @1.off, @3.end - @1.off }; }
    | CHECK gameref check_tail ';'
        { $$ = $3; $$->kind = Q_CHECK; $$->game = $2; $$->loc = (gr_loc){ @2.off, @3.end - @2.off }; }
    | show_query ';'             { $$ = $1; }
    | QUOTIENT gameref '(' table_coords ')' ';'
        { $$ = $4; $$->kind = Q_QUOTIENT; $$->conv = CONV_MISERE; $$->has_conv = 1; $$->game = $2; $$->loc = (gr_loc){ @1.off, @5.end - @1.off }; }
    | census_query ';'           { $$ = $1; }
    ;

/* census [misere] G[c] for c in octal(3) to N: every member to N, grouped into classes
 * (census.h): by their values, or (misere) by their misere quotients. */
census_query
    : CENSUS conv_opt gameref FOR bindings TO expr
        { $$ = ast_query(C, L(@$), Q_CENSUS); $$->conv = $2 < 0 ? CONV_NORMAL : $2; $$->has_conv = $2 >= 0;
          $$->game = $3; $$->bindings = $5; $$->census_to = $7;
          $$->loc = (gr_loc){ $2 >= 0 ? @2.off : @3.off, @7.end - ($2 >= 0 ? @2.off : @3.off) }; }
    ;

/* Showing and exporting: a plot of a table, the position graph as DOT, the options of a position. */
show_query
    : PLOT conv_opt gameref '(' table_coords ')' kind_opt TO STRING
        { $$ = $5; $$->kind = Q_PLOT; $$->conv = $2 < 0 ? CONV_NORMAL : $2; $$->has_conv = $2 >= 0; $$->game = $3; $$->outcome = $7;
          $$->file = $9; $$->file_loc = L(@9); $$->loc = L(@$); }
    | DOT conv_opt sum TO STRING
        { $$ = $3; $$->kind = Q_DOT; $$->conv = $2 < 0 ? CONV_NORMAL : $2; $$->has_conv = $2 >= 0; $$->file = $5; $$->file_loc = L(@5); $$->loc = L(@$); }
    | OPTIONS conv_opt sum
        { $$ = $3; $$->kind = Q_OPTIONS; $$->conv = $2 < 0 ? CONV_NORMAL : $2; $$->has_conv = $2 >= 0; $$->loc = L(@$); }
    ;

/* A part in parentheses is one component of several positions, as 'anyleaf' and 'every'
 * write the heaps a move split a heap into (under normal and misere play it is just a sum). */
sum
    : posref                     { $$ = ast_query(C, L(@$), Q_SOLVE); ast_solve_part(C, $$, $1); }
    | '(' sum ')'                { $$ = ast_query(C, L(@$), Q_SOLVE); ast_solve_group(C, $$, $2); }
    | sum '+' posref             { $$ = $1; ast_solve_part(C, $$, $3); }
    | sum '+' '(' sum ')'        { $$ = $1; ast_solve_group(C, $$, $4); }
    ;

table_query
    : TABLE conv_opt gameref '(' table_coords ')' kind_opt
        { $$ = $5; $$->conv = $2 < 0 ? CONV_NORMAL : $2; $$->has_conv = $2 >= 0; $$->game = $3; $$->outcome = $7; $$->loc = L(@$); }
    | TABLE conv_opt gameref kind_opt
        { $$ = ast_query(C, L(@$), Q_TABLE); $$->conv = $2 < 0 ? CONV_NORMAL : $2; $$->has_conv = $2 >= 0; $$->game = $3; $$->outcome = $4; }
    ;

table_coords
    : table_coord                { $$ = ast_query(C, L(@$), Q_TABLE); ast_table_coord(C, $$, $1.loc, $1.lo, $1.hi); }
    | table_coords ',' table_coord { $$ = $1; ast_table_coord(C, $$, $3.loc, $3.lo, $3.hi); }
    ;

table_coord
    : expr                       { $$ = (gr_coord){ $1, NULL, L(@$) }; }
    | expr DOTDOT expr           { $$ = (gr_coord){ $1, $3, L(@$) }; }
    ;

kind_opt
    : %empty                     { $$ = 0; }
    | OUTCOME                    { $$ = TK_OUTCOME; }
    | IDENT                      { $$ = !strcmp($1, "sg") ? TK_SG : !strcmp($1, "remoteness") ? TK_REMOTENESS : !strcmp($1, "genus") ? TK_GENUS : -1;
                                   if ($$ < 0) { table_kind_error(&@1, scanner, st, $1); YYABORT; } }
    ;

/* solve ... remoteness: the remoteness asked for where the default declines it (sums/solve.h). */
solve_kind_opt
    : %empty                     { $$ = 0; }
    | IDENT                      { if (strcmp($1, "remoteness")) { yyerror(&@1, scanner, st, "expected 'remoteness' or ';' after the position"); YYABORT; }
                                   $$ = TK_REMOTENESS; }
    ;

check_tail
    : PERIODIC for_opt           { $$ = ast_query(C, L(@$), Q_CHECK); $$->check = CK_PERIODIC; $$->bindings = $2; }
    | period_clauses             { $$ = $1; $$->check = CK_PERIOD; }
    | ':' expr for_opt           { $$ = ast_query(C, L(@$), Q_CHECK); $$->check = CK_FORMULA; $$->formula = $2; $$->bindings = $3; }
    ;

period_clauses
    : PERIOD expr                { $$ = ast_query(C, L(@$), Q_CHECK); $$->period = $2; }
    | PREPERIOD expr             { $$ = ast_query(C, L(@$), Q_CHECK); $$->preperiod = $2; }
    | SALTUS expr                { $$ = ast_query(C, L(@$), Q_CHECK); $$->saltus = $2; }
    | period_clauses PERIOD expr    { $$ = $1; if ($$->period) { yyerror(&@2, scanner, st, "'period' given twice"); YYABORT; } $$->period = $3; }
    | period_clauses PREPERIOD expr { $$ = $1; if ($$->preperiod) { yyerror(&@2, scanner, st, "'preperiod' given twice"); YYABORT; } $$->preperiod = $3; }
    | period_clauses SALTUS expr    { $$ = $1; if ($$->saltus) { yyerror(&@2, scanner, st, "'saltus' given twice"); YYABORT; } $$->saltus = $3; }
    ;

conv_opt
    : %empty                     { $$ = -1; }
    | convention                 { $$ = $1; }
    ;

convention
    : NORMAL                     { $$ = CONV_NORMAL; }
    | MISERE                     { $$ = CONV_MISERE; }
    | ANYLEAF                    { $$ = CONV_ANYLEAF; }
    | EVERY                      { $$ = CONV_EVERY; }
    ;

gameref
    : IDENT                      { $$ = (gr_gameref){ .name = $1, .loc = L(@1) }; }
    | IDENT '[' exprs ']'        { $$ = (gr_gameref){ .name = $1, .loc = L(@$), .args = $3, .has_args = 1 }; }
    ;

posref
    : gameref '(' exprs_opt ')'  { $$ = (gr_posref){ .game = $1, .coords = $3, .loc = L(@$) }; }
    | IDENT '.' vname            { $$ = (gr_posref){ .game = { .name = $1, .loc = L(@1) }, .vertex = $3, .vertex_loc = L(@3), .loc = L(@$) }; }
    | IDENT                      { $$ = (gr_posref){ .game = { .name = $1, .loc = L(@1) }, .figure = 1, .loc = L(@$) }; }
    | '*' INT                    { $$ = (gr_posref){ .game = { .name = "*", .loc = L(@$) }, .loc = L(@$) };
                                   ast_exprs_push(C, &$$.coords, ast_int(C, L(@2), $2)); st->uses_star = 1; }
    | gameref '(' expr '-' '{' board_verts '}' ')'
        { $$ = $6; $$.game = $1; ast_exprs_push(C, &$$.coords, $3); $$.loc = L(@$); }
    | posref '-' '(' vname '-' vname ')'
        { $$ = $1; ast_names_push(C, &$$.cuts, $4, L(@4)); ast_names_push(C, &$$.cuts, $6, L(@6)); $$.loc = L(@$); }
    ;

/* The vertices removed from a board: numbers, names or cells (i, j). */
board_verts
    : call_arg                   { $$ = (gr_posref){ .has_removed = 1 }; ast_board_vertex(C, &$$, $1, NULL); }
    | '(' expr ',' expr ')'      { $$ = (gr_posref){ .has_removed = 1 }; ast_board_vertex(C, &$$, $2, $4); }
    | board_verts ',' call_arg   { $$ = $1; ast_board_vertex(C, &$$, $3, NULL); }
    | board_verts ',' '(' expr ',' expr ')' { $$ = $1; ast_board_vertex(C, &$$, $4, $6); }
    ;

/* ---- expressions ---- */
exprs_opt
    : %empty                     { $$ = (gr_exprs){0}; }
    | exprs                      { $$ = $1; }
    ;

exprs
    : expr                       { $$ = (gr_exprs){0}; ast_exprs_push(C, &$$, $1); }
    | exprs ',' expr             { $$ = $1; ast_exprs_push(C, &$$, $3); }
    ;

/* A call's arguments; a range lo..hi stands only in a board's size (grid(4, 4..10)), which
 * sema checks. */
call_args
    : call_arg                   { $$ = (gr_exprs){0}; ast_exprs_push(C, &$$, $1); }
    | call_args ',' call_arg     { $$ = $1; ast_exprs_push(C, &$$, $3); }
    ;

call_arg
    : expr                       { $$ = $1; }
    | expr DOTDOT expr           { $$ = ast_binary(C, L(@$), OP_ADD, $1, $3); $$->kind = EX_RANGE; }
    ;

expr_opt
    : %empty                     { $$ = NULL; }
    | expr                       { $$ = $1; }
    ;

expr
    : INT                        { $$ = ast_int(C, L(@$), $1); }
    | IDENT                      { $$ = ast_name(C, L(@$), $1); }
    | IDENT '(' ')'              { $$ = ast_call(C, L(@$), $1, (gr_exprs){0}); }
    | IDENT '(' call_args ')'    { $$ = ast_call(C, L(@$), $1, $3); }
    | '(' expr ')'               { $$ = $2; }
    | '-' expr %prec UNARY       { $$ = ast_unary(C, L(@$), OP_NEG, $2); }
    | '!' expr %prec UNARY       { $$ = ast_unary(C, L(@$), OP_NOT, $2); }
    | '~' expr %prec UNARY       { $$ = ast_unary(C, L(@$), OP_BITNOT, $2); }
    | expr '+' expr              { $$ = ast_binary(C, L(@2), OP_ADD, $1, $3); }
    | expr '-' expr              { $$ = ast_binary(C, L(@2), OP_SUB, $1, $3); }
    | expr '*' expr              { $$ = ast_binary(C, L(@2), OP_MUL, $1, $3); }
    | expr '/' expr              { $$ = ast_binary(C, L(@2), OP_DIV, $1, $3); }
    | expr '%' expr              { $$ = ast_binary(C, L(@2), OP_MOD, $1, $3); }
    | expr SHL expr              { $$ = ast_binary(C, L(@2), OP_SHL, $1, $3); }
    | expr SHR expr              { $$ = ast_binary(C, L(@2), OP_SHR, $1, $3); }
    | expr '&' expr              { $$ = ast_binary(C, L(@2), OP_BITAND, $1, $3); }
    | expr '|' expr              { $$ = ast_binary(C, L(@2), OP_BITOR, $1, $3); }
    | expr '^' expr              { $$ = ast_binary(C, L(@2), OP_BITXOR, $1, $3); }
    | expr '<' expr              { $$ = ast_binary(C, L(@2), OP_LT, $1, $3); }
    | expr LE expr               { $$ = ast_binary(C, L(@2), OP_LE, $1, $3); }
    | expr '>' expr              { $$ = ast_binary(C, L(@2), OP_GT, $1, $3); }
    | expr GE expr               { $$ = ast_binary(C, L(@2), OP_GE, $1, $3); }
    | expr EQ expr               { $$ = ast_binary(C, L(@2), OP_EQ, $1, $3); }
    | expr NE expr               { $$ = ast_binary(C, L(@2), OP_NE, $1, $3); }
    | expr ANDAND expr           { $$ = ast_binary(C, L(@2), OP_AND, $1, $3); }
    | expr OROR expr             { $$ = ast_binary(C, L(@2), OP_OR, $1, $3); }
    | expr IFF expr              { $$ = ast_binary(C, L(@2), OP_IFF, $1, $3); }
    ;

%%

/* A keyword: a token named by lower-case letters alone (not a name, number or string). */
static int is_keyword(yysymbol_kind_t k) {
    if (k == YYSYMBOL_IDENT || k == YYSYMBOL_INT || k == YYSYMBOL_STRING || k == YYSYMBOL_YYEOF) return 0;
    const char *n = yysymbol_name(k);
    if (!*n) return 0;
    for (; *n; n++) if (*n < 'a' || *n > 'z') return 0;
    return 1;
}

/* A token's name as a message shows it: 'game', ';', "a name". */
static void token_name(yysymbol_kind_t k, char *buf, size_t cap) {
    const char *n = yysymbol_name(k);
    switch (k) {
    case YYSYMBOL_YYEOF: snprintf(buf, cap, "the end of the input"); return;
    case YYSYMBOL_IDENT: snprintf(buf, cap, "a name"); return;
    case YYSYMBOL_INT: snprintf(buf, cap, "a number"); return;
    case YYSYMBOL_STRING: snprintf(buf, cap, "a string"); return;
    default: break;
    }
    if (n[0] == '\'' || n[0] == '"') snprintf(buf, cap, "%s", n);
    else snprintf(buf, cap, "'%s'", n);
}

static int is_operator(yysymbol_kind_t k) {
    static const char OPS[] = "+-*/%&|^<>";
    const char *n = yysymbol_name(k);
    if (n[0] == '\'' && n[1] && n[2] == '\'' && strchr(OPS, n[1])) return 1;
    switch (k) {
    case YYSYMBOL_SHL: case YYSYMBOL_SHR: case YYSYMBOL_LE: case YYSYMBOL_GE: case YYSYMBOL_EQ: case YYSYMBOL_NE:
    case YYSYMBOL_ANDAND: case YYSYMBOL_OROR: case YYSYMBOL_IFF: return 1;
    default: return 0;
    }
}

static int listed(yysymbol_kind_t k) {
    return k != YYSYMBOL_YYerror && k != YYSYMBOL_YYUNDEF && k != YYSYMBOL_LEXERROR && k != YYSYMBOL_YYEOF && !is_operator(k);
}

/* After a table's coordinates only a kind may follow: the error names the nearest. */
static void table_kind_error(YYLTYPE *loc, yyscan_t scanner, gr_parser_state *st, const char *word) {
    static const char *const KINDS[] = { "outcome", "sg", "remoteness", "genus" };
    gr_suggest sg;
    gr_suggest_init(&sg, word);
    for (int i = 0; i < 4; i++) gr_suggest_offer(&sg, KINDS[i]);
    char msg[256];
    const char *best = gr_suggest_best(&sg);
    snprintf(msg, sizeof msg, "unexpected name '%.60s'%s%s%s; expected 'outcome', 'sg', 'remoteness', 'genus' or ';' after the table",
             word, best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
    yyerror(loc, scanner, st, msg);
}

/* Where the text before end stops: after its last token, past blanks and comments (the caret
 * of an error at the end of the input points there, not at an empty line after it). */
static uint32_t after_last_token(const char *src, uint32_t end) {
    for (;;) {
        while (end > 0 && strchr(" \t\r\n\f\v", src[end - 1])) end--;
        uint32_t line = end, comment = end;
        while (line > 0 && src[line - 1] != '\n') line--;
        int str = 0;
        for (uint32_t i = line; i < end; i++) {   /* a comment on this line, outside a string */
            if (src[i] == '"') str = !str;
            else if (!str && (src[i] == '#' || (src[i] == '/' && i + 1 < end && src[i + 1] == '/'))) { comment = i; break; }
        }
        if (comment == end) return end;
        end = comment;
    }
}

/* `game s = subtrct {1, 2};`: after `=` a name reads as another game's name (`game nk =
 * nodekayles;`), so the error comes at the token after it; when that name is near a form of rule
 * set, the error names the form. Returns 1 when it said so. */
static int misspelt_form(gr_parser_state *st, const YYLTYPE *loc) {
    static const char *const FORMS[] = { "subtract", "octal", "turning", "board" };
    const char *src = st->ctx->src;
    uint32_t end = loc->off;
    while (end > 0 && strchr(" \t\r\n", src[end - 1])) end--;
    uint32_t start = end;
    while (start > 0 && (isalnum((unsigned char)src[start - 1]) || src[start - 1] == '_')) start--;
    uint32_t eq = start;
    while (eq > 0 && strchr(" \t\r\n", src[eq - 1])) eq--;
    if (start == end || end - start > GR_MAX_IDENT || eq == 0 || src[eq - 1] != '=') return 0;
    char word[GR_MAX_IDENT + 1];
    snprintf(word, sizeof word, "%.*s", (int)(end - start), src + start);
    gr_suggest sg;
    gr_suggest_init(&sg, word);
    for (int i = 0; i < 4; i++) gr_suggest_offer(&sg, FORMS[i]);
    const char *best = gr_suggest_best(&sg);
    if (!best) return 0;
    st->failed = 1;
    gr_diag_at(st->ctx, (gr_loc){ start, end - start }, "unexpected name '%s' (did you mean '%s'?)", word, best);
    return 1;
}

/* A syntax error says what was found, what would have been accepted there (operators summed
 * up as one item, the end of the input last), and, for a word near an expected keyword,
 * "did you mean". */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, gr_parser_state *st) {
    (void)scanner;
    if (st->failed) return 0;   /* the scanner already explained its bad token */
    st->failed = 1;
    const YYLTYPE *loc = yypcontext_location(ctx);
    yysymbol_kind_t got = yypcontext_token(ctx);
    if (got != YYSYMBOL_IDENT && misspelt_form(st, loc)) return 0;
    char msg[1024], name[64];
    size_t pos = 0;
    const char *text = st->ctx->src + loc->off;
    int tlen = loc->end > loc->off ? (int)(loc->end - loc->off) : 0;
    if (got == YYSYMBOL_IDENT) pos += (size_t)snprintf(msg, sizeof msg, "unexpected name '%.*s'", tlen > 60 ? 60 : tlen, text);
    else if (got == YYSYMBOL_INT) pos += (size_t)snprintf(msg, sizeof msg, "unexpected number %.*s", tlen > 30 ? 30 : tlen, text);
    else if (got == YYSYMBOL_YYEOF) pos += (size_t)snprintf(msg, sizeof msg, "unexpected end of input");
    else { token_name(got, name, sizeof name); pos += (size_t)snprintf(msg, sizeof msg, "unexpected %s", name); }
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    if (n < 0) n = 0;
    char word[GR_MAX_IDENT + 1];
    snprintf(word, sizeof word, "%.*s", tlen, text);
    gr_suggest sg;
    gr_suggest_init(&sg, word);
    int ops = 0, eof = 0, items = 0, star = 0, plus = 0;
    for (int i = 0; i < n; i++) plus |= !strcmp(yysymbol_name(exp[i]), "'+'");
    for (int i = 0; i < n; i++) {
        if (!strcmp(yysymbol_name(exp[i]), "'*'") && !plus) { star = 1; exp[i] = YYSYMBOL_YYUNDEF; continue; }   /* the '*' of *n */
        ops |= is_operator(exp[i]);
        eof |= exp[i] == YYSYMBOL_YYEOF;
        items += listed(exp[i]);
        if (got == YYSYMBOL_IDENT && is_keyword(exp[i])) gr_suggest_offer(&sg, yysymbol_name(exp[i]));
    }
    const char *best = got == YYSYMBOL_IDENT ? gr_suggest_best(&sg) : NULL;
    if (best && pos < sizeof msg) pos += (size_t)snprintf(msg + pos, sizeof msg - pos, " (did you mean '%s'?)", best);
    items += ops + eof + star;
    int shown = 0;
    const char *first = got == YYSYMBOL_YYEOF ? ": expected " : "; expected ";
    for (int i = 0; i < n && pos < sizeof msg; i++) {
        if (!listed(exp[i])) continue;
        token_name(exp[i], name, sizeof name);
        shown++;
        pos += (size_t)snprintf(msg + pos, sizeof msg - pos, "%s%s", shown == 1 ? first : shown == items ? " or " : ", ", name);
    }
    if (star && pos < sizeof msg) { shown++; pos += (size_t)snprintf(msg + pos, sizeof msg - pos, "%sa nim heap *n", shown == 1 ? first : shown == items ? " or " : ", "); }
    if (ops && pos < sizeof msg) { shown++; pos += (size_t)snprintf(msg + pos, sizeof msg - pos, "%san operator", shown == 1 ? first : shown == items ? " or " : ", "); }
    if (eof && pos < sizeof msg) { shown++; pos += (size_t)snprintf(msg + pos, sizeof msg - pos, "%sthe end of the input", shown == 1 ? first : shown == items ? " or " : ", "); }
    /* only a ';' fits, and the token starts a new line: the line before lacks its ';' */
    int semi_only = items == 1 && n >= 1, newline = 0;
    for (int i = 0; i < n; i++) if (listed(exp[i])) semi_only &= !strcmp(yysymbol_name(exp[i]), "';'");
    for (uint32_t i = loc->off; i > 0; i--) {
        char ch = st->ctx->src[i - 1];
        if (ch == '\n') { newline = 1; break; }
        if (ch != ' ' && ch != '\t' && ch != '\r') break;
    }
    if (semi_only && newline && got != YYSYMBOL_YYEOF && pos < sizeof msg)
        snprintf(msg + pos, sizeof msg - pos, " (the statement before it lacks its ';')");
    gr_loc at = gr_span(*loc);
    if (got == YYSYMBOL_YYEOF) at = (gr_loc){ after_last_token(st->ctx->src, loc->off), 0 };
    gr_diag_at(st->ctx, at, "%s", msg);
    return 0;
}

static void yyerror(YYLTYPE *loc, yyscan_t scanner, gr_parser_state *st, const char *msg) {
    (void)scanner;
    if (st->failed) return;   /* the scanner already explained its bad token */
    st->failed = 1;
    if (strncmp(msg, "syntax error, ", 14) == 0) msg += 14;
    if (strcmp(msg, "memory exhausted") == 0) msg = "the input nests too deeply here (the parser's stack is full)";
    gr_diag_at(st->ctx, gr_span(*loc), "%s", msg);
}
