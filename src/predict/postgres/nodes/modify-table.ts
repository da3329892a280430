// ModifyTable: the pages an INSERT, UPDATE or DELETE writes (write-trace.ts), and what a rolled-back run leaves for the next.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import type { SimulationContext } from '../simulation-context';
import type { PgRelationFacts } from '../facts';
import type { PlanSimulationNotes } from '../simulation-notes';
import type { SeededRandom } from '../../../sim/random';
import { orderedShare, pageId } from '../geometry';
import { replayInsert, tuplesPerBlock, type WriteContext } from '../write-trace';
import { replayUpdate } from '../update-trace';
import { replayDelete } from '../delete-trace';
import { clearedOf, deadMetByWrite, freeSpaceOf, leftoversOf } from '../history/dead-versions';
import { earlierBlocks, earlierUnderTableWide, earlierUnderWrite } from '../history/earlier-writes';
import { PG_CALIBRATION } from '../calibration';
import { REFETCHES_OLD_VERSION_FROM } from '../layout-constants';
import { guess } from '../guesses';
import { deleteOutOfLine } from './toast-delete';
import { insertOutOfLine } from './toast-insert';

/**
 * An UPDATE's uniqueness checks go to each dead version under the row's key, where the scan below met it
 * out and back just before (its pages, cached: hits); a scan that met none leaves them at the heap's start.
 */
export function checkDeadVersions(sim: SimulationContext, pool: PostgresPool): void {
  const checks = sim.history.deadChecks;
  sim.history.deadChecks = undefined;
  if (!checks) return;
  const met = sim.history.deadMet.get(checks.t) ?? [];
  const perBlock = tuplesPerBlock(sim.facts[checks.t]);
  for (let j = 0; j < checks.count; j++) pool.access(pageId(checks.t, met.length > 0 ? met[j % met.length] : Math.floor(j / perBlock)));
}

/**
 * A later run of a rolled-back write finds leaves its earlier runs filled. An entry whose key is a duplicate
 * there (a unique index's dead twin, an index the UPDATE leaves unchanged) starts a bottom-up deletion pass
 * at a full leaf, which visits up to six heap pages of the leaf's entries (_bt_bottomupdel_pass), other
 * rows' included: studied seeds read 15-48 pages a run there where 0 were predicted (pg_buffercache around
 * each run). Which leaves are full no view shows.
 */
const BOTTOM_UP =
  "the heap pages a bottom-up deletion pass visits at a leaf the earlier runs' rolled-back entries filled (up to six a pass): not modelled; " +
  'a later run may read pages no run before touched';

/** A write's rows are what its input produced (the plan's only child). */
export function modify(sim: SimulationContext, pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
  const t = sim.relationIndex('table', n.relation);
  if (t === undefined) return void notes.unmodelled.add(`ModifyTable (${n.operation ?? 'unknown'}) on ${n.relation}: relation facts missing`);
  const input = n.children[0];
  const rows = input ? Math.round((input.actualRows ?? 0) * Math.max(1, input.actualLoops ?? 1)) : 0;
  const heap = { t, f: sim.facts[t] };
  const indexes = sim.facts.map((f, i) => ({ f, i })).filter(({ f }) => f.kind === 'index' && f.table === heap.f.planName);
  // The same visibility-map pages the index-only scans consult; the free-space map past every fork.
  const vmPage = (block: number) => sim.vmPageOf(t, block);
  const fsmPage = (level: number) => sim.fsmPageOf(t, level);
  const context: WriteContext = { pool, heap, indexes, rows, rnd, notes, vmPage, fsmPage };
  if (sim.history.runsDone > 0 && indexes.length > 0 && (n.operation === 'Insert' || n.operation === 'Update')) notes.unmodelled.add(BOTTOM_UP);
  switch (n.operation) {
    case 'Insert': {
      replayInsert(context, sim.sequencePage(), {
        appended: new Set(sim.observed.appendedKeys),
        deadPastInserted: sim.observed.deadPastInserted,
        runsBefore: sim.history.runsDone,
        partialEntries: sim.observed.partialEntries,
        draw: sim.draw,
        ...keyPositionsOf(sim, heap.f, rows, notes),
      });
      const values = sim.observed.insertedOutOfLine[heap.f.planName];
      if (values) insertOutOfLine(sim, pool, t, values, rows, notes);
      return;
    }
    case 'Update':
      return modifyUpdate(sim, context, input, n.hotUpdated);
    case 'Delete': {
      const rowBlocks = writtenRows(sim, heap.f, rows);
      sim.history.writtenPages.set(t, replayDelete(context, rowBlocks, clearedOf(sim, t)));
      deleteOutOfLine(sim, pool, t, sim.observed.writtenOutOfLine[heap.f.planName] ?? [], rowBlocks, notes);
      return;
    }
    default:
      notes.unmodelled.add(`ModifyTable (${n.operation ?? 'unknown'}): the pages it writes are left out; the reads below it are modelled`);
  }
}

