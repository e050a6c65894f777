/* worker: the page's engine, in a web worker so a long query never freezes the page. A plain
 * (classic) worker script: it loads grundy.js, the library compiled to WebAssembly with
 * web/wasm/binding.c, and answers the messages of web/src/client.js one at a time:
 *   {id, op: 'run', source, settings}            -> the whole program, as `grundy FILE` runs it,
 *       each query once; while it runs, messages of the same id tell the page how it goes:
 *       {id, type: 'queries', queries} once it compiled, {id, type: 'answer', answer} as each
 *       query ends (its text and JSON; a dot answer's file as `files`), {id, type: 'progress', progress} every ~0.5 s
 *       (web/wasm/hooks.js calls the handlers set here from inside the run)
 *   {id, op: 'query', source, text, format, settings}  -> one query against the program
 *   {id, op: 'runFormat', source, index, format, settings} -> one of its own queries, as csv/json/text
 *   {id, op: 'options', source, position, convention, offset, limit, find, settings} -> a slice of a
 *       position's moves (play: see optionsSlice)
 * and replies {id, result} or {id, error, fatal}. It first posts {type: 'ready'} (or
 * {type: 'failed', error} when the module cannot load). A call cannot be interrupted from
 * inside (it is one synchronous call into the module): stopping terminates the worker, and the
 * answers already posted stay with the page. */
'use strict';
importScripts('grundy.js');

let grundy = null;       // the module, once loaded
let dead = null;         // why the module can no longer be used (it aborted), or null
const waiting = [];      // messages that came before the module was ready

// A JS string into the module's memory (malloc'd: a program may be larger than the stack).
function cString(s) {
  const n = grundy.lengthBytesUTF8(s) + 1;
  const p = grundy._malloc(n);
  if (!p) throw new Error('out of memory');
  grundy.stringToUTF8(s, p, n);
  return p;
}

// Calls an export of web/wasm/binding.c: strings in, one JSON answer out (then freed).
function call(name, args) {
  const owned = [];
  try {
    const cargs = args.map((a) => {
      if (typeof a !== 'string') return a;
      const p = cString(a);
      owned.push(p);
      return p;
    });
    const answer = grundy.ccall(name, 'number', cargs.map(() => 'number'), cargs);
    if (!answer) throw new Error('out of memory');
    try {
      return JSON.parse(grundy.UTF8ToString(answer));
    } finally {
      grundy.ccall('grundy_free', null, ['number'], [answer]);
    }
  } finally {
    for (const p of owned) grundy._free(p);
  }
}

/* A dot answer's file, written into the module's memory file system: its text goes to the page
 * (drawn there, and downloaded), and the file is removed so the next run starts clean. */
function withFiles(answer) {
  const o = answer.json && answer.json[0];
  if (o && o.query === 'dot' && o.file && grundy.FS) {
    try {
      // (the library gives the file the umask's mode, which is none under Emscripten)
      grundy.FS.chmod(o.file, 0o644);
      answer.files = { [o.file]: grundy.FS.readFile(o.file, { encoding: 'utf8' }) };
      grundy.FS.unlink(o.file);
    } catch { /* not written (a failure): the card says what the engine said */ }
  }
  return answer;
}

/* Play's view of a position's moves: a slice of them (grundy_options: the module keeps the
 * position's moves, so a sum with 199,999 moves costs the page the 50 it shows): {ok, count,
 * offset, options (the slice), firstP, firstD (the first move of that outcome, -1: none), found
 * (the index of msg.find among the moves, -1: not one of them)}; a failure as grundy_query's. */
const CONVENTIONS = { normal: -1, misere: 1, anyleaf: 2, every: 3 };   // normal: as `options POS` reads it
function optionsSlice(msg, time, memory) {
  const conv = CONVENTIONS[msg.convention] ?? -1;
  const limit = msg.limit >= 0 ? msg.limit | 0 : -1;
  return call('grundy_options', [String(msg.source), String(msg.position), conv, Math.max(0, msg.offset | 0), limit,
    msg.find === undefined ? '' : String(msg.find), time, memory]);
}

function num(v, dflt) {
  const x = Number(v);
  return Number.isFinite(x) && x > 0 ? x : dflt;
}

function handle(msg) {
  const { id, op } = msg;
  if (dead) {
    postMessage({ id, error: dead, fatal: true });
    return;
  }
  const s = msg.settings || {};
  const time = num(s.maxTime, 0), memory = num(s.maxMemory, 0), to = num(s.to, 0);
  try {
    let result;
    if (op === 'run') {
      grundy.onQueries = (queries) => postMessage({ id, type: 'queries', queries });
      grundy.onAnswer = (answer) => postMessage({ id, type: 'answer', answer: withFiles(answer) });
      grundy.onProgress = (progress) => postMessage({ id, type: 'progress', progress });
      try {
        result = call('grundy_run', [String(msg.source), time, memory, to]);
      } finally {
        grundy.onQueries = grundy.onAnswer = grundy.onProgress = null;
      }
    }
    else if (op === 'query') result = call('grundy_query', [String(msg.source), String(msg.text), String(msg.format || 'text'), time, memory]);
    else if (op === 'options') result = optionsSlice(msg, time, memory);
    else if (op === 'runFormat') result = call('grundy_run_format', [String(msg.source), msg.index | 0, String(msg.format || 'text'), time, memory, to]);
    else throw new Error('unknown request ' + op);
    postMessage({ id, result });
  } catch (e) {
    // A trap or abort inside the module (a bug, or memory past 4 GiB): the module's state is
    // lost, so every later request fails too and the client starts a fresh worker.
    dead = 'the engine stopped: ' + (e && e.message ? e.message : String(e));
    postMessage({ id, error: dead, fatal: true });
  }
}

onmessage = (e) => {
  if (grundy || dead) handle(e.data);
  else waiting.push(e.data);
};

createGrundy().then((m) => {
  grundy = m;
  postMessage({ type: 'ready' });
  for (const msg of waiting.splice(0)) handle(msg);
}, (e) => {
  dead = 'the engine could not load: ' + (e && e.message ? e.message : String(e));
  postMessage({ type: 'failed', error: dead });
  for (const msg of waiting.splice(0)) handle(msg);
});
