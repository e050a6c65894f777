/* bteam: the root of a long board search across the --threads team (core/pool.h). Which
 * options of the root have value v is asked of each option separately, so the members take
 * the root's options from a shared counter, each with its own search (scratch, canonical
 * labelling, a cache of exact cells) and all of them sharing the store: its facts, its shape
 * and canonical-form tables, under one lock (looked up only when a member's own cache misses).
 * The first option found with value v stops the others. Members never allocate and never fail:
 * the caller makes room in the shared tables before the team starts; a member that runs out of
 * it, passes --max-time or meets a value past the facts' bits stops, records nothing of the
 * level it was in (every fact written is a finished result), and the caller makes more room
 * and starts again, or fails as a serial search would. Options found without value v are not
 * asked again. The value found is the serial search's: only facts that are true are shared. */
#ifndef GRUNDY_BTEAM_H
#define GRUNDY_BTEAM_H
#include "eval/board/bsolve.h"

enum { GR_BTEAM_MIN_CELLS = 24 };   /* smaller roots take well under a second alone */

/* s (made by gr_bsearch_init) with `threads` threads: its root's options across a team (made
 * at the first long root, kept in s->team, freed by gr_bsearch_free); 1 thread: serial. */
void gr_bteam_use(gr_bsearch *s, int threads);
#endif
