// A sequential scan: every block once per loop, through a BULKREAD ring where the table exceeds a quarter
// of the pool, shared among a parallel scan's participants, and what the ring leaves cached when it
// rejects dirty buffers.
import type { PlanNode } from '../../../shared/report';
import type { PostgresPool } from '../../../sim/policies/postgres-clock-sweep';
import { pinLimit, ringBuffers, seqScanUsesRing } from '../../../sim/postgres-rings';
import { scanOnce, type StreamLimits } from '../../../sim/scenarios/postgres-scan';
import { pageId } from '../geometry';
import { tableWideDead } from '../heap-layout';
import type { SimulationContext } from '../simulation-context';
import type { PlanSimulationNotes } from '../simulation-notes';
import { guess } from '../guesses';
import { PG_CALIBRATION } from '../calibration';
import { DEFAULT_EFFECTIVE_IO_CONCURRENCY, DEFAULT_IO_COMBINE_LIMIT, READ_STREAM_SEQ_SCAN_FROM } from '../layout-constants';

/** Blocks each participant of a parallel scan touched, the leader first (0 where one took none). */
export function participantShares(n: PlanNode): number[] | undefined {
  if (!n.parallelAware || !n.workers) return undefined;
  const workers = n.workers.map((w) => w.blocks);
  const leader = Math.max(0, n.total.sharedHit + n.total.sharedRead - workers.reduce((a, b) => a + b, 0));
  const shares = [leader, ...workers];
  return shares.some((b) => b > 0) ? shares : undefined;
}

export function seqScan(
  sim: SimulationContext,
  pool: PostgresPool,
  n: PlanNode,
  notes: PlanSimulationNotes,
  processesPlanned: number,
  shares?: number[],
): void {
  const processes = shares?.length ?? processesPlanned;
  const r = sim.relationIndex('table', n.relation);
  if (r === undefined) return void notes.unmodelled.add(`Seq Scan on ${n.relation}: relation facts missing`);
  const f = sim.facts[r];
  const loops = n.parallelAware ? 1 : Math.max(1, n.actualLoops ?? 1);
  // A scan stopped early (LIMIT) reads only the blocks its rows came from.
  // EXPLAIN gives rows per loop; a parallel scan's loops are its participants as executed.
  const tuplesSeen = ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * (n.parallelAware ? Math.max(1, n.actualLoops ?? 1) : 1);
  const perPage = f.tuples > 0 && f.pages > 0 ? f.tuples / f.pages : 0;
  const blocks = perPage > 0 && tuplesSeen < f.tuples * PG_CALIBRATION.stoppedScan ? Math.min(f.pages, Math.ceil(tuplesSeen / perPage) + 1) : f.pages;
  const ring = seqScanUsesRing(f.pages, pool.capacity);
  const ringSize = ringBuffers(sim.engine.major, 'bulkread', { ...sim.engine, nbuffers: pool.capacity });
  const scanning = shares ? shares.filter((b) => b > 0).length : processes;
  if (ring) {
    notes.assumptions.add(
      `${f.reportName}: ${f.pages.toLocaleString('en-US')} blocks > NBuffers/4, so each of ${scanning} scanning process(es) uses a ${ringSize}-buffer ` +
      `BULKREAD ring`,
    );
  }
  if (blocks < f.pages)
    notes.assumptions.add(`${f.reportName}: the scan stopped after about ${blocks.toLocaleString('en-US')} of ${f.pages.toLocaleString('en-US')} blocks`);
  // Which blocks each process took is a guess: the shown draw paces them, half the others start workers late.
  const lateWorkers = guess(sim.draw, 'lateWorkers') === 1;
  const fewestKept = guess(sim.draw, 'fewestKept') === 1;
  if (shares) {
    notes.assumptions.add(
      `${f.reportName}: blocks shared among the scanning processes as executed (${shares.join(' / ')}, the leader first); which blocks each took no counter ` +
        "tells: the prediction takes each at its share's pace from the start, the range also takes workers with smaller shares to have started late, " +
        'and the outer bound: blocks already cached taken by the smallest shares (the fewest the rings keep)',
    );
  }
  // Where no packed dead pages were pruned now, the blocks run 1 dirtied as executed are what its ring rejects.
  const pruned = ring && tableWideDead(f) && sim.liveRowsOf(r).first > 0 ? prunedNow(sim, r, blocks, notes, n) : undefined;
  const own = !ring ? undefined : (pruned ?? dirtiedNow(sim, r, blocks, notes, n));
  const dirtied = ring ? withWritten(sim, r, own, notes) : undefined;
  const stream = ring ? streamLimits(sim, ringSize, pool.capacity, f.reportName, notes) : undefined;
  for (let l = 0; l < loops; l++) {
    scanOnce(pool, {
      firstPage: pageId(r, 0),
      blocks,
      processes,
      ringBuffers: ringSize,
      ...(shares ? { shares, lateWorkers, fewestKept } : {}),
      ...(dirtied && l === 0 ? { dirtiedBlocks: dirtied } : {}),
      ...(stream ? { stream } : {}),
    });
  }
}

