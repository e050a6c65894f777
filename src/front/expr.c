/* expr: the expression compiler, from syntax tree to stack code (scopes, names to frame
 * slots, built-ins and hooks, constant folding), and the shape tests lowering reads compiled
 * code with; see expr.h. The stack machine is exprvm.c, the row evaluator exprrow.c. */
#include "exprint.h"
#include <string.h>

static const struct { const char *name; int min_args, max_args; } builtins[B_COUNT] = {
    [B_MIN] = { "min", 1, 255 }, [B_MAX] = { "max", 1, 255 }, [B_ABS] = { "abs", 1, 1 },
    [B_CTZ] = { "ctz", 1, 1 }, [B_CLZ] = { "clz", 1, 1 }, [B_POPCOUNT] = { "popcount", 1, 1 },
    [B_ISQRT] = { "isqrt", 1, 1 }, [B_FIB] = { "fib", 1, 1 }, [B_LOG2] = { "log2", 1, 1 },
    [B_POW] = { "pow", 2, 2 },
};
static const char *hook_names[] = { "P", "N", "sg" };

/* ---- scopes ---- */
int gr_scope_add(gr_ctx *c, gr_scope *s, const char *name, gr_loc loc) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) {
            int line, col;
            gr_line_col(c, s->locs[i].off, &line, &col);
            gr_fail_at(c, loc, GR_EXIT_INPUT, "'%s' is already defined (at line %d)", name, line);
        }
    for (int b = 0; b < B_COUNT; b++)
        if (strcmp(builtins[b].name, name) == 0)
            gr_fail_at(c, loc, GR_EXIT_INPUT, "'%s' is a built-in function and cannot name a variable", name);
    if (s->n == s->cap) {
        int ncap = s->cap ? s->cap * 2 : 8;
        const char **names = GR_NEWN(c, const char *, ncap);
        gr_loc *locs = GR_NEWN(c, gr_loc, ncap);
        int *slots = GR_NEWN(c, int, ncap);
        if (s->n) {
            memcpy(names, s->names, (size_t)s->n * sizeof *names);
            memcpy(locs, s->locs, (size_t)s->n * sizeof *locs);
            memcpy(slots, s->slots, (size_t)s->n * sizeof *slots);
        }
        s->names = names; s->locs = locs; s->slots = slots; s->cap = ncap;
    }
    s->names[s->n] = name;
    s->locs[s->n] = loc;
    s->slots[s->n] = s->nslots++;
    return s->slots[s->n++];
}

/* The slot of name in the scope (the innermost), or -1. */
static int gr_scope_find(const gr_scope *s, const char *name) {
    for (int i = s->n - 1; i >= 0; i--)
        if (strcmp(s->names[i], name) == 0) return s->slots[i];
    return -1;
}

/* ---- compiler ---- */
typedef struct emitter {
    gr_ctx *c;
    const gr_scope *scope;
    int hook_arity;
    gr_insn *ins;
    int n, cap, depth, max_depth;
    int uses_frame;
} emitter;

static int emit(emitter *m, uint8_t op, int32_t arg, int64_t imm, uint8_t argc, gr_loc loc, int stack_delta) {
    if (m->n == m->cap) {
        int ncap = m->cap ? m->cap * 2 : 4;   /* most expressions are a few instructions */
        gr_insn *p = GR_NEWN(m->c, gr_insn, ncap);
        if (m->n) memcpy(p, m->ins, (size_t)m->n * sizeof *p);
        m->ins = p;
        m->cap = ncap;
    }
    m->ins[m->n] = (gr_insn){ op, argc, arg, imm, loc };
    m->depth += stack_delta;
    if (m->depth > m->max_depth) m->max_depth = m->depth;
    if (m->max_depth > MAX_STACK)
        gr_fail_at(m->c, loc, GR_EXIT_INPUT, "expression is nested too deeply");
    return m->n++;
}

