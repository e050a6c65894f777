// dom.js: small helpers to build elements without a framework, and to save a file from the
// page (a blob: URL, same origin: nothing leaves the machine).
import { pageWords } from './words.js';

/* el('td', {class: 'p', dataset: {n: 3}}, 'text', child, ...) */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') for (const [dk, dv] of Object.entries(v)) e.dataset[dk] = String(dv);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

export function saveFile(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/* A definition list of label/value pairs, skipping absent values. */
export function facts(pairs, cls = 'facts') {
  const dl = el('dl', { class: cls });
  for (const [label, value, vcls] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    dl.append(el('dt', {}, label), el('dd', { class: vcls }, value instanceof Node ? value : String(value)));
  }
  return dl;
}

/* The words of a failure: an Error, the client's {stopped: true} or {error}, or anything. */
export function errorText(e) {
  if (e && e.stopped) return 'stopped';
  return pageWords(String((e && (e.message || e.error)) || e));
}
