// render.js: one <section class="answer"> per finished query of a run, in #answers, added as
// each query ends: a header with the query's text and its CSV / JSON downloads, the answer drawn
// from the query's JSON objects (tables.js for tables, answers.js for the rest), and the query's
// own text output folded under it (the whole run's text is in #output). The query that runs
// has a <section class="running"> (not an .answer) with its progress line, replaced by its
// answer when it ends, or marked stopped.
import { el, saveFile, errorText } from './dom.js';
import { pageWords } from './words.js';
import { renderTable } from './tables.js';
import { renderSolve, renderCheck, renderQuotient, renderCensus, renderOptions, renderFile } from './answers.js';

/* ctx (renderQuery): {client, source, onPlay(position, convention)}: what answers need to ask more. */

/* After the last answer: a program with no queries says so; an error (bad input, a limit) gets
 * its message, wrapped, after the answers that finished. */
export function renderRunEnd(container, run) {
  container.querySelector(':scope > .running')?.remove();
  if (!run.queries || !run.queries.length) {
    if (run.status !== 'error') container.append(el('p', { class: 'empty' }, 'No queries in the program.'));
  }
  if (run.exit >= 2 && run.stderr) container.append(el('pre', { class: 'run-error' }, pageWords(run.stderr)));
}

/* The query that runs (q: {index, text, kind}): its place in #answers with a progress line;
 * setProgress(p) updates the line, stopped() marks it stopped, remove() takes it away. */
export function renderRunning(q, container) {
  container.querySelector(':scope > .running')?.remove();
  const line = el('p', { class: 'progress' }, 'running ...');
  const section = el('section', { class: 'running', dataset: { index: q.index, kind: q.kind } },
    el('header', {}, el('span', { class: 'qnum' }, `${q.index}`), el('code', { class: 'qtext' }, queryText(q)),
      el('span', { class: 'spinner', title: 'running' })),
    el('div', { class: 'answer-body' }, line));
  container.append(section);
  return {
    setProgress(p) { line.textContent = progressText(p); },
    stopped() { section.classList.add('stopped'); line.textContent = `stopped (${line.textContent})`; },
    remove() { section.remove(); },
  };
}

const count = (x) => Math.round(x).toLocaleString('en-US');

/* "grundygame: 1,234,567 of 20,000,001 done (6%), 3.5 s" */
export function progressText(p) {
  const secs = `${p.seconds.toFixed(1)} s`;
  if (!p.label) return `running, ${secs}`;
  const of = p.total > 0 ? ` of ${count(p.total)} done (${Math.floor((100 * p.done) / p.total)}%)` : ' done';
  return `${p.label}: ${count(p.done)}${of}, ${secs}`;
}

function downloads(q, ctx) {
  const base = `query-${q.index}-${q.kind}`;
  const csv = el('button', { type: 'button', class: 'download-csv', title: 'this answer as CSV (grundy --format csv)' }, 'CSV');
  const json = el('button', { type: 'button', class: 'download-json', title: 'this answer as JSON lines (grundy --format json)' }, 'JSON');
  csv.addEventListener('click', async () => {
    csv.disabled = true;
    try {
      const r = await ctx.client.runFormat(ctx.source, q.index, 'csv');
      const text = typeof r === 'string' ? r : r && (r.output ?? r.stdout ?? '');
      saveFile(`${base}.csv`, text, 'text/csv');
    } catch (e) {
      csv.title = `CSV failed: ${errorText(e)}`;
    } finally { csv.disabled = false; }
  });
  // the run's JSON when it made it; else (a table past the page's JSON bound) asked again
  json.addEventListener('click', async () => {
    if (q.json) { saveFile(`${base}.json`, q.json.map((o) => JSON.stringify(o)).join('\n') + '\n', 'application/json'); return; }
    json.disabled = true;
    try {
      saveFile(`${base}.json`, await ctx.client.runFormat(ctx.source, q.index, 'json'), 'application/json');
    } catch (e) {
      json.title = `JSON failed: ${errorText(e)}`;
    } finally { json.disabled = false; }
  });
  return el('span', { class: 'downloads' }, csv, json);
}

/* The query as written: the engine names a check or census by its claim alone
 * ("kayles periodic"), so the keyword is put back in front when it is missing. */
export function queryText(q) {
  const t = (q.text || '').trim();
  return q.kind && !new RegExp(`^${q.kind}\\b`).test(t) ? `${q.kind} ${t}` : t;
}

/* The section is in the page before its answer is drawn, so drawings can take its width
 * (it takes the place of the query's running section when there is one). */
export function renderQuery(q, ctx, container) {
  q = { ...q, text: queryText(q) };
  const section = el('section', { class: 'answer', dataset: { index: q.index, kind: q.kind } });
  const head = el('header', {},
    el('span', { class: 'qnum' }, `${q.index}`),
    el('code', { class: 'qtext', title: q.line ? `line ${q.line}` : '' }, q.text),
    downloads(q, ctx));
  const body = el('div', { class: 'answer-body' });
  section.append(head, body);
  const running = container.querySelector(':scope > .running');
  if (running) running.before(section); else container.append(section);
  const objs = q.json || [];
  try {
    if (!objs.length) body.append(el('pre', { class: 'text' }, pageWords(q.output) || '(no answer)'));
    else if (q.kind === 'table') renderTable(objs[0], body, q);
    else if (q.kind === 'solve') renderSolve(objs[0], body, ctx);
    else if (q.kind === 'check') renderCheck(objs, body);
    else if (q.kind === 'quotient') renderQuotient(objs[0], body, q.output || '');
    else if (q.kind === 'census') renderCensus(objs, body);
    else if (q.kind === 'options') renderOptions(objs[0], body);
    else if (q.kind === 'plot' || q.kind === 'dot') renderFile(q, objs[0], body, ctx);
    else body.append(el('pre', { class: 'text' }, pageWords(q.output) || ''));
  } catch (e) {
    // a shape this page does not know: the text is always right
    console.error(e);
    body.append(el('pre', { class: 'text' }, pageWords(q.output) || ''));
  }
  if (objs.length && q.output)
    section.append(el('details', { class: 'text-output' }, el('summary', {}, 'text'), el('pre', {}, pageWords(q.output))));
}
