// bench_wasm: the page's engine against the native command, in one run.
//
//   emcmake cmake -S . -B build-web && cmake --build build-web && cmake -B build && cmake --build build -j2 && node bench/web/bench_wasm.mjs
//
// (options: --web DIR, build-web/web; --native FILE, build/grundy; --repeat N, the best of N.)
// For each program below it times, on the same machine in the same run:
//   page    the page's path: web/src/client.js's run() over web/src/worker.js (in a node vm
//           standing in for the browser's worker, web/node.mjs's vmWorker), from the request to
//           the whole result: the one call into the module (grundy_run: each query once, its
//           text and JSON), the answers' JSON parsed and every message structured-cloned as a
//           browser's postMessage does;
//   wasm    the call alone (grundy_run through web/node.mjs, as the worker makes it);
//   native  `grundy FILE` as a user runs it (its default threads), and `--threads 1`,
//           spawned with the same program; and `--threads 1` with GRUNDY_SIMD=sse2, the
//           kernels' path the module takes (WebAssembly SIMD is 16 bytes wide: the command's
//           AVX2 and AVX-512 paths, sparsevec.c, have no WebAssembly counterpart);
// checks that the page's text equals the command's, and prints the times and page/native (the
// issue's target: within 2x) and page/native-one-thread (the page has one thread).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadGrundy, vmWorker } from '../../web/node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const opt = { web: path.join(root, 'build-web', 'web'), native: path.join(root, 'build', 'grundy'), repeat: 3 };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!(k in opt) || process.argv[i + 1] === undefined) {
    console.error('usage: node bench/web/bench_wasm.mjs [--web DIR] [--native FILE] [--repeat N]');
    process.exit(2);
  }
  opt[k] = k === 'repeat' ? Number(process.argv[i + 1]) : path.resolve(process.argv[i + 1]);
}

// The two programs (Grundy's game is in the prelude; the rare-value kernel,
// src/eval/heap/sparse*.c): a periodicity check to the default bound, and a table.
const PROGRAMS = [
  { name: 'game ...; check grundygame periodic;', source: 'game s = subtract {1, 2};\ncheck grundygame periodic;\n' },
  { name: 'table grundygame(0..300000);', source: 'table grundygame(0..300000);\n' },
];

const { call } = await loadGrundy(opt.web);
globalThis.Worker = vmWorker(opt.web);
const { GrundyClient } = await import(pathToFileURL(path.join(root, 'web', 'src', 'client.js')).href);
const client = new GrundyClient('worker.js');
await client.ready;

async function best(fn) {
  let t = Infinity, out;
  for (let i = 0; i < opt.repeat; i++) {
    const t0 = performance.now();
    out = await fn();
    t = Math.min(t, (performance.now() - t0) / 1000);
  }
  return { t, out };
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wasm-'));
const native = (source, extra, env = {}) => {
  fs.writeFileSync(path.join(scratch, 'program.game'), source);
  return spawnSync(opt.native, ['program.game', '--no-progress', ...extra],
                   { cwd: scratch, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, ...env } });
};

const f = (s) => s.toFixed(3).padStart(7);
console.log(`wasm: ${opt.web}\nnative: ${opt.native} (${os.cpus().length} cores; its default threads, and --threads 1)\nthe best of ${opt.repeat}\n`);
console.log(`${'program'.padEnd(38)} ${'page s'.padStart(7)} ${'wasm s'.padStart(7)} ${'native'.padStart(7)} ${'nat. 1t'.padStart(7)} ${'1t sse2'.padStart(7)} ${'page/native'.padStart(11)} ${'page/1t'.padStart(8)} ${'page/sse2'.padStart(9)}`);
let worst = 0;
for (const p of PROGRAMS) {
  const page = await best(() => client.run(p.source, {}));
  const wasm = await best(() => call('grundy_run', [p.source, 0, 0, 0]));
  const n = await best(() => native(p.source, []));
  const n1 = await best(() => native(p.source, ['--threads', '1']));
  const n2 = await best(() => native(p.source, ['--threads', '1'], { GRUNDY_SIMD: 'sse2' }));
  if (page.out.exit !== 0 || n.out.status !== 0) throw new Error(`${p.name}: failed: ${page.out.stderr} ${n.out.stderr}`);
  if (page.out.stdout !== n.out.stdout) throw new Error(`${p.name}: the page's text differs from the command's`);
  if (page.out.query_runs !== page.out.queries.length) throw new Error(`${p.name}: ${page.out.query_runs} query runs`);
  const ratio = page.t / n.t;
  worst = Math.max(worst, ratio);
  console.log(`${p.name.padEnd(38)} ${f(page.t)} ${f(wasm.t)} ${f(n.t)} ${f(n1.t)} ${f(n2.t)} ${ratio.toFixed(2).padStart(10)}x ${(page.t / n1.t).toFixed(2).padStart(7)}x ${(page.t / n2.t).toFixed(2).padStart(8)}x`);
}
fs.rmSync(scratch, { recursive: true, force: true });
console.log(`\nworst page/native: ${worst.toFixed(2)}x (target: within 2x)`);
process.exit(0);
