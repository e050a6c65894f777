// viz.js: Graphviz for the page's dot answers: the @viz-js/viz package (Graphviz compiled to
// WebAssembly, its module inside the package's JavaScript, so nothing is fetched from
// elsewhere). A bundle of its own (web/build.mjs writes it beside app.js), loaded the first
// time a dot answer is drawn, so the page's first load does not carry Graphviz.
import { instance } from '@viz-js/viz';

let viz = null;

/* The DOT text drawn as an <svg> element (throws with Graphviz's message on bad input). */
export async function dotToSvg(dot) {
  viz = viz || (await instance());
  return viz.renderSVGElement(dot);
}
