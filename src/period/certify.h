/* certify: the certificates of periodicity as the check queries state them: which theorem
 * applies to a game (nim, finite subtraction, Guy-Smith and its generalisation to k heaps) or
 * why none does, its name and window in words, why a period found is not proved, and the
 * least plausible period when none is proved (moved here from query/check.c, which keeps the
 * query: its stages, results and output). */
#ifndef GRUNDY_CERTIFY_H
#define GRUNDY_CERTIFY_H
#include <stddef.h>
#include "game.h"
#include "window.h"
#include "detect.h"

typedef enum { GR_CERT_NONE = GR_WINDOW_NONE, GR_CERT_NIM = GR_WINDOW_NIM, GR_CERT_SUBTRACT = GR_WINDOW_SUBTRACT,
               GR_CERT_TB = GR_WINDOW_TB } gr_cert_kind;

typedef struct gr_cert {
    gr_cert_kind kind;
    gr_window w;
    char code[128];       /* GR_CERT_TB: the code as written back */
    char why_not[256];    /* GR_CERT_NONE: why no theorem applies */
} gr_cert;

void gr_cert_for(const gr_game *g, gr_cert *ct);
/* W(e, p) and the values the proof reads (W + p), as window.h. */
static inline int64_t gr_cert_window(const gr_cert *ct, int64_t e, int64_t p) { return gr_window_end(&ct->w, e, p); }
static inline int64_t gr_cert_need(const gr_cert *ct, int64_t e, int64_t p) { return gr_window_need(&ct->w, e, p); }
/* "Guy-Smith (take-and-break 0.77: last nonzero digit at place t = 2)" and the like. */
void gr_cert_name(const gr_cert *ct, char *buf, size_t cap);
/* Why a period (p, e, s) found at the limit is not proved. */
void gr_cert_unproved(const gr_cert *ct, int64_t p, int64_t e, int64_t s, char *buf, size_t cap);
/* The least candidate over the scanned values that the reporting rule (period.h:
 * gr_period_plausible) finds plausible, with its preperiod and saltus; 0 if none. */
int64_t gr_cert_least_plausible(const gr_detect *d, int64_t *e, int64_t *s);
#endif
