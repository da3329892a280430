// The leaves a table-wide update churned: which dead entries an earlier run marked, replayed from the
// update's order (version-churn.ts) or from the rows around a secondary scan (secondary-churn.ts).
import { DRAWS } from '../../prediction';
import { indexGeometry } from '../geometry';
import { ChurnedLeaves, keyOrderChurn, PLAIN_AFTER_EARLIER_UPDATE } from '../version-churn';
import { secondaryChurn, type SecondaryChurn } from '../secondary-churn';
import { packedFirstBlock } from '../heap-layout';
import type { PgIndexWindow } from '../facts';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { guess } from '../guesses';
import { PG_CALIBRATION } from '../calibration';
import { FIT_HALVINGS } from '../guesses';

export const sum = (a: ArrayLike<number>): number => {
  let total = 0;
  for (let k = 0; k < a.length; k++) total += a[k];
  return total;
};

/** The replay over a recorded window, once per window and arguments: every draw's simulator and every what-if asks the same. */
const replays = new WeakMap<PgIndexWindow, Map<string, SecondaryChurn>>();
function replayedChurn(w: PgIndexWindow, firstNewBlock: number, keyBytes: number, scanned: number): SecondaryChurn {
  const byArgs = replays.get(w) ?? new Map<string, SecondaryChurn>();
  replays.set(w, byArgs);
  const key = `${firstNewBlock}:${keyBytes}:${scanned}`;
  let churn = byArgs.get(key);
  if (!churn) {
    const rows = w.keys.map((k, r) => ({ key: k, block: w.blocks[r], offset: w.offsets[r] }));
    churn = secondaryChurn({ rows, first: w.first, startsIndex: w.startsIndex === true }, firstNewBlock, keyBytes, scanned);
    byArgs.set(key, churn);
  }
  return churn;
}

/**
 * After a table-wide update in key order, the keys of unique index i whose two versions stayed plain
 * entries (version-churn.ts): an earlier run met their dead version and marked it, so this one skips it;
 * a posting list's dead version it visits again. Only where the facts show that update: as many dead
 * versions as rows, one key per row from the index's first key to its last, and as many leaves as the
 * replayed update gives; and not for a write, whose rolled-back entries go into the same leaves, where
 * making room first removes the entries marked dead. The draws that take every entry as marked give the
 * band's low end.
 */
export function killedAfterChurn(
  sim: SimulationContext,
  i: number,
  notes: PlanSimulationNotes,
): { leaves: ChurnedLeaves; min: number; max: number } | undefined {
  const f = sim.facts[i];
  const t = sim.relationIndex('table', f.table);
  if (sim.history.runsDone === 0 || sim.history.writes || !f.unique || !f.keyBytes || !f.keyRange || t === undefined) return undefined;
  const heap = sim.facts[t];
  const { min, max } = f.keyRange;
  const keys = max - min + 1;
  if ((heap.deadTuples ?? 0) < PG_CALIBRATION.tableWideDead * heap.tuples || Math.abs(keys - heap.tuples) > PG_CALIBRATION.denseKeys * keys) return undefined;
  const churn = keyOrderChurn(f.keyBytes);
  const leaves = indexGeometry(f).leafPages;
  const replayed = Math.ceil(keys / churn.keysPerLeaf) * churn.leavesPerLeaf;
  if (Math.abs(replayed - leaves) > PG_CALIBRATION.churnedLeaves * leaves) return undefined;
  const period = churn.keysPerLeaf;
  const posting = churn.posting.reduce((a, b) => a + b, 0);
  notes.assumptions.add(
    `${f.reportName}: a table-wide update in key order left ${Math.round((posting / period) * 100)} % of the keys' two versions in one posting list ` +
    `(replayed on a leaf of ${period} keys: ${replayed.toLocaleString('en-US')} leaves, ${leaves.toLocaleString('en-US')} found); the earlier run marked ` +
    `the other keys' dead entries, which this run skips`,
  );
  return { leaves: new ChurnedLeaves(churn, min, sim.draw), min, max };
}

/**
 * A table-wide update replayed over the rows around a forward scan of secondary index i (secondary-churn.ts,
 * from the rows read after the last run): where the heap shows that update (its new versions packed past
 * the old pages, vacuumed since or not) and the replay gives the index's leaves within 8 %.
 */
