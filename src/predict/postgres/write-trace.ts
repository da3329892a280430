// The page requests of PostgreSQL's writes, row by row.
// INSERT (heap_insert, RelationGetBufferForTuple, _bt_doinsert):
// - the heap: the relation's target block, its last; when full, the relation is extended by a block
//   (a buffer taken and zeroed, not read), since a table loaded and never vacuumed has no free space to
//   offer in its free-space map;
// - each B-tree: for an ascending key (identity, or a nextval() default) the cached right-most leaf (the
//   fast path of _bt_search_insert), extended as leaves fill; for any other key a descent from the root
//   and the leaf the key falls on: where the inserted rows' keys were placed after the runs (key-positions.ts),
//   there; else at random (keys uncorrelated with the index order).
// UPDATE: update-trace.ts. DELETE: delete-trace.ts.
// A rollback touches no data page (the aborted tuples stay until VACUUM), so nothing more follows.
import type { PostgresPool } from '../../sim/policies/postgres-clock-sweep';
import type { SeededRandom } from '../../sim/random';
import type { PgRelationFacts } from './facts';
import { descentPages, indexGeometry, leafBlock, orderedShare, pageId } from './geometry';
import { PG_CALIBRATION } from './calibration';
import { HeapTarget } from './heap-targets';
import { FASTPATH_MIN_HEIGHT, FSM_LEVELS } from './layout-constants';
import type { PlanSimulationNotes } from './simulation-notes';
import { guess, PG_GUESSES } from './guesses';

/** Heap tuples a new block takes when the table has no statistics: a small row. */
const DEFAULT_TUPLES_PER_BLOCK = 100;

/** What every write trace works on: the pool, the written table and its indexes, the rows, the notes. */
export interface WriteContext {
  pool: PostgresPool;
  heap: { t: number; f: PgRelationFacts };
  indexes: Array<{ f: PgRelationFacts; i: number }>;
  rows: number;
  rnd: SeededRandom;
  notes: PlanSimulationNotes;
  /** Where the heap's visibility-map page of a block and its free-space map's levels are simulated. */
  vmPage: (block: number) => number;
  fsmPage: (level: number) => number;
}

/** Spreads a share of pages evenly over page numbers (the golden ratio's fractional multiples). */
export const GOLDEN = 0.6180339887498949;

/** Tuples per heap block as the table holds them now (its statistics), which new blocks fill to as well. */
export function tuplesPerBlock(f: PgRelationFacts): number {
  return f.tuples > 0 && f.pages > 0 ? Math.max(1, Math.round(f.tuples / f.pages)) : DEFAULT_TUPLES_PER_BLOCK;
}

/** One index's entry for inserted row r: at the index's end where its keys are appended, else at its key's leaf. */
function insertEntry(pool: PostgresPool, rnd: SeededRandom, s: InsertShape, r: number): void {
  const e = s.placed++;
  if (s.amongDead > 0) {
    // Keys past the live ones but among an earlier write's dead entries: the leaf their order puts them on.
    const leaf = s.g.leafPages - s.amongDead + Math.min(s.amongDead - 1, Math.floor((e * s.amongDead) / Math.max(1, s.entries)));
    for (const p of descentPages(s.i, s.g, leaf)) pool.access(p);
    pool.readBuffer(pageId(s.i, leafBlock(s.g, leaf)), -1, true);
    return;
  }
  if (s.atEnd) {
    // The rightmost leaf, then the pages the appends add past the index's end.
    const added = Math.floor(e / s.perLeaf);
    const leaf = added === 0 ? leafBlock(s.g, s.g.leafPages - 1) : s.x.pages - 1 + added;
    if (e === 0 || !s.inOrder) for (const p of descentPages(s.i, s.g, s.g.leafPages - 1)) pool.access(p);
    if (e > 0 && e % s.perLeaf === 0) pool.extend(pageId(s.i, leaf));
    else pool.readBuffer(pageId(s.i, leaf), -1, true);
    return;
  }
  const at = s.positions?.[r];
  const leaf = at === undefined ? rnd.int(s.g.leafPages) : Math.min(s.g.leafPages - 1, Math.floor(at * s.g.leafPages));
  for (const p of descentPages(s.i, s.g, leaf)) pool.access(p);
  pool.readBuffer(pageId(s.i, leafBlock(s.g, leaf)), -1, true);
}

/** How one index of an INSERT's target takes its entries. */
interface InsertShape {
  x: PgRelationFacts;
  i: number;
  g: ReturnType<typeof indexGeometry>;
  perLeaf: number;
  atEnd: boolean;
  inOrder: boolean;
  share: number;
  positions: number[] | undefined;
  placed: number;
  /** Leaves of an earlier write's dead entries past the live keys that the appended keys fall among (0: none). */
  amongDead: number;
  /** The entries the index takes. */
  entries: number;
}

