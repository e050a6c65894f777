// editor.js: the CodeMirror 6 editor inside #editor: highlighting of the .game language,
// completion of keywords, the prelude's games and the program's own names, and the run's
// diagnostic shown as a lint underline (.cm-lintRange-error) from its column to the token's end.
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
  highlightSpecialChars } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab, toggleComment } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle, bracketMatching, indentOnInput } from '@codemirror/language';
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { lintGutter, setDiagnostics, lintKeymap } from '@codemirror/lint';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { tags as t } from '@lezer/highlight';
import { gameLanguage, KEYWORDS, QUERIES, CONVENTIONS, SOFT, BUILTINS, PRELUDE } from './gamelang.js';

const highlight = HighlightStyle.define([
  { tag: t.keyword, color: '#7a3e9d', fontWeight: '600' },
  { tag: t.atom, color: '#a0522d' },
  { tag: t.comment, color: '#6a737d', fontStyle: 'italic' },
  { tag: t.string, color: '#22863a' },
  { tag: t.number, color: '#005cc5' },
  { tag: t.operator, color: '#d73a49' },
  { tag: t.typeName, color: '#b35900' },
  { tag: t.definition(t.variableName), color: '#0b6e99', fontWeight: '600' },
  { tag: t.standard(t.variableName), color: '#6f42c1' },
  { tag: t.bracket, color: '#555' },
]);

/* Names the program declares (game, graph, hackenbush): offered along with the prelude's. */
function declaredNames(text) {
  const names = new Set();
  for (const m of text.matchAll(/\b(?:game|graph|hackenbush)\s+([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]);
  return names;
}

function completeGame(context) {
  const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  // no completion inside comments and strings: look at the line before the word
  const line = context.state.doc.lineAt(word.from);
  const before = line.text.slice(0, word.from - line.from);
  if (/#|\/\//.test(before.replace(/"[^"]*"/g, '')) || (before.split('"').length % 2 === 0)) return null;
  const options = [
    ...QUERIES.map((label) => ({ label, type: 'keyword', boost: 2 })),
    ...KEYWORDS.map((label) => ({ label, type: 'keyword' })),
    ...CONVENTIONS.map((label) => ({ label, type: 'constant', detail: 'convention' })),
    ...SOFT.map((label) => ({ label, type: 'constant' })),
    ...BUILTINS.map((label) => ({ label, type: 'function', detail: 'built-in' })),
    ...PRELUDE.map((label) => ({ label, type: 'class', detail: 'prelude game', boost: 1 })),
  ];
  const seen = new Set(options.map((o) => o.label));
  for (const n of declaredNames(context.state.doc.toString()))
    if (!seen.has(n)) options.push({ label: n, type: 'class', detail: 'your game', boost: 3 });
  return { from: word.from, options, validFor: /^[A-Za-z0-9_]*$/ };
}

/* The character offset of LINE:COL (both 1-based; the column counts bytes of UTF-8, as the C
 * front end does) in the document, clamped to the line. */
function offsetOf(doc, line, column) {
  const ln = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const bytes = new TextEncoder().encode(ln.text);
  const byteCol = Math.min(Math.max(column - 1, 0), bytes.length);
  const chars = new TextDecoder().decode(bytes.subarray(0, byteCol)).length;
  return { ln, from: ln.from + chars };
}

/* Where the token at `from` ends: a word, a number, a string, a run of operator characters,
 * or one character. */
function tokenEnd(text, i) {
  const rest = text.slice(i);
  const m = rest.match(/^[A-Za-z0-9_]+/) || rest.match(/^"(?:[^"\\]|\\.)*"?/) ||
    rest.match(/^(<=>|\.\.|->|<=|>=|==|!=|&&|\|\||<<|>>)/) || rest.match(/^[^\s]/);
  return i + (m ? m[0].length : 0);
}

export function diagnosticRange(doc, d) {
  const { ln, from } = offsetOf(doc, d.line, d.column);
  let a = from - ln.from;
  // an error at the end of a line (an unexpected end of input): underline its last character
  if (a >= ln.text.length && ln.text.length > 0) a = ln.text.length - 1;
  const b = Math.max(tokenEnd(ln.text, a), Math.min(a + 1, ln.text.length));
  return { from: ln.from + a, to: ln.from + b };
}

/* Typing '}' where the editor already closed the block: closeBrackets put a '}' after '{', and
 * Enter moved it to a line of its own below, where typing over it no longer works; so a '}'
 * typed when the program's braces are balanced and the next thing after the cursor (past
 * blanks and line ends) is a '}' takes the place of that one, rather than leaving a stray '}'. */
function braceCount(text) {
  let n = 0;
  // braces in comments and strings do not count
  for (const line of text.split('\n')) {
    const code = line.replace(/"(?:[^"\\]|\\.)*"?/g, '').replace(/(#|\/\/).*$/, '');
    for (const ch of code) n += ch === '{' ? 1 : ch === '}' ? -1 : 0;
  }
  return n;
}
const closeBraceOver = EditorView.inputHandler.of((view, from, to, text) => {
  if (text !== '}' || from !== to || view.state.selection.ranges.length !== 1) return false;
  const doc = view.state.doc;
  const ahead = /^[ \t\r\n]*\}/.exec(doc.sliceString(from, Math.min(doc.length, from + 400)));
  if (!ahead || braceCount(doc.toString()) > 0) return false;
  const end = from + ahead[0].length;   // just past the '}' already there
  view.dispatch({ changes: { from, to: end, insert: '}' }, selection: { anchor: from + 1 }, userEvent: 'input.type' });
  return true;
});

export function createEditor(parent, { doc = '', onRun, onChange } = {}) {
  const runKeys = Prec.highest(keymap.of([
    { key: 'Mod-Enter', run: () => { onRun && onRun(); return true; } },
    { key: 'Shift-Enter', run: () => { onRun && onRun(); return true; } },
  ]));
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        runKeys, closeBraceOver,
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), drawSelection(),
        indentOnInput(), bracketMatching(), closeBrackets(), highlightActiveLine(), highlightSelectionMatches(),
        gameLanguage, syntaxHighlighting(highlight), EditorView.lineWrapping,
        autocompletion({ override: [completeGame], activateOnTyping: true }),
        lintGutter(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap,
          ...completionKeymap, ...lintKeymap, indentWithTab, { key: 'Mod-/', run: toggleComment }]),
        EditorView.updateListener.of((u) => { if (u.docChanged && onChange) onChange(); }),
        EditorView.theme({ '&': { height: '100%' }, '.cm-scroller': { fontFamily: 'var(--mono)' } }),
      ],
    }),
  });
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
      view.dispatch(setDiagnostics(view.state, []));
    },
    /* d = {line, column, message} or null (clears) */
    showDiagnostic(d) {
      if (!d) { view.dispatch(setDiagnostics(view.state, [])); return; }
      const { from, to } = diagnosticRange(view.state.doc, d);
      view.dispatch(setDiagnostics(view.state, [{ from, to, severity: 'error', message: d.message, source: 'grundy' }]));
      view.dispatch({ effects: EditorView.scrollIntoView(from, { y: 'center' }) });
    },
    focus: () => view.focus(),
  };
}