export function churnOf(sim: SimulationContext, i: number, scanned: number, notes: PlanSimulationNotes): SecondaryChurn | undefined {
  const f = sim.facts[i];
  const w = sim.observed.indexWindows[f.planName];
  const t = sim.relationIndex('table', f.table);
  if (!w || f.unique || !f.keyBytes || t === undefined) return undefined;
  const heap = sim.facts[t];
  const firstNewBlock = packedFirstBlock(heap, sim.blockSize);
  if (firstNewBlock <= 0) return undefined;
  const churn = replayedChurn(w, firstNewBlock, f.keyBytes, Math.round(scanned));
  const leaves = indexGeometry(f).leafPages;
  if (Math.abs(churn.leavesPerRow * heap.tuples - leaves) > PG_CALIBRATION.secondaryChurn * leaves) {
    notes.unmodelled.add(
      `${f.reportName}: the replay of a table-wide update over the ${w.keys.length.toLocaleString('en-US')} rows around the scan gives ` +
      `${Math.round(churn.leavesPerRow * heap.tuples).toLocaleString('en-US')} leaves, not the ${leaves.toLocaleString('en-US')} it has: the index was ` +
      `not built and updated as replayed, and its leaves and marked entries are modelled without it`,
    );
    return undefined;
  }
  return churn;
}

/**
 * Per row of the scan, how likely its dead version was alone in its entry after the table-wide update, so
 * that the earlier run marked it and this one skips it. The shown draw takes each row's share over the
 * replay's starts, the others one start each. Only with the dead versions there (not vacuumed), and not for
 * a write (see killedAfterChurn).
 */
export function secondaryKills(sim: SimulationContext, i: number, t: number, scanned: number, notes: PlanSimulationNotes): ArrayLike<number> | undefined {
  const f = sim.facts[i];
  const heap = sim.facts[t];
  if (sim.history.runsDone === 0 || sim.history.writes || (heap.deadTuples ?? 0) < PG_CALIBRATION.tableWideDead * heap.tuples) return undefined;
  const churn = churnOf(sim, i, scanned, notes);
  if (!churn) return undefined;
  const perStart = churn.perStart.map(sum);
  notes.assumptions.add(
    `${f.reportName}: the table-wide update, replayed over the ${sim.observed.indexWindows[f.planName].keys.length.toLocaleString('en-US')} rows around ` +
    `the scan (read after the last run) from ${churn.perStart.length} places of a leaf's start, left about ${sum(churn.alone).toFixed(1)} of the ` +
    `${churn.alone.length.toLocaleString('en-US')} rows' dead versions alone in their entries (${Math.min(...perStart)}–${Math.max(...perStart)}); the ` +
    `earlier run marked them, and this run skips them`,
  );
  return sim.draw === 0 ? churn.alone : churn.perStart[startOfDraw(sim, churn.perStart.length)];
}

/** The replay's start a draw other than the shown one takes: spread over the starts. */
export function startOfDraw(sim: SimulationContext, starts: number): number {
  return Math.floor(((sim.draw - 1) * starts) / (DRAWS - 1)) % starts;
}

/**
 * Rows updated before the table-wide update, among a forward range's rows whose heap blocks were read: the
 * update appended each row's version as its scan met the one before, in key order but for those rows,
 * whose versions an earlier update had moved to the heap's end; theirs lie past the ones after them. (A
 * row whose block lies before the others' the update changed in place, HOT, where the earlier update had
 * left room: no entry more.)
 */
export function findUpdatedEarlier(
  sim: SimulationContext,
  leaves: ChurnedLeaves,
  moved: Uint8Array,
  start: number,
  notes: PlanSimulationNotes,
  table: string,
): void {
  // Whether a scan had marked the row's dead entry first no view shows: the band's odd draws take it so.
  if (guess(sim.draw, 'updatedEarlierMarked') === 1) return;
  moved.forEach((m, k) => m && leaves.updatedEarlier(start + k));
  if (leaves.leavesUpdatedEarlier > 0)
    notes.assumptions.add(
      `${table}: ${leaves.leavesUpdatedEarlier.toLocaleString('en-US')} leaf/leaves held, in the second half, a row updated before the table-wide update ` +
      `(its version out of the update's order), and kept no posting list past its first keys (${Math.round(PLAIN_AFTER_EARLIER_UPDATE * 100)} % of such ` +
      `leaves, each whole, which ones drawn; the others had its dead entry marked and removed first, as the band's odd draws take every such leaf)`,
    );
}

