/* movekeys: the keys of moves for winning-move lists; see movekeys.h. */
#include "movekeys.h"
#include <string.h>

/* Rows of w coordinates, compared as words. */
static int cmp_row(const int64_t *a, const int64_t *b, int w) {
    for (int i = 0; i < w; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

typedef struct count_ctx { int n; } count_ctx;
static void count_option(void *user, const int64_t *heaps, int nheaps) { (void)heaps; (void)nheaps; ((count_ctx *)user)->n++; }

/* Is a heap of 0 of g a position without moves? Asked once per game. */
static int heap_zero_dead(gr_move_keys *k, gr_game *g) {
    if (g->shape != SHAPE_HEAP) return 0;
    for (int i = 0; i < k->nzero; i++) if (k->zero_game[i] == g) return k->zero_dead[i];
    count_ctx n = { 0 };
    int64_t zero[GR_MAX_ARITY] = { 0 };
    gr_eval_options(k->c, g, zero, count_option, &n);
    if (k->nzero < 8) { k->zero_game[k->nzero] = g; k->zero_dead[k->nzero++] = (int8_t)(n.n == 0); }
    return n.n == 0;
}

void gr_move_keys_init(gr_move_keys *k, gr_ctx *c) {
    memset(k, 0, sizeof *k);
    k->c = c;
    gr_byteset_init(&k->seen, c);
}

void gr_move_keys_free(gr_move_keys *k) {
    gr_byteset_free(&k->seen);
    gr_free(k->c, k->parts);
}

int gr_move_is_new(gr_move_keys *k, gr_game *g, const int64_t *removed, const int64_t *parts, int nparts) {
    /* rows of the game's own arity (a heap: one word), so a key is a few words, not rows of
     * GR_MAX_ARITY: the keys of a heap's hundred thousand options are hashed quickly */
    const int W = g->arity > 0 ? g->arity : 1;
    size_t need = gr_size_mul(k->c, (size_t)nparts + 4, (size_t)W) + 2;
    if (need > k->cap) {
        k->parts = gr_realloc(k->c, k->parts, gr_size_mul(k->c, need, sizeof *k->parts));
        k->cap = need;
    }
    /* key: a header (game, whether an atom is removed), the parts sorted, then that atom */
    int64_t *key = k->parts, *rows = key + 2, *rm = rows + (size_t)(nparts + 1) * (size_t)W;
    int dead = heap_zero_dead(k, g), n = 0;
    for (int q = 0; q < nparts; q++) {
        const int64_t *p = parts + (size_t)q * (size_t)g->arity;
        if (dead && p[0] == 0) continue;
        /* insertion sort: a move leaves a few parts */
        int at = n;
        while (at > 0 && cmp_row(rows + (size_t)(at - 1) * (size_t)W, p, W) > 0) {
            memcpy(rows + (size_t)at * (size_t)W, rows + (size_t)(at - 1) * (size_t)W, (size_t)W * sizeof *rows);
            at--;
        }
        memcpy(rows + (size_t)at * (size_t)W, p, (size_t)W * sizeof *rows);
        n++;
    }
    memcpy(rm, removed, (size_t)W * sizeof *rm);
    int64_t has_removed = 1;
    for (int q = 0; q < n; q++)
        if (cmp_row(rows + (size_t)q * (size_t)W, rm, W) == 0) {   /* the atom comes back: a move to itself plus parts */
            memmove(rows + (size_t)q * (size_t)W, rows + (size_t)(q + 1) * (size_t)W, (size_t)(n - q - 1) * (size_t)W * sizeof *rows);
            n--;
            has_removed = 0;
            break;
        }
    uintptr_t gp = (uintptr_t)g;
    key[0] = (int64_t)gp;
    key[1] = has_removed;
    size_t len = (size_t)(2 + n * W);
    if (has_removed) {
        memmove(key + len, rm, (size_t)W * sizeof *rm);
        len += (size_t)W;
    }
    return gr_byteset_add(&k->seen, key, len * sizeof *key);
}
