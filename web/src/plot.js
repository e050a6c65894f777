// plot.js: canvas drawings of tables: a value plot of a 1-D table (points joined by a thin
// line, P positions red, axes with ticks; past one point per two pixels, dots only, set in an
// image of the canvas at once), a strip of outcome cells, and the heatmap of a 2-D
// table (a colour per value, P black; y up, as the PNG) drawn a pixel block per cell into an
// ImageData, so 500 x 500 cells draw at once. The colours are the PNG's (src/query/plot.c). Canvases are sized in CSS pixels and scaled by the device
// pixel ratio so lines stay sharp.

/* One palette with the PNG of `plot` (src/query/plot.c: GR_PLOT_P/N/D, gr_plot_sg_colour,
 * GR_PLOT_POINT_P/N): outcomes P navy, N pale blue, D amber; SG value 0 black, others along
 * yellow, green, teal, blue scaled to the largest value; no value (-, a loopy value) white. */
export const OUTCOME_COLOUR = { P: [0x1b, 0x25, 0x40], N: [0xe3, 0xe9, 0xf2], D: [0xf0, 0xa8, 0x30] };
export const POINT_P = [0xd6, 0x27, 0x28], POINT_N = [0x2f, 0x6d, 0xb5];
const STOPS = [[253, 231, 37], [94, 201, 98], [33, 145, 140], [59, 82, 139]];
export function valueColour(v, max) {
  if (Array.isArray(v)) v = v[0];   // a genus: by its normal-play value
  if (typeof v === 'string') return OUTCOME_COLOUR[v] || [255, 255, 255];
  if (typeof v !== 'number') return [255, 255, 255];
  if (v <= 0) return [0, 0, 0];
  const t = max > 1 ? (v - 1) / (max - 1) : 0, x = Math.min(Math.max(t, 0), 1) * 3;
  const k = x >= 3 ? 2 : Math.floor(x), u = x - k;
  return STOPS[k].map((c, i) => Math.round(c + (STOPS[k + 1][i] - c) * u));
}
export const css = (rgb) => `rgb(${rgb[0]},${rgb[1]},${rgb[2]})`;

function setup(canvas, w, h) {
  const dpr = window.devicePixelRatio || 1;
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const g = canvas.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return g;
}

