/* lineshape: recognises line-move rule sets; see lineshape.h. */
#include "lineshape.h"
#include <stdarg.h>

static int say(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *why, size_t cap, const char *fmt, ...) {
    if (why && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return 0;
}

/* Is code "slot x" (step 0) or "x - k" (step 1) for the coordinate slot x? -1 otherwise. */
static int coord_step(const gr_code *code, int x, int k) {
    int s, t;
    if (gr_code_is_slot(code, &s)) return s == x ? 0 : -1;
    if (gr_code_is_slot_minus_slot(code, &s, &t)) return s == x && t == k ? 1 : -1;
    return -1;
}

int gr_lines_dirs(const gr_game *g, char *why, size_t cap) {
    const gr_rules *r = g->rules;
    if (g->shape != SHAPE_TUPLE || !r) return say(why, cap, "not a rule set with tuple positions");
    if (r->arity != 2) return say(why, cap, "positions have %d coordinates, not 2", r->arity);
    if (r->where) return say(why, cap, "it has a 'where' on positions");
    if (r->nterms) return say(why, cap, "it has 'terminal' rules");
    if (r->nmoves == 0) return say(why, cap, "it has no moves");
    const int A = r->nparams, B = r->nparams + 1;
    int dirs = 0;
    for (int m = 0; m < r->nmoves; m++) {
        const gr_rmove *mv = &r->moves[m];
        if (mv->guard) return say(why, cap, "move %d has a 'where' guard", m + 1);
        if (mv->is_sum || mv->nparts != 1) return say(why, cap, "move %d leads to a sum", m + 1);
        if (mv->nbinds != 1) return say(why, cap, "move %d does not have exactly one 'for k in 1..LIMIT'", m + 1);
        const gr_rbinding *b = &mv->binds[0];
        if (!b->lo->is_const || b->lo->value != 1) return say(why, cap, "move %d: '%s' does not start at 1", m + 1, b->name);
        int da = coord_step(mv->parts[0].coords[0], A, b->slot);
        int db = coord_step(mv->parts[0].coords[1], B, b->slot);
        if (da < 0 || db < 0) return say(why, cap, "move %d is not (a - k*da, b - k*db) with da, db in {0, 1}", m + 1);
        if (da == 0 && db == 0) return say(why, cap, "move %d does not change the position", m + 1);
        /* LIMIT must be exactly what keeps the target non-negative. */
        int s, t, ok;
        if (da && db) ok = gr_code_is_min_of_slots(b->hi, &s, &t) && ((s == A && t == B) || (s == B && t == A));
        else ok = gr_code_is_slot(b->hi, &s) && s == (da ? A : B);
        if (!ok) return say(why, cap, "move %d: the range of '%s' is not exactly %s", m + 1, b->name,
                            da && db ? "1..min(a, b)" : da ? "1..a" : "1..b");
        dirs |= da && db ? DIR_DIAG : da ? DIR_COL : DIR_ROW;
    }
    return dirs;
}

int gr_lines_recognise(const gr_game *g, char *why, size_t cap) {
    int dirs = gr_lines_dirs(g, why, cap);
    if (!dirs) return 0;
    const char *names[3] = { "", "", "" };
    int n = 0;
    if (dirs & DIR_ROW) names[n++] = "rows";
    if (dirs & DIR_COL) names[n++] = "columns";
    if (dirs & DIR_DIAG) names[n++] = "diagonals";
    if (n == 1) say(why, cap, "line moves along %s: a bitset of values per line", names[0]);
    else if (n == 2) say(why, cap, "line moves along %s and %s: a bitset of values per line", names[0], names[1]);
    else say(why, cap, "line moves along %s, %s and %s: a bitset of values per line", names[0], names[1], names[2]);
    return 1;
}
