// gamelang.js: the .game language for CodeMirror: a stream tokenizer for highlighting (the
// grammar proper lives in grammar/*.y; colouring needs only words, numbers, strings, comments
// and operators) and the word lists completion offers.
import { StreamLanguage } from '@codemirror/language';

// The lexer's keywords (grammar/lexer.l), declarations and clauses.
export const KEYWORDS = ['game', 'graph', 'hackenbush', 'turning', 'subtract', 'allbut', 'octal', 'heap',
  'position', 'where', 'move', 'for', 'in', 'terminal', 'when', 'wins', 'loses', 'play', 'flip', 'to',
  'periodic', 'period', 'preperiod', 'saltus', 'outcome'];
// Query keywords start a statement: coloured like keywords, listed first in completion.
export const QUERIES = ['table', 'solve', 'check', 'census', 'quotient', 'options', 'plot', 'dot'];
export const CONVENTIONS = ['normal', 'misere', 'anyleaf', 'every'];
// Words the parser reads as names in places (table kinds, family ranges, ground).
export const SOFT = ['sg', 'remoteness', 'genus', 'ground', 'hex', 'subsets'];
// Built-in functions of expressions, and a check's P(pos), N(pos), sg(pos).
export const BUILTINS = ['min', 'max', 'abs', 'ctz', 'clz', 'popcount', 'isqrt', 'fib', 'log2', 'pow', 'P', 'N'];
// The prelude's games (src/front/prelude.game), known without a definition.
export const PRELUDE = ['nim', 'kayles', 'dawson', 'dawsonchess', 'treblecross', 'grundygame', 'lasker',
  'wythoff', 'ed', 'bash', 'fibonacci'];

const KW = new Set([...KEYWORDS, ...QUERIES]);
const CONV = new Set(CONVENTIONS);
const SOFTS = new Set(SOFT);
const BUILT = new Set(BUILTINS);
const GAMES = new Set(PRELUDE);

const gameTokens = {
  name: 'game',
  // state.def: the previous word declared a name (game/graph/hackenbush NAME)
  startState: () => ({ def: false }),
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.match('#') || stream.match('//')) { stream.skipToEnd(); return 'comment'; }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
    if (stream.match(/^0[xX][0-9a-fA-F_]+/) || stream.match(/^[0-9][0-9_]*/)) return 'number';
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      const w = stream.current();
      if (state.def) { state.def = false; return 'def'; }
      if (w === 'game' || w === 'graph' || w === 'hackenbush') { state.def = true; return 'keyword'; }
      if (KW.has(w)) return 'keyword';
      if (CONV.has(w)) return 'atom';
      if (SOFTS.has(w)) return 'atom';
      if (BUILT.has(w) && stream.match(/^\s*\(/, false)) return 'builtin';
      if (GAMES.has(w)) return 'typeName';
      return 'variableName';
    }
    state.def = false;
    if (stream.match(/^(<=>|\.\.|->|<=|>=|==|!=|&&|\|\||<<|>>|[-+*/%<>=!~^&|])/)) return 'operator';
    if (stream.match(/^[()[\]{}]/)) return 'bracket';
    if (stream.match(/^[;,:.]/)) return 'punctuation';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' }, closeBrackets: { brackets: ['(', '[', '{', '"'] } },
};

export const gameLanguage = StreamLanguage.define(gameTokens);
