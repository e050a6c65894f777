// bench_wasm: the WebAssembly build against the native command, on one thread, in one run.
//
//   emcmake cmake -S . -B build-web && cmake --build build-web && cmake -B build && cmake --build build -j2 && node bench/web/bench_wasm.mjs
//
// (options: --web DIR, build-web/web; --native FILE, build/grundy; --repeat N, the best of N.)
// For each program below, the same text is run by the module (web/wasm/binding.c's
// grundy_run_format: the query's text, as `--query 1` prints it, which is what the page's run
// computes before its JSON pass) and by `grundy - --threads 1` with the same --to, timed from
// here around the call and around the child process; the outputs must be equal. Prints both
// times and wasm/native; the target is within 3x. Then the page's whole run (grundy_run: the
// text pass, then the JSON pass reading the tables it computed) of the same programs.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const opt = { web: path.join(root, 'build-web', 'web'), native: path.join(root, 'build', 'grundy'), repeat: 1 };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (!(k in opt) || process.argv[i + 1] === undefined) {
    console.error('usage: node bench/web/bench_wasm.mjs [--web DIR] [--native FILE] [--repeat N]');
    process.exit(2);
  }
  opt[k] = k === 'repeat' ? Number(process.argv[i + 1]) : path.resolve(process.argv[i + 1]);
}

// Grundy's game to 2^20: the rare-value kernel (src/eval/heap/sparse*.c), as a periodicity
// check (with its research columns) and as a table of values.
const PROGRAMS = [
  { name: 'check grundygame periodic, --to 1048576', source: 'check grundygame periodic;\n', to: 1048576 },
  { name: 'table grundygame(0..1048575)', source: 'table grundygame(0..1048575);\n', to: 0 },
];

const require = createRequire(import.meta.url);
const createGrundy = require(path.join(opt.web, 'grundy.js'));
const mod = await createGrundy({ wasmBinary: fs.readFileSync(path.join(opt.web, 'grundy.wasm')) });

function call(name, args) {   // as web/src/worker.js calls the exports
  const owned = [];
  const cargs = args.map((a) => {
    if (typeof a !== 'string') return a;
    const n = mod.lengthBytesUTF8(a) + 1;
    const p = mod._malloc(n);
    mod.stringToUTF8(a, p, n);
    owned.push(p);
    return p;
  });
  const answer = mod.ccall(name, 'number', cargs.map(() => 'number'), cargs);
  const text = mod.UTF8ToString(answer);
  mod.ccall('grundy_free', null, ['number'], [answer]);
  for (const p of owned) mod._free(p);
  return JSON.parse(text);
}

function best(fn) {
  let t = Infinity, out;
  for (let i = 0; i < opt.repeat; i++) {
    const t0 = performance.now();
    out = fn();
    t = Math.min(t, (performance.now() - t0) / 1000);
  }
  return { t, out };
}

const fmt = (s) => s.toFixed(2).padStart(7);
console.log(`wasm: ${opt.web}\nnative: ${opt.native} --threads 1\n`);
console.log(`${'program'.padEnd(42)} ${'wasm s'.padStart(7)} ${'native s'.padStart(8)} ${'wasm/native'.padStart(11)}`);
let worst = 0;
for (const p of PROGRAMS) {
  const w = best(() => call('grundy_run_format', [p.source, 1, 'text', 0, 4096, p.to]));
  const args = ['-', '--threads', '1', '--no-progress', ...(p.to ? ['--to', String(p.to)] : [])];
  const n = best(() => spawnSync(opt.native, args, { input: p.source, encoding: 'utf8', maxBuffer: 1 << 30 }));
  if (!w.out.ok || n.out.status !== 0) throw new Error(`${p.name}: failed: ${w.out.error || ''} ${n.out.stderr || ''}`);
  if (w.out.output !== n.out.stdout) throw new Error(`${p.name}: the outputs differ`);
  const ratio = w.t / n.t;
  worst = Math.max(worst, ratio);
  console.log(`${p.name.padEnd(42)} ${fmt(w.t)} ${fmt(n.t).padStart(8)} ${ratio.toFixed(2).padStart(10)}x`);
}
console.log(`\nworst wasm/native: ${worst.toFixed(2)}x (target: within 3x)\n`);
console.log(`the page's whole run (text, then JSON from the same tables):`);
for (const p of PROGRAMS) {
  const r = best(() => call('grundy_run', [p.source, 0, 4096, p.to]));
  if (r.out.exit !== 0) throw new Error(`${p.name}: exit ${r.out.exit}: ${r.out.stderr}`);
  console.log(`${p.name.padEnd(42)} ${fmt(r.t)} s`);
}
