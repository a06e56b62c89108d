/**
 * All of the history test's randomness comes from one seed, so a failing run's schedule can be
 * replayed. Each part of the run draws from its own stream, so a part that draws more or less in
 * one run (timing decides how many requests a visitor makes) never shifts another's.
 */

export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One of the keys, each as likely as its weight. */
  weighted<K extends string>(weights: Record<K, number>): K;
  /** Every key once first, in a random order, so a run past the first round has met every kind (issue 40). */
  everyThenWeighted<K extends string>(weights: Record<K, number>): () => K;
  /** An independent stream derived from this seed and a name. */
  stream(name: string): Random;
}

/** mulberry32: small, fast, and good enough to choose a schedule (not for secrets). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: the seed of a named stream. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    h ^= text.charCodeAt(index);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function seededRandom(seed: number): Random {
  const next = mulberry32(seed);
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from nothing");
      return items[Math.floor(next() * items.length)]!;
    },
    weighted: (weights) => {
      const entries = Object.entries(weights) as [keyof typeof weights, number][];
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [key, weight] of entries) {
        roll -= weight;
        if (roll < 0) return key;
      }
      return entries[entries.length - 1]![0];
    },
    everyThenWeighted: (weights) => {
      const first = Object.keys(weights) as (keyof typeof weights)[];
      // Fisher-Yates, drawn from this stream.
      for (let index = first.length - 1; index > 0; index--) {
        const other = Math.floor(next() * (index + 1));
        [first[index], first[other]] = [first[other]!, first[index]!];
      }
      return () => first.pop() ?? random.weighted(weights);
    },
    stream: (name) => seededRandom(hash(`${seed}:${name}`)),
  };
  return random;
}

export function chooseSeed(value = process.env.HISTORY_SEED): number {
  if (value !== undefined && value.trim() !== "") {
    const seed = Number(value);
    if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new Error(`HISTORY_SEED must be a whole number from 0 to ${0xffffffff}, not "${value}"`);
    return seed;
  }
  return Math.floor(Math.random() * 0xffffffff);
}
