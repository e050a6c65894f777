/* expr: compiler from syntax tree to stack code, and its evaluator; see expr.h. */
#include "expr.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { I_CONST, I_LOAD, I_UN, I_BIN, I_ANDJ, I_ORJ, I_BOOL, I_CALL, I_HOOK };
enum { MAX_STACK = 256 };

typedef enum { B_MIN, B_MAX, B_ABS, B_CTZ, B_CLZ, B_POPCOUNT, B_ISQRT, B_FIB, B_LOG2, B_POW, B_COUNT } builtin;
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

int gr_scope_find(const gr_scope *s, const char *name) {
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

/* ---- evaluator ---- */
/* An arithmetic error: at compile time a located input error (status 2); while the rules of
 * a position are evaluated, a run-time limit of the 64-bit arithmetic (status 3) that names
 * the position as well as the expression. */
_Noreturn static void eval_fail(gr_ctx *c, gr_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
_Noreturn static void eval_fail(gr_ctx *c, gr_loc loc, const char *fmt, ...) {
    char msg[256], where[16 * 22 + 32] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->eval_n <= 0) gr_fail_at(c, loc, GR_EXIT_INPUT, "%s", msg);
    size_t pos = (size_t)snprintf(where, sizeof where, " at position (");
    for (int i = 0; i < c->eval_n && pos < sizeof where; i++)
        pos += (size_t)snprintf(where + pos, sizeof where - pos, "%s%lld", i ? ", " : "", (long long)c->eval_pos[i]);
    if (pos < sizeof where) snprintf(where + pos, sizeof where - pos, ")");
    gr_fail_at(c, loc, GR_EXIT_LIMIT, "%s%s", msg, where);
}
_Noreturn static void overflow(gr_ctx *c, gr_loc loc) {
    eval_fail(c, loc, "arithmetic overflow (values are 64-bit signed integers)");
}

static int64_t floor_div(gr_ctx *c, int64_t a, int64_t b, gr_loc loc) {
    if (b == 0) eval_fail(c, loc, "division by zero");
    if (a == INT64_MIN && b == -1) overflow(c, loc);
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static int64_t floor_mod(gr_ctx *c, int64_t a, int64_t b, gr_loc loc) {
    if (b == 0) eval_fail(c, loc, "modulo by zero");
    if (b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

static int64_t binary(gr_ctx *c, gr_op op, int64_t a, int64_t b, gr_loc loc) {
    int64_t r;
    switch (op) {
    case OP_ADD: if (__builtin_add_overflow(a, b, &r)) overflow(c, loc); return r;
    case OP_SUB: if (__builtin_sub_overflow(a, b, &r)) overflow(c, loc); return r;
    case OP_MUL: if (__builtin_mul_overflow(a, b, &r)) overflow(c, loc); return r;
    case OP_DIV: return floor_div(c, a, b, loc);
    case OP_MOD: return floor_mod(c, a, b, loc);
    case OP_SHL:
        if (b < 0 || b > 62) eval_fail(c, loc, "shift count %lld is out of range 0..62", (long long)b);
        if (a > (INT64_MAX >> b) || a < (INT64_MIN >> b)) overflow(c, loc);
        return (int64_t)((uint64_t)a << b);
    case OP_SHR:
        if (b < 0 || b > 63) eval_fail(c, loc, "shift count %lld is out of range 0..63", (long long)b);
        return a >= 0 ? a >> b : ~(~a >> b); /* arithmetic shift, spelled portably */
    case OP_BITAND: return a & b;
    case OP_BITOR: return a | b;
    case OP_BITXOR: return a ^ b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_IFF: return (a != 0) == (b != 0);
    case OP_AND: return a && b;
    case OP_OR: return a || b;
    default: return 0;
    }
}

int64_t gr_fib(gr_ctx *c, int64_t n, gr_loc loc) {
    if (n < 0) eval_fail(c, loc, "fib(%lld): the argument must not be negative", (long long)n);
    if (n > 92) eval_fail(c, loc, "fib(%lld) does not fit in 64 bits (fib(92) is the largest)", (long long)n);
    if (n == 0) return 0;
    int64_t a = 0, b = 1;   /* b = fib(i) after step i; never computes past fib(n) */
    for (int64_t i = 1; i < n; i++) { int64_t t = a + b; a = b; b = t; }
    return b;
}

static int64_t isqrt(int64_t v) {
    uint64_t x = (uint64_t)v, r = 0, bit = (uint64_t)1 << 62;
    while (bit > x) bit >>= 2;
    while (bit) {
        if (x >= r + bit) { x -= r + bit; r = (r >> 1) + bit; } else r >>= 1;
        bit >>= 2;
    }
    return (int64_t)r;
}

static int64_t call_builtin(gr_ctx *c, int b, const int64_t *a, int argc, gr_loc loc) {
    switch ((builtin)b) {
    case B_MIN: { int64_t r = a[0]; for (int i = 1; i < argc; i++) if (a[i] < r) r = a[i]; return r; }
    case B_MAX: { int64_t r = a[0]; for (int i = 1; i < argc; i++) if (a[i] > r) r = a[i]; return r; }
    case B_ABS: if (a[0] == INT64_MIN) overflow(c, loc); return a[0] < 0 ? -a[0] : a[0];
    case B_CTZ: return a[0] == 0 ? 64 : __builtin_ctzll((unsigned long long)a[0]);
    case B_CLZ: return a[0] == 0 ? 64 : __builtin_clzll((unsigned long long)a[0]);
    case B_POPCOUNT: return __builtin_popcountll((unsigned long long)a[0]);
    case B_ISQRT:
        if (a[0] < 0) eval_fail(c, loc, "isqrt(%lld): the argument must not be negative", (long long)a[0]);
        return isqrt(a[0]);
    case B_FIB: return gr_fib(c, a[0], loc);
    case B_LOG2:
        if (a[0] <= 0) eval_fail(c, loc, "log2(%lld): the argument must be positive", (long long)a[0]);
        return 63 - __builtin_clzll((unsigned long long)a[0]);
    case B_POW: {
        if (a[1] < 0) eval_fail(c, loc, "pow(%lld, %lld): the exponent must not be negative", (long long)a[0], (long long)a[1]);
        int64_t r = 1;
        for (int64_t i = 0; i < a[1]; i++) {
            if (__builtin_mul_overflow(r, a[0], &r)) overflow(c, loc);
            if (r == 0 || r == 1) break;   /* 0 and 1 are fixed points; -1 alternates */
        }
        if (a[0] == -1) r = (a[1] % 2) ? -1 : 1;
        return r;
    }
    case B_COUNT: break;
    }
    return 0;
}

unsigned gr_code_hooks(const gr_code *code) {
    unsigned used = 0;
    for (int pc = 0; pc < code->n; pc++)
        if (code->ins[pc].op == I_HOOK) used |= 1u << code->ins[pc].arg;
    return used;
}

int64_t gr_eval(gr_ctx *c, const gr_code *code, const int64_t *frame, const gr_hooks *hooks) {
    if (code->is_const) return code->value;
    int64_t st[MAX_STACK];
    int sp = 0;
    for (int pc = 0; pc < code->n; pc++) {
        const gr_insn *in = &code->ins[pc];
        switch (in->op) {
        case I_CONST: st[sp++] = in->imm; break;
        case I_LOAD: st[sp++] = frame[in->arg]; break;
        case I_UN: {
            int64_t v = st[sp - 1];
            if (in->arg == OP_NEG) { if (v == INT64_MIN) overflow(c, in->loc); v = -v; }
            else if (in->arg == OP_NOT) v = !v;
            else v = ~v;
            st[sp - 1] = v;
            break;
        }
        case I_BIN: sp--; st[sp - 1] = binary(c, (gr_op)in->arg, st[sp - 1], st[sp], in->loc); break;
        case I_ANDJ: if (!st[--sp]) { st[sp++] = 0; pc = in->arg - 1; } break;
        case I_ORJ: if (st[--sp]) { st[sp++] = 1; pc = in->arg - 1; } break;
        case I_BOOL: st[sp - 1] = st[sp - 1] != 0; break;
        case I_CALL:
            sp -= in->argc;
            st[sp] = call_builtin(c, in->arg, st + sp, in->argc, in->loc);
            sp++;
            break;
        case I_HOOK:
            sp -= in->argc;
            st[sp] = hooks->call(hooks->user, in->arg, st + sp, in->argc, in->loc);
            sp++;
            break;
        }
    }
    return st[0];
}

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

/* ---- row evaluator ---- */
enum { ROW_DEPTH = 32 };

/* Would binary() fail on a, b? (The row evaluator declines instead of failing.) */
static int binary_fails(gr_op op, int64_t a, int64_t b) {
    int64_t r;
    switch (op) {
    case OP_ADD: return __builtin_add_overflow(a, b, &r);
    case OP_SUB: return __builtin_sub_overflow(a, b, &r);
    case OP_MUL: return __builtin_mul_overflow(a, b, &r);
    case OP_DIV: return b == 0 || (a == INT64_MIN && b == -1);
    case OP_MOD: return b == 0;
    case OP_SHL: return b < 0 || b > 62 || a > (INT64_MAX >> b) || a < (INT64_MIN >> b);
    case OP_SHR: return b < 0 || b > 63;
    default: return 0;
    }
}

/* Stack entries are uniform (one value for the whole row: constants, parameters, the other
 * coordinates, and what is computed from them alone) or one value per lane; only the lanes that
 * depend on the varying slot cost a loop. */
int gr_eval_row(gr_ctx *c, const gr_code *code, const int64_t *frame, int slot, int64_t x0, int count, int64_t *out) {
    if (code->is_const) {
        for (int l = 0; l < count; l++) out[l] = code->value;
        return 1;
    }
    if (code->max_stack > ROW_DEPTH || count > GR_ROW || count <= 0) return 0;
    int64_t st[ROW_DEPTH][GR_ROW], u[ROW_DEPTH];
    uint8_t uni[ROW_DEPTH];
    uint8_t act[GR_ROW];              /* lane still running (not skipped by && or ||) */
    int32_t rejoin[GR_ROW];           /* where a skipped lane comes back, with value rval */
    uint8_t rval[GR_ROW];
    int nact = count, sp = 0;
    int32_t nextjoin = INT32_MAX;     /* the first target a skipped lane waits for */
    for (int l = 0; l < count; l++) act[l] = 1, rejoin[l] = -1;
#define MATERIAL(k) do { if (uni[k]) { for (int l_ = 0; l_ < count; l_++) st[k][l_] = u[k]; uni[k] = 0; } } while (0)
    for (int pc = 0; pc <= code->n; pc++) {
        if (pc == nextjoin) {   /* lanes that jumped here come back with their values */
            nextjoin = INT32_MAX;
            MATERIAL(sp - 1);
            for (int l = 0; l < count; l++)
                if (rejoin[l] == pc) { st[sp - 1][l] = rval[l]; act[l] = 1; rejoin[l] = -1; nact++; }
                else if (rejoin[l] >= 0 && rejoin[l] < nextjoin) nextjoin = rejoin[l];
        }
        if (pc == code->n) break;
        const gr_insn *in = &code->ins[pc];
        int bad = 0;
        switch (in->op) {
        case I_CONST: uni[sp] = 1; u[sp++] = in->imm; break;
        case I_LOAD:
            if (in->arg != slot) { uni[sp] = 1; u[sp++] = frame[in->arg]; break; }
            for (int l = 0; l < count; l++) st[sp][l] = x0 + l;
            uni[sp++] = 0;
            break;
        case I_UN: {
            int k = sp - 1;
            if (uni[k]) {
                if (in->arg == OP_NEG) { if (u[k] == INT64_MIN) return 0; u[k] = -u[k]; }
                else u[k] = in->arg == OP_NOT ? !u[k] : ~u[k];
                break;
            }
            int64_t *A = st[k];
            if (in->arg == OP_NEG) {
                for (int l = 0; l < count; l++) { bad |= act[l] & (A[l] == INT64_MIN); A[l] = (int64_t)(0 - (uint64_t)A[l]); }
            } else if (in->arg == OP_NOT) for (int l = 0; l < count; l++) A[l] = !A[l];
            else for (int l = 0; l < count; l++) A[l] = ~A[l];
            break;
        }
        case I_BIN: {
            sp--;
            if (uni[sp - 1] && uni[sp]) {
                if (binary_fails((gr_op)in->arg, u[sp - 1], u[sp])) return 0;
                u[sp - 1] = binary(c, (gr_op)in->arg, u[sp - 1], u[sp], in->loc);
                break;
            }
            MATERIAL(sp - 1);
            MATERIAL(sp);
            int64_t *A = st[sp - 1], *B = st[sp];
            switch ((gr_op)in->arg) {
            case OP_ADD: for (int l = 0; l < count; l++) bad |= act[l] & __builtin_add_overflow(A[l], B[l], &A[l]); break;
            case OP_SUB: for (int l = 0; l < count; l++) bad |= act[l] & __builtin_sub_overflow(A[l], B[l], &A[l]); break;
            case OP_MUL: for (int l = 0; l < count; l++) bad |= act[l] & __builtin_mul_overflow(A[l], B[l], &A[l]); break;
            case OP_DIV: case OP_MOD:
                for (int l = 0; l < count; l++) {   /* lanes that would fail: an error if running, else a dummy */
                    int f = B[l] == 0 || (A[l] == INT64_MIN && B[l] == -1);   /* MOD: 0, but not in C */
                    bad |= act[l] & (B[l] == 0 || (f && in->arg == OP_DIV));
                    if (f) A[l] = 0, B[l] = 1;
                }
                if (bad) break;
                if (in->arg == OP_DIV) for (int l = 0; l < count; l++) A[l] = floor_div(c, A[l], B[l], in->loc);
                else
                    for (int l = 0; l < count; l++) {
                        int64_t r = A[l] % B[l];
                        A[l] = r + ((r != 0 && (r < 0) != (B[l] < 0)) ? B[l] : 0);
                    }
                break;
            case OP_LT: for (int l = 0; l < count; l++) A[l] = A[l] < B[l]; break;
            case OP_LE: for (int l = 0; l < count; l++) A[l] = A[l] <= B[l]; break;
            case OP_GT: for (int l = 0; l < count; l++) A[l] = A[l] > B[l]; break;
            case OP_GE: for (int l = 0; l < count; l++) A[l] = A[l] >= B[l]; break;
            case OP_EQ: for (int l = 0; l < count; l++) A[l] = A[l] == B[l]; break;
            case OP_NE: for (int l = 0; l < count; l++) A[l] = A[l] != B[l]; break;
            case OP_BITAND: for (int l = 0; l < count; l++) A[l] &= B[l]; break;
            case OP_BITOR: for (int l = 0; l < count; l++) A[l] |= B[l]; break;
            case OP_BITXOR: for (int l = 0; l < count; l++) A[l] ^= B[l]; break;
            case OP_IFF: for (int l = 0; l < count; l++) A[l] = (A[l] != 0) == (B[l] != 0); break;
            case OP_AND: for (int l = 0; l < count; l++) A[l] = A[l] && B[l]; break;
            case OP_OR: for (int l = 0; l < count; l++) A[l] = A[l] || B[l]; break;
            default: return 0;   /* varying shifts: rare */
            }
            break;
        }
        case I_ANDJ: case I_ORJ: {
            sp--;
            int64_t jump_if = in->op == I_ORJ;
            int any = 0;
            if (uni[sp]) any = (u[sp] != 0) == jump_if;
            else if (nact == count) {
                const int64_t *A = st[sp];
                if (jump_if) { int64_t o = 0; for (int l = 0; l < count; l++) o |= A[l]; any = o != 0; }
                else { int z = 0; for (int l = 0; l < count; l++) z |= A[l] == 0; any = z; }
            } else
                for (int l = 0; l < count; l++) any |= act[l] & ((st[sp][l] != 0) == jump_if);
            if (!any) break;   /* no lane jumps (the usual case) */
            for (int l = 0; l < count; l++)
                if (act[l] && (uni[sp] || (st[sp][l] != 0) == jump_if)) {
                    act[l] = 0; rejoin[l] = in->arg; rval[l] = (uint8_t)jump_if; nact--;
                }
            if (in->arg < nextjoin) nextjoin = in->arg;
            if (!nact) { uni[sp] = 0; sp++; pc = in->arg - 1; }   /* every lane jumped: their values land at the target */
            break;
        }
        case I_BOOL:
            if (uni[sp - 1]) u[sp - 1] = u[sp - 1] != 0;
            else for (int l = 0; l < count; l++) st[sp - 1][l] = st[sp - 1][l] != 0;
            break;
        case I_CALL: {
            if (in->arg != B_MIN && in->arg != B_MAX && in->arg != B_CTZ && in->arg != B_CLZ && in->arg != B_POPCOUNT)
                return 0;   /* built-ins that can fail */
            sp -= in->argc;
            int all = 1;
            for (int i = 0; i < in->argc; i++) all &= uni[sp + i];
            if (all) { u[sp] = call_builtin(c, in->arg, u + sp, in->argc, in->loc); uni[sp] = 1; sp++; break; }
            for (int i = 0; i < in->argc; i++) MATERIAL(sp + i);
            for (int l = 0; l < count; l++) {
                int64_t a[255];
                for (int i = 0; i < in->argc; i++) a[i] = st[sp + i][l];
                st[sp][l] = call_builtin(c, in->arg, a, in->argc, in->loc);
            }
            sp++;
            break;
        }
        default:
            return 0;       /* hooks */
        }
        if (bad) return 0;
    }
#undef MATERIAL
    if (uni[0]) for (int l = 0; l < count; l++) out[l] = u[0];
    else memcpy(out, st[0], (size_t)count * sizeof *out);
    return 1;
}
