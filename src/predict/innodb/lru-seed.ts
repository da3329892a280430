// The history of the pages the server's LRU list held before run 1, as the simulated pool is seeded with it:
// when each was first accessed and the freed-page clock when it was last put at the head (pool-walk.ts).
// InnoDB makes an old page young on a hit only where its first access lies innodb_old_blocks_time (1 s)
// back and the pool has evicted since start-up; a pool seeded as if every page had just been read made
// none young, where a warm pool's or an earlier measurement's pages were read seconds before. Pure.
import type { SeedHistory } from '../../sim/policies/innodb-frames';
import type { InnodbPredictionSettings } from './facts';
import { SPACE } from './index-layout';
import { placeMeasuredOffPages, placeOffPages } from './long-values';

/** Per LRU position: the page's age and clock where the walk read them; undefined for a seed read before they were. */
export function seedHistory(seed: NonNullable<InnodbPredictionSettings['lruSeed']>, length: number): SeedHistory | undefined {
  if (seed.freedPageClock === undefined) return undefined;
  const ageMs = new Float64Array(length).fill(NaN);
  const clockAt = new Float64Array(length);
  // The ages count from the list's latest first access; where its distance from run 1 was measured, from run 1.
  const since = seed.sinceLastAccessMs ?? 0;
  for (const entry of [...seed.pages, ...(seed.longValues ?? [])]) {
    if (entry.length < 5) continue;
    const [, , pos, age, clock] = entry;
    ageMs[pos] = age === undefined ? NaN : age < 0 ? age : age + since;
    clockAt[pos] = clock ?? 0;
  }
  return { ageMs, clockAt, freedPageClock: seed.freedPageClock };
}

type LruSeed = NonNullable<InnodbPredictionSettings['lruSeed']>;

/**
 * The seed with its positions counted from the LRU list's head. INNODB_BUFFER_PAGE_LRU walks the list from
 * its tail (LRU_POSITION 0 is the next page to leave: measured on MariaDB 10.11, a key-order scan into a
 * list too short for an old sublist left the last page read at the highest position); recordings made
 * before 2026-12-07 kept those numbers. Their old-sublist start, the view's lowest old position, says
 * nothing about the head's side: the pool places the boundary instead.
 */
export function headFirstSeed(seed: LruSeed): LruSeed {
  if (seed.headFirst) return seed;
  const length = seed.pages.reduce((a, [, , pos]) => Math.max(a, pos + 1), seed.length);
  const pages = seed.pages.map((entry) => {
    const flipped = [...entry] as typeof entry;
    flipped[2] = length - 1 - entry[2];
    return flipped;
  });
  return { ...seed, length, pages, firstOld: null, headFirst: true };
}

/** Per LRU position, whether the server flagged it old (MariaDB 10.11's view flags none: the pool then places its boundary). */
export function oldFlags(seed: NonNullable<InnodbPredictionSettings['lruSeed']>, length: number): Uint8Array {
  const firstOld = seed.firstOld ?? length;
  return Uint8Array.from({ length }, (_, k) => (k >= firstOld ? 1 : 0));
}

/**
 * The server's LRU order as run 1 found it, head first: the indexes' pages where the list had them, the
 * long values' pages where the walk found them (else after their leaves), other pages (numbered from
 * `other`) in the gaps; with the pages' ages and old flags. The same for every draw: worked out once.
 */
export function seededOrder(seed: LruSeed, other: number, byLeaf: Map<number, number[]>) {
  const length = [...seed.pages, ...(seed.longValues ?? [])].reduce((a, [, , pos]) => Math.max(a, pos + 1), seed.length);
  const headToTail = new Int32Array(length);
  for (let k = 0; k < length; k++) headToTail[k] = other + k;
  for (const [i, page, pos] of seed.pages) headToTail[pos] = i * SPACE + page;
  if (seed.longValues) placeMeasuredOffPages(headToTail, seed.longValues, byLeaf, (p) => Math.floor(p / SPACE));
  else placeOffPages(headToTail, (p) => p >= other, byLeaf);
  return { length, other, headToTail, history: seedHistory(seed, length), old: oldFlags(seed, length) };
}

/** Each page of the measured indexes the LRU list held before run 1 (simulated page id) → its first access as an age in ms, where read. */
export function firstAccessAges(seed: LruSeed | undefined): Map<number, number> {
  return new Map((seed?.pages ?? []).flatMap(([i, page, , age]) => (age !== undefined && age >= 0 ? [[i * SPACE + page, age] as const] : [])));
}
