/* expr: the one expression evaluator. Expressions are compiled once, from the syntax tree, to
 * a compact stack code whose variables are resolved to frame slots; evaluation never looks a
 * name up. All arithmetic is checked 64-bit: an overflow, a division by zero or a bad argument
 * to a built-in stops the run with a located diagnostic (exit status 2), never a wrap. */
#ifndef GRUNDY_EXPR_H
#define GRUNDY_EXPR_H
#include "ast.h"

typedef struct gr_insn {
    uint8_t op, argc;
    int32_t arg;        /* slot, jump target, built-in or hook number */
    int64_t imm;
    gr_loc loc;
} gr_insn;

typedef struct gr_code {
    gr_insn *ins;
    int n;
    int max_stack;
    int is_const;       /* no slots, no hooks: value known at compile time */
    int64_t value;      /* when is_const */
    gr_loc loc;         /* the whole expression */
} gr_code;

/* A compile-time scope: names in order, each with its frame slot. */
typedef struct gr_scope {
    const char **names;
    gr_loc *locs;
    int *slots;
    int n, cap;
    int nslots;          /* frame size needed */
} gr_scope;

/* Hooks: functions of a rule set's positions usable in conjectures (P, N, sg). */
enum { GR_HOOK_P = 0, GR_HOOK_N = 1, GR_HOOK_SG = 2 };
typedef struct gr_hooks {
    int64_t (*call)(void *user, int hook, const int64_t *args, int nargs, gr_loc loc);
    void *user;
    int arity;           /* how many arguments P/N/sg take; 0: hooks not allowed here */
} gr_hooks;

/* Declares a name in the scope with a fresh slot; reports a duplicate as an error. */
int gr_scope_add(gr_ctx *c, gr_scope *s, const char *name, gr_loc loc);

/* Compiles e; fails with a located diagnostic (status 2) on an unknown name or function, a
 * wrong argument count, or a constant expression that cannot be evaluated. hook_arity > 0
 * allows P/N/sg calls with that many arguments. */
gr_code *gr_expr_compile(gr_ctx *c, const gr_expr *e, const gr_scope *s, int hook_arity);
int64_t gr_eval(gr_ctx *c, const gr_code *code, const int64_t *frame, const gr_hooks *hooks);
/* The hooks code calls, as bits 1 << GR_HOOK_P etc. (a check that asks no sg needs outcomes only). */
unsigned gr_code_hooks(const gr_code *code);
/* Evaluates code at count <= GR_ROW frames that differ in one slot only: out[i] is gr_eval
 * with frame[slot] = x0 + i. Each instruction runs over the whole row, so a row costs one
 * interpretation, not count. Short-circuit operators skip the lanes they skip. Returns 0, and
 * reports nothing, where some frame would fail (overflow, division by zero) or the code uses
 * what the row does not run (shifts, built-ins that can fail, hooks): the caller then
 * evaluates the frames it needs one at a time, with gr_eval's diagnostics. */
enum { GR_ROW = 64 };
int gr_eval_row(gr_ctx *c, const gr_code *code, const int64_t *frame, int slot, int64_t x0, int count, int64_t *out);
/* Compiles and evaluates an expression that must be constant (no names). */
int64_t gr_const_eval(gr_ctx *c, const gr_expr *e, const gr_scope *s);
/* Does the code read the slot? (Used by lowering to recognise kernels.) */
int gr_code_uses_slot(const gr_code *code, int slot);

/* Shape tests used by lowering to recognise kernels in hand-written rules. */
int gr_code_is_slot(const gr_code *code, int *slot);
int gr_code_max_slot(const gr_code *code);          /* highest slot read, or -1 */
int gr_code_is_slot_minus_slot(const gr_code *code, int *a, int *b);
/* Is the code exactly min(x, y) of two slots (in either order)? Gives the slots as written. */
int gr_code_is_min_of_slots(const gr_code *code, int *a, int *b);

/* An affine reading of compiled code: value = floor((sum coef[i] * slot_i + k) / div).
 * Slots below nconsts are constants (a rule set's parameters) and are folded in. Returns 0
 * when the code is not of that form (a division must be the last operation). */
enum { GR_AFFINE_SLOTS = 16 };
typedef struct gr_affine { int64_t coef[GR_AFFINE_SLOTS]; int64_t k; int64_t div; } gr_affine;
int gr_code_affine(const gr_code *code, const int64_t *consts, int nconsts, gr_affine *out);
#endif