/**
 * PostgreSQL 18 reads a seq scan's blocks through a read stream, which may pin as many buffers ahead as
 * its I/O depth allows, at most the BULKREAD ring and the backend's pin limit. Where that reaches the
 * ring's size, a ring that skips a rejected dirty buffer comes round onto buffers the stream still
 * holds, and those pages stay cached (postgres-scan.ts StreamPins). (PostgreSQL 17 streams seq scans
 * too, with other limits; it is left as before, not measured here.)
 */
function streamLimits(sim: SimulationContext, ringSize: number, nbuffers: number, table: string, notes: PlanSimulationNotes): StreamLimits | undefined {
  if (sim.engine.major < READ_STREAM_SEQ_SCAN_FROM) return undefined;
  const combine = sim.engine.ioCombineLimit ?? DEFAULT_IO_COMBINE_LIMIT;
  const maxPinned = Math.min(
    ((sim.engine.effectiveIoConcurrency ?? DEFAULT_EFFECTIVE_IO_CONCURRENCY) + 1) * combine,
    ringSize,
    pinLimit({ ...sim.engine, nbuffers }),
  );
  if (maxPinned >= ringSize) {
    notes.assumptions.add(
      `${table}: each read stream may pin ${maxPinned} buffers ahead, as many as its ring holds: where the ring skips a dirty buffer it rejects, ` +
        'it comes round onto buffers the stream still holds, and those pages stay cached',
    );
  }
  return { maxPinned, combine };
}

/**
 * After a table-wide update, the pages of dead versions before the packed live rows are pruned by the
 * first scan that reads them since (heap_page_prune_opt, WAL-logged): a BULKREAD ring then rejects each as
 * dirty with WAL not yet flushed (StrategyRejectBuffer), and it stays in the main pool (measured: run 2
 * of such a scan read 4,022 of 8,109 pages at 128 MB, 4,257 at 32 MB, 6,243 at 16 MB). Whether an earlier
 * statement's index scans pruned them first no statistic says (pruning non-HOT versions leaves n_dead_tup
 * as it was), but run 1's executed plan does: the blocks its scan dirtied (measured: 3,594 and 4,058 where
 * run 1 was the first visit, 1–19 where an earlier statement had pruned them). Half the draws take the
 * other case, for the band. Where this returns nothing, the blocks run 1 dirtied as executed stand for the
 * pruned ones (dirtiedNow): where an earlier statement pruned the dead pages, run 1 still prunes what it
 * dirties (measured: 927 dirtied on the corpus's seed 1, and run 2 found 1,043 cached where the ring alone
 * keeps 96).
 */
function prunedNow(sim: SimulationContext, t: number, blocks: number, notes: PlanSimulationNotes, scan: PlanNode): Set<number> | undefined {
  const f = sim.facts[t];
  if (sim.history.pruned.has(t)) return undefined;
  const live = sim.liveRowsOf(t);
  if (live.first <= 0) return undefined;
  sim.history.pruned.add(t);
  const dead = Math.min(blocks, live.first);
  const firstVisit = scan.self.sharedDirtied >= PG_CALIBRATION.firstPrune * dead;
  const dirtiedCount = scan.self.sharedDirtied.toLocaleString('en-US');
  const deadPages = live.first.toLocaleString('en-US');
  notes.assumptions.add(
    firstVisit
      ? `${f.reportName}: run 1's scan dirtied ${dirtiedCount} blocks, so it pruned the ${deadPages} pages of dead versions as it read them, ` +
          'and its BULKREAD ring left them cached, dirty with WAL not yet flushed (the band: pruned before)'
      : `${f.reportName}: run 1's scan dirtied ${dirtiedCount} blocks, so earlier scans had pruned its ${deadPages} pages of dead versions ` +
          '(the band: pruned by run 1, its ring leaving them cached)',
  );
  if (firstVisit === (guess(sim.draw, 'prunedBefore') === 1)) return undefined;
  // As many as run 1 dirtied where it was the first visit (others an earlier scan had pruned); all of them in the band.
  const count = firstVisit ? Math.min(dead, scan.self.sharedDirtied) : dead;
  const dirtied = new Set<number>();
  for (let k = 0; k < count; k++) dirtied.add(Math.floor((k * dead) / count));
  return dirtied;
}

