/* plot: pictures of tables, drawn with cairo to PNG or SVG (by the file's extension).
 *   1-D SG values: a scatter of the value against the heap, P positions (value 0) in red;
 *   2-D tables, and 1-D outcome tables as a strip: one cell per position, x across (the first
 *   varying coordinate), y up, origin at the bottom left; P dark, N light, D amber, or a
 *   colour per SG value (0 black, then a ramp from yellow to blue) with a colour bar.
 * Axes, ticks, a title and a legend; --plot-size WxH sets the size (default 800x600 for
 * scatters, 760x650 for cell pictures, 800x220 for a strip). The layout is exposed so tests can find a
 * position's pixels in the picture. */
#ifndef GRUNDY_PLOT_H
#define GRUNDY_PLOT_H
#include <stdint.h>

enum { GR_PLOT_W1 = 800, GR_PLOT_H1 = 600, GR_PLOT_W2 = 760, GR_PLOT_H2 = 650, GR_PLOT_HSTRIP = 220 };

typedef struct gr_plot_frame {
    int width, height;              /* the whole picture */
    double left, top, right, bottom; /* the data area, in pixels */
    int64_t nx, ny;                 /* cells across and up (a scatter: points and values) */
    double cw, ch;                  /* a cell's size (a scatter: the step per point, per value) */
} gr_plot_frame;

/* The layout of a cell picture of nx by ny cells (square cells unless ny == 1, a strip). */
void gr_plot_frame_cells(int width, int height, int64_t nx, int64_t ny, gr_plot_frame *f);
/* The pixels of cell (i, j) (i across from 0, j up from 0): x0 <= x < x1, y0 <= y < y1. */
void gr_plot_cell_rect(const gr_plot_frame *f, int64_t i, int64_t j, int *x0, int *y0, int *x1, int *y1);
/* The layout of a scatter of n points with values 0..maxv, and the centre of point i, value v. */
void gr_plot_frame_scatter(int width, int height, int64_t n, int64_t maxv, gr_plot_frame *f);
void gr_plot_point(const gr_plot_frame *f, int64_t i, int64_t v, double *x, double *y);

/* Colours (0xRRGGBB) of P, N and D cells, of SG value v of at most maxv, and of points. */
enum { GR_PLOT_P = 0x1b2540, GR_PLOT_N = 0xe3e9f2, GR_PLOT_D = 0xf0a830,
       GR_PLOT_POINT_P = 0xd62728, GR_PLOT_POINT_N = 0x2f6db5, GR_PLOT_SG0 = 0x000000 };
uint32_t gr_plot_sg_colour(int64_t v, int64_t maxv);
#endif
