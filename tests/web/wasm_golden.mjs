// wasm_golden: the WebAssembly module (build-web/web/grundy.js, web/wasm/binding.c) gives what
// the command gives. Under node:
//
//   node tests/web/wasm_golden.mjs BUILD_WEB/web SOURCE_DIR [NATIVE_GRUNDY]
//
// - every examples/NAME.game the native golden test covers (tests/run_golden.sh): the run's
//   stdout equals tests/golden/NAME.txt, its exit status the example's "# expect-exit:", the
//   per-query text blocks join to exactly that stdout, and the per-query JSON objects equal
//   tests/golden/NAME.json's lines. Plot queries are the one difference by design (this build
//   has no cairo: "plot T: not drawn here (...)" where the command says "plot T: wrote F (...)");
//   their lines are mapped back to the command's shape and everything else compared as is.
// - with NATIVE_GRUNDY: every tests/diagnostics/*.game gives the same standard error, exit
//   status 2 and the diagnostic's place as `grundy program.game`; a program with plots gives
//   the command's text but for the plot lines; a query in csv equals --query N --format csv.
// - each query runs once (the module's count of query runs) and its answer is sent as it ends,
//   in order, by the module's hooks (web/wasm/hooks.js).
// - a run past its max time ends with exit 3 and the limit's message; one query against the
//   program (play) answers, and a bad one is located in its own text ("query:1:COL").
// - web/src/client.js over web/src/worker.js (in a node vm standing in for the browser's
//   worker): ready, run, query, runFormat, and stop rejecting a pending run with {stopped: true}.
import { loadGrundy, vmWorker } from '../../web/node.mjs';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

const [webDir, srcDir, nativeArg] = process.argv.slice(2);
const native = nativeArg && path.resolve(nativeArg);   // run from a scratch folder
if (!webDir || !srcDir) {
  console.error('usage: node wasm_golden.mjs BUILD_WEB/web SOURCE_DIR [NATIVE_GRUNDY]');
  process.exit(2);
}
// As web/src/worker.js calls the exports (web/node.mjs): strings in, one JSON answer back.
const { call } = await loadGrundy(webDir);
const run = (source, { maxTime = 0, maxMemory = 0, to = 0 } = {}) => call('grundy_run', [source, maxTime, maxMemory, to]);
const query = (source, text, format) => call('grundy_query', [source, text, format, 0, 0]);
const runFormat = (source, index, format) => call('grundy_run_format', [source, index, format, 0, 0, 0]);

let pass = 0, fail = 0;
function check(name, fn) {
  try {
    fn();
    pass++;
  } catch (e) {
    fail++;
    console.log(`FAIL ${name}: ${e.message.split('\n').slice(0, 30).join('\n')}`);
  }
}

// The command's line for a plot, from this build's (the only text that differs by design).
const PLOT_NOT_DRAWN = /^plot (.*): not drawn here \(this build has no cairo; (.*) not written, (\d+x\d+), (\d+ positions?)\); .*$/gm;
const asNative = (text) => text.replace(PLOT_NOT_DRAWN, 'plot $1: wrote $2 ($3, $4)');
// run_golden.sh keeps the output as $(...) does (trailing newlines cut) plus one newline.
const asGolden = (text) => text.replace(/\n+$/, '') + '\n';