/* Checks a call's name and argument count; returns the instruction and its argument. */
static void resolve_call(emitter *m, const gr_expr *e, uint8_t *op, int32_t *arg) {
    for (int h = 0; h < 3; h++) {
        if (strcmp(e->name, hook_names[h]) != 0) continue;
        if (m->hook_arity <= 0)
            gr_fail_at(m->c, e->loc, GR_EXIT_INPUT,
                       "%s(...) is only available in a 'check' of a rule set", e->name);
        if (e->nargs != m->hook_arity)
            gr_fail_at(m->c, e->loc, GR_EXIT_INPUT, "%s takes %d argument%s here (a position of the rule set), not %d",
                       e->name, m->hook_arity, m->hook_arity == 1 ? "" : "s", e->nargs);
        m->uses_frame = 1; /* a hook is never constant */
        *op = I_HOOK;
        *arg = h;
        return;
    }
    for (int b = 0; b < B_COUNT; b++) {
        if (strcmp(e->name, builtins[b].name) != 0) continue;
        if (e->nargs < builtins[b].min_args || e->nargs > builtins[b].max_args) {
            if (builtins[b].min_args == builtins[b].max_args)
                gr_fail_at(m->c, e->loc, GR_EXIT_INPUT, "%s takes %d argument%s, not %d", e->name,
                           builtins[b].min_args, builtins[b].min_args == 1 ? "" : "s", e->nargs);
            gr_fail_at(m->c, e->loc, GR_EXIT_INPUT, "%s takes at least %d argument, not %d", e->name,
                       builtins[b].min_args, e->nargs);
        }
        *op = I_CALL;
        *arg = b;
        return;
    }
    gr_fail_at(m->c, e->loc, GR_EXIT_INPUT,
               "unknown function '%s' (built-ins: min max abs ctz clz popcount isqrt fib log2 pow%s)",
               e->name, m->hook_arity > 0 ? "; and P N sg of the rule set" : "");
}

/* Post-order walk on an explicit stack: a long chain like 0+1+1+... is as deep as it is
 * long, and must not reach the C stack. */
typedef struct walk { const gr_expr *e; int state, next, jump; } walk;

static void compile_tree(emitter *m, const gr_expr *root) {
    size_t cap = 64, sp = 0;
    walk *st = gr_alloc(m->c, cap * sizeof *st);
    st[sp++] = (walk){ root, 0, 0, 0 };
    while (sp) {
        if (sp + 1 >= cap) { cap *= 2; st = gr_realloc(m->c, st, cap * sizeof *st); }
        walk *w = &st[sp - 1];
        const gr_expr *e = w->e;
        switch (e->kind) {
        case EX_INT:
            emit(m, I_CONST, 0, e->ival, 0, e->loc, 1);
            sp--;
            break;
        case EX_NAME: {
            int slot = gr_scope_find(m->scope, e->name);
            if (slot < 0) gr_fail_at(m->c, e->loc, GR_EXIT_INPUT, "unknown name '%s'", e->name);
            m->uses_frame = 1;
            emit(m, I_LOAD, slot, 0, 0, e->loc, 1);
            sp--;
            break;
        }
        case EX_UNARY:
            if (w->state++ == 0) st[sp++] = (walk){ e->a, 0, 0, 0 };
            else { emit(m, I_UN, (int32_t)e->op, 0, 0, e->loc, 0); sp--; }
            break;
        case EX_BINARY: {
            int logical = e->op == OP_AND || e->op == OP_OR;
            if (w->state == 0) { w->state = 1; st[sp++] = (walk){ e->a, 0, 0, 0 }; }
            else if (w->state == 1) {
                w->state = 2;
                if (logical) w->jump = emit(m, e->op == OP_AND ? I_ANDJ : I_ORJ, 0, 0, 0, e->loc, -1);
                st[sp++] = (walk){ e->b, 0, 0, 0 };
            } else {
                if (logical) {
                    emit(m, I_BOOL, 0, 0, 0, e->loc, 0);
                    m->ins[w->jump].arg = m->n;
                } else {
                    emit(m, I_BIN, (int32_t)e->op, 0, 0, e->loc, -1);
                }
                sp--;
            }
            break;
        }
        case EX_RANGE:
            gr_fail_at(m->c, e->loc, GR_EXIT_INPUT, "a range lo..hi stands here only in a board's size, as in grid(4, 4..10)");
        case EX_CALL:
            if (w->next < e->nargs) { const gr_expr *arg = e->args[w->next++]; st[sp++] = (walk){ arg, 0, 0, 0 }; }
            else {
                uint8_t op;
                int32_t arg;
                resolve_call(m, e, &op, &arg);
                emit(m, op, arg, 0, (uint8_t)e->nargs, e->loc, 1 - e->nargs);
                sp--;
            }
            break;
        }
    }
    gr_free(m->c, st);
}

