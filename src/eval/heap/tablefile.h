/* tablefile: a heap table whose values live in a file, mapped, so that a long search holds a
 * bounded part of them in memory (--table-memory; docs/periodicity.md, "Long runs in bounded
 * memory").
 *
 * The kernels read and write the mapping exactly as they would memory: nothing in them knows.
 * After each chunk of work the table gives back the pages between its first heaps, a window
 * about the middle and a window behind the newest (gr_sgt_trim): the rare-value kernel's
 * look-ups read only the last window (the last rare heap plus the split places behind the
 * newest heap) and its pair searches the first heaps with the newest, and the heaps about the
 * middle with each other (its search goes from both ends), so what stays resident does not grow
 * with the heaps. The middle window moves up half a heap a heap: the pages it reaches were
 * given back long ago, so each trim asks for those ahead of it to be read in (MADV_WILLNEED).
 * The few deep searches that read elsewhere fault its pages back from the page cache or the
 * disk, and the next trim gives them back again: correctness never depends on what is
 * resident.
 *
 * With --checkpoint the file is FILE.GAME.values beside the checkpoint and is the checkpoint's
 * copy of the values too: values below the newest heap never change (except when the table
 * widens, which the save then notices), so a save syncs the file and extends a running
 * checksum instead of writing the values again. Without a checkpoint it is a temporary file,
 * removed as soon as it is made (it goes with the process). */
#ifndef GRUNDY_TABLEFILE_H
#define GRUNDY_TABLEFILE_H
#include <stddef.h>
#include <stdint.h>
#include "eval/heap/sgtable.h"

struct gr_tablefile {
    int fd;
    const char *path;           /* NULL: an unlinked temporary file */
    size_t mapped;              /* bytes mapped: the file's length, cap x width */
    size_t budget;              /* bytes of values kept resident: */
    int64_t keep_first;         /* heaps kept resident from heap 0 ... */
    int64_t keep_last;          /* ... and behind the newest, */
    int64_t keep_mid;           /* ... and each side of the middle (the pair search's far end) */
    int64_t search_trims;       /* pieces of long pair searches that gave pages back (tests) */
    int64_t keep_look;          /* heaps behind the newest the look-ups read (the last rare heap
                                 * and the split places), kept besides keep_last when longer */
    /* the checkpoint's running checksum (checkpoint.c): of the file's bytes 0..summed-1 at the
     * width summed_width; a widening rewrites the bytes, and the sum starts again */
    uint64_t sum;
    size_t summed;
    int summed_width;
};

/* Whether tables can live in files here (not under Emscripten). */
int gr_tablefile_supported(void);

/* Moves t's values to a file: path (created or truncated), or a temporary file when path is
 * NULL ($TMPDIR, else /var/tmp). budget: the bytes of values to keep resident (an eighth
 * from heap 0, a half behind the newest heap). */
void gr_sgt_to_file(gr_ctx *c, gr_sgtable *t, const char *path, size_t budget);

/* Opens path, which holds at least n values of the given width, as t's values (t empty):
 * a checkpoint being resumed. Reads it once (not through the mapping, so nothing stays
 * resident), extending *sum (FNV-1a) over its first n x width bytes and setting *max to the
 * largest of those values. Returns -1 if the file cannot be read or is too short. */
int gr_sgt_open_file(gr_ctx *c, gr_sgtable *t, const char *path, int width, int64_t n, size_t budget,
                     uint64_t *sum, int64_t *max);

/* Gives back the resident pages between the first heaps and the window (madvise), and asks the
 * kernel to drop the file's cached pages there once written (posix_fadvise). */
void gr_sgt_trim(const gr_sgtable *t);
/* The same, only below heap `upto`: a scan of the whole table gives back what it has read and
 * not what the kernel's read-ahead has brought in for it (that would be read again, and again). */
void gr_sgt_trim_below(const gr_sgtable *t, int64_t upto);

/* The look-ups read the last `heaps` heaps behind the newest (the rare-value kernel's window:
 * its last rare heap, `rare`, and its split places): they stay resident whatever the budget.
 * When that window outgrows the budget's (a new rare heap far out), the run says so on
 * standard error (game: its name), then at each doubling. Does nothing to a table in memory. */
void gr_sgt_keep_behind(gr_ctx *c, const gr_sgtable *t, int64_t heaps, int64_t rare, const char *game);

/* A pair search of heap m's pairs (a, m - a) that goes on from both ends, the pairs [a, hi]
 * still to read: gives back the pages it has read that nothing keeps (the first heaps, the
 * look-ups' window behind the newest, the window about the middle) and that it will not read in
 * its next `ahead` pairs from each end. */
void gr_sgt_trim_search(const gr_sgtable *t, int64_t m, int64_t a, int64_t hi, int64_t ahead);

/* Copies the bytes of heaps lo..lo+n-1 (n x width) to dst: by pread from a file (so a reader
 * far behind the window maps nothing in), else from memory. Returns -1 on a read error. */
int gr_sgt_read_bytes(const gr_sgtable *t, int64_t lo, int64_t n, void *dst);

/* Makes the values of heaps 0..t->n-1 durable (fdatasync) and extends the running checksum
 * over the bytes added since the last call; returns it. */
uint64_t gr_tablefile_sync(gr_ctx *c, gr_sgtable *t);
#endif
