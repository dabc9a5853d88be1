import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex } from './id-index';

describe('IdIndex', () => {
  it('behaves like a Map of ids to slots', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'clear'), fc.string({ maxLength: 12 }), fc.nat())), (ops) => {
      const index = new IdIndex();
      const model = new Map<string, number>();
      for (const [op, id, slot] of ops) {
        if (op === 'set') {
          index.set(id, slot);
          model.set(id, slot);
        } else if (op === 'delete') {
          index.delete(id);
          model.delete(id);
        } else {
          index.clear();
          model.clear();
        }
        expect(index.size).toBe(model.size);
        expect(index.get(id)).toBe(model.get(id));
      }
      for (const [id, slot] of model) expect(index.get(id)).toBe(slot);
    }));
  });
});
