/* exprrow: the row evaluator (gr_eval_row): compiled code run over up to GR_ROW frames that
 * differ in one slot, each instruction once for the whole row; it declines, and the caller
 * falls back to gr_eval, wherever a frame would fail. */
#include "exprint.h"
#include <string.h>

enum { ROW_DEPTH = 32 };

/* Would gr_expr_binary() fail on a, b? (The row evaluator declines instead of failing.) */
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
                u[sp - 1] = gr_expr_binary(c, (gr_op)in->arg, u[sp - 1], u[sp], in->loc);
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
                if (in->arg == OP_DIV) for (int l = 0; l < count; l++) A[l] = gr_expr_floor_div(c, A[l], B[l], in->loc);
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
            if (all) { u[sp] = gr_expr_builtin(c, in->arg, u + sp, in->argc, in->loc); uni[sp] = 1; sp++; break; }
            for (int i = 0; i < in->argc; i++) MATERIAL(sp + i);
            for (int l = 0; l < count; l++) {
                int64_t a[255];
                for (int i = 0; i < in->argc; i++) a[i] = st[sp + i][l];
                st[sp][l] = gr_expr_builtin(c, in->arg, a, in->argc, in->loc);
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
