// The what-if helpers both engines' predictors share: which pool sizes to try, and one series built from
// a replay per value. A replay starts from the same starting state as the measured runs did.
import type { WhatIfSeries } from '../shared/report';

export interface ReplayTotals {
  logicalReads: number;
  physicalReads: number;
  missRatio: number;
}

/**
 * `physicalReads`: every page read from disk; `missed`: the requests that found their page missing
 * (read synchronously), which makes the miss ratio. They differ by read-ahead, which reads pages before
 * any request misses them (and can read more pages than were requested).
 */
export function replayTotals(logicalReads: number, physicalReads: number, missed = physicalReads): ReplayTotals {
  return { logicalReads, physicalReads, missRatio: logicalReads ? missed / logicalReads : 0 };
}

/**
 * Pool sizes in pages: the requested ones (bytes, at least `minimum` pages each) or the current size times
 * each factor (at least `floor` pages), always with the current size, ascending and without repeats.
 */
export function poolSizes(
  current: number,
  pageSize: number,
  sweep: { factors: number[]; floor: number; minimum: number },
  requestedBytes?: number[],
): number[] {
  const sizes = requestedBytes
    ? requestedBytes.map((b) => Math.max(sweep.minimum, Math.round(b / pageSize)))
    : sweep.factors.map((f) => Math.max(sweep.floor, Math.round(current * f)));
  return [...new Set([...sizes, current])].sort((a, b) => a - b);
}

export function whatIfSeries<V>(
  setting: string,
  unit: string,
  values: readonly V[],
  describe: (v: V, k: number) => { value: number; label: string; current: boolean },
  replay: (v: V) => ReplayTotals,
): WhatIfSeries {
  return { setting, unit, points: values.map((v, k) => ({ ...describe(v, k), ...replay(v) })) };
}

/**
 * A pool larger than every page the runs can touch behaves like one exactly that large: nothing is ever
 * evicted. Sizes above `pagesTouched` are simulated at that size (and still shown as asked), so a what-if
 * of terabytes costs what the statement's pages cost, not the terabytes.
 */
export function simulatedSize(pages: number, pagesTouched: number): number {
  return Math.min(pages, Math.max(16, Math.ceil(pagesTouched)));
}

export const mebibytes = (pages: number, pageSize: number): string => ((pages * pageSize) / 1048576).toLocaleString('en-US');