/**
 * The rows out of key order among those a scan fetched, by rank, as the moved-rows query read them after
 * the last run (an index-only scan's, whose rows' own blocks are not read). After pgbench's transactions
 * and a table-wide update, a count over 600,000 keys found 13,153, in 1,565 leaves' second halves: the
 * replay then leaves 24.7 % of the keys' dead entries unmarked, and a bitmap scan after the last run
 * counted 25.2 % (151,437), where the replay alone gives 69 %.
 */
export function movedRanks(sim: SimulationContext, table: string | undefined): Uint8Array | undefined {
  const moved = table ? sim.observed.movedRows[table] : undefined;
  if (!table || !moved || moved.ranks.length === 0) return undefined;
  const known = sim.history.movedRankMarks.get(table);
  if (known) return known;
  const out = new Uint8Array(moved.scanned);
  for (const r of moved.ranks) if (r >= 1 && r <= moved.scanned) out[r - 1] = 1;
  sim.history.movedRankMarks.set(table, out);
  return out;
}

/**
 * Where leaves with a row updated before a table-wide update lie under the scan, how many of them kept no
 * posting list past their first keys (version-churn.ts) follows from the count after the last run: the share
 * whose whole leaves leave that many dead entries unmarked (found by halving; 108 of 127 where the count
 * cannot say), so a later run goes to the heap pages of some leaves' keys for every dead version and to the
 * others' for few (measured on pgbench after a table-wide update: 147,947 counted over 600,000 keys, where
 * the pattern at 85 % leaves about 130,000).
 */
export function fitPlainShare(leaves: ChurnedLeaves, perRow: number, visits: number, keyAt: (k: number) => number, counted: number): void {
  if (leaves.leavesUpdatedEarlier === 0) return;
  // One pass: the keys elsewhere count alike in every share; a leaf with such a row counts as one case or the other.
  let elsewhere = 0;
  const perLeaf = new Map<number, [number, number]>();
  for (let k = 0; k < visits; k++) {
    const cases = leaves.casesOf(keyAt(k));
    if (typeof cases === 'number') {
      elsewhere += perRow * (1 - cases);
      continue;
    }
    const sums = perLeaf.get(cases.leaf) ?? [0, 0];
    sums[0] += perRow * (1 - cases.plain);
    sums[1] += perRow * (1 - cases.usual);
    perLeaf.set(cases.leaf, sums);
  }
  const unmarkedAt = (share: number) => {
    leaves.plainShare = share;
    let n = elsewhere;
    for (const [leaf, [plain, usual]] of perLeaf) n += leaves.keepsNoPostingList(leaf) ? plain : usual;
    return n;
  };
  // More leaves keeping no posting list leave fewer dead entries unmarked.
  const [most, fewest] = [unmarkedAt(0), unmarkedAt(1)];
  if (counted >= most || counted <= fewest) return void (leaves.plainShare = counted >= most ? 0 : 1);
  let [lo, hi] = [0, 1];
  for (let i = 0; i < FIT_HALVINGS; i++) {
    const mid = (lo + hi) / 2;
    if (unmarkedAt(mid) > counted) lo = mid;
    else hi = mid;
  }
  leaves.plainShare = (lo + hi) / 2;
}

/**
 * The dead entries per key a later run meets where a count after the last run gives their total: where the
 * replay leaves more unmarked than counted, each key's share shrinks alike; where fewer, the keys it takes as
 * marked are taken as unmarked alike until the count is reached (a key holds one such entry: one trip out
 * and back each), and past one a key, every key's share grows.
 */
export function unmarkedAsCounted(perRow: number, visits: number, killedAt: (k: number) => number, counted: number): (k: number) => number {
  let [left, marked] = [0, 0];
  for (let k = 0; k < visits; k++) {
    const killed = killedAt(k);
    left += perRow * (1 - killed);
    marked += perRow * killed;
  }
  if (left + marked <= 0) return () => 0;
  if (counted <= left) return (k) => (left > 0 ? (perRow * (1 - killedAt(k)) * counted) / left : 0);
  if (counted >= left + marked) return () => (perRow * counted) / (left + marked);
  const kept = (left + marked - counted) / marked;
  return (k) => perRow * (1 - killedAt(k) * kept);
}
