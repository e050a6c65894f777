/* plot: a table drawn with cairo (PNG or SVG); see plot.h for the pictures, show.h for the
 * query. The values come from the table query itself (gr_table_values), so a plot shows
 * exactly what "table" prints. A build without cairo (GRUNDY_NO_CAIRO: the WebAssembly
 * build, or a machine without libcairo2-dev) keeps the layout and the colours, and its plot
 * query answers in the same shapes but writes no file: the text says so (the web page draws
 * the picture itself from the table). */
#include "plot.h"
#include "show.h"
#include "board.h"
#ifndef GRUNDY_NO_CAIRO
#include <cairo.h>
#include <cairo-svg.h>
#include <pthread.h>
#endif
#include <math.h>
#include <string.h>

enum { MARGIN_L = 72, MARGIN_R = 130, MARGIN_T = 48, MARGIN_B = 58, STRIP_MAX = 90 };

/* ---- layout ---- */
void gr_plot_frame_cells(int width, int height, int64_t nx, int64_t ny, gr_plot_frame *f) {
    memset(f, 0, sizeof *f);
    f->width = width; f->height = height; f->nx = nx; f->ny = ny;
    double aw = width - MARGIN_L - MARGIN_R, ah = height - MARGIN_T - MARGIN_B;
    if (aw < 8) aw = 8;
    if (ah < 8) ah = 8;
    double cw = aw / (double)nx, ch = ah / (double)ny;
    if (ny == 1) { ch = ah < STRIP_MAX ? ah : STRIP_MAX; }
    else if (cw < ch) ch = cw;
    else cw = ch;
    /* Cell edges fall on whole pixels (gr_plot_cell_rect), so cells stay crisp; their sizes
     * may differ by a pixel rather than leave the area part empty. */
    f->cw = cw; f->ch = ch;
    f->left = MARGIN_L;
    f->right = MARGIN_L + cw * (double)nx;
    f->bottom = MARGIN_T + (ny == 1 ? (ah + ch) / 2 : ch * (double)ny);
    f->top = f->bottom - ch * (double)ny;
}

void gr_plot_cell_rect(const gr_plot_frame *f, int64_t i, int64_t j, int *x0, int *y0, int *x1, int *y1) {
    *x0 = (int)floor(f->left + (double)i * f->cw);
    *x1 = (int)floor(f->left + (double)(i + 1) * f->cw);
    if (*x1 <= *x0) *x1 = *x0 + 1;
    *y1 = (int)floor(f->bottom - (double)j * f->ch);
    *y0 = (int)floor(f->bottom - (double)(j + 1) * f->ch);
    if (*y1 <= *y0) *y0 = *y1 - 1;
}

void gr_plot_frame_scatter(int width, int height, int64_t n, int64_t maxv, gr_plot_frame *f) {
    memset(f, 0, sizeof *f);
    f->width = width; f->height = height; f->nx = n; f->ny = maxv + 1;
    f->left = MARGIN_L; f->top = MARGIN_T;
    f->right = width - MARGIN_R; f->bottom = height - MARGIN_B;
    if (f->right < f->left + 8) f->right = f->left + 8;
    if (f->bottom < f->top + 8) f->bottom = f->top + 8;
    f->cw = (f->right - f->left) / (double)n;
    f->ch = (f->bottom - f->top) / (double)(maxv + 1);
}

void gr_plot_point(const gr_plot_frame *f, int64_t i, int64_t v, double *x, double *y) {
    *x = f->left + ((double)i + 0.5) * f->cw;
    *y = f->bottom - ((double)v + 0.5) * f->ch;
}

uint32_t gr_plot_sg_colour(int64_t v, int64_t maxv) {
    if (v <= 0) return GR_PLOT_SG0;
    /* yellow, green, teal, blue: light for small values, never as dark as a P cell */
    static const double stops[4][3] = { { 253, 231, 37 }, { 94, 201, 98 }, { 33, 145, 140 }, { 59, 82, 139 } };
    double t = maxv > 1 ? (double)(v - 1) / (double)(maxv - 1) : 0;
    double s = t * 3;
    int k = s >= 3 ? 2 : (int)s;
    double u = s - k;
    uint32_t rgb = 0;
    for (int c = 0; c < 3; c++) {
        double x = stops[k][c] + (stops[k + 1][c] - stops[k][c]) * u;
        rgb = rgb << 8 | (uint32_t)(x + 0.5);
    }
    return rgb;
}

