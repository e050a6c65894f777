// answers.js: the answers other than tables: solve (winning moves as links that solve the
// position they lead to, and a "Play this" button), check (status, period, preperiod and the
// research columns), quotient (presentation, P set, pretending function), census (a sortable
// table), options (a list), plot and dot (their files are the command's: a plot's table drawn
// here, a dot graph drawn by Graphviz in the page with its DOT text to download).
import { el, facts, errorText, saveFile } from './dom.js';
import { renderTable, isP, valueText } from './tables.js';
import { pageWords } from './words.js';
import { drawBoards, gridsOf } from './board.js';

/* Small boards beside a list of moves only while they stay few cells in all. */
const BOARD_CELLS_DRAWN = 20000;
function boardsFit(from, n) {
  const cells = gridsOf(from).reduce((t, g) => t + g.rows * g.cols, 0);
  return cells > 0 && cells * n <= BOARD_CELLS_DRAWN;
}

const OUTCOME_TEXT = { P: 'P (the player to move loses)', N: 'N (the player to move wins)', D: 'D (a draw: optimal play never ends)' };

/* Parses the JSON lines a query printed ({ok, output} from client.query). */
export function jsonLines(text) {
  return (text || '').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/* "solve misere POS" for a convention other than normal play, so a position solves as the
 * answer it came from did. */
export function convPrefix(convention) {
  return convention && convention !== 'normal' ? `${convention} ` : '';
}

// ---- solve ----

export function renderSolve(obj, box, ctx) {
  const view = el('div', { class: 'solve-view' });
  const trail = [];   // the positions clicked through, to go back
  box.append(view);

  const show = (o) => {
    view.replaceChildren();
    if (trail.length > 1) {
      const crumbs = el('nav', { class: 'trail' }, 'from ');
      trail.slice(0, -1).forEach((t, k) => {
        crumbs.append(el('a', { href: '#', class: 'back', onclick: (ev) => { ev.preventDefault(); trail.length = k + 1; show(t); } }, t.position), ' → ');
      });
      crumbs.append(el('span', {}, 'here'));
      view.append(crumbs);
    }
    view.append(el('p', { class: 'position' }, el('code', {}, `${convPrefix(o.convention)}${o.position}`)));
    const boards = drawBoards(o.position);
    if (boards) view.append(boards);
    view.append(facts([
      ['outcome', OUTCOME_TEXT[o.outcome] || o.outcome, `outcome o-${o.outcome}`],
      ['sg', o.sg === undefined ? undefined : valueText(o.sg)],
      ['remoteness', o.remoteness === null && o.outcome !== 'D' ? 'not computed (too large)' : o.remoteness],
    ]));
    const moves = o.winning_moves || [];
    const drawn = boardsFit(o.position, moves.length);
    const list = el('ul', { class: `winning-moves${drawn ? ' with-boards' : ''}` });
    for (const m of moves) {
      const a = el('a', { href: '#', class: 'move', title: 'solve this position' }, m);
      a.addEventListener('click', (ev) => { ev.preventDefault(); follow(m, o.convention); });
      list.append(el('li', {}, drawn ? drawBoards(m, { from: o.position, small: true }) : '', el('span', {}, '→ ', a)));
    }
    const more = o.winning_moves_not_listed ? ` (${o.winning_moves_not_listed} more not listed)` : '';
    view.append(el('p', { class: 'moves-head' },
      moves.length ? `winning moves (${moves.length})${more}:` : o.outcome === 'D' ? 'winning moves: none (a draw)' : 'winning moves: none'));
    if (moves.length) view.append(list);
    const play = el('button', { type: 'button', class: 'play', title: 'play this position against the computer' }, 'Play this');
    play.addEventListener('click', () => ctx.onPlay && ctx.onPlay(o.position, o.convention || 'normal'));
    // every move, not only the winning ones: from a P position, to see how each is answered
    const all = el('button', { type: 'button', class: 'all-moves', title: 'every move from here, with the outcome it leaves' }, 'All moves');
    const allBox = el('div', { class: 'all-moves-box' });
    all.addEventListener('click', async () => {
      all.disabled = true;
      try {
        const r = await ctx.client.query(ctx.source, `options ${convPrefix(o.convention)}${o.position}`, 'json');
        if (!r.ok) throw new Error(r.error);
        const opts = jsonLines(r.output)[0].options || [];
        const drawnAll = boardsFit(o.position, opts.length);
        allBox.replaceChildren(el('p', { class: 'moves-head' }, `all moves (${opts.length}), each with the outcome it leaves:`),
          el('ul', { class: `option-moves${drawnAll ? ' with-boards' : ''}` }, opts.map((x) => {
            const a = el('a', { href: '#', class: 'move', title: 'solve this position' }, x.position);
            a.addEventListener('click', (ev) => { ev.preventDefault(); follow(x.position, o.convention); });
            return el('li', { class: x.outcome === 'P' ? 'p' : undefined },
              drawnAll ? drawBoards(x.position, { from: o.position, small: true }) : '', '→ ', a, ' ', el('span', { class: `outcome o-${x.outcome}` }, x.outcome),
              x.sg !== null && x.sg !== undefined ? el('span', { class: 'value' }, ` sg ${valueText(x.sg)}`) : '');
          })));
      } catch (e) {
        allBox.replaceChildren(el('p', { class: 'error' }, errorText(e)));
      } finally { all.disabled = false; }
    });
    view.append(el('div', { class: 'actions' }, play, ' ', all), allBox);
  };

  const follow = async (position, convention) => {
    view.classList.add('busy');
    try {
      const r = await ctx.client.query(ctx.source, `solve ${convPrefix(convention)}${position}`, 'json');
      if (!r.ok) throw new Error(r.error);
      const o = jsonLines(r.output)[0];
      trail.push(o);
      show(o);
    } catch (e) {
      view.append(el('p', { class: 'error' }, errorText(e)));
    } finally { view.classList.remove('busy'); }
  };

  trail.push(obj);
  show(obj);
}

// ---- check ----

const RESEARCH = ['largest', 'largest_at', 'rare_mask', 'rare_heap_parity', 'rare_count', 'last_rare'];

/* A counterexample's fields as the page reads them (the JSON's names are for programs):
 * sg_n_plus_p = 2 reads sg(n + 2) = 2 for `check s period 2`. */
const FIELD_LABELS = { lhs: 'left side', rhs: 'right side', sg: 'sg(n)', sg_n_plus_p: 'sg(n + p)', n: 'n', p: 'p' };
export function fieldLabel(k, o = {}) {
  const period = /\bperiod (\d+)/.exec(o.claim || '');
  if (k === 'sg_n_plus_p' && period) return `sg(n + ${period[1]})`;
  return FIELD_LABELS[k] || String(k).replace(/_/g, ' ');
}

function counterexampleText(c, o) {
  if (!c) return null;
  return Object.entries(c).map(([k, v]) => `${fieldLabel(k, o)} = ${typeof v === 'object' && v !== null ? valueText(v) : v}`).join(', ');
}

function rareMask(v) {
  return typeof v === 'number' ? `${v} (0x${v.toString(16)})` : v;
}

export function renderCheck(objs, box) {
  if (objs.length === 1 && !objs[0].member) {
    const o = objs[0];
    box.append(el('p', { class: 'check-line' },
      el('span', { class: `check-status status-${o.status}` }, o.status),
      o.period !== null && o.period !== undefined ? el('span', {}, ' period ', el('span', { class: 'period' }, String(o.period))) : '',
      o.preperiod !== null && o.preperiod !== undefined ? el('span', {}, ', preperiod ', el('span', { class: 'preperiod' }, String(o.preperiod))) : '',
      o.saltus ? `, saltus ${o.saltus}` : ''));
    box.append(facts([
      ['checked to', o.checked_to],
      ['counterexample', counterexampleText(o.counterexample, o)],
      // the JSON's "theorem" is a theorem only where a period was proved; a refuted check says
      // where it failed, a formula check or one without a proof what it did
      [o.status === 'proved' ? 'theorem' : o.status === 'refuted' ? 'found' : 'note', o.theorem],
    ]));
    if (RESEARCH.some((k) => k in o)) {
      box.append(el('p', { class: 'sub' }, 'research columns (the published tables\' largest value and rare heaps):'));
      box.append(facts([
        ['largest', o.largest, 'largest'], ['largest at', o.largest_at, 'largest_at'], ['rare mask', rareMask(o.rare_mask), 'rare_mask'],
        ['rare heap parity', o.rare_heap_parity === undefined ? null : String(o.rare_heap_parity), 'rare_heap_parity'],
        ['rare count', o.rare_count, 'rare_count'], ['last rare', o.last_rare, 'last_rare'],
      ], 'facts research'));
    }
    return;
  }
  // a family: a row per member
  const cols = ['member', 'status', 'period', 'preperiod', 'checked_to', ...RESEARCH.filter((k) => objs.some((o) => k in o))];
  const table = el('table', { class: 'checks sortable' });
  table.append(el('thead', {}, el('tr', {}, cols.map((c) => el('th', {}, c.replace(/_/g, ' '))))));
  const body = el('tbody');
  for (const o of objs) {
    body.append(el('tr', { title: o.theorem || '' }, cols.map((c) => {
      const v = c === 'rare_mask' ? rareMask(o[c]) : o[c];
      const cls = c === 'status' ? `check-status status-${o.status}` : c.replace(/_/g, '-') === 'checked-to' ? 'checked-to' : c;
      return el('td', { class: cls }, v === null || v === undefined ? '-' : String(v));
    })));
  }
  table.append(body);
  makeSortable(table);
  box.append(el('div', { class: 'table-wrap' }, table));
}

// ---- quotient ----

/* A word of the quotient with its exponents raised: ab^2 -> a b<sup>2</sup>. */
export function word(text) {
  const span = el('span', { class: 'word' });
  for (const part of String(text).split(/(\^\d+)/)) {
    if (part.startsWith('^')) span.append(el('sup', {}, part.slice(1)));
    else if (part) span.append(part);
  }
  return span;
}

/* The P set as grundy's text prints it ("  P = {a, d, ...}"): the JSON gives only |P|. */
function pSetFromText(text) {
  const m = text.match(/^\s*P = \{(.*)\}\s*$/m);
  return m ? m[1].split(',').map((s) => s.trim()).filter(Boolean) : null;
}

export function renderQuotient(o, box, text) {
  const gens = o.generators || [], pretending = o.pretending || [];
  const P = o.p_set || o.P || pSetFromText(text);
  const pset = new Set(P || []);
  box.append(facts([
    ['heaps', `${o.game}(0..${o.to})`],
    ['order |Q|', o.order],
    ['|P|', o.p_order],
    ['tame', o.tame === false ? 'no (wild)' : o.tame],
    ['last growth', o.last_growth === null || o.last_growth === undefined ? null : `at heap ${o.last_growth}`],
  ]));
  const rels = o.relations || [];
  const pres = el('code', {}, `⟨${gens.join(', ')} | `);
  if (rels.length <= 6) rels.forEach((r, k) => pres.append(k ? ', ' : '', word(r)));
  else pres.append(`${rels.length} relations, below`);
  pres.append('⟩');
  box.append(el('p', { class: 'presentation' }, pres));
  // each generator's heap: the first heap the pretending function sends to it alone
  const from = gens.map((g) => { const h = pretending.indexOf(g); return h >= 0 ? `${g} = heap ${h}` : g; });
  box.append(facts([
    ['generators', from.join(', ')],
    ['relations', o.relations && o.relations.length ? null : 'none'],
  ]));
  if (o.relations && o.relations.length)
    if (o.relations.length > 6) box.append(el('ul', { class: 'relations' }, o.relations.map((r) => el('li', {}, el('code', {}, word(r))))));
  if (P) box.append(el('p', { class: 'pset' }, 'P = {', P.map((w, k) => [k ? ', ' : '', el('code', { class: 'p' }, word(w))]).flat(), '}'));
  // the pretending function: heap -> element, P heaps marked
  box.append(el('p', { class: 'sub' }, `pretending function (heap → element${P ? ', P elements marked' : ''}):`));
  const table = el('table', { class: 'grid pretending' });
  const body = el('tbody');
  for (let i = 0; i < pretending.length; i += 10) {
    const tr = el('tr', {}, el('th', {}, String(i)));
    for (let k = i; k < Math.min(i + 10, pretending.length); k++)
      tr.append(el('td', { class: pset.has(pretending[k]) ? 'p' : undefined, dataset: { n: k, value: pretending[k] }, title: `heap ${k}: ${pretending[k]}` }, word(pretending[k])));
    body.append(tr);
  }
  table.append(body);
  box.append(el('div', { class: 'grid-wrap' }, table));
  if (P) {
    const heaps = pretending.map((w, k) => (pset.has(w) ? k : -1)).filter((k) => k >= 0);
    box.append(el('p', { class: 'note' }, `P heaps (a single heap that is a misère P position): ${heaps.join(', ') || 'none'}`));
  }
}

// ---- census ----

function memberText(m) {
  if (typeof m !== 'object' || m === null) return String(m);
  const code = m.code ?? m.member ?? JSON.stringify(m);
  return m.period !== null && m.period !== undefined ? `${code} (${m.preperiod}+${m.period})` : code;
}

/* The members as a list that wraps between members, never inside one. */
function membersNode(ms) {
  if (!Array.isArray(ms)) return ms === undefined ? '' : String(ms);
  return ms.map((m, k) => [k ? ' ' : '', el('span', { class: 'member' }, memberText(m))]).flat();
}

export function renderCensus(objs, box) {
  objs = [...objs];
  const skip = new Set(['query', 'members', 'growth', 'convention']);
  const cols = [];
  for (const o of objs) for (const k of Object.keys(o)) if (!skip.has(k) && !cols.includes(k)) cols.push(k);
  // the class's period and preperiod are its first member's (as grundy's text prints them)
  const first = (o) => (Array.isArray(o.members) && o.members[0] && typeof o.members[0] === 'object' ? o.members[0] : null);
  if (objs.some((o) => first(o) && 'period' in first(o))) {
    objs = objs.map((o) => ({ ...o, period: first(o) ? first(o).period : null, preperiod: first(o) ? first(o).preperiod : null }));
    cols.splice(cols.indexOf('status') + 1, 0, 'period', 'preperiod');
  }
  const misere = objs.some((o) => o.convention === 'misere');
  const nm = objs.reduce((a, o) => a + (Array.isArray(o.members) ? o.members.length : 0), 0);
  box.append(el('p', { class: 'summary' },
    `${misere ? 'misère ' : ''}census: ${nm} members in ${objs.length} classes${misere ? '' : ' (members written code (preperiod+period))'}; click a heading to sort`));
  // the members after the class's period, before the research columns, so they are seen
  // without scrolling the table sideways
  const at = Math.min(cols.length, Math.max(cols.indexOf('preperiod'), cols.indexOf('status')) + 1);
  const order = [...cols.slice(0, at), 'members', ...cols.slice(at)];
  const table = el('table', { class: 'census sortable' });
  table.append(el('thead', {}, el('tr', {}, order.map((c) => el('th', { dataset: { key: c } }, c.replace(/_/g, ' '))))));
  const body = el('tbody');
  for (const o of objs) {
    const tr = el('tr', { dataset: { status: o.status } });
    for (const c of order) {
      if (c === 'members') {
        tr.append(el('td', { class: 'members', dataset: { sort: Array.isArray(o.members) ? o.members.length : '' } }, membersNode(o.members)));
        continue;
      }
      const v = o[c];
      tr.append(el('td', { class: c === 'status' ? `status status-${v}` : c, dataset: { sort: typeof v === 'number' ? v : v ?? '' } },
        v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v)));
    }
    body.append(tr);
  }
  table.append(body);
  makeSortable(table);
  box.append(el('div', { class: 'table-wrap' }, table));
}

