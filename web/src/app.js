// app.js: the page's entry. Wires the editor, the engine (GrundyClient: the wasm build runs
// in a worker, so a long run never freezes the page), the answers, the play panel, the
// examples menu, the limits and the share link. A run computes each query once and its
// answers come one by one: each finished query gets its .answer in #answers and its text in
// #output as soon as it ends, and the query that runs a progress line. #output and #status
// follow the contract: while #status reads running, #answers holds one .answer per finished
// query; after a run #output holds exactly the run's standard output (and standard error
// after it on exit 2 or 3) and #status reads done or error; after Stop it reads stopped and
// #output holds the text of the queries that finished (their answers stay).
// #answers' data-query-runs says how many query computations the last run made (the engine's
// count: one per query).
import { GrundyClient } from './client.js';
import { createEditor } from './editor.js';
import { renderQuery, renderRunning, renderRunEnd } from './render.js';
import { createPlay } from './play.js';
import { readHash, share } from './share.js';
import { pageWords } from './words.js';

const DEFAULT_PROGRAM = `# Rule sets and queries; Ctrl-Enter runs. The classic games need no definition.
game s134 = subtract {1, 3, 4};     # take 1, 3 or 4 tokens

table s134(0..40);
table kayles(0..100);
table wythoff(0..99, 0..99);
check kayles periodic;
solve kayles(10) + *3;
`;

const $ = (id) => document.getElementById(id);
const statusEl = $('status'), outputEl = $('output'), answersEl = $('answers');
const runBtn = $('run'), stopBtn = $('stop'), elapsedEl = $('elapsed');

const client = new GrundyClient('worker.js');
let runId = 0;          // a newer run (or Stop) makes an older run's answer stale
let running = false;
let timer = null;
let lastSource = '';

function setStatus(s) {
  statusEl.textContent = s;
  document.body.dataset.status = s;
}

function startClock() {
  const t0 = performance.now();
  clearInterval(timer);
  elapsedEl.textContent = '';
  timer = setInterval(() => { elapsedEl.textContent = `${((performance.now() - t0) / 1000).toFixed(1)} s`; }, 100);
  return () => { clearInterval(timer); elapsedEl.textContent = `${((performance.now() - t0) / 1000).toFixed(2)} s`; };
}

/* The settings, each checked: a whole number of seconds from 1, MiB from 16, a check bound
 * from 1 (or empty: the default). A bad one is refused where it is typed, with a message
 * (settingsError); limits() is then null and nothing runs. */
const SETTINGS = [
  { id: 'max-time', name: 'time', min: 1, unit: 'seconds', optional: false },
  { id: 'max-memory', name: 'memory', min: 16, unit: 'MiB', optional: false },
  { id: 'check-to', name: 'check to', min: 1, unit: 'heaps', optional: true },
];
function settingsError() {
  for (const s of SETTINGS) {
    const input = $(s.id), raw = input.value.trim();
    const v = Number(raw);
    // (a number input reads '' for text it cannot parse: validity says it was typed)
    const bad = raw === '' ? !s.optional || input.validity.badInput : !Number.isInteger(v) || v < s.min;
    input.setAttribute('aria-invalid', bad ? 'true' : 'false');
    if (bad) return `${s.name} must be a whole number of ${s.unit}, at least ${s.min}${raw === '' ? '' : ` (not ${raw})`}`;
  }
  return null;
}
function showSettingsError() {
  const msg = settingsError(), box = $('settings-error');
  box.textContent = msg || '';
  box.hidden = !msg;
  return msg;
}
const limits = () => (showSettingsError() ? null : {
  maxTime: Number($('max-time').value),
  maxMemory: Number($('max-memory').value),
  to: Number($('check-to').value) || 0,
});

/* A located error in standard error when the run gave none (an error met while a query ran). */
function diagnosticOf(r) {
  if (r.diagnostic) return r.diagnostic;
  const m = /program\.game:(\d+):(\d+): error: ([^\n]*)/.exec(r.stderr || '');
  return m ? { line: Number(m[1]), column: Number(m[2]), message: m[3] } : null;
}

let current = null;      // the run going on: {finished answers, the running query's view}