/** What replayInsert knows of the inserted rows beyond their count. */
export interface InsertFacts {
  appended: Set<string>;
  /** Per appended index (plan name), the leaves of dead entries past the inserted keys, where read after the runs. */
  deadPastInserted?: Record<string, number>;
  runsBefore: number;
  partialEntries?: Record<string, number>;
  draw?: number;
  /** Per index (its relation number), each inserted row's position along it (read after the runs): its entry's leaf. */
  keyPositions?: Map<number, number[]>;
}

/**
 * `sequencePage`: where the simulation keeps the page of an ascending key's sequence. `appended`: indexes
 * whose inserted keys all lie beyond their largest (read after the runs), which take their entries at the
 * right-most leaf as an ascending key does, with no sequence to draw from.
 */
export function replayInsert(
  { pool, heap, indexes, rows, rnd, notes, fsmPage }: WriteContext,
  sequencePage: number,
  { appended, deadPastInserted = {}, runsBefore, partialEntries = {}, draw = 0, keyPositions }: InsertFacts = { appended: new Set(), runsBefore: 0 },
): void {
  if (rows <= 0) return;
  const { t, f } = heap;
  const perBlock = tuplesPerBlock(f);
  notes.assumptions.add(
    `${f.reportName}: ${rows.toLocaleString('en-US')} rows inserted, into its last block and then ${Math.ceil(rows / perBlock).toLocaleString('en-US')} ` +
    `new blocks of ~${perBlock} tuples (extended, not read: no free space assumed in the free-space map)`,
  );
  const shapes = indexes.map(({ f: x, i }): InsertShape => {
    const g = indexGeometry(x);
    const perLeaf = x.tuples > 0 ? Math.max(1, Math.round(x.tuples / g.leafPages)) : DEFAULT_TUPLES_PER_BLOCK;
    notes.assumptions.add(
      x.ascending
        ? `${x.reportName}: ascending key, so each entry goes to the cached right-most leaf; a new leaf every ~${perLeaf} rows`
        : appended.has(x.planName)
          ? `${x.reportName}: every inserted key lies beyond its largest (the inserted rows, read after the last run), so each entry goes to the ` +
            `right-most leaves, ` +
            `cached, a new one every ~${perLeaf} rows` +
            (orderedShare(x.correlation) > PG_CALIBRATION.blockOrder ? '' : "; keys not in the index's order (its correlation) descend from the root each")
          : keyPositions?.has(i)
            ? `${x.reportName}: each entry descends ${g.height} level(s) to the leaf its key lies on`
            : `${x.reportName}: each entry descends ${g.height} level(s) to a random one of ${g.leafPages.toLocaleString('en-US')} leaves (keys ` +
              `uncorrelated with the index order)`,
    );
    // Appended keys that do not come in the index's order (a date plus a constant, of rows in heap order)
    // miss the right-most leaf's fast path once it has split: each entry descends from the root. Nor does a
    // tree under three levels cache its right-most leaf at all (BTREE_FASTPATH_MIN_LEVEL: its root's level
    // must be 2): each entry descends its root (measured: a two-level key 2 requests an entry, its TOAST index too).
    const ordered = x.ascending === true || orderedShare(x.correlation) > PG_CALIBRATION.blockOrder;
    // Keys the statement gives (not a sequence's) are the previous run's again: each entry goes beside its
    // rolled-back twin at the index's end, and only where that twin lies in the right-most leaf does the
    // cached block pass the fast path's check (measured: 1,000 rows, 1,030 index requests on run 1, 2,877 on
    // run 2); where the previous run's splits left them, no view shows: the band spans both.
    // Twins below an earlier write's dead entries, counted past the inserted keys, are not in the right-most leaf either.
    const belowDead = (deadPastInserted[x.planName] ?? 0) > 0;
    const twins = runsBefore > 0 && x.ascending !== true && appended.has(x.planName) && !belowDead;
    const twinsNote = `${PG_GUESSES.twinsFastPath.what}: ${PG_GUESSES.twinsFastPath.alternatives[guess(draw, 'twinsFastPath')]}`;
    if (twins) notes.assumptions.add(`${x.reportName}: ${twinsNote}`);
    const inOrder = ordered && g.height >= FASTPATH_MIN_HEIGHT && !(twins && guess(draw, 'twinsFastPath') === 1);
    const share = partialShare(x, f, rows, partialEntries, notes);
    return {
      x,
      i,
      g,
      perLeaf,
      atEnd: x.ascending === true || appended.has(x.planName),
      inOrder,
      share,
      positions: keyPositions?.get(i),
      placed: 0,
      amongDead: twins ? 0 : deadEndAppends(x, g.leafPages, { appended, deadPastInserted, draw }, notes),
      entries: Math.round(rows * share),
    };
  });
  // An identity or serial column draws its value from a sequence: nextval() reads the sequence's page.
  const drawsSequence = shapes.some((s) => s.x.ascending);
  if (drawsSequence) notes.assumptions.add("the ascending key takes its default: nextval() requests its sequence's page once per row");
  notes.assumptions.add('page splits and the free-space and visibility maps are not modelled; a rollback reads nothing');
  // Each block after the first: the free-space map's leaf updated and searched, then its root, which finds
  // no room (a bulk insert keeps its target block pinned: no failed try of it is requested).
  const fsmSearch = (f.fsmPages ?? 0) > 0 ? () => [0, FSM_LEVELS - 1].forEach((l) => pool.access(fsmPage(l))) : undefined;
  const target = new HeapTarget(pool, t, f.pages, perBlock, false, fsmSearch);
  // Keys given by the statement (not drawn from a sequence) are the same in every run: a unique index's
  // check finds the previous run's rolled-back version under each and visits it, on the blocks that run appended.
  const rechecked = runsBefore > 0 ? shapes.filter((s) => s.x.unique === true && !s.x.ascending).length : 0;
  if (rechecked > 0)
    notes.assumptions.add(
      `each of the ${rechecked} unique index(es) finds the previous run's rolled-back version under each key (the statement gives the keys) and visits it`,
    );
  for (let r = 0; r < rows; r++) {
    if (drawsSequence) pool.access(sequencePage);
    target.put();
    for (let k = 0; k < rechecked; k++) pool.access(pageId(t, f.pages + Math.floor(r / perBlock)));
    for (const s of shapes) {
      // A partial index takes the rows that satisfy its predicate, spread evenly over the inserted rows.
      if (Math.floor((r + 1) * s.share) !== Math.floor(r * s.share)) insertEntry(pool, rnd, s, r);
    }
  }
}

