// board.js: grid boards drawn in the page. A position's text holds each of its grid boards as the
// engine writes them, `grid(R, C)` or `grid(R, C) - {(i, j), ...}` (the cells removed), so the
// page reads the board from the text it already has (solve, its winning moves, options, play):
// a CSS grid of cells, rows and columns numbered, a removed cell dark, the cells a move takes
// highlighted. In play the cells are buttons: a move is found among the position's options by
// the cells it removes (ruleOf works out from the options whether a move takes one cell or two
// adjacent ones, and how far around them it reaches: nodekayles, arckayles, a rule of one's own).
import { el } from './dom.js';

const MAX_CELLS = 832;   // the engine's largest board

/* Every grid board of a position's text: [{start, end, rows, cols, gone: Set of i * cols + j}]. */
export function gridsOf(text) {
  const out = [];
  const re = /\(grid\(\s*(\d+)\s*,\s*(\d+)\s*\)(\s*-\s*\{([^}]*)\})?/g;
  for (let m; (m = re.exec(text || ''));) {
    const rows = Number(m[1]), cols = Number(m[2]);
    if (rows < 1 || cols < 1 || rows * cols > MAX_CELLS) continue;
    const gone = new Set();
    for (const c of (m[4] || '').matchAll(/\(\s*(\d+)\s*,\s*(\d+)\s*\)/g)) gone.add(Number(c[1]) * cols + Number(c[2]));
    out.push({ start: m.index + 1, end: m.index + m[0].length, rows, cols, gone });
  }
  return out;
}

/* The cells a move from `before` to `after` removed on its k-th grid board (empty when the move
 * was elsewhere); null when the texts do not hold the same boards. */
export function takenBy(before, after, k = 0) {
  const a = gridsOf(before)[k], b = gridsOf(after)[k];
  if (!a || !b || a.rows !== b.rows || a.cols !== b.cols) return null;
  return new Set([...b.gone].filter((v) => !a.gone.has(v)));
}

const cellText = (g, v) => `(${Math.floor(v / g.cols)}, ${v % g.cols})`;

/* The board drawn: opts {taken: Set (highlighted), small, onCell(v, button) (cells clickable)}. */
export function drawBoard(g, opts = {}) {
  const board = el('div', { class: `board${opts.small ? ' small' : ''}${opts.onCell ? ' clickable' : ''}`,
    role: 'grid', 'aria-label': `a board of ${g.rows} x ${g.cols} cells, ${g.gone.size} removed`,
    dataset: { rows: g.rows, cols: g.cols } });
  // a small board (beside a move, in the log) has no numbers: its cells alone
  const labels = !opts.small;
  board.style.gridTemplateColumns = `${labels ? 'auto ' : ''}repeat(${g.cols}, var(--cell))`;
  if (labels) {
    board.append(el('span', { class: 'label' }));
    for (let j = 0; j < g.cols; j++) board.append(el('span', { class: 'label col' }, String(j)));
  }
  for (let i = 0; i < g.rows; i++) {
    if (labels) board.append(el('span', { class: 'label row' }, String(i)));
    for (let j = 0; j < g.cols; j++) {
      const v = i * g.cols + j, gone = g.gone.has(v);
      const cls = `cell${gone ? ' gone' : ''}${opts.taken && opts.taken.has(v) ? ' taken' : ''}`;
      const title = `${cellText(g, v)}${gone ? ' removed' : ''}`;
      const attrs = { class: cls, title, dataset: { i, j } };
      if (opts.onCell && !gone) {
        const b = el('button', { type: 'button', ...attrs, 'aria-label': title });
        b.addEventListener('click', () => opts.onCell(v, b));
        board.append(b);
      } else board.append(el('span', attrs));
    }
  }
  return board;
}

/* Every grid board of a position drawn (the cells of the move from `from` highlighted), or null. */
export function drawBoards(position, { from, small } = {}) {
  const grids = gridsOf(position);
  if (!grids.length) return null;
  return el('div', { class: 'boards' }, grids.map((g, k) => drawBoard(g, { small, taken: from ? takenBy(from, position, k) : null })));
}