/* Clicking a heading sorts the rows by that column; again, the other way. Numbers as numbers,
 * absent values ('-') last. */
export function makeSortable(table) {
  const ths = [...table.querySelectorAll('thead th')];
  ths.forEach((th, col) => {
    th.classList.add('sort');
    th.title = 'sort by this column';
    th.addEventListener('click', () => {
      const dir = th.dataset.dir === 'asc' ? 'desc' : 'asc';
      ths.forEach((h) => { delete h.dataset.dir; h.classList.remove('asc', 'desc'); });
      th.dataset.dir = dir;
      th.classList.add(dir);
      const body = table.tBodies[0];
      const key = (tr) => {
        const td = tr.children[col];
        const raw = td.dataset.sort !== undefined ? td.dataset.sort : td.textContent;
        if (raw === '' || raw === '-') return null;
        const n = Number(raw);
        return Number.isFinite(n) && /^-?[\d.]+(e[+-]?\d+)?$/i.test(raw.trim()) ? n : raw;
      };
      const rows = [...body.rows];
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
        const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
        return dir === 'asc' ? c : -c;
      });
      body.append(...rows);
    });
  });
}

// ---- options ----

export function renderOptions(o, box) {
  const opts = o.options || [];
  box.append(el('p', { class: 'summary' },
    el('code', {}, `${convPrefix(o.convention)}${o.position}`), `: ${opts.length} move${opts.length === 1 ? '' : 's'}`));
  const boards = drawBoards(o.position);
  if (boards) box.append(boards);
  const drawn = boardsFit(o.position, opts.length);
  const list = el('ul', { class: 'options' });
  for (const x of opts) {
    const p = x.outcome === 'P';
    list.append(el('li', { class: p ? 'p' : undefined, dataset: { outcome: x.outcome } },
      drawn ? drawBoards(x.position, { from: o.position, small: true }) : '',
      '→ ', el('code', {}, x.position),
      el('span', { class: 'value' }, x.sg !== null && x.sg !== undefined ? `sg ${valueText(x.sg)}` : ''),
      el('span', { class: `outcome o-${x.outcome}` }, x.outcome),
      p ? el('span', { class: 'winning' }, 'winning move') : ''));
  }
  box.append(list);
}

