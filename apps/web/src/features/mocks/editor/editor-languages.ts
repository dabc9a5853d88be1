import type { Extension } from '@codemirror/state';

/** Spec 002 §2: the mock editors' languages; `text` is plain text (no highlighting). */
export const EDITOR_LANGUAGES = ['json', 'xml', 'html', 'css', 'javascript', 'markdown', 'yaml', 'text'] as const;
export type EditorLanguage = (typeof EDITOR_LANGUAGES)[number];

/**
 * Spec 002 §2: the body editor's language follows Content-Type: html if it contains text/html,
 * text for text/plain, otherwise json.
 */
export function languageForContentType(contentType: string | null | undefined): EditorLanguage {
  const value = (contentType ?? '').toLowerCase();
  if (value.includes('text/html')) return 'html';
  if (value.includes('text/plain')) return 'text';
  return 'json';
}

/** The Content-Type among header rows (names are case-insensitive). */
export function contentTypeOf(headers: Iterable<{ key: string; value: string }>): string | null {
  for (const header of headers) if (header.key.trim().toLowerCase() === 'content-type') return header.value;
  return null;
}

/**
 * Each language's support is its own chunk, fetched the first time an editor needs it, so the
 * page that never opens an editor never loads one.
 */
export function loadLanguage(language: EditorLanguage): Promise<Extension> {
  switch (language) {
    case 'json': return import('@codemirror/lang-json').then((m) => m.json());
    case 'xml': return import('@codemirror/lang-xml').then((m) => m.xml());
    case 'html': return import('@codemirror/lang-html').then((m) => m.html());
    case 'css': return import('@codemirror/lang-css').then((m) => m.css());
    case 'javascript': return import('@codemirror/lang-javascript').then((m) => m.javascript());
    case 'markdown': return import('@codemirror/lang-markdown').then((m) => m.markdown());
    case 'yaml': return import('@codemirror/lang-yaml').then((m) => m.yaml());
    case 'text': return Promise.resolve([]);
  }
}