async function run() {
  if (running) stop();
  const settings = limits();
  if (!settings) { setStatus('refused'); $('settings-error').scrollIntoView({ block: 'nearest' }); return; }
  const source = editor.getText();
  const id = ++runId;
  running = true;
  lastSource = source;
  setStatus('running');
  runBtn.disabled = false;
  stopBtn.disabled = false;
  outputEl.textContent = '';
  answersEl.replaceChildren();
  delete answersEl.dataset.queryRuns;
  editor.showDiagnostic(null);
  const stopClock = startClock();
  const ctx = { client, source, onPlay: (pos, conv) => playPanel.start(pos, conv) };
  const cur = current = { queries: [], finished: [], partial: null, running: null };
  const meta = (index) => cur.queries.find((q) => q.index === index) || { index, text: '', kind: '' };
  const handlers = {
    onQueries: (qs) => { if (id === runId) cur.queries = qs; },
    onAnswer: (a) => {
      if (id !== runId) return;
      if (cur.running && cur.running.index === a.index) { cur.running.view.remove(); cur.running = null; }
      if (!a.finished) { cur.partial = a; return; }   // cut by a failure: shown when the run ends
      cur.finished.push(a);
      outputEl.textContent += pageWords(a.output);
      renderQuery({ ...meta(a.index), output: a.output, json: a.json, table: a.table, files: a.files }, ctx, answersEl);
    },
    onProgress: (p) => {
      if (id !== runId) return;
      if (!cur.running || cur.running.index !== p.index)
        cur.running = { index: p.index, view: renderRunning(meta(p.index), answersEl) };
      cur.running.view.setProgress(p);
    },
  };
  let r;
  try {
    await client.ready;
    r = await client.run(source, settings, handlers);
  } catch (e) {
    if (id !== runId) return;           // stopped: stop() has said so already
    stopClock();
    running = false;
    stopBtn.disabled = true;
    if (e && e.stopped) { setStatus('stopped'); return; }
    current = null;
    cur.running?.view.remove();
    outputEl.textContent = `the engine failed: ${e && (e.message || e.error) || e}`;
    setStatus('error');
    return;
  }
  if (id !== runId) return;
  stopClock();
  running = false;
  current = null;
  stopBtn.disabled = true;
  outputEl.textContent = pageWords(r.exit >= 2 ? (r.stdout || '') + (r.stderr || '') : r.stdout || '');
  editor.showDiagnostic(diagnosticOf(r));
  if (cur.partial && cur.partial.output) renderQuery({ ...meta(cur.partial.index), output: cur.partial.output, json: null }, ctx, answersEl);
  renderRunEnd(answersEl, r);
  answersEl.dataset.queryRuns = String(r.query_runs);
  setStatus(r.status || (r.exit >= 2 ? 'error' : 'done'));
}

/* Stop: the worker is ended and a fresh one started; the page answers at once, keeps the
 * program text and the answers that finished (their text in #output), and marks the query
 * that was running stopped. */
function stop() {
  runId++;
  running = false;
  client.stop();
  clearInterval(timer);
  if (current) {
    current.running?.view.stopped();
    outputEl.textContent = pageWords(current.finished.map((a) => a.output).join(''));
    current = null;
  }
  setStatus('stopped');
  stopBtn.disabled = true;
  playPanel.reset();
}

const hash = readHash();
const editor = createEditor($('editor'), {
  doc: hash.program ?? DEFAULT_PROGRAM,
  onRun: run,
});
const playPanel = createPlay({ client, getSource: () => editor.getText() });

runBtn.addEventListener('click', run);
stopBtn.addEventListener('click', stop);
document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) { e.preventDefault(); run(); }
});

$('share').addEventListener('click', async () => {
  const r = await share(editor.getText());
  $('share-note').textContent = r.copied ? 'Link copied.' : 'The link is in the address bar.';
});

// the examples menu: examples.json (written by build.mjs from examples/*.game), same origin
const examplesEl = $('examples');
fetch('examples.json').then((r) => (r.ok ? r.json() : [])).then((list) => {
  for (const ex of list) {
    const o = document.createElement('option');
    o.value = ex.name;
    o.textContent = ex.name;
    o.dataset.text = ex.text;
    examplesEl.append(o);
  }
}).catch(() => { /* no menu: the page still works */ });
examplesEl.addEventListener('change', () => {
  const o = examplesEl.selectedOptions[0];
  if (o && o.dataset.text !== undefined) { editor.setText(o.dataset.text); editor.focus(); }
});

// settings remembered between visits (only valid ones), checked as they are typed
for (const { id } of SETTINGS) {
  const saved = localStorage.getItem(`grundy.${id}`);
  if (saved !== null) $(id).value = saved;
  const check = () => { if (!showSettingsError()) localStorage.setItem(`grundy.${id}`, $(id).value); };
  $(id).addEventListener('change', check);
  $(id).addEventListener('input', check);
}
showSettingsError();

// a pasted link in the same tab: load it (and run it when it says so)
window.addEventListener('hashchange', () => {
  const h = readHash();
  if (h.program === null) return;
  editor.setText(h.program);
  if (h.run) run();
});

setStatus('ready');
if (hash.program !== null && hash.run) run();
