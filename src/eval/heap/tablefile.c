/* tablefile: heap tables in mapped files; see tablefile.h. */
#define _DEFAULT_SOURCE   /* madvise's MADV_DONTNEED: glibc's posix_madvise ignores POSIX_MADV_DONTNEED */
#include "eval/heap/tablefile.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/mman.h>
#include "hash.h"
#include "progress.h"

enum { READ_CHUNK = 1 << 20 };

/* A browser has no files to spare: there a long search's table stays in memory (and the rest
 * of this file is compiled, not called). */
int gr_tablefile_supported(void) {
#ifdef __EMSCRIPTEN__
    return 0;
#else
    return 1;
#endif
}


static size_t page_bytes(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

_Noreturn static void file_failed(gr_ctx *c, const struct gr_tablefile *f, const char *what) {
    int err = errno;
    gr_fail(c, GR_EXIT_LIMIT, "cannot %s the heap table's file %s: %s", what, f->path ? f->path : "(a temporary file)",
            strerror(err));
}

static void set_budget(struct gr_tablefile *f, int width) {
    f->keep_first = (int64_t)(f->budget / 8 / (size_t)width);
    f->keep_last = (int64_t)(f->budget / 2 / (size_t)width);
    f->keep_mid = (int64_t)(f->budget / 16 / (size_t)width);
}

/* Maps the file's first `bytes` bytes (the file made that long), replacing t's mapping. */
static void map_file(gr_ctx *c, gr_sgtable *t, struct gr_tablefile *f, size_t bytes) {
    size_t pg = page_bytes();
    if (bytes < pg) bytes = pg;
    struct stat st;
    if (fstat(f->fd, &st) != 0) file_failed(c, f, "read");
    if ((size_t)st.st_size < bytes && ftruncate(f->fd, (off_t)bytes) != 0) file_failed(c, f, "grow");
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
    if (p == MAP_FAILED) file_failed(c, f, "map");
    if (t->file == f && t->data) munmap(t->data, f->mapped);
    t->data = p;
    f->mapped = bytes;
}

static int open_temp(void) {
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/var/tmp";      /* on disk, where /tmp may be memory */
    char name[4096];
    if (snprintf(name, sizeof name, "%s/grundy-table-XXXXXX", dir) >= (int)sizeof name) { errno = ENAMETOOLONG; return -1; }
    int fd = mkstemp(name);
    if (fd >= 0) unlink(name);               /* it goes with the process */
    return fd;
}

/* All n bytes at offset `at`, written (pwrite) or read (pread), through short counts and
 * signals; -1 on an error or the end of the file. */
static int transfer(int fd, void *p, size_t n, off_t at, int writing) {
    uint8_t *b = p;
    while (n) {
        ssize_t k = writing ? pwrite(fd, b, n, at) : pread(fd, b, n, at);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        b += k; n -= (size_t)k; at += k;
    }
    return 0;
}
static int write_all(int fd, const void *p, size_t n, off_t at) { return transfer(fd, (void *)(uintptr_t)p, n, at, 1); }
static int read_all(int fd, void *p, size_t n, off_t at) { return transfer(fd, p, n, at, 0); }

void gr_sgt_to_file(gr_ctx *c, gr_sgtable *t, const char *path, size_t budget) {
    struct gr_tablefile *f = gr_alloc(c, sizeof *f);
    f->path = path;
    f->fd = path ? open(path, O_RDWR | O_CREAT | O_TRUNC, 0644) : open_temp();
    if (f->fd < 0) file_failed(c, f, "create");
    f->budget = budget;
    set_budget(f, t->width);
    f->sum = GR_FNV1A_INIT;
    f->summed_width = t->width;
    /* written, not copied through the mapping: none of it becomes resident */
    if (write_all(f->fd, t->data, (size_t)t->n * (size_t)t->width, 0) != 0) file_failed(c, f, "write");
    void *mem = t->data;
    t->data = NULL;
    map_file(c, t, f, gr_size_mul(c, (size_t)(t->cap > t->n ? t->cap : t->n), (size_t)t->width));
    gr_free(c, mem);
    t->file = f;
}

int gr_sgt_open_file(gr_ctx *c, gr_sgtable *t, const char *path, int width, int64_t n, size_t budget,
                     uint64_t *sum, int64_t *max) {
    int fd = open(path, O_RDWR);
    struct stat st;
    size_t bytes = (size_t)n * (size_t)width;
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < bytes) { close(fd); return -1; }
    uint8_t *buf = gr_alloc(c, READ_CHUNK);
    int64_t top = 0;
    gr_sgtable view = { buf, width, 0, 0, 0, NULL };
    /* a resumed long run reads every saved value once (its checksum and largest value): 19 GB
     * took two and a half minutes here, which the bar (or a line every few seconds) shows */
    gr_progress pr;
    gr_progress_begin(&pr, c, "reading the checkpoint's values (MB)", (uint64_t)(bytes >> 20));
    for (size_t at = 0; at < bytes; at += READ_CHUNK) {
        size_t m = bytes - at < READ_CHUNK ? bytes - at : READ_CHUNK;
        if (read_all(fd, buf, m, (off_t)at) != 0) { gr_progress_end(&pr); gr_free(c, buf); close(fd); return -1; }
        *sum = gr_fnv1a(*sum, buf, m);
        for (int64_t i = 0; i < (int64_t)(m / (size_t)width); i++) {
            int64_t v = gr_sgt_get(&view, i);
            if (v > top || v < 0) top = v < 0 ? INT64_MAX : v;
        }
        gr_progress_update(&pr, (uint64_t)((at + m) >> 20));
        gr_poll(c);
    }
    gr_progress_end(&pr);
    gr_free(c, buf);
    *max = top;
    struct gr_tablefile *f = gr_alloc(c, sizeof *f);
    f->fd = fd;
    f->path = path;
    f->budget = budget;
    set_budget(f, width);
    f->sum = *sum;
    f->summed = bytes;
    f->summed_width = width;
    gr_free(c, t->data);
    t->data = NULL;
    t->file = f;
    t->width = width;
    map_file(c, t, f, (size_t)st.st_size - (size_t)st.st_size % (size_t)width);
    t->cap = (int64_t)(f->mapped / (size_t)width);
    return 0;
}