/* The span of a whole expression, for "this expression" diagnostics (iterative too). */
static gr_loc expr_span(gr_ctx *c, const gr_expr *root) {
    uint32_t lo = root->loc.off, hi = root->loc.off + root->loc.len;
    size_t cap = 64, sp = 0;
    const gr_expr **st = gr_alloc(c, cap * sizeof *st);
    st[sp++] = root;
    while (sp) {
        const gr_expr *e = st[--sp];
        if (e->loc.off < lo) lo = e->loc.off;
        if (e->loc.off + e->loc.len > hi) hi = e->loc.off + e->loc.len;
        if (sp + 2 + (size_t)e->nargs >= cap) {
            while (sp + 2 + (size_t)e->nargs >= cap) cap *= 2;
            st = gr_realloc(c, st, cap * sizeof *st);
        }
        if (e->a) st[sp++] = e->a;
        if (e->b) st[sp++] = e->b;
        for (int i = 0; i < e->nargs; i++) st[sp++] = e->args[i];
    }
    gr_free(c, st);
    return (gr_loc){ lo, hi - lo };
}

gr_code *gr_expr_compile(gr_ctx *c, const gr_expr *e, const gr_scope *s, int hook_arity) {
    emitter m = { .c = c, .scope = s, .hook_arity = hook_arity };
    compile_tree(&m, e);
    gr_code *code = GR_NEW(c, gr_code);
    code->ins = m.ins;
    code->n = m.n;
    code->max_stack = m.max_depth;
    code->loc = expr_span(c, e);
    if (!m.uses_frame) {
        code->value = gr_eval(c, code, NULL, NULL);
        code->is_const = 1;
    }
    return code;
}

int64_t gr_const_eval(gr_ctx *c, const gr_expr *e, const gr_scope *s) {
    gr_code *code = gr_expr_compile(c, e, s, 0);
    if (!code->is_const)
        gr_fail_at(c, code->loc, GR_EXIT_INPUT, "this must be a constant expression");
    return code->value;
}

int gr_code_uses_slot(const gr_code *code, int slot) {
    for (int i = 0; i < code->n; i++)
        if (code->ins[i].op == I_LOAD && code->ins[i].arg == slot) return 1;
    return 0;
}

/* ---- shape tests (lowering reads compiled code with them) ---- */
int gr_code_is_slot(const gr_code *code, int *slot) {
    if (code->n != 1 || code->ins[0].op != I_LOAD) return 0;
    *slot = code->ins[0].arg;
    return 1;
}

int gr_code_is_slot_minus_slot(const gr_code *code, int *a, int *b) {
    if (code->n != 3 || code->ins[0].op != I_LOAD || code->ins[1].op != I_LOAD ||
        code->ins[2].op != I_BIN || code->ins[2].arg != OP_SUB)
        return 0;
    *a = code->ins[0].arg;
    *b = code->ins[1].arg;
    return 1;
}

