// tables.js: the answer of a `table` query: a 1-D table as a grid of cells (P positions
// marked, class p) with a value plot or an outcome strip under it; a 2-D table as a canvas
// heatmap with a hover tooltip `(x, y): VALUE`. Kinds: sg, outcome, remoteness, genus, and
// anyleaf values (null at a leaf); any convention.
import { el } from './dom.js';
import { drawValuePlot, drawStrip, drawHeatmap, drawColourBar, axisTicks } from './plot.js';

const GRID_MAX = 2000;   // cells shown in the grid; the plot shows every value

/* A genus [g, l0, l1, ...] written as grundy writes it: 1^031. */
export function genusText(v) {
  return Array.isArray(v) ? (v.length > 1 ? `${v[0]}^${v.slice(1).join('')}` : String(v[0])) : v;
}

/* A genus as grundy prints it, its superscript raised. */
function genusNode(v) {
  const s = el('span', {}, String(v[0]));
  if (v.length > 1) s.append(el('sup', {}, v.slice(1).join('')));
  return s;
}

/* A loopy position's value (JSON {"loopy": [K...]} where a number would stand): infinite, its
 * finite options' values K, written as the text writes it: ∞{1}, ∞{} (the empty set). */
export function isLoopy(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Array.isArray(v.loopy);
}

/* Any value of a JSON answer as grundy's text writes it: a number, a genus, an outcome, a
 * loopy value, '-' for none. */
export function valueText(v) {
  if (v === null || v === undefined) return '-';
  if (isLoopy(v)) return `∞{${v.loopy.join(', ')}}`;
  return Array.isArray(v) ? genusText(v) : String(v);
}
export const cellText = valueText;

/* Is this value a P position (the player to move loses)? By the kind of the table: an SG value
 * 0 (normal play or values after leaf deletion), outcome P, a remoteness or step number of the
 * losing parity, a genus whose misere value (lambda_0, its second figure) is 0. */
export function isP(v, kind, convention = 'normal') {
  if (v === null || v === undefined || isLoopy(v)) return false;   // a loopy value is infinite: not 0
  if (kind === 'outcome' || typeof v === 'string') return v === 'P';
  // a leaf (remoteness 0) is lost by the mover under normal and every, won under misere and anyleaf
  if (kind === 'remoteness') return v % 2 === (convention === 'misere' || convention === 'anyleaf' ? 1 : 0);
  if (kind === 'genus') return Array.isArray(v) && v[1] === 0;
  return v === 0;
}

function isTwoD(obj) {
  const v = obj.values;
  if (!Array.isArray(v) || !v.length) return false;
  if (obj.kind === 'genus') return Array.isArray(v[0]) && (Array.isArray(v[0][0]) || v[0][0] === null);
  return Array.isArray(v[0]);
}

const KIND_LABEL = { sg: 'Sprague-Grundy values', outcome: 'outcomes', remoteness: 'remoteness', genus: 'genus' };

/* meta: the query as the engine listed it ({coords: the game's coordinate names}), or {}. */
export function renderTable(obj, box, meta = {}) {
  if (isTwoD(obj)) return renderTable2D(obj, box, meta);
  return renderTable1D(obj, box);
}

/* The width a drawing may take inside box: its content box (no padding), less a border. */
function innerWidth(box, fallback) {
  const w = box.clientWidth;
  if (!w) return fallback;
  const cs = getComputedStyle(box);
  return w - (parseFloat(cs.paddingLeft) || 0) - (parseFloat(cs.paddingRight) || 0) - 2;
}

