import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built dashboard (`apps/web/dist`), served by both hosts. */
export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * The files of a built web client, listed once at start: a request is answered from this list,
 * never by asking the file system about a path it names, so no path outside the root is ever
 * touched and a file out there cannot be told from one that does not exist (both are 404).
 */
export interface WebRoot {
  dir: string;
  /** URL paths of the files besides index.html, e.g. `/assets/index-abc.js`. */
  files: ReadonlySet<string>;
  indexHtml: string;
  /** The URL path of the file a request path names, or null (undecodable, or not in the root). */
  fileFor(urlPath: string): string | null;
}

export function loadWebRoot(dir: string = WEB_DIST): WebRoot | null {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) return null;
  const files = new Set<string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (relative !== 'index.html') files.add(`/${relative}`);
  }
  return {
    dir,
    files,
    indexHtml: fs.readFileSync(index, 'utf8'),
    fileFor(urlPath) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(urlPath);
      } catch {
        return null;
      }
      return files.has(decoded) ? decoded : null;
    },
  };
}