// ---- the examples against tests/golden ----
const examples = path.join(srcDir, 'examples'), golden = path.join(srcDir, 'tests', 'golden');
for (const file of fs.readdirSync(examples).filter((f) => f.endsWith('.game')).sort()) {
  const name = path.basename(file, '.game');
  const source = fs.readFileSync(path.join(examples, file), 'utf8');
  const wantExit = Number((source.match(/^# expect-exit: *(\d+)/m) || [0, 0])[1]);
  const args = (source.match(/^# args: *(.*)$/m) || [null, ''])[1].trim().split(/\s+/).filter(Boolean);
  const settings = {};
  for (let i = 0; i < args.length; i += 2) {
    if (args[i] === '--to') settings.to = Number(args[i + 1]);
    else throw new Error(`${file}: the option ${args[i]} of '# args:' is not one this test passes on`);
  }
  const sent = [];
  const r = call('grundy_run', [source, 0, 0, settings.to || 0], { onAnswer: (a) => sent.push(a.index) });
  check(`${name} (once)`, () => {
    // each query ran once (text and JSON from one computation) and its answer was sent once, in order
    const finished = r.queries.filter((q) => q.json !== null).length;
    assert.equal(r.query_runs, r.exit >= 2 ? sent.length : r.queries.length, `${r.query_runs} query runs`);
    assert.deepEqual(sent, r.queries.slice(0, sent.length).map((q) => q.index));
    assert.ok(finished <= sent.length);
  });
  check(`${name} (text)`, () => {
    assert.equal(r.exit, wantExit, `exit status ${r.exit}, expected ${wantExit}; stderr: ${r.stderr}`);
    assert.equal(r.queries.map((q) => q.output).join(''), r.stdout, 'the query blocks do not join to stdout');
    assert.equal(asGolden(asNative(r.stdout)), fs.readFileSync(path.join(golden, name + '.txt'), 'utf8'));
  });
  check(`${name} (json)`, () => {
    const want = fs.readFileSync(path.join(golden, name + '.json'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(r.queries.flatMap((q) => q.json), want);
  });
}

// ---- a time limit: exit 3, the limit's message, the answers before it kept ----
check('max time', () => {
  const source = 'table kayles(0..5);\ncheck grundygame periodic;\n';
  const r = run(source, { maxTime: 0.5, to: 4294967296 });
  assert.equal(r.exit, 3, r.stderr);
  assert.equal(r.status, 'error');
  assert.match(r.stderr, /^grundy: error: .*time/);
  assert.match(r.stdout, /^table kayles\(0\.\.5\)/);
  assert.equal(r.queries.length, 2);
  assert.equal(r.queries[0].json[0].values.length, 6);   // the finished query's JSON, sent as it ended
  assert.equal(r.queries[1].json, null);
});

// ---- one query against the program (play, a clicked move) ----
check('query', () => {
  const source = 'game k = octal "0.77";\ntable k(0..10);\n';
  const ok = query(source, 'solve k(4) + k(7)', 'json');
  assert.equal(ok.ok, true, ok.error);
  assert.equal(JSON.parse(ok.output).outcome, 'N');
  const again = query(source, 'options k(7)', 'text');   // the kept program answers again
  assert.equal(again.ok, true, again.error);
  const bad = query(source, 'solve k(4) + q(1)', 'text');
  assert.equal(bad.ok, false);
  assert.match(bad.error, /^query:1:\d+: error: /);
  assert.ok(bad.line === 1 && bad.column > 1);
  const wrong = query('game k = octal "0.7;\n', 'solve k(1)', 'text');
  assert.equal(wrong.ok, false);
  assert.match(wrong.error, /^program\.game:1:\d+: error: /);
});

// ---- with the native command: diagnostics, plots, a query in a format ----
if (native) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-golden-'));
  const grundy = (source, ...args) => {
    fs.writeFileSync(path.join(tmp, 'program.game'), source);
    return spawnSync(native, ['program.game', '--threads', '1', '--no-progress', ...args], { cwd: tmp, encoding: 'utf8', maxBuffer: 1 << 28 });
  };
  const diagnostics = path.join(srcDir, 'tests', 'diagnostics');
  for (const file of fs.readdirSync(diagnostics).filter((f) => f.endsWith('.game')).sort()) {
    check(`diagnostic ${file}`, () => {
      const source = fs.readFileSync(path.join(diagnostics, file), 'utf8');
      const [, line, col] = source.match(/^# expect: *(\d+):(\d+)/m) || [];
      const want = grundy(source);
      const r = run(source);
      assert.equal(r.exit, want.status, r.stderr);
      assert.equal(r.stdout, want.stdout);
      assert.equal(r.stderr, want.stderr);
      if (r.exit === 2 && line) {
        assert.ok(r.diagnostic, 'no diagnostic');
        assert.deepEqual([r.diagnostic.line, r.diagnostic.column], [Number(line), Number(col)]);
        assert.ok(r.stderr.includes(r.diagnostic.message));
      }
    });
  }
  check('plots', () => {
    const source = 'game k = octal "0.77";\nplot k(0..40) to "k.png";\ntable k(0..9);\nplot wythoff(0..9, 0..9) outcome to "w.svg";\n';
    const want = grundy(source);
    const r = run(source);
    assert.equal(r.exit, want.status, r.stderr);
    assert.match(r.stdout, /not drawn here \(this build has no cairo/);
    assert.equal(asNative(r.stdout), want.stdout);
    const json = grundy(source, '--format', 'json');
    assert.deepEqual(r.queries.flatMap((q) => q.json), json.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
  });
  // The rare-value kernel's WebAssembly SIMD pair search (src/eval/heap/sparsewasm.c: u8 tables,
  // and u16 ones once a value passes 255, as 0.6's do near heap 2^18) against the command's
  // own paths (AVX-512, AVX2 or SSE2, whichever this processor has): every value, in CSV.
  check('rare-value kernel', () => {
    const source = 'game g6 = octal "0.6";\ntable grundygame(0..200000);\ntable g6(0..300000);\n';
    for (const index of [1, 2]) {
      const r = runFormat(source, index, 'csv');
      const want = grundy(source, '--query', String(index), '--format', 'csv');
      assert.equal(want.status, 0, want.stderr);
      assert.ok(r.ok, r.error);
      assert.equal(r.output, want.stdout, `query ${index}`);
    }
  });
  check('runFormat', () => {
    const source = fs.readFileSync(path.join(examples, 'tour.game'), 'utf8');
    for (const [index, format] of [[1, 'csv'], [2, 'json'], [3, 'text']]) {
      const r = runFormat(source, index, format);
      const want = grundy(source, '--query', String(index), '--format', format);
      assert.equal(r.ok, want.status <= 1, r.error);
      assert.equal(r.output, want.stdout, `query ${index} in ${format}`);
    }
  });
  fs.rmSync(tmp, { recursive: true, force: true });
} else {
  console.log('(no native grundy given: the diagnostics, plots and formats against it are skipped)');
}

// ---- the client and the worker, with a stand-in for the browser's Worker ----
// worker.js runs in a vm context of its own (importScripts, postMessage, fetch of the .wasm);
// messages are delivered on later turns, as a browser does. One thread: a call runs whole.
globalThis.Worker = vmWorker(webDir);
const { GrundyClient } = await import(pathToFileURL(path.join(srcDir, 'web', 'src', 'client.js')).href);
const client = new GrundyClient('worker.js');
const tour = fs.readFileSync(path.join(examples, 'tour.game'), 'utf8');
async function checkAsync(name, fn) {
  try { await fn(); pass++; } catch (e) { fail++; console.log(`FAIL ${name}: ${e && e.message ? e.message : JSON.stringify(e)}`); }
}
await checkAsync('client: ready, run, query, runFormat', async () => {
  await client.ready;
  const r = await client.run(tour, { maxTime: 60, maxMemory: 1024 });
  assert.equal(r.exit, 0);
  assert.equal(r.status, 'done');
  assert.equal(asGolden(r.stdout), fs.readFileSync(path.join(golden, 'tour.txt'), 'utf8'));
  const t = await client.query(tour, 'options kayles(7)', 'json');
  assert.equal(t.ok, true, t.error);
  const csv = await client.runFormat(tour, 1, 'csv');
  assert.match(csv, /^n,value\n0,0\n/);
});
await checkAsync('client: stop', async () => {
  const pending = client.run('check grundygame periodic;\n', { to: 4294967296 });
  client.stop();
  await assert.rejects(pending, (e) => e && e.stopped === true);
  await client.ready;   // a fresh worker
  const r = await client.run('table kayles(0..5);\n', {});
  assert.equal(r.exit, 0);
  const bad = await client.run('table kayles(0..5)\n', {});
  assert.equal(bad.exit, 2);
  assert.equal(bad.status, 'error');
  assert.match(bad.stderr, /^program\.game:1:19: error: unexpected end of input/);
  assert.deepEqual([bad.diagnostic.line, bad.diagnostic.column], [1, 19]);
});

console.log(`wasm golden: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
