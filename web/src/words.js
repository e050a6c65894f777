// words.js: the engine's messages in the page's words. The library speaks to the command line
// ("raise it with --max-time", "this build has no cairo"); the page has settings instead of
// options (time, memory, check to), downloads instead of --format, and draws its own
// pictures. pageWords() rewrites a message or a whole output for the page: the known phrases
// first, then any option left named by what it is, so no `--option` reaches the page.

const PHRASES = [
  // limits: the settings in the toolbar
  [/raise it with --max-positions or --max-memory/g, 'raise the memory setting'],
  [/raise --max-positions or --max-memory/g, 'raise the memory setting'],
  [/raise it with --max-memory/g, 'raise the memory setting'],
  [/raise --max-memory/g, 'raise the memory setting'],
  [/lower --max-memory/g, 'lower the memory setting'],
  [/give a larger --max-memory/g, 'give a larger memory setting'],
  [/set one with --max-memory/g, 'set one with the memory setting'],
  [/raise it with --max-time/g, 'raise the time setting'],
  [/with a larger --max-time/g, 'with a larger time setting'],
  [/raise --max-positions to look further/g, 'the command line can look further'],
  [/--to N computes further/g, 'a larger "check to" setting computes further'],
  [/raise --to\b/g, 'raise the "check to" setting'],
  [/a larger --to\b/g, 'a larger "check to" setting'],
  // the text's shortened tables: the downloads have everything
  [/\(--format csv or json prints every value\)/g, '(the CSV and JSON downloads have every value)'],
  // plots: the page draws them
  [/: not drawn here \(this build has no cairo; ([^\n]*?) not written, ([^\n]*?)\); the page draws it from the table/g,
    ': drawn in the page ($1 is not written, $2)'],
  [/this build of grundy has no cairo, so it draws no pictures \(rebuild it with libcairo2-dev\)/g,
    'the page draws pictures in its answers, not into files'],
  [/this build has no cairo;?\s*/g, ''],
];

const OPTION_NAMES = {
  'max-time': 'the time setting', 'max-memory': 'the memory setting', 'to': 'the "check to" setting',
  'max-positions': 'the limit of positions', 'format': 'the downloads', 'threads': 'threads',
  'query': 'the query',
};

/* text as the page says it (a message, or #output whole). */
export function pageWords(text) {
  if (!text) return text;
  let s = String(text);
  for (const [re, to] of PHRASES) s = s.replace(re, to);
  // any option still named: what it is, without the command line's dashes
  return s.replace(/(^|[\s(,;'"])--([a-z][a-z-]*)/g, (m, pre, name) => `${pre}${OPTION_NAMES[name] || `the command's ${name} option`}`);
}