function renderTable1D(obj, box) {
  const values = obj.values || [];
  let labels;
  if (obj.positions) labels = obj.positions;
  else {
    // the varying coordinate (a 1-D table may fix the others: wythoff(3, 0..5))
    const d = Math.max(0, obj.from.findIndex((f, i) => f !== obj.to[i]));
    labels = values.map((_, i) => obj.from[d] + i);
  }
  const kind = obj.kind;
  const conv = obj.convention && obj.convention !== 'normal' ? `${obj.convention} ` : '';
  // the picture's width, read before the grid is in the page (reading it after makes the
  // browser lay out 2,000 new cells there and then)
  const width = Math.max(280, Math.min(720, innerWidth(box, 640)));
  // each value's P mark once (a table may have 4 Mi values: plain loops)
  const marks = new Uint8Array(values.length);
  let nP = 0;
  for (let i = 0; i < values.length; i++) if (isP(values[i], kind, obj.convention)) { marks[i] = 1; nP++; }
  box.append(el('p', { class: 'summary' },
    `${conv}${KIND_LABEL[kind] || kind} of ${values.length} positions; ${nP} P position${nP === 1 ? '' : 's'} (marked)`));

  // long tables: the picture first (the grid scrolls)
  const pictureFirst = values.length > 120;
  const pictureBox = el('div');
  if (pictureFirst) box.append(pictureBox);

  // the grid: rows of 10, like grundy's text, the row's first position at its head
  const shown = Math.min(values.length, GRID_MAX);
  const perRow = obj.positions ? Math.min(8, shown) || 1 : 10;
  const table = el('table', { class: 'grid' });
  if (!obj.positions) {
    const head = el('tr', {}, el('th', {}, ''));
    for (let k = 0; k < Math.min(perRow, shown); k++) head.append(el('th', {}, `+${k}`));
    table.append(el('thead', {}, head));
  }
  const body = el('tbody');
  for (let i = 0; i < shown; i += perRow) {
    const tr = el('tr', {}, el('th', {}, obj.positions ? '' : String(labels[i])));
    for (let k = i; k < Math.min(i + perRow, shown); k++) {
      const v = values[k];
      const txt = cellText(v);
      tr.append(el('td', {
        class: isP(v, kind, obj.convention) ? 'p' : undefined,
        dataset: { n: labels[k], value: txt },
        title: `${labels[k]}: ${txt}`,
      }, obj.positions ? `${labels[k]}: ${txt}` : Array.isArray(v) ? genusNode(v) : txt));
    }
    body.append(tr);
  }
  table.append(body);
  box.append(el('div', { class: 'grid-wrap' }, table));
  if (shown < values.length)
    box.append(el('p', { class: 'note' }, `the grid shows the first ${shown} of ${values.length} positions; the plot and the downloads have them all`));

  // the picture: numbers as a value plot, outcomes as a strip of cells
  if (obj.positions) return;
  const canvas = el('canvas', { class: 'plot' });
  (pictureFirst ? pictureBox : box).append(el('div', { class: 'plot-wrap' }, canvas));
  if (kind === 'outcome') drawStrip(canvas, values, { width });
  else {
    // genus: plot its first figure (the normal-play value)
    const ys = new Array(values.length);
    for (let i = 0; i < values.length; i++) { const v = values[i]; ys[i] = Array.isArray(v) ? v[0] : typeof v === 'number' ? v : null; }
    const g = drawValuePlot(canvas, labels, ys, marks,
      { width, height: 240, ylabel: kind === 'remoteness' ? 'remoteness' : 'value' });
    // hover: the position under the pointer and its value (its own class: .tooltip is the heatmap's)
    const tip = el('div', { class: 'plot-tip' });
    canvas.parentNode.append(tip);
    canvas.addEventListener('mousemove', (ev) => {
      const r = canvas.getBoundingClientRect();
      const fx = (ev.clientX - r.left - g.margin.l) / g.pw;
      const k = Math.round(fx * (labels.length - 1));
      if (fx < -0.02 || fx > 1.02 || k < 0 || k >= labels.length) { tip.classList.remove('shown'); return; }
      tip.textContent = `${labels[k]}: ${cellText(values[k])}${isP(values[k], kind, obj.convention) ? ' (P)' : ''}`;
      tip.style.left = `${Math.min(ev.clientX - r.left + 12, r.width - 90)}px`;
      tip.style.top = `${ev.clientY - r.top + 12}px`;
      tip.classList.add('shown');
    });
    canvas.addEventListener('mouseleave', () => tip.classList.remove('shown'));
  }
}

