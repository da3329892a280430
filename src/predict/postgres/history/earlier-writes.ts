// The versions earlier measurements of a rolled-back write left under its keys, which no view shows
// before run 1: how many the shown draw takes, where they lie, and the leaves they split.
import { pageId } from '../geometry';
import { tableWideDead } from '../heap-layout';
import { beforeCommitted, betweenLoadedAndLive, earlierRuns, RUNS_PER_MEASUREMENT } from '../earlier-measurements';
import type { PgDeadEntries, PgRelationFacts } from '../facts';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { PG_CALIBRATION } from '../calibration';
import { guess, PG_GUESSES } from '../guesses';

/** Dead entries per row one measurement of a rolled-back write leaves where no scan marks them (calibration.ts). */
const ONE_MEASUREMENT_LEAVES = PG_CALIBRATION.oneMeasurementLeaves;

/**
 * The dead entries counted after a rolled-back write's runs that run 1 is taken to have met: the odd draws
 * (the range's top) all of them up to the dead versions the statistics counted before it, the shown draw
 * what one earlier measurement of the write leaves where the statistics show rolled-back updates, the
 * other draws none.
 */
export function earlierUnderWrite(sim: SimulationContext, t: number, notes?: PlanSimulationNotes): PgDeadEntries | undefined {
  const f = sim.facts[t];
  const e = sim.observed.writeDeadEntries[f.planName];
  if (!e || (f.deadTuples ?? 0) <= 0 || e.dead <= 0 || e.farBlocks <= 0) return undefined;
  const all = Math.min(e.dead, Math.round(f.deadTuples ?? 0));
  // Updates are counted tried, committed or not (n_tup_upd), changes only once committed (n_mod_since_analyze,
  // pgstat_relation.c): the updates beyond the changes were rolled back, where none came before the last
  // ANALYZE. Pruning may have removed their heap versions (n_dead_tup falls), not their entries. After a
  // table-wide update, whose inserts made room by deleting entries dead to all, the versions it left model
  // the entries instead (heap-layout.ts).
  const tableWide = tableWideDead(f);
  const rolledBack =
    f.changedSinceAnalyze === undefined || !f.rowsUpdated || tableWide ? 0 : Math.max(0, Math.round(f.rowsUpdated.all - f.changedSinceAnalyze));
  // Which of those lie under these keys no view shows: taken as an earlier measurement of this write, which
  // leaves about ONE_MEASUREMENT_LEAVES a row in posting lists (more after a second). Fewer updates rolled
  // back than one run of it writes are another write's (a single-row update measured before it: 3 versions
  // on other keys, which the cold range update's run 1 never met: 48 pages read, 51 predicted with them).
  const shown = earlierRuns(f, e.live) ? Math.min(all, rolledBack, Math.round(ONE_MEASUREMENT_LEAVES * e.live)) : 0;
  // No scan marks them, so every run meets them again (measured: three measurements of one range update on
  // a fresh server, runs 2-3 19,712-19,764, 22,035-23,656 and 23,471-23,555 logical reads).
  notes?.assumptions.add(
    `${f.reportName}: an earlier rolled-back write may have left dead entries under these keys that no scan can mark, which every run meets (out to each ` +
    `version and back, and again as each row's new entry is checked for uniqueness) and no view shows before run 1; after the runs a bitmap scan of the ` +
    `same condition counted ${all.toLocaleString('en-US')}, this write's own runs' among them. ` +
      (shown > 0
        ? `The statistics count ${rolledBack.toLocaleString('en-US')} updates tried beyond the changes committed since the last ANALYZE, that is rolled ` +
          `back (updates committed before that ANALYZE would count too): the prediction takes ${shown.toLocaleString('en-US')} entries as under these ` +
          `keys (what one earlier measurement of this write leaves), the range none to ${all.toLocaleString('en-US')}`
        : rolledBack > 0
          ? `The statistics count ${rolledBack.toLocaleString('en-US')} updates rolled back (tried beyond the changes committed since the last ANALYZE), ` +
            `fewer than one run of this write makes, so another write's, on other keys: the prediction takes none, the range up to all of them`
          : 'The statistics count no rolled-back updates (updates tried beyond the changes committed since the last ANALYZE)' +
            (tableWide ? ' or show a table-wide update, whose versions model the dead entries' : '') +
            ': the prediction takes none, the range up to all of them') +
      ", on the table's last blocks where nothing was committed since (cached ones first: a scan of the keys since met them), else on the blocks before " +
      "those the committed updates appended, its last run's on every block, the run's before on one in two and older runs' on one in three (a guess: the " +
      "share varies), the range also spread over the heap",
  );
  const taken = guess(sim.draw, 'earlierWriteEntries');
  if (taken === PG_GUESSES.earlierWriteEntries.high) return { ...e, dead: all };
  return taken === PG_GUESSES.earlierWriteEntries.shown && shown > 0 ? { ...e, dead: shown } : undefined;
}

/**
 * Where an earlier write's j-th dead entry under a write's keys points, which no view shows before run 1.
 * With no committed change since the last ANALYZE, nothing appended after the rolled-back write: its
 * versions are on the table's last blocks, and where blocks among the last twice as many as they span are
 * cached, on those: a scan of the keys since met the versions and left their pages cached (measured: a
 * read of the keys before a second measurement, 21 pages read on run 1, 22 predicted with none of them met,
 * 40 on the last blocks). With changes committed since, the shown draw puts them before the blocks those
 * updates appended (earlier-measurements.ts); the other draws, and where the statistics cannot place
 * them, spread over the heap.
 */
