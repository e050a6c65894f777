// play.js: the #play panel, a game against the computer as `grundy play` plays it
// (src/cli/play.c). The human's turn lists the moves a page at a time (client.options: the
// worker keeps the position's `options` and sends MOVES_SHOWN of them, with a button for more)
// and has a box to type a move; a sum of two large Kayles heaps has 199,999 moves, and the page
// draws 50. The computer plays a winning move when there is one (from `solve`: its listed
// winning moves, the quickest by remoteness where that was computed), else a move that keeps a
// draw, else the move of greatest remoteness (the longest defence) when there are few, and the
// log explains it in play.c's words.
import { el, errorText } from './dom.js';
import { jsonLines, convPrefix } from './answers.js';
import { valueText } from './tables.js';
import { gridsOf, drawBoards, boardMoves, ruleOf, playBoard } from './board.js';

const RULE = {
  normal: 'normal play: whoever cannot move loses',
  misere: 'misere play: whoever cannot move wins',
  anyleaf: 'anyleaf: when any part has no move, the player to move wins',
  every: 'every: a move in every part that can move; whoever cannot move loses',
};
const REMOTENESS_ASKS = 40;   // past this many candidate moves, the computer does not weigh them all
export const MOVES_SHOWN = 50;       // move buttons drawn at once; "more" adds as many again
const BOARD_MOVES_MAX = 4000;        // a grid board is clickable while its moves are this few (832 cells: 1,600 dominoes)

/* A failure of a query the page made from a position: where the engine's message names the
 * query ("query:1:16: error: unexpected ';'"), say it of the position the user typed, and an
 * error past its end is its end (the engine closes a query with a ';' the user never typed). */
export function positionError(message, queryText, position) {
  const m = /^(query|position):1:(\d+): error: (.*)$/s.exec(message || '');
  if (!m) return message;
  // the column counts in what was parsed: the query text, or the position alone
  const col = Number(m[2]) - (m[1] === 'position' ? 0 : queryText.indexOf(position));
  const past = col > position.length;
  const what = past ? m[3].replace(/^unexpected ';'/, 'the position ends too soon') : m[3];
  return past ? `in the position "${position}": ${what}` : `in the position "${position}", at character ${col}: ${what}`;
}

