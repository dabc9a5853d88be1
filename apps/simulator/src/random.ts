/** A seeded random source (mulberry32): the same seed gives the same run. */
export interface Random {
  /** In [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(values: readonly T[]): T;
  chance(probability: number): boolean;
  /** A key chosen with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
  /** A child source for one consumer, so consumers do not shift each other's sequences. */
  fork(): Random;
}

export function createRandom(seed: number = Math.floor(Math.random() * 2 ** 32)): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (values) => values[Math.floor(next() * values.length)]!,
    chance: (p) => next() < p,
    weighted: (weights) => {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      const total = entries.reduce((sum, [, w]) => sum + Math.max(0, w), 0);
      let roll = next() * total;
      for (const [key, weight] of entries) {
        roll -= Math.max(0, weight);
        if (roll < 0) return key;
      }
      return entries[entries.length - 1]![0];
    },
    fork: () => createRandom(Math.floor(next() * 2 ** 32)),
  };
  return random;
}
