/* suggest: "did you mean ...": the nearest of some candidate words to a misspelt one, by edit
 * distance (insertions, deletions, substitutions and swaps of neighbours each cost 1). */
#ifndef GRUNDY_SUGGEST_H
#define GRUNDY_SUGGEST_H
#include <stddef.h>

/* Collects candidates one at a time and keeps the nearest to word within a distance that
 * grows with the word's length (1 for short words, 2 from 5 letters, 3 from 9); ties keep
 * the first. */
typedef struct gr_suggest { const char *word, *best; int dist; } gr_suggest;
void gr_suggest_init(gr_suggest *s, const char *word);
void gr_suggest_offer(gr_suggest *s, const char *candidate);
/* The nearest candidate, or NULL when none was close (or the word itself was offered). */
const char *gr_suggest_best(const gr_suggest *s);
#endif
