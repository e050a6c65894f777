/* family: periodicity checks over a family's parameters ('check bash[m] periodic for m in
 * 1..50'): each member is checked by its own kernel (check.h) and reported on a line of its own,
 * in text, CSV (a row per member) and JSON (an object per member, one a line). With c->spread
 * (members.h) the members are computed over processes or ranks first, then printed in order. Formula checks
 * over a family run in check.c and print as any other check. */
#ifndef GRUNDY_FAMILY_H
#define GRUNDY_FAMILY_H
#include <stdio.h>
#include "sema.h"
#include "format.h"

/* Runs q (q->nmembers > 0, a periodicity check) and prints it; returns 1 if a member's claim
 * was refuted. */
int gr_run_check_family(gr_ctx *c, gr_module *m, int qi, const gr_sink *sk);
#endif