void gr_tablefile_grow(gr_ctx *c, gr_sgtable *t, int64_t cap, int width) {
    struct gr_tablefile *f = t->file;
    size_t bytes = gr_size_mul(c, (size_t)(cap ? cap : 1), (size_t)width);
    if (bytes > f->mapped) map_file(c, t, f, bytes);
    set_budget(f, width);
}

void gr_sgt_trim(const gr_sgtable *t) { gr_sgt_trim_below(t, t->n); }

/* Gives back the pages of heaps [from, upto) (whole pages inside it). Neither call can fail on
 * a range of our own mapping; were one refused, the pages would only stay resident. */
static void give_back(const gr_sgtable *t, int64_t from, int64_t upto) {
    size_t pg = page_bytes(), w = (size_t)t->width;
    if (upto <= from) return;
    size_t lo = ((size_t)from * w + pg - 1) / pg * pg;
    size_t hi = (size_t)upto * w / pg * pg;
    if (hi <= lo) return;
    (void)madvise((uint8_t *)t->data + lo, hi - lo, MADV_DONTNEED);
    (void)posix_fadvise(t->file->fd, (off_t)lo, (off_t)(hi - lo), POSIX_FADV_DONTNEED);
}

void gr_sgt_keep_behind(gr_ctx *c, const gr_sgtable *t, int64_t heaps, int64_t rare, const char *game) {
    struct gr_tablefile *f = t->file;
    if (!f || heaps <= f->keep_look) return;
    /* said when it first passes the budget's window, then at each doubling: a rare heap far
     * out is news (the window is memory), and rare heaps come in bursts */
    int64_t said = f->keep_look > f->keep_last ? f->keep_look : f->keep_last;
    if (heaps > said && (f->keep_look <= f->keep_last || heaps >= 2 * f->keep_look) && c->diag) {
        fprintf(c->diag, "grundy: note: %s: a rare heap at %lld: the look-ups' window, kept in memory, grows to %lld heaps "
                "(%.0f MiB; the rest of the table is in its file)\n", game, (long long)rare, (long long)heaps,
                (double)heaps * (double)t->width / 1048576.0);
        fflush(c->diag);
    }
    f->keep_look = heaps;
}

