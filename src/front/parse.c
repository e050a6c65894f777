/* parse: drives the generated scanner and parser; see parse.h. After the program, the
 * prelude (prelude.game, embedded at build time as gr_prelude_text) is parsed as if it
 * followed the program: its rule sets that the program names and does not define itself are
 * added to the program, so the classic games need no definition and a user's own shadows them. */
#include "parse.h"
#include <string.h>
#include "hash.h"
#include "parser.h"
#include "lexer.h"

extern const char gr_prelude_text[];   /* generated from src/front/prelude.game */

/* Parses src[from, to) of c->src (offsets stay those of c->src) into out. */
static int parse_span(gr_ctx *c, gr_ast_program *out, uint32_t from, uint32_t to, int *uses_star) {
    gr_parser_state st = { .ctx = c, .prog = out, .pos = from, .failed = 0 };
    yyscan_t scanner;
    if (yylex_init_extra(&st, &scanner) != 0) gr_fail(c, GR_EXIT_LIMIT, "cannot start the scanner");
    YY_BUFFER_STATE buf = yy_scan_bytes(c->src + from, (int)(to - from), scanner);
    int rc = yyparse(scanner, &st);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    if (uses_star) *uses_star = st.uses_star;
    return rc != 0 || st.failed;
}

static int word_char(char ch) {
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* Whether name occurs in text as a whole word outside comments and strings. */
static int mentions(const char *text, size_t len, const char *name) {
    size_t n = strlen(name);
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (ch == '#' || (ch == '/' && i + 1 < len && text[i + 1] == '/')) {
            while (i < len && text[i] != '\n') i++;
        } else if (ch == '"') {
            i++;
            while (i < len && text[i] != '"' && text[i] != '\n') i++;
        } else if (word_char(ch)) {
            size_t j = i;
            while (j < len && word_char(text[j])) j++;
            if (j - i == n && !memcmp(text + i, name, n)) return 1;
            i = j - 1;
        }
    }
    return 0;
}

int gr_prelude_names(char (*names)[32], int cap) {
    int n = 0;
    for (const char *p = gr_prelude_text; (p = strstr(p, "\ngame ")) && n < cap; ) {
        p += 6;
        while (*p == ' ') p++;
        size_t len = 0;
        while (word_char(p[len]) && len < 31) len++;
        if (len && p[0] != '_') { memcpy(names[n], p, len); names[n++][len] = '\0'; }
        p += len;
    }
    return n;
}

/* Adds to out the prelude's rule sets that text[0, len) names (the nim heap '*' when
 * uses_star), that out does not declare, and that known (when given) does not know. */
static int declares(const gr_ast_program *out, const char *name) {
    for (const gr_gdecl *u = out->decls; u; u = u->next) if (!strcmp(u->name, name)) return 1;
    return 0;
}

/* Whether text names some rule set of the prelude that take_prelude would add: a session's or
 * the API's entry ("solve s(3) + k(5)") mostly names none, and parsing the prelude for
 * nothing was a fifth of a small solve through the API. */
static int wants_prelude(const gr_ast_program *out, const char *text, size_t len, int uses_star,
                         int (*known)(void *user, const char *name), void *user) {
    if (uses_star && !declares(out, "*") && !(known && known(user, "*"))) return 1;
    char names[256][32];
    int n = gr_prelude_names(names, 256);
    for (int i = 0; i < n; i++)
        if (mentions(text, len, names[i]) && !declares(out, names[i]) && !(known && known(user, names[i]))) return 1;
    return n == 256;   /* (a prelude longer than the list: parse it to be sure) */
}

static void take_prelude(gr_ctx *c, gr_ast_program *out, const char *text, size_t len, int uses_star,
                         int (*known)(void *user, const char *name), void *user) {
    if (!wants_prelude(out, text, len, uses_star, known, user)) return;
    gr_ast_program pre;
    ast_program_init(&pre);
    uint32_t end = c->store.prelude_off + (uint32_t)strlen(gr_prelude_text);
    if (parse_span(c, &pre, c->store.prelude_off, end, NULL) != 0)
        gr_fail(c, GR_EXIT_LIMIT, "the prelude does not parse (a bug)");
    for (gr_gdecl *d = pre.decls, *next; d; d = next) {
        next = d->next;
        d->next = NULL;
        if (!strcmp(d->name, "__star")) d->name = "*";
        int wanted = d->name[0] == '*' ? uses_star : mentions(text, len, d->name);
        for (gr_gdecl *u = out->decls; u && wanted; u = u->next) wanted = strcmp(u->name, d->name) != 0;
        if (wanted && known) wanted = !known(user, d->name);
        if (!wanted) continue;
        ast_add_decl(out, d);
        c->store.prelude_taken = gr_fnv1a(c->store.prelude_taken ? c->store.prelude_taken : GR_FNV1A_INIT,
                                          c->src + d->loc.off, d->loc.len);
    }
}

static void add_prelude(gr_ctx *c, gr_ast_program *out, int uses_star) {
    size_t user_len = c->src_len, plen = strlen(gr_prelude_text);
    char *all = gr_new(c, user_len + plen + 2);
    memcpy(all, c->src, user_len);
    all[user_len] = '\n';
    memcpy(all + user_len + 1, gr_prelude_text, plen + 1);
    c->src = all;
    c->src_len = user_len + 1 + plen;
    c->store.prelude_off = (uint32_t)user_len + 1;
    take_prelude(c, out, all, user_len, uses_star, NULL, NULL);
}

int gr_parse(gr_ctx *c, gr_ast_program *out) {
    ast_program_init(out);
    int uses_star = 0;
    if (parse_span(c, out, 0, (uint32_t)c->src_len, &uses_star) != 0) return 1;
    if (!c->no_prelude) add_prelude(c, out, uses_star);
    return 0;
}

int gr_parse_more(gr_ctx *c, uint32_t from, gr_ast_program *out, int (*known)(void *user, const char *name),
                  void *user) {
    ast_program_init(out);
    int uses_star = 0;
    if (parse_span(c, out, from, (uint32_t)c->src_len, &uses_star) != 0) return 1;
    if (c->store.prelude_off) take_prelude(c, out, c->src + from, c->src_len - from, uses_star, known, user);
    return 0;
}
