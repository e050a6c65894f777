/* mpi: grundy-mpi, the command line over MPI ranks (built only when CMake finds MPI). Every
 * rank reads and compiles the same file with the same options; rank 0 runs the queries and
 * prints exactly what grundy prints, while the other ranks serve it: the members of each census
 * and family check go out to them one at a time (the longest first; rank 0 takes the shortest
 * itself between messages) and their records (members.h) come back as bytes. Groups of
 * independent queries (those of cli/parallel.h) are dealt round the other ranks, which answer
 * them first, each into memory, and send the bytes; rank 0 writes them in file order. Each rank has its
 * own --threads for its member's kernel and its own --max-memory.
 *
 * --checkpoint FILE (rank 0): every finished member's record is appended to FILE as it arrives
 * (with a checksum), after a header naming the program (a hash of the source, --to and
 * --no-theory); the same command run again, under any number of ranks, takes the recorded
 * members from it and computes only the rest. A foreign or damaged header is refused (status
 * 2); a torn last record is ignored. A run that finishes removes the file.
 *
 * A member that fails on any rank stops the job once the members in flight are back: rank 0
 * names the member and the rank, and every rank ends with status 3. */
#ifndef GRUNDY_MPI_H
#define GRUNDY_MPI_H
#include "query.h"

/* MPI_Init; returns this rank. Ranks other than 0 write nothing (standard streams to /dev/null). */
int gr_mpi_begin(int *argc, char ***argv);
/* Once the file is compiled: rank 0 installs the spread over the ranks (and takes over
 * c->checkpoint) and returns -1; another rank serves rank 0 until it is told to stop and
 * returns the status rank 0 ended with. */
int gr_mpi_serve(gr_ctx *c, gr_module *m, gr_format fmt);
/* Rank 0's query loop (as gr_run_queries_ex): its own queries here, the answers of the queries
 * other ranks own (groups of independent queries, dealt round them) written in file order. */
int gr_mpi_run_queries(gr_ctx *c, gr_module *m, gr_format fmt, FILE *out, gr_query_start_fn start, void *user);
/* Rank 0 tells the serving ranks its status; then MPI_Finalize. Returns the status to exit with. */
int gr_mpi_end(gr_ctx *c, int status);
#endif
