// build.mjs: bundles the page for the web build (web/CMakeLists.txt runs it).
//   node web/build.mjs --out DIR --modules NODE_MODULES_DIR --examples EXAMPLES_DIR
// Bundles web/src/app.js (with worker.js's client, client.js, and CodeMirror from
// NODE_MODULES_DIR) into DIR/app.js and web/src/viz.js (Graphviz, @viz-js/viz) into
// DIR/viz.js, which the page imports when it first draws a dot answer; copies index.html and style.css, and writes
// DIR/examples.json ([{name, text}] from EXAMPLES_DIR/*.game) for the examples menu.
// It writes only into DIR (node_modules live in the build folder, never in the sources), and
// the page it makes loads nothing from another origin: no CDN, no web fonts.
import { readFileSync, writeFileSync, readdirSync, mkdirSync, copyFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));

function args(argv) {
  const o = {};
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || i + 1 >= argv.length) throw new Error(`usage: node build.mjs --out DIR --modules NODE_MODULES_DIR --examples EXAMPLES_DIR (bad argument ${a})`);
    o[a.slice(2)] = argv[++i];
  }
  for (const k of ['out', 'modules', 'examples'])
    if (!o[k]) throw new Error(`build.mjs: --${k} is required`);
  return o;
}

const o = args(process.argv);
const out = resolve(o.out), modules = resolve(o.modules), examples = resolve(o.examples);
if (out === here || out.startsWith(here + '/')) throw new Error(`build.mjs: --out must be outside the sources (${here}), e.g. build-web/web`);
mkdirSync(out, { recursive: true });

// esbuild itself lives in the build folder's node_modules, not beside this script.
const require = createRequire(join(modules, 'noop.js'));
const esbuild = require('esbuild');

const common = {
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  nodePaths: [modules],
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
};
// the page; Graphviz (./viz.js) stays a file of its own, imported when a dot answer is drawn
await esbuild.build({ ...common, entryPoints: [join(here, 'src', 'app.js')], outfile: join(out, 'app.js'), external: ['./viz.js'] });
await esbuild.build({ ...common, entryPoints: [join(here, 'src', 'viz.js')], outfile: join(out, 'viz.js') });

for (const f of ['index.html', 'style.css']) copyFileSync(join(here, f), join(out, f));

// The examples menu: every examples/*.game, by name, in name order.
const list = readdirSync(examples)
  .filter((f) => f.endsWith('.game'))
  .sort()
  .map((f) => ({ name: f.replace(/\.game$/, ''), text: readFileSync(join(examples, f), 'utf8') }));
writeFileSync(join(out, 'examples.json'), JSON.stringify(list));
console.log(`build.mjs: wrote ${join(out, 'app.js')}, viz.js, index.html, style.css, examples.json (${list.length} examples)`);
