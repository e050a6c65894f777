/* spread: the members of a census or of a family's periodicity check over worker processes
 * (--threads N): whole members per worker, the longest first (members.h), each worker with one
 * thread for its member's kernel and its share of --max-memory. Workers are forked once the
 * query starts and take members from a counter in shared memory; each writes its member's
 * record (a plain fixed-size struct) into a shared array, so the parent prints from the same
 * records a serial run makes, in member order: the same bytes for every N. A member that
 * fails is recorded with its failure (the first in member order is raised); a worker killed
 * in a member fails that member with the signal named. */
#ifndef GRUNDY_SPREAD_H
#define GRUNDY_SPREAD_H
#include "members.h"

/* Fills sp to spread over c->threads processes. */
void gr_spread_processes(gr_spread *sp);
#endif