// ---- plot, dot ----

/* A plot: the picture the PNG would hold, drawn here from its table (the run sends the table
 * with the plot's answer, so it is drawn at once; asked of the engine only when it did not). A
 * dot: its graph drawn by Graphviz (viz.js) as an <svg>, and its DOT text to download. */
export function renderFile(q, o, box, ctx) {
  const drawn = q.kind === 'plot' ? 'drawn below; the file is the command\'s' : 'drawn below; download it here';
  box.append(facts([
    ['file', o.file && `${o.file} (${drawn})`],
    ['kind', o.kind], ['size', o.width && `${o.width} x ${o.height}`],
    ['positions', o.positions], ['moves', o.moves], ['winning moves', o.winning_moves],
  ]));
  if (q.kind === 'dot') { renderDot(q, o, box); return; }
  const holder = el('div', { class: 'plot-table' });
  box.append(holder);
  if (q.table) { renderTable(q.table, holder, q); return; }
  const tableQuery = q.text.replace(/^\s*plot\b/, 'table').replace(/\s+to\s+"(?:[^"\\]|\\.)*"\s*;?\s*$/, '');
  holder.append(el('p', { class: 'note' }, `drawing ${tableQuery} ...`));
  ctx.client.query(ctx.source, tableQuery, 'json').then((r) => {
    holder.replaceChildren();
    if (!r.ok) { holder.append(el('p', { class: 'error' }, pageWords(r.error))); return; }
    renderTable(jsonLines(r.output)[0], holder, q);
  }).catch((e) => holder.replaceChildren(el('p', { class: 'error' }, errorText(e))));
}

function renderDot(q, o, box) {
  const dot = q.files && q.files[o.file];
  if (typeof dot !== 'string') { box.append(el('pre', { class: 'text' }, pageWords(q.output) || '')); return; }
  const save = el('button', { type: 'button', class: 'download-dot', title: `the graph as DOT text (${o.file})` }, `Download ${o.file}`);
  save.addEventListener('click', () => saveFile(o.file.replace(/^.*\//, ''), dot, 'text/vnd.graphviz'));
  const graph = el('div', { class: 'dot-graph' }, el('p', { class: 'note' }, 'drawing the graph ...'));
  box.append(el('div', { class: 'actions' }, save), graph);
  import('./viz.js').then((m) => m.dotToSvg(dot)).then((svg) => graph.replaceChildren(svg))
    .catch((e) => graph.replaceChildren(el('p', { class: 'error' }, `Graphviz could not draw it: ${errorText(e)}`)));
}

export { isP };
