// node.mjs: the wasm module in node, its exports called as web/src/worker.js calls them (strings
// into malloc'd memory, one malloc'd JSON answer back, freed by grundy_free). For the module's
// test (tests/web/wasm_golden.mjs) and its bench (bench/web/bench_wasm.mjs), which run outside
// a browser. grundy_run's answers come by the module's hooks (web/wasm/hooks.js) as the run
// goes; call() gathers them and gives the whole run as web/src/client.js's run() does
// (mergeRun), and `on` ({onQueries, onAnswer, onProgress}) sees them as they come. vmWorker:
// web/src/worker.js under node, for web/src/client.js.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { mergeRun } from './src/client.js';

export async function loadGrundy(webDir) {
  const require = createRequire(import.meta.url);
  const createGrundy = require(path.resolve(webDir, 'grundy.js'));
  // node 18+ has a fetch that cannot read file paths: hand the module its bytes
  const mod = await createGrundy({ wasmBinary: fs.readFileSync(path.join(webDir, 'grundy.wasm')) });
  function call(name, args, on = {}) {
    const owned = [];
    const cargs = args.map((a) => {
      if (typeof a !== 'string') return a;
      const n = mod.lengthBytesUTF8(a) + 1;
      const p = mod._malloc(n);
      mod.stringToUTF8(a, p, n);
      owned.push(p);
      return p;
    });
    let queries = [];
    const answers = [];
    mod.onQueries = (q) => { queries = q; on.onQueries?.(q); };
    mod.onAnswer = (a) => { answers.push(a); on.onAnswer?.(a); };
    mod.onProgress = (p) => on.onProgress?.(p);
    try {
      const answer = mod.ccall(name, 'number', cargs.map(() => 'number'), cargs);
      const text = mod.UTF8ToString(answer);
      mod.ccall('grundy_free', null, ['number'], [answer]);
      const r = JSON.parse(text);
      return name === 'grundy_run' ? mergeRun(r, queries, answers) : r;
    } finally {
      for (const p of owned) mod._free(p);
      mod.onQueries = mod.onAnswer = mod.onProgress = null;
    }
  }
  return { mod, call };
}

// A stand-in for the browser's Worker class running web/src/worker.js (from webDir) in a node
// vm context of its own (importScripts, postMessage, fetch of the .wasm), its messages
// structured-cloned and delivered on later turns as a browser does; for web/src/client.js
// under node (the module's test, the bench). One thread: a call runs whole, so the messages a
// run posts as it goes arrive after it.
export function vmWorker(webDir) {
  return class VmWorker {
    constructor(url) {
      const file = path.resolve(webDir, url);
      const wasm = Object.create(WebAssembly);
      wasm.instantiateStreaming = undefined;   // the fetch below gives bytes, not a Response
      const ctx = { console, TextDecoder, performance, setTimeout, clearTimeout, WebAssembly: wasm, onmessage: null,
                    location: { href: pathToFileURL(file).href } };
      ctx.self = ctx;
      ctx.fetch = async (u) => {
        const b = fs.readFileSync(fileURLToPath(u));
        return { ok: true, arrayBuffer: async () => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) };
      };
      ctx.importScripts = (name) => vm.runInContext(fs.readFileSync(path.join(path.dirname(file), name), 'utf8'), ctx);
      ctx.postMessage = (data) => setImmediate(() => { if (!this.dead) this.onmessage?.({ data: structuredClone(data) }); });
      vm.createContext(ctx);
      this.ctx = ctx;
      vm.runInContext(fs.readFileSync(file, 'utf8'), ctx, { filename: file });
    }
    postMessage(data) { setImmediate(() => { if (!this.dead) this.ctx.onmessage({ data: structuredClone(data) }); }); }
    terminate() { this.dead = true; }
  };
}