int gr_code_max_slot(const gr_code *code) {
    int m = -1;
    for (int i = 0; i < code->n; i++)
        if (code->ins[i].op == I_LOAD && code->ins[i].arg > m) m = code->ins[i].arg;
    return m;
}

int gr_code_is_min_of_slots(const gr_code *code, int *a, int *b) {
    if (code->n != 3 || code->ins[0].op != I_LOAD || code->ins[1].op != I_LOAD ||
        code->ins[2].op != I_CALL || code->ins[2].arg != B_MIN || code->ins[2].argc != 2)
        return 0;
    *a = code->ins[0].arg;
    *b = code->ins[1].arg;
    return 1;
}

int gr_code_affine(const gr_code *code, const int64_t *consts, int nconsts, gr_affine *out) {
    enum { DEPTH = 8 };
    gr_affine st[DEPTH];
    int sp = 0;
    memset(out, 0, sizeof *out);
    out->div = 1;
    if (code->is_const) { out->k = code->value; return 1; }
    for (int pc = 0; pc < code->n; pc++) {
        const gr_insn *in = &code->ins[pc];
        if (sp > 0 && st[sp - 1].div != 1) return 0;      /* division only at the very end */
        switch (in->op) {
        case I_CONST:
        case I_LOAD:
            if (sp == DEPTH) return 0;
            memset(&st[sp], 0, sizeof st[sp]);
            st[sp].div = 1;
            if (in->op == I_CONST) st[sp].k = in->imm;
            else if (in->arg < nconsts) st[sp].k = consts[in->arg];
            else if (in->arg < GR_AFFINE_SLOTS) st[sp].coef[in->arg] = 1;
            else return 0;
            sp++;
            break;
        case I_UN:
            if (in->arg != OP_NEG || st[sp - 1].k == INT64_MIN) return 0;
            for (int i = 0; i < GR_AFFINE_SLOTS; i++) if (st[sp - 1].coef[i] == INT64_MIN) return 0;
            for (int i = 0; i < GR_AFFINE_SLOTS; i++) st[sp - 1].coef[i] = -st[sp - 1].coef[i];
            st[sp - 1].k = -st[sp - 1].k;
            break;
        case I_BIN: {
            gr_affine *a = &st[sp - 2], *b = &st[sp - 1];
            int b_const = 1, a_const = 1;
            for (int i = 0; i < GR_AFFINE_SLOTS; i++) { b_const &= b->coef[i] == 0; a_const &= a->coef[i] == 0; }
            int bad = 0;
            if (in->arg == OP_ADD || in->arg == OP_SUB) {
                for (int i = 0; i <= GR_AFFINE_SLOTS; i++) {
                    int64_t *x = i < GR_AFFINE_SLOTS ? &a->coef[i] : &a->k;
                    int64_t y = i < GR_AFFINE_SLOTS ? b->coef[i] : b->k;
                    bad |= in->arg == OP_ADD ? __builtin_add_overflow(*x, y, x) : __builtin_sub_overflow(*x, y, x);
                }
            } else if (in->arg == OP_MUL && (a_const || b_const)) {
                gr_affine v = a_const ? *b : *a;
                int64_t f = a_const ? a->k : b->k;
                for (int i = 0; i < GR_AFFINE_SLOTS; i++) bad |= __builtin_mul_overflow(v.coef[i], f, &a->coef[i]);
                bad |= __builtin_mul_overflow(v.k, f, &a->k);
            } else if (in->arg == OP_DIV && b_const && b->k > 0) {
                a->div = b->k;
            } else {
                return 0;
            }
            if (bad) return 0;
            sp--;
            break;
        }
        default:
            return 0;
        }
    }
    if (sp != 1) return 0;
    for (int i = 0; i < GR_AFFINE_SLOTS; i++)       /* keep away from overflow in callers */
        if (st[0].coef[i] > 1000000 || st[0].coef[i] < -1000000) return 0;
    *out = st[0];
    return 1;
}