/** An UPDATE replayed row by row (write-trace.ts), with what the runs before it left and what it leaves the next. */
function modifyUpdate(sim: SimulationContext, context: WriteContext, input: PlanNode | undefined, hotCounted: number | undefined): void {
  const { pool, heap, rows, notes } = context;
  const t = heap.t;
  const scan = input ? scanOf(input, heap.f.planName) : undefined;
  const scanIndex = scan?.index === undefined ? undefined : sim.relationIndex('index', scan.index);
  const correlation = scanIndex === undefined ? null : (sim.facts[scanIndex].correlation ?? null);
  const rowsPerPage = bitmapRowsPerPage(scan);
  // Where each written row is, read after the runs: its page decides whether its new version fits there (HOT).
  const rowBlocks = writtenRows(sim, heap.f, rows);
  if (rowBlocks)
    notes.assumptions.add(`${heap.f.reportName}: the written rows' pages as read after the runs (${new Set(rowBlocks).size.toLocaleString('en-US')} pages)`);
  const clustered = scan?.nodeType === 'Seq Scan' || (correlation !== null && Math.abs(correlation) >= PG_CALIBRATION.clusteredWrite);
  const leftoverPerRow = leftoversOf(sim, t);
  const leftoverAt = sim.history.leftoverPlace.get(t);
  // Run 1's _bt_check_unique marks each dead version it visits (ItemIdMarkDead, under the leaf's lock):
  // later runs check the previous run's aborted versions alone (measured after a table-wide update:
  // 7.87 requests a row on run 1, 7.86-7.94 on runs 2-3, as on a cold table's runs 2-3).
  const deadPerRow = sim.history.runsDone > 0 ? 0 : deadMetByWrite(sim, t, notes);
  const freeSpace = freeSpaceOf(sim, t);
  // _bt_check_unique visits the versions an earlier write left under each row's key too (the range's run 1).
  const left = rows > 0 && scan?.index !== undefined && orderedShare(correlation) > PG_CALIBRATION.blockOrder ? earlierUnderWrite(sim, t) : undefined;
  // Run 1's scan goes out to them and back (indexScan). A later run's scan passes them on its way to the
  // previous run's version under the same key, so only the uniqueness check adds a request each; from run
  // 3 it also checks the version the run before the previous one left there, which joined their posting
  // list when the leaf deduplicated (the pgbench check, warm, after one earlier measurement: 0.9 a
  // version on run 2, 1.4-2.2 more on run 3; cold, with no such list, 0.25 a row more on run 3).
  const olderAt = sim.history.runsDone >= 2 ? sim.history.olderLeftoverPlace.get(t) : undefined;
  const earlier =
    left && left.farBlocks > 0 ? { perRow: left.dead / rows, block: earlierBlocks(sim, heap.f, left), ...(olderAt ? { olderAt } : {}) } : undefined;
  const { moved, freeBlocks, deadChecks, pages } = replayUpdate(context, {
    ...(scanIndex === undefined ? {} : { scanIndex }),
    clustered,
    leftoverPerRow,
    ...(leftoverAt ? { leftoverAt } : {}),
    deadPerRow,
    ...(earlier ? { earlier } : {}),
    ...(freeSpace ? { freeSpace } : {}),
    firstWrite: sim.history.runsDone === 0,
    cleared: clearedOf(sim, t),
    refetchesOld: sim.engine.major >= REFETCHES_OLD_VERSION_FROM,
    roomFromPruning: guess(sim.draw, 'roomFromPruning') === 1,
    ...(hotCounted === undefined ? {} : { hotCounted }),
    ...(rowsPerPage ? { rowsPerPage } : {}),
    ...(rowBlocks ? { rowBlocks } : {}),
    ...keyPositionsOf(sim, heap.f, rows, notes),
    partialEntries: sim.observed.partialEntries,
    ...(sim.updatedColumns ? { updatedColumns: sim.updatedColumns } : {}),
  });
  sim.history.freeUsed.set(t, (sim.history.freeUsed.get(t) ?? 0) + freeBlocks);
  sim.history.writtenPages.set(t, pages);
  for (const b of earlierUnderTableWide(sim, heap.f, rows, notes)) pool.access(pageId(t, b));
  sim.history.deadChecks = deadChecks > 0 ? { t, count: deadChecks } : undefined;
  // Where this run's versions went, for the next run to meet them there.
  const appendedPerBlock = tuplesPerBlock(heap.f);
  if (leftoverAt) sim.history.olderLeftoverPlace.set(t, leftoverAt);
  sim.history.leftoverPlace.set(
    t,
    freeSpace ? (r) => freeSpace.block(Math.floor(r / freeSpace.perBlock)) : (r) => heap.f.pages + Math.floor(r / appendedPerBlock),
  );
  // Rolled back, each moved row leaves its new version dead, with an entry in every index, for the next
  // run's scan. (An INSERT's aborted rows are dead too, but the same INSERT run again does not read them.)
  if (rows > 0) sim.history.leftovers.set(t, moved / rows);
}