/* ---- drawing ---- */
typedef struct plot_job {
    const gr_rquery *q;
    int64_t *vals;                  /* tracked memory, freed by the caller of plot_prepare */
    int64_t rows, cols, maxv;
    int outcome, svg, width, height, has_draw;
    gr_conv conv;
    char title[512];
    const char *xname, *yname;
} plot_job;

#ifndef GRUNDY_NO_CAIRO
static void colour(cairo_t *cr, uint32_t rgb) {
    cairo_set_source_rgb(cr, (rgb >> 16 & 255) / 255.0, (rgb >> 8 & 255) / 255.0, (rgb & 255) / 255.0);
}

static void text_at(cairo_t *cr, double x, double y, double ax, double ay, const char *s) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - e.width * ax - e.x_bearing, y - e.height * ay - e.y_bearing);
    cairo_show_text(cr, s);
}

/* A tick step of 1, 2 or 5 times a power of ten giving about `want` ticks over span. */
static int64_t tick_step(int64_t span, int want) {
    double raw = (double)span / want;
    if (raw <= 1) return 1;
    double mag = pow(10, floor(log10(raw)));
    double m = raw / mag;
    double step = m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10;
    return (int64_t)(step * mag + 0.5);
}

/* Ticks along one axis for coordinates lo..lo+n-1; pos(k) gives the pixel of coordinate lo+k. */
static void axis_ticks(cairo_t *cr, const gr_plot_frame *f, int horizontal, int64_t lo, int64_t n, int cells) {
    double len = horizontal ? f->right - f->left : f->bottom - f->top;
    int want = (int)(len / 70);
    if (want < 2) want = 2;
    int64_t step = tick_step(n - 1 > 0 ? n - 1 : 1, want);
    int64_t first = lo % step == 0 ? lo : lo + (step - ((lo % step) + step) % step);
    char buf[32];
    cairo_set_line_width(cr, 1);
    for (int64_t t = first; t <= lo + n - 1; t += step) {
        double p = horizontal ? f->left + ((double)(t - lo) + 0.5) * f->cw
                              : f->bottom - ((double)(t - lo) + 0.5) * f->ch;
        if (!cells && !horizontal) p = f->bottom - ((double)(t - lo) + 0.5) * f->ch;
        snprintf(buf, sizeof buf, "%lld", (long long)t);
        colour(cr, 0x333333);
        if (horizontal) {
            cairo_move_to(cr, floor(p) + 0.5, f->bottom); cairo_line_to(cr, floor(p) + 0.5, f->bottom + 5);
            cairo_stroke(cr);
            text_at(cr, p, f->bottom + 8, 0.5, 0, buf);
        } else {
            cairo_move_to(cr, f->left - 5, floor(p) + 0.5); cairo_line_to(cr, f->left, floor(p) + 0.5);
            cairo_stroke(cr);
            text_at(cr, f->left - 8, p, 1, 0.5, buf);
        }
    }
}

static void frame_and_labels(cairo_t *cr, const plot_job *j, const gr_plot_frame *f) {
    colour(cr, 0x333333);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, floor(f->left) - 0.5, floor(f->top) - 0.5, floor(f->right) - floor(f->left) + 1,
                    floor(f->bottom) - floor(f->top) + 1);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 16);
    colour(cr, 0x111111);
    text_at(cr, f->width / 2.0, 16, 0.5, 0, j->title);
    cairo_set_font_size(cr, 13);
    text_at(cr, (f->left + f->right) / 2, f->bottom + 30, 0.5, 0, j->xname);
    if (j->yname) {
        cairo_save(cr);
        cairo_translate(cr, 18, (f->top + f->bottom) / 2);
        cairo_rotate(cr, -1.5707963267948966);
        text_at(cr, 0, 0, 0.5, 0.5, j->yname);
        cairo_restore(cr);
    }
}

static void swatch(cairo_t *cr, double x, double y, uint32_t rgb, const char *label) {
    colour(cr, rgb);
    cairo_rectangle(cr, x, y, 14, 14);
    cairo_fill(cr);
    colour(cr, 0x555555);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, x + 0.5, y + 0.5, 13, 13);
    cairo_stroke(cr);
    colour(cr, 0x111111);
    text_at(cr, x + 20, y + 7, 0, 0.5, label);
}

