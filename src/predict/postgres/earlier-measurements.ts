// Where an earlier measurement of a write left its traces, as far as the statistics tell: the rolled-back
// runs (n_tup_upd beyond n_mod_since_analyze), the blocks their versions were appended to, and the index
// pages their run 1 split off. Pure: facts in, block numbers out; which draw takes what is the simulator's.
import type { PgDeadEntries, PgRelationFacts } from './facts';
import { packedFirstBlock, rowsPerFullPage } from './heap-layout';

/** Runs of a measurement as BufferLens takes them by default: what an earlier one's rolled-back updates are counted in. */
export const RUNS_PER_MEASUREMENT = 3;

/** Rolled-back runs of a write of `rows` rows the statistics count, and the measurements of three runs they make. */
export function earlierRuns(f: PgRelationFacts, rows: number): { runs: number; measurements: number } | undefined {
  if (!f.rowsUpdated || f.changedSinceAnalyze === undefined || rows <= 0) return undefined;
  const runs = Math.round((f.rowsUpdated.all - f.changedSinceAnalyze) / rows);
  return runs >= 1 ? { runs, measurements: Math.ceil(runs / RUNS_PER_MEASUREMENT) } : undefined;
}

/**
 * Where committed updates followed the rolled-back write, their versions were appended after its own: the
 * rolled-back runs' versions lie on the blocks before the last (changes committed less HOT updates) / (rows
 * a page), one run's span after the other. The last run's entries no later scan met, so each of its
 * blocks holds some; an earlier run's were met by the next run, which marked all but those that had joined
 * a posting list. How many of its blocks those are varies: a range update after one measurement of it and
 * 4,000 pgbench transactions read all 33 blocks of the last run's span and 11 of each earlier run's 33;
 * on a smaller table after 2,000 committed updates, 35 and 5-6. Taken one block in four, a guess. The j-th
 * of the entries (in key order) takes the last run's block and an earlier run's by turns.
 */
export function beforeCommitted(f: PgRelationFacts, e: PgDeadEntries): ((j: number) => number) | undefined {
  const perPage = f.tuples > 0 && f.pages > 0 ? f.tuples / f.pages : 0;
  const earlier = earlierRuns(f, e.live);
  if (!earlier || perPage <= 0 || !f.rowsUpdated) return undefined;
  const { runs } = earlier;
  const span = Math.max(1, Math.ceil(e.live / perPage));
  const end = f.pages - Math.ceil(Math.max(0, (f.changedSinceAnalyze ?? 0) - f.rowsUpdated.hot) / perPage);
  const first = end - runs * span;
  if (first < 0) return undefined;
  return (j) => {
    const along = Math.min(span - 1, Math.floor(((j + 0.5) / Math.max(1, e.dead)) * span));
    if (runs === 1 || j % 2 === 0) return first + (runs - 1) * span + along;
    const run = (j >> 1) % (runs - 1);
    return first + run * span + Math.min(span - 1, 4 * Math.floor(along / 4) + 1);
  };
}

/**
 * After a table-wide update, the blocks between the rows as loaded and the table-wide update's versions,
 * where earlier measurements' versions lie (a measurement's after the other), and those of them a write's
 * run 1 is taken to visit: one block in three of a run's span per measurement (measured on pgbench after a
 * count over the keys: 11 of the first measurement's 99 blocks, 10 of the second's).
 */
export function betweenLoadedAndLive(f: PgRelationFacts, rows: number, blockSize: number): { first: number; blocks: number; visited: number[] } | undefined {
  const capacity = rowsPerFullPage(f, blockSize);
  const earlier = earlierRuns(f, rows);
  if (!capacity || !earlier) return undefined;
  const loaded = Math.ceil(f.tuples / capacity);
  const live = packedFirstBlock(f, blockSize);
  const between = live - loaded;
  const span = Math.ceil(rows / capacity);
  if (between < span) return undefined;
  const visited: number[] = [];
  for (let m = 0; m < earlier.measurements; m++) {
    const start = loaded + Math.floor((m * between) / earlier.measurements);
    for (let b = 1; b < span; b += 3) visited.push(Math.min(live - 1, start + b));
  }
  return { first: loaded, blocks: between, visited };
}