export function earlierBlocks(sim: SimulationContext, f: PgRelationFacts, e: PgDeadEntries): (j: number) => number {
  const n = Math.max(1, Math.min(e.farBlocks, f.pages));
  const placed = guess(sim.draw, 'earlierPlacement') === PG_GUESSES.earlierPlacement.shown;
  const before = placed && (f.changedSinceAnalyze ?? 0) > 0 ? beforeCommitted(f, e, sim.blockSize) : undefined;
  if (before) return before;
  if (!placed || f.changedSinceAnalyze !== 0) return (j) => Math.min(f.pages - 1, Math.floor((((j % n) + 0.5) * f.pages) / n));
  const from = Math.max(0, f.pages - 2 * n);
  const cached = new Set<number>();
  for (const [a, b] of f.cachedBefore) for (let x = Math.max(a, from); x <= Math.min(b, f.pages - 1); x++) cached.add(x);
  const blocks = cached.size > 0 ? [...cached].sort((a, b) => a - b).slice(-n) : Array.from({ length: n }, (_, k) => f.pages - n + k);
  return (j) => blocks[Math.min(blocks.length - 1, Math.floor((j * blocks.length) / Math.max(1, e.dead)))];
}

/**
 * After a table-wide update, a write's runs still meet the versions earlier measurements of it left
 * under its keys: their entries sit in the leaves its new entries fill, and making room (simple and
 * bottom-up deletion, heap_index_delete_tuples) or checking uniqueness visits their heap pages. They lie
 * between the rows as loaded and the table-wide update's versions, a measurement's after the other; how
 * many of their pages a run visits depends on which leaves fill and what marked them since, which no view
 * shows. The shown draw takes one block in five of each measurement's runs on run 1 and one in ten more on
 * run 2, as its entries fill the leaves again (measured on pgbench after a count over the keys, four
 * recordings: run 1 read 13-23 of each measurement's 99 blocks, run 2 7-11 more; the range update's run 1
 * read 147-173 pages, 142-157 predicted with one in three of one run's span, and run 2 19-28, 0 predicted
 * before). Odd draws read every block between on run 1, the other draws none (a small table with no scan
 * since read 66 of 198).
 */
export function earlierUnderTableWide(sim: SimulationContext, f: PgRelationFacts, rows: number, notes: PlanSimulationNotes): number[] {
  if (!tableWideDead(f) || sim.history.runsDone > 1) return [];
  const earlier = earlierRuns(f, rows);
  const between = betweenLoadedAndLive(f, rows, sim.blockSize);
  if (!earlier || !between) return [];
  notes.assumptions.add(
    `${f.reportName}: the statistics count ${(earlier.runs * rows).toLocaleString('en-US')} updates rolled back (${earlier.measurements} earlier ` +
    `measurement(s) of this write, taken as ${RUNS_PER_MEASUREMENT} runs each), whose versions lie between the rows as loaded and the table-wide ` +
    `update's: runs 1 and 2 visit their pages as their new entries fill the leaves holding theirs (deleting them to make room, checking uniqueness); how ` +
    `many no view shows: the prediction takes one block in five of each measurement's on run 1 and one in ten more on run 2, the range none to all ` +
    `${between.blocks.toLocaleString('en-US')} blocks between on run 1`,
  );
  const visits = guess(sim.draw, 'earlierBetweenBlocks');
  const { shown, high } = PG_GUESSES.earlierBetweenBlocks;
  if (sim.history.runsDone === 1) return visits === shown ? between.visitedOnRun2 : [];
  if (visits === high) return Array.from({ length: between.blocks }, (_, k) => between.first + k);
  return visits === shown ? between.visited : [];
}

/**
 * The leaves an earlier measurement of this write split under its keys, which the scan reads beside those
 * the keys had as loaded. Run 1 of a measurement puts a new entry beside every row's: each leaf it meets
 * fills and splits once (measured: 6 new pages for 2,001 rows on 7 leaves), the right half appended at
 * the index's end; its later runs make room by deleting the earlier runs' entries instead. Taken where
 * the shown draw takes an earlier measurement's dead entries (earlierUnderWrite): as many as the rolled-back
 * updates make measurements of three runs, on the index's last pages (measured after one: 13 leaves read
 * where the keys had 7, 6 of them at the end).
 */
export function splitByEarlier(sim: SimulationContext, i: number, leaves: number, notes: PlanSimulationNotes): number[] {
  const x = sim.facts[i];
  const t = sim.facts.findIndex((f) => f.kind === 'table' && f.planName === x.table);
  if (!sim.history.writes || sim.history.runsDone > 0 || guess(sim.draw, 'earlierWriteEntries') !== PG_GUESSES.earlierWriteEntries.shown || t < 0) return [];
  const f = sim.facts[t];
  const e = sim.observed.writeDeadEntries[f.planName];
  if (!e || tableWideDead(f) || !earlierUnderWrite(sim, t)) return [];
  const measurements = earlierRuns(f, e.live)?.measurements ?? 0;
  const split = Math.min(x.pages - 1, measurements * leaves);
  if (split <= 0) return [];
  notes.assumptions.add(
    `${x.reportName}: the earlier measurement(s) of this write split each of the ${leaves} leaves under its keys (taken as ${measurements} of ` +
    `${RUNS_PER_MEASUREMENT} runs from the updates rolled back): the scan also reads the ${split} halves they appended at the index's end`,
  );
  return Array.from({ length: split }, (_, k) => pageId(i, x.pages - split + k));
}