/** Each written row's position along the table's indexes, read after the runs, where read for every row. */
function keyPositionsOf(sim: SimulationContext, f: PgRelationFacts, rows: number, notes: WriteContext['notes']): { keyPositions?: Map<number, number[]> } {
  const byIndex = new Map<number, number[]>();
  for (const [name, positions] of Object.entries(sim.observed.writtenKeyPositions)) {
    const i = sim.relationIndex('index', name);
    if (i !== undefined && sim.facts[i].table === f.planName && positions.length === rows) byIndex.set(i, positions);
  }
  if (byIndex.size === 0) return {};
  const names = [...byIndex.keys()].map((i) => sim.facts[i].reportName).join(', ');
  notes.assumptions.add(
    `${f.reportName}: each new version's entry in ${names} goes to the leaf its key lies on, placed by the leading column's statistics (pg_stats) after ` +
    `the runs`);
  return { keyPositions: byIndex };
}

/** Each written row's heap block, read after the runs, where it was read for as many rows as the write's input produced. */
function writtenRows(sim: SimulationContext, f: PgRelationFacts, rows: number): number[] | undefined {
  const written = sim.observed.writtenBlocks[f.planName];
  return written && written.length === rows ? written : undefined;
}

/** A bitmap heap scan's rows over its heap blocks, as executed: how many of a page's rows the write changes. */
function bitmapRowsPerPage(scan: PlanNode | undefined): number | undefined {
  const blocks = (scan?.exactHeapBlocks ?? 0) + (scan?.lossyHeapBlocks ?? 0);
  return scan && blocks > 0 && (scan.actualRows ?? 0) > 0 ? scan.actualRows! / blocks : undefined;
}

/** The scan node under a write that reads the written table (the first one found). */
function scanOf(n: PlanNode, table: string): PlanNode | undefined {
  // A bitmap heap scan visits blocks in order, through the bitmap its index scan child built.
  if (n.relation === table && n.nodeType === 'Bitmap Heap Scan') return { ...n, nodeType: 'Seq Scan', index: n.children.find((c) => c.index)?.index };
  if (n.relation === table && /Scan$/.test(n.nodeType)) return n;
  for (const c of n.children) {
    const s = scanOf(c, table);
    if (s) return s;
  }
  return undefined;
}
