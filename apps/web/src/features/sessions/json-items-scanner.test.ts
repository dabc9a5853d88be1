import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonItemsScanner } from './json-items-scanner';

function scanInChunks(text: string, cuts: number[]) {
  const scanner = new JsonItemsScanner();
  const members: Array<[string, unknown]> = [];
  const items: unknown[] = [];
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < text.length)].sort((a, b) => a - b).concat(text.length)) {
    const parts = scanner.push(text.slice(from, cut));
    from = cut;
    for (const [key, json] of parts.members) members.push([key, JSON.parse(json)]);
    for (const json of parts.items) items.push(JSON.parse(json));
  }
  return { members, items, done: scanner.done };
}

describe('streamed {session, items} JSON', () => {
  const doc = {
    session: { id: 's1', name: 'Checkout "flow" \\ 🛒', nested: { list: [1, { a: '}]' }], ok: true } },
    items: [{ id: 'a', body: '{"x":[1,2]}' }, { id: 'b', n: -1.5e3, t: null }, { id: 'c', s: 'esc\\"aped' }],
    count: 3,
    flag: false,
  };

  it('hands out each member and each item whole, however the text is cut', () => {
    const text = JSON.stringify(doc, null, 1);
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 40 }), (cuts) => {
      const { members, items, done } = scanInChunks(text, cuts);
      expect(Object.fromEntries(members)).toEqual({ session: doc.session, count: 3, flag: false });
      expect(items).toEqual(doc.items);
      expect(done).toBe(true);
    }));
  });

  it('reads data.json as the share host writes it, one character at a time', () => {
    const text = `{"session":${JSON.stringify(doc.session)},"items":[${doc.items.map((i) => JSON.stringify(i)).join(',')}]}`;
    const { members, items, done } = scanInChunks(text, Array.from({ length: text.length }, (_, i) => i));
    expect(members).toEqual([['session', doc.session]]);
    expect(items).toEqual(doc.items);
    expect(done).toBe(true);
  });

  it('an empty items array and an unfinished document', () => {
    expect(scanInChunks('{"session":{},"items":[]}', [5, 20])).toEqual({ members: [['session', {}]], items: [], done: true });
    expect(scanInChunks('{"session":{},"items":[{"id":1},{"id"', [])).toEqual({ members: [['session', {}]], items: [{ id: 1 }], done: false });
  });
});
