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
 * a full page holds), one run's span after the other, each starting where the run before left room. The
 * last run's entries no later scan met, so each of its blocks holds some; an earlier run's were met by the
 * runs after it, which marked all but those that had joined a posting list, and the older the run, the
 * fewer kept: a range update after one measurement of it and 4,000 pgbench transactions read every block of
 * the last run's span, one in two of the run's before and one in three of the first run's (four
 * recordings, PostgreSQL 15 and 18, 32 MB and 128 MB; a smaller table after 2,000 committed updates read
 * one in five of the run's before, which the band holds). So run r of R takes one block in R - r. The j-th
 * of the entries (in key order) takes the last run's block and an earlier run's by turns.
 */
export function beforeCommitted(f: PgRelationFacts, e: PgDeadEntries, blockSize: number): ((j: number) => number) | undefined {
  const perPage = rowsPerFullPage(f, blockSize) ?? (f.tuples > 0 && f.pages > 0 ? f.tuples / f.pages : 0);
  const earlier = earlierRuns(f, e.live);
  if (!earlier || perPage <= 0 || !f.rowsUpdated) return undefined;
  const { runs } = earlier;
  const span = e.live / perPage;
  const end = f.pages - Math.max(0, (f.changedSinceAnalyze ?? 0) - f.rowsUpdated.hot) / perPage;
  const first = end - runs * span;
  if (first < 0) return undefined;
  const blockOf = (run: number, along: number) => Math.min(f.pages - 1, Math.floor(first + run * span + along));
  return (j) => {
    const along = Math.min(span - 1, ((j + 0.5) / Math.max(1, e.dead)) * span);
    if (runs === 1 || j % 2 === 0) return blockOf(runs - 1, along);
    const run = (j >> 1) % (runs - 1);
    const stride = runs - run;
    return blockOf(run, Math.min(span - 1, stride * Math.floor(along / stride) + 1));
  };
}

/** One block in this many of an earlier measurement's span is visited by a write's run 1 after a table-wide update. */
const VISITED_STRIDE = 5;

/**
 * After a table-wide update, the blocks between the rows as loaded and the table-wide update's versions,
 * where earlier measurements' versions lie (a measurement's after the other), and those of them a write's
 * runs are taken to visit: run 1 one block in five of each measurement's three runs' spans, run 2 one in ten
 * more. Measured on pgbench after a count over the keys (four recordings, PostgreSQL 15 and 18, 32 MB and
 * 128 MB): run 1 read 17-20 of the first measurement's 99 blocks and 13-23 of the second's, run 2 7-11 more
 * of each.
 */
export function betweenLoadedAndLive(
  f: PgRelationFacts,
  rows: number,
  blockSize: number,
): { first: number; blocks: number; visited: number[]; visitedOnRun2: number[] } | undefined {
  const capacity = rowsPerFullPage(f, blockSize);
  const earlier = earlierRuns(f, rows);
  if (!capacity || !earlier) return undefined;
  const loaded = Math.ceil(f.tuples / capacity);
  const live = packedFirstBlock(f, blockSize);
  const between = live - loaded;
  const span = Math.ceil(rows / capacity);
  if (between < span) return undefined;
  const [visited, visitedOnRun2]: number[][] = [[], []];
  for (let m = 0; m < earlier.measurements; m++) {
    const start = loaded + Math.floor((m * between) / earlier.measurements);
    const blocks = Math.min(RUNS_PER_MEASUREMENT * span, Math.floor(between / earlier.measurements));
    // Run 2's blocks fall between run 1's (2, 7, 12, ...): 4, 14, 24, ...
    for (let b = 2; b < blocks; b += VISITED_STRIDE) visited.push(Math.min(live - 1, start + b));
    for (let b = 4; b < blocks; b += 2 * VISITED_STRIDE) visitedOnRun2.push(Math.min(live - 1, start + b));
  }
  return { first: loaded, blocks: between, visited, visitedOnRun2 };
}