static uint32_t cell_colour(const plot_job *j, int64_t v) {
    if (j->outcome) return v == 0 ? GR_PLOT_P : v == 1 ? GR_PLOT_N : GR_PLOT_D;
    return v < 0 ? 0xffffff : gr_plot_sg_colour(v, j->maxv);
}

static void draw_cells(cairo_t *cr, const plot_job *j) {
    const gr_rquery *q = j->q;
    int64_t nx = j->rows, ny = j->cols;    /* x is the first varying coordinate (a row of vals) */
    gr_plot_frame f;
    gr_plot_frame_cells(j->width, j->height, nx, ny, &f);
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    /* The commonest colour under everything, then runs of other colours up each column. */
    uint32_t base = j->outcome ? GR_PLOT_N : 0xffffff;
    int x0, y0, x1, y1, a0, b0, a1, b1;
    gr_plot_cell_rect(&f, 0, 0, &x0, &y0, &x1, &y1);
    gr_plot_cell_rect(&f, nx - 1, ny - 1, &a0, &b0, &a1, &b1);
    colour(cr, base);
    cairo_rectangle(cr, x0, b0, a1 - x0, y1 - b0);
    cairo_fill(cr);
    for (int64_t i = 0; i < nx; i++)
        for (int64_t jy = 0; jy < ny;) {
            uint32_t c = cell_colour(j, j->vals[i * ny + jy]);
            int64_t e = jy + 1;
            while (e < ny && cell_colour(j, j->vals[i * ny + e]) == c) e++;
            if (c != base) {
                gr_plot_cell_rect(&f, i, jy, &x0, &y0, &x1, &y1);
                gr_plot_cell_rect(&f, i, e - 1, &a0, &b0, &a1, &b1);
                colour(cr, c);
                cairo_rectangle(cr, x0, b0, x1 - x0, y1 - b0);
                cairo_fill(cr);
            }
            jy = e;
        }
    cairo_restore(cr);
    frame_and_labels(cr, j, &f);
    cairo_set_font_size(cr, 11);
    axis_ticks(cr, &f, 1, q->lo[q->dim[0]], nx, 1);
    if (ny > 1) axis_ticks(cr, &f, 0, q->lo[q->dim[1]], ny, 1);
    /* legend */
    double lx = f.right + 18, ly = f.top;
    cairo_set_font_size(cr, 12);
    if (j->outcome) {
        swatch(cr, lx, ly, GR_PLOT_P, "P (mover loses)");
        swatch(cr, lx, ly + 22, GR_PLOT_N, "N (mover wins)");
        if (j->has_draw) swatch(cr, lx, ly + 44, GR_PLOT_D, "D (draw)");
    } else {
        double h = f.bottom - f.top < 240 ? f.bottom - f.top : 240;
        int steps = 64;
        for (int s = 0; s < steps; s++) {
            int64_t v = (int64_t)((double)s / (steps - 1) * (double)j->maxv + 0.5);
            colour(cr, gr_plot_sg_colour(v, j->maxv));
            cairo_rectangle(cr, lx, ly + h - (s + 1) * h / steps, 16, h / steps + 0.5);
            cairo_fill(cr);
        }
        char buf[40];
        colour(cr, 0x111111);
        text_at(cr, lx + 22, ly + h, 0, 0.5, "0 (P)");
        snprintf(buf, sizeof buf, "%lld", (long long)j->maxv);
        text_at(cr, lx + 22, ly, 0, 0.5, buf);
        text_at(cr, lx, ly + h + 16, 0, 0.5, "SG value");
    }
}