function renderTable2D(obj, box, meta) {
  const values = obj.values;
  let dims = obj.from.map((f, i) => i).filter((i) => obj.from[i] !== obj.to[i]);
  for (let i = 0; dims.length < 2 && i < obj.from.length; i++) if (!dims.includes(i)) dims.push(i);
  dims = dims.slice(0, 2).sort((a, b) => a - b);
  const x0 = obj.from[dims[0]], y0 = obj.from[dims[1]];
  // the axes by the game's own names (position (a, b)), as the PNG and the text name them
  const names = meta.coords || [];
  const xname = names[dims[0]] || 'x', yname = names[dims[1]] || 'y';
  const kind = obj.kind;
  const canvas = el('canvas', { class: 'heatmap' });
  const tip = el('div', { class: 'tooltip', role: 'status' });
  const width = Math.max(240, Math.min(640, innerWidth(box, 640) - 70));
  const info = drawHeatmap(canvas, values, { maxWidth: width, isP: (v) => isP(v, kind, obj.convention) });
  Object.assign(canvas.dataset, { x0, y0, nx: info.nx, ny: info.ny, cell: info.cell, yUp: 1 });
  let nP = 0;
  for (const row of values) for (const v of row) if (isP(v, kind, obj.convention)) nP++;
  const conv = obj.convention && obj.convention !== 'normal' ? `${obj.convention} ` : '';
  box.append(el('p', { class: 'summary' },
    `${conv}${KIND_LABEL[kind] || kind}, ${xname} ${x0}..${x0 + info.nx - 1} across, ${yname} ${y0}..${y0 + info.ny - 1} up; ${nP} P position${nP === 1 ? '' : 's'} (${kind === 'outcome' ? 'dark' : 'black'})`));

  const legend = el('div', { class: 'legend' });
  if (kind === 'outcome') {
    for (const [o, txt] of [['P', 'P: the player to move loses'], ['N', 'N: wins'], ['D', 'D: draw']])
      legend.append(el('span', { class: `swatch o-${o}` }), ` ${txt} `);
  } else if (typeof info.max === 'number') {
    const bar = el('canvas', { class: 'colourbar' });
    drawColourBar(bar, info.max);
    legend.append(el('span', {}, '0 (P) '), bar, el('span', {}, ` ${info.max}`));
  }

  // numeric ticks at round coordinates, the cells' middles, and the axes' names
  const W = info.nx * info.cell, H = info.ny * info.cell;
  const xt = el('div', { class: 'ticks ticks-x', style: `width:${W}px` },
    axisTicks(x0, info.nx, info.cell).map((t) => el('span', { class: 'tick', style: `left:${t.at}px` }, String(t.value))));
  const yt = el('div', { class: 'ticks ticks-y', style: `height:${H}px` },
    axisTicks(y0, info.ny, info.cell).map((t) => el('span', { class: 'tick', style: `bottom:${t.at}px` }, String(t.value))));
  // a grid: the y axis's name and ticks left of the cells, the x axis's ticks and name under them
  const frame = el('div', { class: 'heatmap-frame' },
    el('div', { class: 'axis-y', title: `${yname}: up` }, `${yname} →`), yt,
    el('div', { class: 'heatmap-wrap' }, canvas, tip), xt,
    el('div', { class: 'axis-x', title: `${xname}: across` }, `${xname} →`));
  box.append(frame, legend);

  // hover: the cell under the pointer, from the canvas's own geometry (cell CSS pixels each)
  const cellAt = (ev) => {
    // cell (i, j) starts at (i, ny - 1 - j) * cell from the canvas's corner; the canvas has no
    // border, and its corner is taken where the browser draws it, at a whole pixel (pointer
    // coordinates are whole pixels too), so even 1-pixel cells are found exactly
    const r = canvas.getBoundingClientRect();
    const i = Math.floor((ev.clientX - Math.round(r.left + canvas.clientLeft)) / info.cell);
    const row = Math.floor((ev.clientY - Math.round(r.top + canvas.clientTop)) / info.cell);
    const j = info.ny - 1 - row;
    return i >= 0 && row >= 0 && i < info.nx && j >= 0 ? [i, j, row] : null;
  };
  canvas.addEventListener('mousemove', (ev) => {
    const c = cellAt(ev);
    if (!c) { tip.classList.remove('shown'); return; }
    const [i, j, row] = c;
    tip.textContent = `(${x0 + i}, ${y0 + j}): ${cellText(values[i][j])}`;
    tip.classList.add('shown');
    // beside the cell, on the side with room (the answer's box clips what overflows)
    const right = (i + 1) * info.cell + 8, below = (row + 1) * info.cell + 8;
    tip.style.left = `${right + tip.offsetWidth > W ? Math.max(0, i * info.cell - 8 - tip.offsetWidth) : right}px`;
    tip.style.top = `${below + tip.offsetHeight > H ? Math.max(0, row * info.cell - 8 - tip.offsetHeight) : below}px`;
  });
  canvas.addEventListener('mouseleave', () => tip.classList.remove('shown'));
}
