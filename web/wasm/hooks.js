/* hooks.js: the functions web/wasm/binding.c calls to tell the page how a run goes, linked into
 * the module with --js-library (web/CMakeLists.txt). Each hands its data to the Module's
 * handler of the same role when the worker set one (web/src/worker.js, web/node.mjs), and does
 * nothing otherwise; they run inside the synchronous call to grundy_run, so a handler that
 * posts a message gets it to the page while the run goes on.
 *   Module.onQueries([{index, text, kind, line}, ...])       once the program compiled
 *   Module.onAnswer({index, output, json: [objects] | null, finished, table?})  a query ended
 *       (table: a plot's picture, the JSON object of the table it draws)
 *   Module.onProgress({index, label, done, total, seconds})  the query that runs, every ~0.5 s */
mergeInto(LibraryManager.library, {
  grundy_js_queries: function (json) {
    if (Module['onQueries']) Module['onQueries'](JSON.parse(UTF8ToString(json)));
  },
  grundy_js_answer: function (index, text, textLen, json, jsonLen, finished, table, tableLen) {
    if (!Module['onAnswer']) return;
    var output = textLen ? UTF8ToString(text, textLen) : '';
    var objs = null;
    if (json) {
      // the query's --format json: one object per line
      objs = [];
      var lines = (jsonLen ? UTF8ToString(json, jsonLen) : '').split('\n');
      for (var i = 0; i < lines.length; i++) if (lines[i]) objs.push(JSON.parse(lines[i]));
    }
    var answer = { index: index, output: output, json: objs, finished: !!finished };
    if (table) answer.table = JSON.parse(UTF8ToString(table, tableLen));
    Module['onAnswer'](answer);
  },
  grundy_js_progress: function (index, label, done, total, seconds) {
    if (Module['onProgress'])
      Module['onProgress']({ index: index, label: label ? UTF8ToString(label) : null, done: done, total: total, seconds: seconds });
  },
});