static void draw_scatter(cairo_t *cr, const plot_job *j) {
    const gr_rquery *q = j->q;
    int64_t n = j->rows;
    gr_plot_frame f;
    gr_plot_frame_scatter(j->width, j->height, n, j->maxv, &f);
    /* light grid at the value ticks */
    double r = f.cw * 0.42;
    if (r > 4) r = 4;
    if (r < 1.6) r = 1.6;
    for (int pass = 0; pass < 2; pass++)        /* N points, then P points over them */
        for (int64_t i = 0; i < n; i++) {
            int64_t v = j->vals[i];
            if (v < 0 || (pass == 0) != (v > 0)) continue;
            double x, y;
            gr_plot_point(&f, i, v, &x, &y);
            colour(cr, v ? GR_PLOT_POINT_N : GR_PLOT_POINT_P);
            double rr = v ? r : r * 1.25;
            cairo_rectangle(cr, x - rr, y - rr, 2 * rr, 2 * rr);
            cairo_fill(cr);
        }
    frame_and_labels(cr, j, &f);
    cairo_set_font_size(cr, 11);
    axis_ticks(cr, &f, 1, q->lo[q->dim[0]], n, 0);
    axis_ticks(cr, &f, 0, 0, j->maxv + 1, 0);
    cairo_set_font_size(cr, 12);
    double lx = f.right + 18, ly = f.top;
    colour(cr, GR_PLOT_POINT_P);
    cairo_rectangle(cr, lx + 3, ly + 3, 8, 8);
    cairo_fill(cr);
    colour(cr, 0x111111);
    text_at(cr, lx + 20, ly + 7, 0, 0.5, "P (value 0)");
    colour(cr, GR_PLOT_POINT_N);
    cairo_rectangle(cr, lx + 3, ly + 25, 8, 8);
    cairo_fill(cr);
    colour(cr, 0x111111);
    text_at(cr, lx + 20, ly + 29, 0, 0.5, "N (value > 0)");
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int length) {
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int write_plot(void *user, FILE *file) {
    plot_job *j = user;
    cairo_surface_t *s = j->svg ? cairo_svg_surface_create_for_stream(to_file, file, j->width, j->height)
                                : cairo_image_surface_create(CAIRO_FORMAT_RGB24, j->width, j->height);
    cairo_t *cr = cairo_create(s);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    colour(cr, 0xffffff);
    cairo_paint(cr);
    int cells = j->outcome || j->q->ndims == 2;
    if (cells) draw_cells(cr, j);
    else draw_scatter(cr, j);
    int bad = cairo_status(cr) != CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    if (!j->svg && !bad) bad = cairo_surface_write_to_png_stream(s, to_file, file) != CAIRO_STATUS_SUCCESS;
    cairo_surface_finish(s);
    bad |= cairo_surface_status(s) != CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(s);
    /* No cairo object is alive now: drop cairo's font caches, so a plot holds no memory
     * after it (and leak checkers see none). */
    cairo_debug_reset_static_data();
    return bad;
}

#endif

/* The table, the size and the labels of the picture of q (j->vals in tracked memory). */
static void plot_prepare(gr_ctx *c, gr_module *m, const gr_rquery *q, plot_job *j0) {
    plot_job j = { .q = q };
    int64_t *vals = gr_table_values(c, m, q, &j.rows, &j.cols, &j.outcome, &j.conv, NULL);
    j.vals = vals;
    for (int64_t i = 0; i < j.rows * j.cols; i++) {
        if (vals[i] > j.maxv) j.maxv = vals[i];
        if (j.outcome && vals[i] == 2) j.has_draw = 1;
    }
    if (j.outcome) j.maxv = 0;
    size_t n = strlen(q->file);
    j.svg = !strcmp(q->file + n - 4, ".svg");
    int cells = j.outcome || q->ndims == 2;
    j.width = c->plot_width ? c->plot_width : cells ? GR_PLOT_W2 : GR_PLOT_W1;
    j.height = c->plot_height ? c->plot_height : q->ndims == 2 ? GR_PLOT_H2 : cells ? GR_PLOT_HSTRIP : GR_PLOT_H1;
    if (!c->plot_width && cells && q->ndims == 1) j.width = GR_PLOT_W1;
    /* The title: the positions drawn, then what the picture shows. */
    /* a board family's name around its sizes: ak(grid(3..5, 3..6)) */
    const char *family = q->game->board_rule ? gr_board_kind_name((int)q->lo[GR_BPOS_KIND]) : "";
    size_t pos = (size_t)snprintf(j.title, sizeof j.title, "%s%s%s(%s%s", q->q->has_conv ? gr_convention_name(j.conv) : "",
                                  q->q->has_conv ? " " : "", q->game->name, family, *family ? "(" : "");
    for (int i = 0; i < q->ncoords && pos < sizeof j.title; i++) {
        if (q->lo[i] == q->hi[i]) pos += (size_t)snprintf(j.title + pos, sizeof j.title - pos, "%s%lld", i ? ", " : "", (long long)q->lo[i]);
        else pos += (size_t)snprintf(j.title + pos, sizeof j.title - pos, "%s%lld..%lld", i ? ", " : "", (long long)q->lo[i], (long long)q->hi[i]);
    }
    if (pos < sizeof j.title)
        snprintf(j.title + pos, sizeof j.title - pos, ")%s: %s", *family ? ")" : "", j.outcome ? "outcomes" : "Sprague-Grundy values");
    const char **names = gr_board_axis_names(q->game, q->lo);
    if (!names) names = q->game->rules ? q->game->rules->coord_names : NULL;
    j.xname = names ? names[q->dim[0]] : "n";
    j.yname = cells ? (q->ndims == 2 ? (names ? names[q->dim[1]] : "y") : NULL) : "Sprague-Grundy value";
    *j0 = j;
}

#ifndef GRUNDY_NO_CAIRO
/* cairo's static data is reset after each picture (write_plot): one picture at a time in the
 * process, so threads drawing with different programs never reset what another one uses. */
static pthread_mutex_t cairo_lock = PTHREAD_MUTEX_INITIALIZER;

static int write_plot_locked(void *user, FILE *file) {
    pthread_mutex_lock(&cairo_lock);
    int bad = write_plot(user, file);
    pthread_mutex_unlock(&cairo_lock);
    return bad;
}

void gr_plot_to(gr_ctx *c, gr_module *m, const gr_rquery *q, FILE *f, int *width, int *height) {
    plot_job j;
    plot_prepare(c, m, q, &j);
    int bad = write_plot_locked(&j, f);
    gr_free(c, j.vals);
    if (bad) gr_fail(c, GR_EXIT_LIMIT, "cannot draw the picture");
    *width = j.width;
    *height = j.height;
}

/* Writes the picture to the query's file; 1: it was drawn. */
static int plot_file(gr_ctx *c, const gr_rquery *q, plot_job *j) {
    gr_write_file(c, q->file, write_plot_locked, j);
    return 1;
}
#else
/* No cairo: the API's picture is an error (gr_plot returns GR_EINPUT with this message). */
void gr_plot_to(gr_ctx *c, gr_module *m, const gr_rquery *q, FILE *f, int *width, int *height) {
    (void)m; (void)q; (void)f; (void)width; (void)height;
    gr_fail(c, GR_EXIT_INPUT, "this build of grundy has no cairo, so it draws no pictures (rebuild it with libcairo2-dev)");
}

static int plot_file(gr_ctx *c, const gr_rquery *q, plot_job *j) {
    (void)c; (void)q; (void)j;
    return 0;
}
#endif

static void plot_write(const gr_rquery *q, const plot_job *jp, int drawn, gr_format fmt, FILE *out) {
    const plot_job j = *jp;
    if (fmt == GR_FMT_JSON) {
        fputs("{\"query\":\"plot\",\"game\":", out);
        gr_json_string(out, q->game->name);
        fputs(",\"file\":", out);
        gr_json_string(out, q->file);
        fprintf(out, ",\"kind\":\"%s\",\"width\":%d,\"height\":%d,\"convention\":\"%s\"}\n", j.outcome ? "outcome" : "sg",
                j.width, j.height, gr_convention_name(j.conv));
    } else if (fmt == GR_FMT_CSV) {
        fprintf(out, "file,kind,width,height\n\"%s\",%s,%d,%d\n", q->file, j.outcome ? "outcome" : "sg", j.width, j.height);
    } else if (drawn) {
        fprintf(out, "plot %s: wrote %s (%dx%d, %lld position%s)\n\n", j.title, q->file, j.width, j.height,
                (long long)(j.rows * j.cols), j.rows * j.cols == 1 ? "" : "s");
    } else {
        /* the same facts but the file; where the picture is to be had instead */
#ifdef __EMSCRIPTEN__
        const char *instead = "the page draws it from the table";
#else
        const char *instead = "rebuild with libcairo2-dev to draw it";
#endif
        fprintf(out, "plot %s: not drawn here (this build has no cairo; %s not written, %dx%d, %lld position%s); %s\n\n",
                j.title, q->file, j.width, j.height, (long long)(j.rows * j.cols), j.rows * j.cols == 1 ? "" : "s", instead);
    }
}

void gr_run_plot(gr_ctx *c, gr_module *m, const gr_rquery *q, const gr_sink *sk) {
    plot_job j;
    plot_prepare(c, m, q, &j);   /* the table is computed either way: the answer's sizes, a limit */
    int drawn = plot_file(c, q, &j);
    gr_free(c, j.vals);
    GR_SINK_EACH(sk, fmt, out) plot_write(q, &j, drawn, fmt, out);
}