/**
 * Keys past an index's largest live key meet the dead entries an earlier rolled-back write left past it:
 * the fast path takes only the right-most leaf, and where the keys lie among those entries each descends to
 * theirs (measured: 1,000 rows, 4,046 requests, 2,024 with the fast path). Where the leaves of dead entries
 * past the largest inserted key were counted after the runs (dead-past-inserted.ts), they tell which; else the
 * leaves past the live keys (index-height.ts) say there are some, and whether the keys lie among them is a
 * guess. A sequence's keys lie past every earlier one. Returns the dead leaves the entries go to, 0 for the
 * fast path.
 */
function deadEndAppends(
  x: PgRelationFacts,
  leafPages: number,
  { appended, deadPastInserted, draw }: { appended: Set<string>; deadPastInserted: Record<string, number>; draw: number },
  notes: PlanSimulationNotes,
): number {
  if (x.ascending === true || !appended.has(x.planName)) return 0;
  const past = deadPastInserted[x.planName];
  if (past !== undefined) {
    if (past > 0)
      notes.assumptions.add(
        `${x.reportName}: ${past} leaves of an earlier write's dead entries past the inserted keys (counted after the runs): each entry ` +
          'descends from the root, as the fast path takes the right-most leaf only',
      );
    return Math.min(leafPages, past);
  }
  const dead = Math.min(leafPages, x.deadEndLeaves?.last ?? 0);
  if (dead <= 0) return 0;
  const g = PG_GUESSES.deadEndAppends;
  notes.assumptions.add(`${x.reportName}: ${dead} leaves of dead entries past its live keys; ${g.what}: ${g.alternatives[guess(draw, 'deadEndAppends')]}`);
  return guess(draw, 'deadEndAppends') === 0 ? dead : 0;
}

/**
 * The share of the inserted rows a partial index takes an entry for: as counted after the runs where it
 * was, else its share of the table's rows (its entries over the table's, from the statistics); 1 for an
 * index of every row.
 */
export function partialShare(
  x: PgRelationFacts,
  f: PgRelationFacts,
  rows: number,
  counted: Record<string, number>,
  notes: PlanSimulationNotes,
  what = 'inserted',
): number {
  if (!x.predicate) return 1;
  const n = counted[x.planName];
  if (n !== undefined) {
    notes.assumptions.add(
      `${x.reportName}: partial (${x.predicate}): ${n.toLocaleString('en-US')} of the ${rows.toLocaleString('en-US')} ${what} rows satisfy it (read ` +
      `after the runs)`,
    );
    return Math.min(1, Math.max(0, n / Math.max(1, rows)));
  }
  const share = f.tuples > 0 ? Math.min(1, x.tuples / f.tuples) : 1;
  notes.assumptions.add(
    `${x.reportName}: partial (${x.predicate}): the ${what} rows taken to satisfy it as the table's rows do (${Math.round(share * 100)} %, its entries ` +
    `over the table's rows)`,
  );
  return share;
}

/** Whether a partial index's predicate names one of the columns (as the catalog deparses it: bare or quoted). */
export function predicateNames(predicate: string, columns: readonly string[]): boolean {
  const bare = predicate.replace(/'(?:[^']|'')*'/g, "''");
  return columns.some((c) =>
    new RegExp(`(^|[^\\w$"])(${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|"${c.replace(/"/g, '""').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}")([^\\w$"]|$)`).test(
      bare,
    ),
  );
}
