/**
 * The document an HTML body is previewed as, inside a frame whose sandbox already forbids scripts.
 * Its own policy also forbids loading anything (no trackers, no requests to the captured app's hosts).
 */
const PREVIEW_CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`;

export function previewDocument(html: string): string {
  // After a doctype, so the document keeps its standards mode; the parser moves the meta into <head>.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + PREVIEW_CSP + html.slice(doctype[0].length) : PREVIEW_CSP + html;
}