export function createPlay({ client, getSource, root = document }) {
  const $ = (id) => root.getElementById(id);
  const posIn = $('play-position'), convIn = $('play-convention'), firstIn = $('play-first');
  const startBtn = $('play-start'), movesBox = $('play-moves'), logBox = $('play-log'), statusEl = $('play-status');
  let game = 0;        // a token: a newer game ends the turns of an older one
  let source = '';

  const log = (text, cls) => {
    logBox.append(el('div', { class: `line ${cls || ''}` }, text));
    logBox.scrollTop = logBox.scrollHeight;
  };
  const status = (s) => { statusEl.textContent = s; statusEl.dataset.state = s.replace(/\s+/g, '-'); };
  // a position in the log, and its grid boards drawn under it (the cells the last move took marked)
  const logPosition = (position, from) => {
    log(`Position: ${position}`, 'position');
    const boards = drawBoards(position, { from, small: true });
    if (boards) { logBox.append(el('div', { class: 'line boards-line' }, boards)); logBox.scrollTop = logBox.scrollHeight; }
  };

  async function ask(text, position) {
    const r = await client.query(source, text, 'json');
    if (!r.ok) throw new Error(positionError(r.error, text, position) || 'the query failed');
    return jsonLines(r.output)[0];
  }
  async function moves(state, offset, limit, find) {
    const r = await client.options(source, state.pos, state.conv, { offset, limit, find });
    if (!r.ok) throw new Error(positionError(r.error, `options ${convPrefix(state.conv)}${state.pos}`, state.pos) || 'the query failed');
    return r;
  }

  function opening(state, position, conv) {
    if (state.started) return;
    state.started = true;
    log(`grundy play: ${position} (${RULE[conv] || conv}${state.byValues ? '; played by Sprague-Grundy values' : ''})`, 'head');
    log(state.human ? 'You move first.' : 'The computer moves first.', 'head');
  }

  async function gameOver(state, token, position) {
    // who wins at a position with no move depends on the convention; the engine's own outcome
    // of it says it for every rule set
    let moverWins = state.conv === 'misere' || state.conv === 'anyleaf';
    try {
      const s = await ask(`solve ${convPrefix(state.conv)}${position}`, position);
      if (s && (s.outcome === 'N' || s.outcome === 'P')) moverWins = s.outcome === 'N';
    } catch { /* keep the convention's rule */ }
    if (token !== game) return;
    const humanWins = state.human === moverWins;
    log(`No move is left for ${state.human ? 'you' : 'the computer'}. Game over: ${humanWins ? 'you win' : 'the computer wins'}.`, 'end');
    status(humanWins ? 'you won' : 'computer won');
  }

  function play(state, token, position, line) {
    if (token !== game) return;
    log(line, 'human');
    state.from = state.pos;
    state.pos = position;
    state.human = false;
    turn(state, token);
  }

  /* The human's turn: MOVES_SHOWN buttons (more on demand), a box for a typed move, resign. */
  async function humanTurn(state, token) {
    if (!state.started) {
      // the position as the engine writes it, and the convention it is played by
      const s = await ask(`solve ${convPrefix(state.conv)}${state.pos}`, state.pos);
      if (token !== game) return;
      state.pos = s.position;
      state.conv = s.convention || state.conv;
      state.byValues = state.conv === 'normal' && typeof s.sg === 'number';
      opening(state, s.position, state.conv);
    }
    const o = await moves(state, 0, MOVES_SHOWN);
    if (token !== game) return;
    logPosition(state.pos, state.from);
    if (!o.count) { await gameOver(state, token, state.pos); return; }
    status('your move');
    const list = el('div', { class: 'move-list' });
    const addButtons = (opts, offset) => opts.forEach((x, k) => {
      const i = offset + k;
      const b = el('button', { type: 'button', class: 'move', dataset: { index: i + 1 } }, x.position);
      b.addEventListener('click', () => play(state, token, x.position, `You play ${i + 1}: ${x.position}`));
      list.append(b);
    });
    addButtons(o.options, 0);
    let shown = o.options.length;
    const more = el('button', { type: 'button', class: 'more-moves' });
    const label = () => { more.textContent = `${Math.min(MOVES_SHOWN, o.count - shown).toLocaleString('en-US')} more moves (${shown.toLocaleString('en-US')} of ${o.count.toLocaleString('en-US')} shown)`; more.hidden = shown >= o.count; };
    label();
    more.addEventListener('click', async () => {
      more.disabled = true;
      try {
        const r = await moves(state, shown, MOVES_SHOWN);
        if (token !== game) return;
        addButtons(r.options, shown);
        shown += r.options.length;
        label();
      } catch (e) { log(`error: ${errorText(e)}`, 'error'); } finally { more.disabled = false; }
    });
    // a typed move: any of the moves, written as the engine writes positions (parts in any order)
    const typed = el('input', { type: 'text', class: 'typed-move', spellcheck: 'false', placeholder: 'type a move: the position it leaves',
      'aria-label': 'your move, as the position it leaves' });
    const go = el('button', { type: 'button', class: 'play-typed' }, 'Play');
    const note = el('span', { class: 'typed-note', role: 'status' });
    const submit = async () => {
      const want = typed.value.trim().replace(/;\s*$/, '');
      if (!want) { typed.focus(); return; }
      go.disabled = true;
      try {
        const r = await moves(state, 0, 0, want);
        if (token !== game) return;
        if (r.found < 0) { note.textContent = `"${want}" is not a move from here`; return; }
        const [x] = (await moves(state, r.found, 1)).options;
        play(state, token, x.position, `You play ${r.found + 1}: ${x.position}`);
      } catch (e) { note.textContent = errorText(e); } finally { go.disabled = false; }
    };
    go.addEventListener('click', submit);
    typed.addEventListener('keydown', (e) => { if (e.key === 'Enter') submit(); });
    const resign = el('button', { type: 'button', class: 'resign' }, 'resign');
    resign.addEventListener('click', () => {
      if (token !== game) return;
      movesBox.replaceChildren();
      log('You resign. Game over: the computer wins.', 'end');
      status('computer won');
      game++;
    });
    const board = await clickableBoard(state, token, o);
    if (token !== game) return;
    if (board) movesBox.append(board);
    movesBox.append(list, el('div', { class: 'move-tools' }, more, typed, go, note, resign));
  }

  /* The position's one grid board with its cells as buttons (board.js), or null: a move is
   * picked by its cells, and found among every move of the position. */
  async function clickableBoard(state, token, o) {
    if (gridsOf(state.pos).length !== 1 || o.count > BOARD_MOVES_MAX) return null;
    const all = o.count <= o.options.length ? o.options : (await moves(state, 0, o.count)).options;
    const bm = boardMoves(state.pos, all);
    if (!bm || !bm.moves.length) return null;
    state.rule = state.rule || ruleOf(bm.grid, bm.moves);   // from the first board, kept for the game
    if (!state.rule) return null;
    const note = el('span', { class: 'board-note', role: 'status' });
    const board = playBoard(bm.grid, bm.moves, state.rule, (m) => {
      const x = all[m.index];
      play(state, token, x.position, `You play ${m.index + 1}: ${x.position}`);
    }, (t, kind) => { note.textContent = t; note.classList.toggle('info', kind === 'info'); });
    const how = state.rule.edge ? 'click two adjacent cells to take them' : 'click a cell to take it';
    return el('div', { class: 'play-board' }, board, el('p', { class: 'board-hint' }, how, ' ', note));
  }

  /* The computer's move: [position, why, the moves it chose from (for the log)] or null. */
  async function choose(state, token) {
    const conv = convPrefix(state.conv);
    const s = await ask(`solve ${conv}${state.pos}`, state.pos);
    if (token !== game) return null;
    if (!state.started) {
      state.conv = s.convention || state.conv;
      state.byValues = state.conv === 'normal' && typeof s.sg === 'number';
      opening(state, s.position, state.conv);
    }
    logPosition(s.position, state.from);
    const wins = s.winning_moves || [];
    if (wins.length) {
      let best = wins[0], bestR = Infinity;
      // the quickest win, where the engine could count the moves to the end
      if (wins.length > 1 && typeof s.remoteness === 'number')
        for (const w of wins.slice(0, REMOTENESS_ASKS)) {
          const r = await ask(`solve ${conv}${w}`, w);
          if (token !== game) return null;
          if (typeof r.remoteness === 'number' && r.remoteness < bestR) { best = w; bestR = r.remoteness; }
        }
      return { position: best, why: state.byValues ? 'a winning move: it leaves value 0' : 'a winning move: it leaves a P position',
        from: wins.map((w) => `${w}  (${state.byValues ? 0 : 'P'})`), head: 'The winning moves it chose from:' };
    }
    const o = await moves(state, 0, REMOTENESS_ASKS + 1);
    if (token !== game) return null;
    if (!o.count) return { over: s.position };
    const listed = o.options.map((x) => `${x.position}  (${state.byValues ? valueText(x.sg) : x.outcome})`);
    const head = state.byValues ? "The computer's moves (the value each leaves you; 0 is a lost position):"
      : "The computer's moves (the outcome each leaves to you):";
    const more = o.count > o.options.length ? [`... and ${(o.count - o.options.length).toLocaleString('en-US')} more`] : [];
    if (o.firstD >= 0) {
      const [x] = o.firstD < o.options.length ? [o.options[o.firstD]] : (await moves(state, o.firstD, 1)).options;
      return { position: x.position, why: 'keeps the draw', from: [...listed, ...more], head };
    }
    // lost: the move that holds out longest, when the moves are few enough to weigh
    let best = -1, bestR = -1;
    if (o.count <= REMOTENESS_ASKS)
      for (let i = 0; i < o.options.length; i++) {
        const r = await ask(`solve ${conv}${o.options[i].position}`, o.options[i].position);
        if (token !== game) return null;
        if (typeof r.remoteness === 'number' && r.remoteness > bestR) { best = i; bestR = r.remoteness; }
      }
    const zero = state.byValues ? ' (the value is 0)' : '';
    if (best >= 0)
      return { position: o.options[best].position, from: [...listed, ...more], head,
        why: state.byValues ? `no winning move exists${zero}; this one holds out longest: ${bestR + 1} more moves to the end`
          : 'no winning move exists; this one holds out longest' };
    return { position: o.options[0].position, from: [...listed, ...more], head,
      why: `no winning move exists${zero}, and the game is too large to find the longest defence: the first move` };
  }

  async function turn(state, token) {
    if (token !== game) return;
    movesBox.replaceChildren();
    status('thinking');
    try {
      if (state.human) { await humanTurn(state, token); return; }
      const pick = await choose(state, token);
      if (!pick || token !== game) return;
      if (pick.over) { await gameOver(state, token, pick.over); return; }
      logBox.append(el('details', { class: 'line choices' }, el('summary', {}, pick.head),
        pick.from.map((x, k) => el('div', {}, `${String(k + 1).padStart(5)}. ${x}`))));
      log(`The computer plays: ${pick.position}  (${pick.why})`, 'computer');
      state.from = state.pos;
      state.pos = pick.position;
      state.human = true;
      turn(state, token);
    } catch (e) {
      if (token === game) { log(`error: ${errorText(e)}`, 'error'); status('error'); }
    }
  }

  function start(position, convention, first) {
    if (position !== undefined) posIn.value = position;
    if (convention) convIn.value = convention;
    if (first) firstIn.value = first;
    const pos = posIn.value.trim().replace(/;\s*$/, '');
    if (!pos) { posIn.focus(); return; }
    source = getSource();
    const token = ++game;
    logBox.replaceChildren();
    movesBox.replaceChildren();
    root.getElementById('play').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    turn({ pos, conv: convIn.value || 'normal', human: firstIn.value !== 'computer', started: false, byValues: undefined }, token);
  }

  startBtn.addEventListener('click', () => start());
  posIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') start(); });
  return {
    start,
    /* the engine was restarted (Stop): a game in progress cannot go on */
    reset() { if (statusEl.textContent === 'thinking') { game++; status('stopped'); } },
  };
}