void gr_sgt_trim_below(const gr_sgtable *t, int64_t upto) {
    struct gr_tablefile *f = t->file;
    if (!f) return;
    int64_t last = f->keep_look > f->keep_last ? f->keep_look : f->keep_last;
    if (upto > t->n - last) upto = t->n - last;
    if (upto <= f->keep_first) return;
    /* the window about the middle stays, and what it reaches next is read in meanwhile */
    int64_t mid = t->n / 2, mlo = mid - f->keep_mid, mhi = mid + f->keep_mid;
    if (mlo < f->keep_first) mlo = f->keep_first;
    if (mhi > upto) mhi = upto;
    if (mlo >= mhi) {
        give_back(t, f->keep_first, upto);
        return;
    }
    give_back(t, f->keep_first, mlo);
    give_back(t, mhi, upto);
    size_t pg = page_bytes(), w = (size_t)t->width;
    size_t lo = (size_t)mid * w / pg * pg, hi = ((size_t)mhi * w + pg - 1) / pg * pg;
    if (hi > f->mapped) hi = f->mapped;
    if (hi > lo) (void)madvise((uint8_t *)t->data + lo, hi - lo, MADV_WILLNEED);
}

void gr_sgt_trim_search(const gr_sgtable *t, int64_t m, int64_t a, int64_t hi, int64_t ahead) {
    struct gr_tablefile *f = t->file;
    if (!f) return;
    f->search_trims++;
    int64_t last = f->keep_look > f->keep_last ? f->keep_look : f->keep_last, mid = t->n / 2;
    /* what stays, as intervals of heaps: the table's own windows, then the search's four
     * fronts with the pairs ahead of them (from the bottom: a up and m - a down; from the top:
     * hi down and m - hi up) */
    int64_t keep[7][2] = {
        { 0, f->keep_first }, { t->n - last, t->n }, { mid - f->keep_mid, mid + f->keep_mid },
        { a, a + ahead }, { m - a - ahead, m - a + 1 }, { hi - ahead, hi + 1 }, { m - hi, m - hi + ahead },
    };
    /* sorted by start (seven: by insertion), then the gaps between them given back */
    for (int i = 1; i < 7; i++)
        for (int j = i; j > 0 && keep[j][0] < keep[j - 1][0]; j--) {
            int64_t x0 = keep[j][0], x1 = keep[j][1];
            keep[j][0] = keep[j - 1][0]; keep[j][1] = keep[j - 1][1];
            keep[j - 1][0] = x0; keep[j - 1][1] = x1;
        }
    int64_t from = 0;
    for (int i = 0; i < 7; i++) {
        if (keep[i][0] > from) give_back(t, from, keep[i][0] < t->n ? keep[i][0] : t->n);
        if (keep[i][1] > from) from = keep[i][1];
    }
    if (from < t->n) give_back(t, from, t->n);
}

int gr_sgt_read_bytes(const gr_sgtable *t, int64_t lo, int64_t n, void *dst) {
    size_t w = (size_t)t->width;
    if (!t->file) {
        memcpy(dst, (const uint8_t *)t->data + (size_t)lo * w, (size_t)n * w);
        return 0;
    }
    return read_all(t->file->fd, dst, (size_t)n * w, (off_t)((size_t)lo * w));
}

uint64_t gr_tablefile_sync(gr_ctx *c, gr_sgtable *t) {
    struct gr_tablefile *f = t->file;
    if (f->summed_width != t->width) {         /* widened: every byte is new */
        f->sum = GR_FNV1A_INIT;
        f->summed = 0;
        f->summed_width = t->width;
    }
    size_t end = (size_t)t->n * (size_t)t->width;
    if (f->summed < end) {
        uint8_t *buf = gr_alloc(c, READ_CHUNK);
        while (f->summed < end) {
            size_t m = end - f->summed < READ_CHUNK ? end - f->summed : READ_CHUNK;
            if (read_all(f->fd, buf, m, (off_t)f->summed) != 0) file_failed(c, f, "read");
            f->sum = gr_fnv1a(f->sum, buf, m);
            f->summed += m;
        }
        gr_free(c, buf);
    }
    if (fdatasync(f->fd) != 0) file_failed(c, f, "write");
    return f->sum;
}