/**
 * A ring scan dirties the pages it prunes of dead versions (heap_page_prune_opt), WAL-logged, and the
 * pages whose tuples it sets hint bits on, WAL-logged only where data checksums or wal_log_hints are on.
 * A BULKREAD ring rejects a dirty buffer whose WAL is not yet flushed (StrategyRejectBuffer) and takes
 * another: the page stays in the main pool, for the next run to hit. Which pages no view shows before
 * the run, but each run's executed plan counts them (the scan's dirtied blocks); with hints not logged,
 * no more of them are pruned than the table has dead versions (n_dead_tup), the rest being hint bits the
 * ring writes and reuses. Which blocks they are is a guess: the shown draw spreads them evenly over the
 * scan (pages an update took versions from, as pgbench's random updates leave them), the odd draws put
 * them at its end (the versions appended there, whose hint bits are the first set; the last rings'
 * buffers are never reused). Measured on PostgreSQL 15 (pgbench scale 20 after 12,000 updates, 128 MB):
 * run 1 dirtied 6,437 blocks, and run 2 read 22,843 where a ring that kept nothing would have read 29,127;
 * on the corpus's table after 3,100 updates by key, run 1 dirtied 26 blocks and none stayed.
 */
function dirtiedNow(sim: SimulationContext, t: number, blocks: number, notes: PlanSimulationNotes, scan: PlanNode): Set<number> | undefined {
  const f = sim.facts[t];
  const logged = sim.engine.hintsWalLogged === true;
  const count = Math.min(blocks, scan.self.sharedDirtied, logged ? Infinity : (f.deadTuples ?? 0));
  if (count <= 0) return undefined;
  const why = logged
    ? 'data checksums or wal_log_hints log hint bits too'
    : `pruned: the table has ${(f.deadTuples ?? 0).toLocaleString('en-US')} dead versions`;
  notes.assumptions.add(
    `${f.reportName}: the scan dirtied ${scan.self.sharedDirtied.toLocaleString('en-US')} blocks as executed; ${count.toLocaleString('en-US')} taken as ` +
    `WAL-logged (${why}), ` +
      'which its BULKREAD ring rejects, leaving them cached; which blocks no counter tells: taken evenly over the scan (the range also takes them at its end)',
  );
  const atEnd = guess(sim.draw, 'dirtiedAtEnd') === 1;
  const dirtied = new Set<number>();
  for (let k = 0; k < count; k++) dirtied.add(atEnd ? blocks - count + k : Math.floor((k * blocks) / count));
  return dirtied;
}

/**
 * A write above the scan changes the pages of the rows it returns while the scan holds them (heap_update,
 * heap_delete set the old version's xmax): those buffers are dirty, with WAL not flushed, when the ring
 * comes round to them, so it rejects them and they stay cached (measured, fillfactor 70: an UPDATE of 1,001
 * rows on 817 pages, run 2 of the 10,000-block scan read 9,152).
 */
function withWritten(sim: SimulationContext, t: number, own: Set<number> | undefined, notes: PlanSimulationNotes): Set<number> | undefined {
  const written = sim.history.writtenPages.get(t);
  if (!written || written.size === 0) return own;
  notes.assumptions.add(
    `${sim.facts[t].reportName}: the ${written.size.toLocaleString('en-US')} pages the write changes are dirty when the scan's ring comes round to them, ` +
      'which it then rejects: they stay cached',
  );
  return new Set([...(own ?? []), ...written]);
}
