/* client: the page's side of the engine (an ES module). GrundyClient starts web/src/worker.js
 * (which runs the library compiled to WebAssembly) and turns its messages into promises:
 *
 *   const g = new GrundyClient('worker.js');
 *   await g.ready;
 *   const r = await g.run(source, {maxTime: 60, maxMemory: 1024},          // seconds, MiB
 *                         {onQueries(qs), onAnswer(q), onProgress(p)});     // as the run goes
 *   // r = {exit, status: 'done'|'error', stdout, stderr, diagnostic: {line, column, message}|null,
 *   //      queries: [{index, text, kind, line, output, json: [...]}, ...], query_runs}
 *   const t = await g.query(source, 'options kayles(7)', 'json');
 *   // t = {ok: true, output} | {ok: false, error: 'query:1:9: error: ...', line, column}
 *   const csv = await g.runFormat(source, 2, 'csv');                 // the text, as --query 2 --format csv
 *   const m = await g.options(source, 'kayles(9)', 'normal', {offset: 0, limit: 50});  // play's moves, a slice
 *   g.stop();   // ends the running call now: a pending promise rejects with {stopped: true}
 *
 * A run computes each query once (its text and its JSON from one computation) and the worker
 * sends each answer as its query ends: onQueries gets the program's queries ({index, text, kind,
 * line}) once it compiled; onAnswer each finished query ({index, output, json, finished: true});
 * a query a failure cut comes last with finished false, json null and the text it had printed;
 * onProgress ({index, label, done, total, seconds}) says every ~0.5 s how far the running query
 * got, and once as each query starts (label null). The run's result joins them (mergeRun): a
 * query's `json` is null when the run stopped in it or before it. Plot queries say "not drawn
 * here": the page draws them.
 * The worker answers one request at a time, in order. A call into WebAssembly cannot be
 * interrupted, so stop() terminates the worker and starts a fresh one at once (its `ready` is
 * a new promise); the answers the handlers got before are the page's to keep. Settings left
 * out of query() and runFormat() are the last run's. */

/* The whole run from the engine's last answer (exit, status, stderr, diagnostic, query_runs),
 * the queries it compiled and the answers it sent: stdout (the answers' text blocks joined, as
 * the command prints them), and per query its output and json (null: not reached). */
export function mergeRun(result, queries, answers) {
  const byIndex = new Map(answers.map((a) => [a.index, a]));
  return {
    ...result,
    stdout: answers.map((a) => a.output).join(''),
    queries: queries.map((q) => {
      const a = byIndex.get(q.index);
      return { ...q, output: a ? a.output : null, json: a ? a.json : null };
    }),
  };
}

const STOPPED = Object.freeze({ stopped: true });

export class GrundyClient {
  constructor(workerUrl = 'worker.js') {
    this.workerUrl = workerUrl;
    this.settings = {};
    this._start();
  }

  // A fresh worker; `ready` resolves once its module has loaded.
  _start() {
    this.pending = new Map();
    this.nextId = 1;
    const worker = new Worker(this.workerUrl);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      this._readyResolve = resolve;
      this._readyReject = reject;
    });
    this.ready.catch(() => {});   // reported to whoever awaits it; never an unhandled rejection
    worker.onmessage = (e) => this._receive(worker, e.data);
    worker.onerror = (e) => {
      if (worker !== this.worker) return;
      e.preventDefault?.();
      const error = new Error('the engine failed: ' + (e.message || 'the worker could not start'));
      this._readyReject(error);
      this._fail(error, true);
    };
  }

  _receive(worker, msg) {
    if (worker !== this.worker) return;   // a message of a worker already stopped
    if (msg.type === 'ready') { this._readyResolve(); return; }
    if (msg.type === 'failed') { this._readyReject(new Error(msg.error)); return; }
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type) { p.on?.(msg); return; }   // a run's news: queries, an answer, progress
    this.pending.delete(msg.id);
    if ('result' in msg) p.resolve(msg.result);
    else {
      p.reject(new Error(msg.error));
      // the module aborted (a bug, or memory past its limit): it cannot answer again
      if (msg.fatal) this._fail(new Error(msg.error), true);
    }
  }

  // Rejects every pending request with reason; restart: a fresh worker afterwards.
  _fail(reason, restart) {
    const pending = [...this.pending.values()];
    this.pending.clear();
    if (restart) {
      this.worker.terminate();
      this._start();
    }
    for (const p of pending) p.reject(reason);
  }

  _request(msg, on = null) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject, on });
      this.worker.postMessage({ ...msg, id });
    });
  }

  // The whole program, as `grundy program.game` runs it (see the top of this file); handlers:
  // {onQueries, onAnswer, onProgress}, called as the run goes.
  async run(source, settings = {}, handlers = {}) {
    this.settings = { ...settings };
    let queries = [];
    const answers = [];
    const on = (msg) => {
      if (msg.type === 'queries') { queries = msg.queries; handlers.onQueries?.(queries); }
      else if (msg.type === 'answer') { answers.push(msg.answer); handlers.onAnswer?.(msg.answer); }
      else if (msg.type === 'progress') handlers.onProgress?.(msg.progress);
    };
    const result = await this._request({ op: 'run', source, settings: this.settings }, on);
    return mergeRun(result, queries, answers);
  }

  // One query against the program's definitions (a position to solve, options, a table).
  async query(source, text, format = 'text', settings = this.settings) {
    return this._request({ op: 'query', source, text, format, settings });
  }

  // A slice of a position's moves (play): {ok, position, convention, count, offset, options,
  // firstP, firstD, found} (worker.js's optionsSlice); the worker keeps the last position's.
  async options(source, position, convention = 'normal', { offset = 0, limit = 50, find } = {}, settings = this.settings) {
    return this._request({ op: 'options', source, position, convention, offset, limit, find, settings });
  }

  // One of the program's own queries (1-based, in file order) in 'csv', 'json' or 'text':
  // the output text; on a failure, rejects with {error, exit} (the message as the command says it).
  async runFormat(source, index, format = 'csv', settings = this.settings) {
    const r = await this._request({ op: 'runFormat', source, index, format, settings });
    if (!r.ok) throw { error: r.error, exit: r.exit };
    return r.output;
  }

  // Ends the running call at once; pending promises reject with {stopped: true}.
  stop() {
    this._fail(STOPPED, true);
  }
}
