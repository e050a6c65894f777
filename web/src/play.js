// play.js: the #play panel, a game against the computer as `grundy play` plays it
// (src/cli/play.c). Each turn asks the engine `options [CONV] POS` (every move, with the
// outcome it leaves); the human picks one of #play-moves' buttons; the computer plays a
// winning move when there is one, the quickest (least remoteness, from `solve` of each
// winning move), else the move of greatest remoteness (the longest defence), and from a draw
// a move that keeps the draw, and the log explains it in play.c's words.
import { el, errorText } from './dom.js';
import { jsonLines, convPrefix } from './answers.js';

const RULE = {
  normal: 'normal play: whoever cannot move loses',
  misere: 'misere play: whoever cannot move wins',
  anyleaf: 'anyleaf: when any part has no move, the player to move wins',
  every: 'every: a move in every part that can move; whoever cannot move loses',
};
const REMOTENESS_ASKS = 40;   // past this many candidate moves, the computer does not weigh them all

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

  async function ask(text) {
    const r = await client.query(source, text, 'json');
    if (!r.ok) throw new Error(r.error || 'the query failed');
    return jsonLines(r.output)[0];
  }

  /* The computer's move from the options: [index, why]. */
  async function choose(opts, conv, byValues, token) {
    const wins = opts.map((o, i) => (o.outcome === 'P' ? i : -1)).filter((i) => i >= 0);
    const draws = opts.map((o, i) => (o.outcome === 'D' ? i : -1)).filter((i) => i >= 0);
    if (wins.length) {
      let best = wins[0], bestR = Infinity;
      if (wins.length > 1)
        for (const i of wins.slice(0, REMOTENESS_ASKS)) {
          const s = await ask(`solve ${convPrefix(conv)}${opts[i].position}`);
          if (token !== game) return null;
          if (typeof s.remoteness === 'number' && s.remoteness < bestR) { best = i; bestR = s.remoteness; }
        }
      return [best, byValues ? 'a winning move: it leaves value 0' : 'a winning move: it leaves a P position'];
    }
    if (draws.length) return [draws[0], 'keeps the draw'];
    // lost: the move that holds out longest
    let best = -1, bestR = -1;
    if (opts.length <= REMOTENESS_ASKS)
      for (let i = 0; i < opts.length; i++) {
        const s = await ask(`solve ${convPrefix(conv)}${opts[i].position}`);
        if (token !== game) return null;
        if (typeof s.remoteness === 'number' && s.remoteness > bestR) { best = i; bestR = s.remoteness; }
      }
    const zero = byValues ? ' (the value is 0)' : '';
    if (best >= 0)
      return [best, byValues ? `no winning move exists${zero}; this one holds out longest: ${bestR + 1} more moves to the end`
        : 'no winning move exists; this one holds out longest'];
    return [0, `no winning move exists${zero}, and the game is too large to find the longest defence: the first move`];
  }

  async function turn(state, token) {
    if (token !== game) return;
    movesBox.replaceChildren();
    status('thinking');
    let o;
    try {
      o = await ask(`options ${convPrefix(state.conv)}${state.pos}`);
    } catch (e) {
      if (token === game) { log(`error: ${errorText(e)}`, 'error'); status('error'); }
      return;
    }
    if (token !== game) return;
    const opts = o.options || [];
    const conv = o.convention || state.conv;
    if (!state.started) {
      state.started = true;
      state.byValues = conv === 'normal' && opts.every((x) => typeof x.sg === 'number');
      log(`grundy play: ${o.position} (${RULE[conv] || conv}${state.byValues ? '; played by Sprague-Grundy values' : ''})`, 'head');
      log(state.human ? 'You move first.' : 'The computer moves first.', 'head');
    }
    log(`Position: ${o.position}`, 'position');
    if (!opts.length) {
      // the game is over: who wins at a position with no move depends on the convention;
      // the engine's own outcome of it says it for every rule set
      let moverWins = conv === 'misere' || conv === 'anyleaf';
      try {
        const s = await ask(`solve ${convPrefix(state.conv)}${o.position}`);
        if (s && (s.outcome === 'N' || s.outcome === 'P')) moverWins = s.outcome === 'N';
      } catch { /* keep the convention's rule */ }
      if (token !== game) return;
      const humanWins = state.human === moverWins;
      log(`No move is left for ${state.human ? 'you' : 'the computer'}. Game over: ${humanWins ? 'you win' : 'the computer wins'}.`, 'end');
      status(humanWins ? 'you won' : 'computer won');
      return;
    }
    if (state.human) {
      status('your move');
      opts.forEach((x, i) => {
        const b = el('button', { type: 'button', class: 'move', dataset: { index: i + 1 } }, x.position);
        b.addEventListener('click', () => {
          if (token !== game) return;
          log(`You play ${i + 1}: ${x.position}`, 'human');
          state.pos = x.position;
          state.human = false;
          turn(state, token);
        });
        movesBox.append(b);
      });
      const resign = el('button', { type: 'button', class: 'resign' }, 'resign');
      resign.addEventListener('click', () => {
        if (token !== game) return;
        movesBox.replaceChildren();
        log('You resign. Game over: the computer wins.', 'end');
        status('computer won');
        game++;
      });
      movesBox.append(resign);
      return;
    }
    let pick;
    try {
      pick = await choose(opts, state.conv, state.byValues, token);
    } catch (e) {
      if (token === game) { log(`error: ${errorText(e)}`, 'error'); status('error'); }
      return;
    }
    if (!pick || token !== game) return;
    const [i, why] = pick;
    // the moves it chose from, as grundy play lists them, folded
    const head = state.byValues ? "The computer's moves (the value each leaves you; 0 is a lost position):"
      : "The computer's moves (the outcome each leaves to you):";
    logBox.append(el('details', { class: 'line choices' }, el('summary', {}, head),
      opts.map((x, k) => el('div', {}, `${String(k + 1).padStart(5)}. ${x.position}  (${state.byValues ? x.sg : x.outcome})`))));
    log(`The computer plays ${i + 1}: ${opts[i].position}  (${why})`, 'computer');
    state.pos = opts[i].position;
    state.human = true;
    turn(state, token);
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
    turn({ pos, conv: convIn.value || 'normal', human: firstIn.value !== 'computer', started: false }, token);
  }

  startBtn.addEventListener('click', () => start());
  posIn.addEventListener('keydown', (e) => { if (e.key === 'Enter') start(); });
  return {
    start,
    /* the engine was restarted (Stop): a game in progress cannot go on */
    reset() { if (statusEl.textContent === 'thinking') { game++; status('stopped'); } },
  };
}
