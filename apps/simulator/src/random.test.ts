import { describe, expect, it } from 'vitest';
import { createRandom } from './random';

describe('createRandom', () => {
  it('repeats its sequence for a seed', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const draw = (r: typeof a) => [r.next(), r.int(1, 6), r.pick(['x', 'y', 'z']), r.weighted({ a: 1, b: 3 }), r.fork().next()];
    expect(draw(a)).toEqual(draw(b));
    expect(createRandom(1).next()).not.toBe(createRandom(2).next());
  });

  it('draws by weight', () => {
    const r = createRandom(7);
    const counts = { rare: 0, common: 0, never: 0 };
    for (let i = 0; i < 4000; i++) counts[r.weighted({ rare: 1, common: 3, never: 0 })]++;
    expect(counts.never).toBe(0);
    expect(counts.common / counts.rare).toBeGreaterThan(2.5);
    expect(counts.common / counts.rare).toBeLessThan(3.5);
  });
});