/* Round tick steps: 1, 2, 5 times a power of ten, about `want` ticks over [lo, hi]. */
export function ticks(lo, hi, want) {
  const span = Math.max(hi - lo, 1);
  const raw = span / want, p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/* The value plot: xs[i] the heap, ys[i] a number or null (no value), isP[i] marks P. */
export function drawValuePlot(canvas, xs, ys, isP, { width = 640, height = 240, ylabel = 'value' } = {}) {
  const g = setup(canvas, width, height);
  const m = { l: 46, r: 24, t: 10, b: 32 };
  const pw = width - m.l - m.r, ph = height - m.t - m.b;
  const x0 = xs[0], x1 = xs[xs.length - 1];
  let ymax = 1;
  for (const y of ys) if (typeof y === 'number' && y > ymax) ymax = y;
  const sx = (x) => m.l + (x1 === x0 ? pw / 2 : ((x - x0) / (x1 - x0)) * pw);
  const sy = (y) => m.t + ph - (y / ymax) * ph;
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  // axes, ticks, grid
  g.strokeStyle = '#e5e7eb';
  g.fillStyle = '#444';
  g.font = '11px system-ui, sans-serif';
  g.lineWidth = 1;
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (const y of ticks(0, ymax, 5)) {
    if (y !== Math.floor(y)) continue;
    g.beginPath(); g.moveTo(m.l, sy(y) + 0.5); g.lineTo(m.l + pw, sy(y) + 0.5); g.stroke();
    g.fillText(String(y), m.l - 6, sy(y));
  }
  g.textAlign = 'center';
  g.textBaseline = 'top';
  const xticks = ticks(x0, x1, Math.max(2, Math.min(8, Math.floor(pw / 60)))).filter((x) => x === Math.floor(x));
  canvas.dataset.xticks = xticks.join(',');
  for (const x of xticks) {
    g.beginPath(); g.moveTo(sx(x) + 0.5, m.t + ph); g.lineTo(sx(x) + 0.5, m.t + ph + 4); g.strokeStyle = '#666'; g.stroke();
    g.fillText(String(x), sx(x), m.t + ph + 6);
  }
  g.strokeStyle = '#666';
  g.beginPath(); g.moveTo(m.l + 0.5, m.t); g.lineTo(m.l + 0.5, m.t + ph + 0.5); g.lineTo(m.l + pw, m.t + ph + 0.5); g.stroke();
  g.save();
  g.translate(12, m.t + ph / 2); g.rotate(-Math.PI / 2); g.textAlign = 'center'; g.textBaseline = 'middle';
  g.fillText(ylabel, 0, 0);
  g.restore();
  // a thin line through the values while points are far apart; with many, dots only
  const dense = xs.length > pw / 2;
  if (!dense) {
    g.strokeStyle = 'rgba(37, 99, 235, 0.35)';
    g.beginPath();
    let pen = false;
    for (let i = 0; i < xs.length; i++) {
      if (typeof ys[i] !== 'number') { pen = false; continue; }
      if (pen) g.lineTo(sx(xs[i]), sy(ys[i])); else g.moveTo(sx(xs[i]), sy(ys[i]));
      pen = true;
    }
    g.stroke();
  }
  if (dense) drawDots(g, canvas, width, xs, ys, isP, sx, sy);
  else {
    const r = xs.length > 120 ? 2 : 3;
    for (let pass = 0; pass < 2; pass++)   // P positions drawn last, on top
      for (let i = 0; i < xs.length; i++) {
        if (typeof ys[i] !== 'number' || !!isP[i] !== (pass === 1)) continue;
        g.fillStyle = css(pass ? POINT_P : POINT_N);
        g.beginPath(); g.arc(sx(xs[i]), sy(ys[i]), r, 0, 2 * Math.PI); g.fill();
      }
  }
  return { sx, sy, margin: m, x0, x1, pw };
}

/* Many points (a table of 300,001 values): each a 2-pixel square set in an image of the
 * canvas's device pixels, then laid over the axes at once; a canvas call per point took most
 * of a second. P positions last, on top. */
function drawDots(g, canvas, width, xs, ys, isP, sx, sy) {
  const W = canvas.width, H = canvas.height, dpr = W / width;
  const img = new ImageData(W, H), px = img.data;
  const side = Math.max(1, Math.round(2 * dpr));
  for (let pass = 0; pass < 2; pass++) {
    const [cr, cg, cb] = pass ? POINT_P : POINT_N;
    for (let i = 0; i < xs.length; i++) {
      if (typeof ys[i] !== 'number' || !!isP[i] !== (pass === 1)) continue;
      const x = Math.round((sx(xs[i]) - 1) * dpr), y = Math.round((sy(ys[i]) - 1) * dpr);
      for (let dy = 0; dy < side; dy++) {
        if (y + dy < 0 || y + dy >= H) continue;
        for (let dx = 0; dx < side; dx++) {
          if (x + dx < 0 || x + dx >= W) continue;
          const k = ((y + dy) * W + x + dx) * 4;
          px[k] = cr; px[k + 1] = cg; px[k + 2] = cb; px[k + 3] = 255;
        }
      }
    }
  }
  const layer = document.createElement('canvas');
  layer.width = W;
  layer.height = H;
  layer.getContext('2d').putImageData(img, 0, 0);
  g.save();
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.drawImage(layer, 0, 0);
  g.restore();
}

/* A strip of cells for a 1-D outcome table: P dark, N light, D amber (as grundy's plots). */
export function drawStrip(canvas, values, { width = 640, cell } = {}) {
  const n = values.length;
  const c = cell || Math.max(1, Math.min(16, Math.floor(width / Math.max(n, 1))));
  const perRow = Math.max(1, Math.floor(width / c));
  const rows = Math.ceil(n / perRow);
  const h = Math.max(c, 14);   // rows at least 14 pixels high, so narrow cells still read
  const g = setup(canvas, Math.min(n, perRow) * c, rows * h);
  for (let i = 0; i < n; i++) {
    g.fillStyle = css(valueColour(values[i], 1));
    g.fillRect((i % perRow) * c, Math.floor(i / perRow) * h, c, h);
  }
  return { cell: c, perRow };
}

/* The heatmap of a 2-D table: values[i][j] is the position (x0 + i, y0 + j), isP(v) says
 * which cells are P positions; x runs across from the left and y up from the bottom, as the
 * PNG of `plot` draws it, each cell `cell` CSS pixels square with no margin, so a cell's place
 * in the canvas is ((x - x0) * cell, (ny - 1 - (y - y0)) * cell). Outcome tables in the
 * outcome colours, values by the palette (P black). */
export function drawHeatmap(canvas, values, { maxWidth = 600, isP = (v) => v === 0 || v === 'P' } = {}) {
  const nx = values.length, ny = nx ? values[0].length : 0;
  const cell = Math.max(1, Math.min(24, Math.floor(maxWidth / Math.max(nx, ny, 1))));
  let max = 0;
  for (const row of values) for (const v of row) {
    const x = Array.isArray(v) ? v[0] : v;
    if (typeof x === 'number' && x > max) max = x;
  }
  // drawn at device resolution: each cell a block of whole device pixels
  const dpr = Math.max(1, Math.round(window.devicePixelRatio || 1));
  const W = nx * cell, H = ny * cell;
  canvas.style.width = `${W}px`;
  canvas.style.height = `${H}px`;
  canvas.width = W * dpr;
  canvas.height = H * dpr;
  const g = canvas.getContext('2d');
  const img = g.createImageData(W * dpr, H * dpr);
  const cd = cell * dpr;
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++) {
      // P cells black whatever the kind (misere genus, remoteness); outcomes by their colours
      const v = values[i][j], x = Array.isArray(v) ? v[0] : v;
      const [r, gg, b] = typeof v === 'string' ? valueColour(v, max) : isP(v) ? [0, 0, 0] : valueColour(x === 0 ? 1 : x, max);
      const row = ny - 1 - j;
      for (let py = row * cd; py < (row + 1) * cd; py++) {
        let o = (py * W * dpr + i * cd) * 4;
        for (let px = 0; px < cd; px++, o += 4) { img.data[o] = r; img.data[o + 1] = gg; img.data[o + 2] = b; img.data[o + 3] = 255; }
      }
    }
  g.putImageData(img, 0, 0);
  return { cell, nx, ny, max };
}

/* The heatmap's ticks along one axis (coordinates lo..lo+n-1, `cell` pixels each): about one a
 * 70 pixels, as the PNG's, at round numbers; [{value, at}] with `at` the pixel of the cell's
 * middle from the axis's start (the left, or the bottom). */
export function axisTicks(lo, n, cell) {
  const want = Math.max(2, Math.floor((n * cell) / 70));
  return ticks(lo, lo + n - 1, want).filter((t) => t === Math.floor(t)).map((t) => ({ value: t, at: (t - lo + 0.5) * cell }));
}

/* A colour bar for the heatmap's legend: 0 (P) black, then the ramp up to max. */
export function drawColourBar(canvas, max, { width = 220, height = 12 } = {}) {
  const g = setup(canvas, width, height);
  for (let x = 0; x < width; x++) {
    const v = max <= 0 ? 0 : Math.round((x / (width - 1)) * max);
    g.fillStyle = css(valueColour(v, max));
    g.fillRect(x, 0, 1, height);
  }
}