const adjacent = (g, a, b) => Math.abs(Math.floor(a / g.cols) - Math.floor(b / g.cols)) + Math.abs((a % g.cols) - (b % g.cols)) === 1;

/* The cells a move choosing `cells` removes: them and every cell left within `radius`. */
export function ball(g, cells, radius) {
  const out = new Set(cells);
  let front = [...cells];
  for (let step = 0; step < radius && front.length; step++) {
    const next = [];
    for (const v of front) {
      const i = Math.floor(v / g.cols), j = v % g.cols;
      for (const [di, dj] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const ni = i + di, nj = j + dj, w = ni * g.cols + nj;
        if (ni < 0 || nj < 0 || ni >= g.rows || nj >= g.cols || g.gone.has(w) || out.has(w)) continue;
        out.add(w);
        next.push(w);
      }
    }
    front = next;
  }
  return out;
}

const key = (s) => [...s].sort((x, y) => x - y).join(',');

/* The moves of the position's one grid board: [{taken: Set, index}] for each option (the
 * option's index in `options`) that changes that board and nothing else. */
export function boardMoves(position, options) {
  const grids = gridsOf(position);
  if (grids.length !== 1) return null;
  const g = grids[0], head = position.slice(0, g.start), tail = position.slice(g.end);
  const moves = [];
  options.forEach((x, index) => {
    const h = gridsOf(x.position)[0];
    if (!h || h.start !== g.start || x.position.slice(0, h.start) !== head || x.position.slice(h.end) !== tail) return;
    const taken = takenBy(position, x.position);
    if (taken && taken.size) moves.push({ taken, index });
  });
  return { grid: g, moves };
}

/* How a move of this board's rule is chosen: {edge: a move takes two adjacent cells, radius},
 * the first that makes every move of the board a choice's ball; null when none does. */
export function ruleOf(g, moves) {
  if (!moves.length) return null;
  const present = [];
  for (let v = 0; v < g.rows * g.cols; v++) if (!g.gone.has(v)) present.push(v);
  for (let radius = 0; radius <= 3; radius++)
    for (const edge of [false, true]) {
      const balls = new Set();
      for (const v of present) {
        if (!edge) { balls.add(key(ball(g, [v], radius))); continue; }
        for (const w of [v + 1, v + g.cols])
          if (w < g.rows * g.cols && !g.gone.has(w) && adjacent(g, v, w)) balls.add(key(ball(g, [v, w], radius)));
      }
      if (moves.every((m) => balls.has(key(m.taken)))) return { edge, radius };
    }
  return null;
}

/* A board to play on: clicking cells picks a move (one cell, or two adjacent cells: the first
 * click selects, the second completes). onMove(move) plays it; say(text, kind) tells what is
 * wrong (kind 'info': what to do next, not a mistake). */
export function playBoard(g, moves, rule, onMove, say) {
  let first = null, firstBtn = null;
  const find = (cells) => {
    const want = key(ball(g, cells, rule.radius));
    return moves.find((m) => key(m.taken) === want);
  };
  const board = drawBoard(g, {
    onCell(v, btn) {
      if (!rule.edge) {
        const m = find([v]);
        if (m) onMove(m); else say(`${cellText(g, v)} is not a move here`);
        return;
      }
      if (first === null) { first = v; firstBtn = btn; btn.classList.add('selected'); say(`${cellText(g, v)} picked: now a cell next to it`, 'info'); return; }
      if (first === v) { first = null; btn.classList.remove('selected'); say('', 'info'); return; }
      if (!adjacent(g, first, v)) { say(`${cellText(g, first)} and ${cellText(g, v)} are not next to each other: a move takes two adjacent cells`); return; }
      const m = find([first, v]);
      firstBtn.classList.remove('selected');
      const was = first;
      first = null;
      if (m) onMove(m); else say(`${cellText(g, was)} and ${cellText(g, v)} are not a move here`);
    },
  });
  return board;
}
