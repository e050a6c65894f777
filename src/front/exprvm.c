/* exprvm: the stack machine that runs compiled expressions (gr_eval) one frame at a time,
 * its checked 64-bit arithmetic and built-ins, and the diagnostics of their failures. */
#include "exprint.h"
#include <stdarg.h>
#include <stdio.h>

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

int64_t gr_expr_floor_div(gr_ctx *c, int64_t a, int64_t b, gr_loc loc) {
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

int64_t gr_expr_binary(gr_ctx *c, gr_op op, int64_t a, int64_t b, gr_loc loc) {
    int64_t r;
    switch (op) {
    case OP_ADD: if (__builtin_add_overflow(a, b, &r)) overflow(c, loc); return r;
    case OP_SUB: if (__builtin_sub_overflow(a, b, &r)) overflow(c, loc); return r;
    case OP_MUL: if (__builtin_mul_overflow(a, b, &r)) overflow(c, loc); return r;
    case OP_DIV: return gr_expr_floor_div(c, a, b, loc);
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

/* fib(n), checked: a located failure below 0 and past 92 (fib(93) does not fit in 64 bits). */
static int64_t gr_fib(gr_ctx *c, int64_t n, gr_loc loc) {
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

int64_t gr_expr_builtin(gr_ctx *c, int b, const int64_t *a, int argc, gr_loc loc) {
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
        case I_BIN: sp--; st[sp - 1] = gr_expr_binary(c, (gr_op)in->arg, st[sp - 1], st[sp], in->loc); break;
        case I_ANDJ: if (!st[--sp]) { st[sp++] = 0; pc = in->arg - 1; } break;
        case I_ORJ: if (st[--sp]) { st[sp++] = 1; pc = in->arg - 1; } break;
        case I_BOOL: st[sp - 1] = st[sp - 1] != 0; break;
        case I_CALL:
            sp -= in->argc;
            st[sp] = gr_expr_builtin(c, in->arg, st + sp, in->argc, in->loc);
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
