/* cap_checkpoint: --checkpoint FILE, long runs that survive an interruption. The heap tables
 * computed so far and their kernels' state (heapsave.h: gr_heap_save) are written to FILE every few
 * seconds of work and when SIGINT or SIGTERM arrives; the same command run again reads them
 * back and goes on, and prints exactly what an uninterrupted run prints.
 *
 * The file names the program it belongs to: a hash of the source text (rule sets, instances and
 * queries) and of --query and --no-theory, and the grundy version; the whole of it is covered
 * by a checksum. A file of another program, another version, or a damaged one is refused with
 * exit status 2 and never trusted. Writes go to FILE.tmp and are renamed over FILE, so an
 * interruption while saving leaves the previous checkpoint whole. A run that finishes removes
 * the file, unless a search stopped at its --to without an answer (c->ckpt_keep: `check G
 * periodic` proving no period): its values are then saved and kept, and the same command with
 * a larger --to goes on from them (--to is not part of the program's hash).
 *
 * A signal only sets a flag; the run stops at the next safe point (between chunks of a heap
 * table, or at the end of the queries), saves, and exits with 130 (SIGINT) or 143 (SIGTERM).
 * A second signal stops the program at once, without saving.
 *
 * The run's capability (evaluator.h explains capabilities): what is saved is the heap
 * recurrence's (eval/heap/checkpoint.c), so the command line reaches it here, not in a room. */
#ifndef GRUNDY_CAP_CHECKPOINT_H
#define GRUNDY_CAP_CHECKPOINT_H
#include "ctx.h"

/* Installs the SIGINT and SIGTERM handlers (the command line calls it with --checkpoint). */
void gr_ckpt_catch_signals(void);
/* Starts using c->checkpoint: reads and checks it if it exists (failing with status 2 if it is
 * foreign or damaged). Sets c->ckpt. */
void gr_ckpt_open(gr_ctx *c);
/* The end of the queries with exit status `status`: after a signal, saves and fails with 130
 * or 143; after a finished run (0 or 1) removes the file. Returns status. */
int gr_ckpt_close(gr_ctx *c, int status);
#endif
