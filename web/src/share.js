// share.js: the program in the URL. `#p=B` holds the program's UTF-8 text in base64url
// without padding (so a link survives mail and chat unchanged); `&run=1` also runs it on load.

export function encodeProgram(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  // in chunks: String.fromCharCode with a whole large program would overflow the stack
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeProgram(b64) {
  let s = b64.replace(/-/g, '+').replace(/_/g, '/');
  while (s.length % 4) s += '=';
  const bin = atob(s);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/* The hash's fields: {program, run} (program null when the hash has no p=). */
export function readHash(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const p = params.get('p');
  let program = null;
  if (p !== null) {
    try { program = decodeProgram(p); } catch { program = null; }
  }
  return { program, run: params.get('run') === '1' };
}

export function shareLink(text) {
  return `#p=${encodeProgram(text)}&run=1`;
}

/* Sets the hash (without a reload or a history entry per keystroke) and copies the whole link. */
export async function share(text) {
  const hash = shareLink(text);
  history.replaceState(null, '', hash);
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    return { url, copied: true };
  } catch {
    return { url, copied: false };   // no clipboard permission (http, headless): the address bar has it
  }
}
