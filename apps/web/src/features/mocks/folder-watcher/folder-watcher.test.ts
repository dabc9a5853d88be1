import { describe, expect, it } from 'vitest';
import { isWatchedFile } from './folder-watcher';

describe('folder watcher files (spec 002 §5)', () => {
  it('lists only js, json, txt and html files', () => {
    for (const name of ['mock.json', 'handler.js', 'notes.txt', 'page.html', 'UPPER.JSON']) expect(isWatchedFile(name)).toBe(true);
    for (const name of ['photo.png', 'style.css', 'data.jsonl', 'page.htm', 'json', '.json', 'archive.json.gz', 'README']) expect(isWatchedFile(name)).toBe(false);
  });
});
