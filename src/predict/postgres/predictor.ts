// Predicts each measured PostgreSQL run with the pool model: the pool starts as the residency snapshot
// showed it before run 1 (the rest of shared buffers filled to the snapshot's total), and run k+1 starts
// from the simulated state after run k. What-if series replay the same runs with changed settings.
import type { PlanNode, WhatIf, WhatIfSeries } from '../../shared/report';
import type { RunPrediction } from '../prediction';
import { mebibytes, poolSizes, replayTotals, simulatedSize, whatIfSeries } from '../what-if';
import { PostgresPool } from '../../sim/policies/postgres-clock-sweep';
import { HEAP_BLOCKS_PER_VM_PAGE, PlanSimulator, pageId, relationOf, type PlanSimulationNotes, type PostRunObservations } from './plan-simulator';
import type { PgPredictionSettings, PgRelationFacts } from './facts';
import { cachedStatementAssumption, PROBE_POOL_SCALE, recordRequests, seedSwaps } from '../cached-statement';
import { findNode } from './lookup-order';

export class PostgresPredictor {
  private pool: PostgresPool;
  private readonly simulator: PlanSimulator;
  /** Starting pages that stand for the statement's own (cached-statement.ts): victim → the page in its place. */
  private swaps = new Map<number, number>();
  /** Why run 1 finds the statement's pages cached, until run 1 is predicted. */
  private cachedNote: string | undefined;
  /** That run 1 follows an earlier measurement's runs of the same write, until run 1 is predicted. */
  private earlierNote: string | undefined;

  constructor(
    private readonly facts: PgRelationFacts[],
    private readonly settings: PgPredictionSettings,
    /** Which draw of what the model guesses (the heap order of uncorrelated entries): 0 is the one shown. */
    private readonly draw = 0,
  ) {
    this.simulator = this.makeSimulator();
    this.pool = this.startingPool(settings.nbuffers);
  }

  private makeSimulator(overrides: { effectiveIoConcurrency?: number; workers?: number } = {}): PlanSimulator {
    const s = this.settings;
    return new PlanSimulator({
      facts: this.facts,
      engine: {
        major: s.major,
        nbuffers: s.nbuffers,
        blockSize: s.blockSize,
        effectiveIoConcurrency: overrides.effectiveIoConcurrency ?? s.effectiveIoConcurrency,
        ioCombineLimit: s.ioCombineLimit,
        maxConnections: s.maxConnections,
        maxWorkerProcesses: s.maxWorkerProcesses,
        maxWalSenders: s.maxWalSenders,
        autovacuumWorkerSlots: s.autovacuumWorkerSlots,
        hintsWalLogged: s.hintsWalLogged,
      },
      ...(overrides.workers === undefined ? {} : { workersOverride: overrides.workers }),
      ...(s.updatedColumns ? { updatedColumns: s.updatedColumns } : {}),
      draw: this.draw,
      observed: observationsOf(s),
      ...(s.bufferSeed?.dirty ? { dirtyBlocks: s.bufferSeed.dirty } : {}),
    });
  }

  /**
   * The pool before run 1: as pg_buffercache showed it, buffer by buffer, where that was read (a what-if
   * pool smaller than the server's keeps its first buffers, a larger one has the rest free); otherwise the
   * other relations' pages first (they were there earlier), then the measured relations' cached blocks.
   */
  private startingPool(nbuffers: number): PostgresPool {
    const pool = new PostgresPool(nbuffers);
    const others = this.facts.length;
    const seed = this.settings.bufferSeed;
    if (seed) {
      const page = new Int32Array(nbuffers).fill(-1);
      for (let b = 0; b < Math.min(nbuffers, seed.usage.length); b++) if (seed.usage[b] !== '-') page[b] = pageId(others, b);
      for (const [r, block, b] of seed.blocks) if (b < nbuffers) page[b] = pageId(r, block);
      // The visibility-map and free-space-map pages of a cached table are among the other buffers.
      const forks = this.forkPages();
      for (let b = 0, k = 0; b < nbuffers && k < forks.length; b++) if (page[b] === pageId(others, b)) page[b] = forks[k++];
      for (let b = 0; b < nbuffers; b++) page[b] = this.swaps.get(page[b]) ?? page[b];
      pool.seed(
        (b) => page[b],
        (b) => (b < seed.usage.length && seed.usage[b] !== '-' ? Number(seed.usage[b]) : 0),
      );
      return pool;
    }
    // Other relations' pages first (they were there earlier), then the measured relations' cached blocks.
    const put = (p: number) => pool.access(this.swaps.get(p) ?? p);
    for (let k = 0; k < Math.min(this.settings.otherBuffersUsed, nbuffers); k++) put(pageId(others, k));
    this.facts.forEach((f, r) => {
      for (const [s, e] of f.cachedBefore) for (let b = s; b <= e; b++) put(pageId(r, b));
    });
    for (const p of this.forkPages()) put(p);
    return pool;
  }

  /**
   * Run 1 finds every page it requests cached (an earlier measurement's last run read none, and nothing of
   * the relations left shared buffers since): a probe replay of run 1 with buffers to spare (PROBE_POOL_SCALE) finds the pages
   * the model would read, and the starting pool is rebuilt with them in the buffers of cached pages of the
   * same relation that run 1 does not request, those with the highest usage counts first. Where an earlier
   * measurement of the same write ran `earlierRuns` times just before, the probe replays those first: run 1
   * meets what they left.
   */
  assumeStatementCached(plan: PlanNode, why: string, earlierRuns = 0): void {
    const probe = this.startingPool(this.settings.nbuffers * PROBE_POOL_SCALE);
    const start = this.mostUsedFirst(probe);
    const startSet = new Set(start);
    const simulator = this.makeSimulator();
    const notes: PlanSimulationNotes = { assumptions: new Set(), unmodelled: new Set() };
    // Run 1 after an earlier measurement's runs of the same write meets what they left: replayed first.
    for (let k = 0; k < earlierRuns; k++) {
      simulator.plan(probe, plan, notes);
      simulator.run(probe, plan, notes);
    }
    const log = recordRequests(probe, 'readBuffer');
    simulator.plan(probe, plan, notes);
    simulator.run(probe, plan, notes);
    const measuredRelation = (p: number) => (relationOf(p) < this.facts.length ? relationOf(p) : -1);
    const notStarting = { requested: log.requested, read: [...log.requested].filter((p) => !startSet.has(p)) };
    this.swaps = seedSwaps(start, notStarting, measuredRelation, (p) => startSet.has(p));
    this.simulator.inheritClearedPages(simulator);
    this.pool = this.startingPool(this.settings.nbuffers);
    this.cachedNote = cachedStatementAssumption(why);
  }

  /** A pool's cached pages, those with the highest usage counts first. */
  private mostUsedFirst(pool: PostgresPool): number[] {
    return pool
      .cachedPages()
      .map((p, k) => ({ p, k, u: pool.usageOf(p) }))
      .sort((a, b) => b.u - a.u || a.k - b.k)
      .map((x) => x.p);
  }

  /**
   * An earlier measurement of the same write, rolled back, ran `runs` times just before this one: its runs
   * left what a later run of this one meets (their aborted versions under the rows' keys, the entries run 1
   * marked), so run 1 is predicted as the run after them. They are replayed on a pool of their own: the
   * pool this measurement starts from is the one the residency read before run 1 showed. Where fewer dead
   * versions are counted than one run leaves, a VACUUM removed them since, and run 1 is a first run.
   */
  assumeEarlierRuns(plan: PlanNode, runs: number, placeTheirPages = true): void {
    // A VACUUM since (autovacuum, say) removed what they left: the dead versions counted now must hold a
    // run's worth of the rows at least.
    const write = findNode(plan, (n) => n.nodeType === 'ModifyTable');
    const table = this.facts.find((f) => f.kind === 'table' && f.planName === write?.relation);
    const rows = (write?.children[0]?.actualRows ?? 0) * Math.max(1, write?.children[0]?.actualLoops ?? 1);
    if (!write || !table || (table.deadTuples ?? 0) < rows) return;
    const scratch = this.startingPool(this.settings.nbuffers);
    const start = this.mostUsedFirst(scratch);
    const startSet = new Set(start);
    const notes: PlanSimulationNotes = { assumptions: new Set(), unmodelled: new Set() };
    // Every page the replayed runs request, in the order of its last request (a Map keeps insertion order).
    const requested = new Map<number, true>();
    const request = scratch.readBuffer.bind(scratch);
    scratch.readBuffer = (page, ring, dirties) => (requested.delete(page), requested.set(page, true), request(page, ring, dirties));
    for (let k = 0; k < runs; k++) {
      this.simulator.plan(scratch, plan, notes);
      this.simulator.run(scratch, plan, notes);
    }
    this.earlierNote = `an earlier measurement of this statement, rolled back, ran it ${runs} time(s) just before: run 1 is predicted as the run after those`;
    // The residency read before run 1 shows the pages those runs left, under the server's block numbers;
    // the model places some pages by guess (an index's leaves in key order, say) under others. Each page
    // they requested that the snapshot lacks, the last requested first, takes the place of a cached page of
    // the same relation none of them requested, so a relation keeps as many cached pages as the snapshot
    // showed. (Where run 1 finds all its pages cached, assumeStatementCached has placed them already.)
    if (!placeTheirPages) return;
    const latestFirst = [...requested.keys()].reverse().filter((p) => !startSet.has(p));
    const measuredRelation = (p: number) => (relationOf(p) < this.facts.length ? relationOf(p) : -1);
    const log = { requested: new Set(requested.keys()), read: latestFirst };
    this.swaps = seedSwaps(start, log, measuredRelation, (p) => startSet.has(p), false);
    this.pool = this.startingPool(this.settings.nbuffers);
  }

  /**
   * A table with pages cached has its visibility map's and free-space map's pages cached too (every
   * scan of it and every write consults them); residency reads the main fork only, so they are assumed.
   */
  private forkPages(): number[] {
    const n = this.facts.length;
    return this.facts.flatMap((f, t) => {
      if (f.kind !== 'table' || f.cachedBefore.length === 0) return [];
      const vm =
        f.allVisible !== undefined ? Array.from({ length: Math.max(1, Math.ceil(f.pages / HEAP_BLOCKS_PER_VM_PAGE)) }, (_, k) => pageId(n + 1 + t, k)) : [];
      const fsm = (f.fsmPages ?? 0) > 0 ? [0, 1, 2].map((l) => pageId(2 * n + 2 + t, l)) : [];
      return [...vm, ...fsm];
    });
  }

  predictRun(plan: PlanNode): RunPrediction {
    const firstNotes = [this.cachedNote, this.earlierNote].filter((x): x is string => x !== undefined);
    const notes: PlanSimulationNotes = { assumptions: new Set(firstNotes), unmodelled: new Set() };
    this.cachedNote = undefined;
    this.earlierNote = undefined;
    this.simulator.plan(this.pool, plan, notes);
    const before = this.pool.counters();
    const seed = this.settings.bufferSeed;
    if (seed && !seed.usage.includes('-')) {
      // A full pool evicts where the clock hand stands, and no view shows it.
      notes.assumptions.add('shared buffers start as pg_buffercache showed them; the clock hand, which no view shows, is taken at buffer 0');
    }
    this.simulator.run(this.pool, plan, notes);
    const after = this.pool.counters();
    const hits = after.shared_blks_hit - before.shared_blks_hit;
    const reads = after.shared_blks_read - before.shared_blks_read;
    return {
      predicted: { logicalReads: hits + reads, physicalReads: reads, readAhead: null },
      predictedAfter: this.cachedPerRelation(this.pool),
      assumptions: [...notes.assumptions],
      unmodelled: [...notes.unmodelled],
    };
  }

  private cachedPerRelation(pool: PostgresPool): Map<string, number> {
    const counts = new Array<number>(this.facts.length).fill(0);
    for (const p of pool.cachedPages()) {
      const r = relationOf(p);
      if (r < this.facts.length) counts[r]++;
    }
    return new Map(this.facts.map((f, i) => [f.reportName, counts[i]]));
  }

  /**
   * A pool size from which a larger one changes nothing: it holds every page the runs can touch (every
   * relation's pages, the other buffers, and what writes can add), and no relation is above its quarter,
   * so no scan takes a ring.
   */
  private pagesTouchedBound(plans: PlanNode[]): number {
    const relations = this.facts.reduce((a, f) => a + f.pages, 0);
    const perRow = 1 + this.facts.filter((f) => f.kind === 'index').length;
    const touched = relations + this.settings.otherBuffersUsed + plans.reduce((a, p) => a + rowsWritten(p) * perRow, 0) + 1024;
    return Math.max(touched, 4 * Math.max(0, ...this.facts.map((f) => f.pages)) + 16);
  }

  /** All runs again from the starting state, once per value of each setting. */
  whatIf(plans: PlanNode[], poolBytes?: number[]): WhatIf {
    const s = this.settings;
    const replayAll = (nbuffers: number, simulator: PlanSimulator) => {
      const pool = this.startingPool(nbuffers);
      const notes: PlanSimulationNotes = { assumptions: new Set(), unmodelled: new Set() };
      // Neither the starting state's requests nor planning's are the statement's.
      let [requests, reads] = [0, 0];
      for (const p of plans) {
        simulator.plan(pool, p, notes);
        const start = pool.counters();
        simulator.run(pool, p, notes);
        const c = pool.counters();
        requests += c.shared_blks_hit + c.shared_blks_read - start.shared_blks_hit - start.shared_blks_read;
        reads += c.shared_blks_read - start.shared_blks_read;
      }
      return replayTotals(requests, reads);
    };
    const sizes = poolSizes(s.nbuffers, s.blockSize, { factors: [0.25, 0.5, 1, 2, 4, 8], floor: 16, minimum: 16 }, poolBytes);
    const touched = this.pagesTouchedBound(plans);
    const series: WhatIfSeries[] = [
      whatIfSeries(
        'shared_buffers',
        'pages',
        sizes,
        (n) => ({ value: n, label: `${mebibytes(n, s.blockSize)} MiB`, current: n === s.nbuffers }),
        (n) => replayAll(simulatedSize(n, touched), this.makeSimulator()),
      ),
    ];
    if (s.major >= 18) {
      series.push(
        whatIfSeries(
          'effective_io_concurrency',
          '',
          [0, 1, 16, 64],
          (v) => ({ value: v, label: String(v), current: v === s.effectiveIoConcurrency }),
          (v) => replayAll(s.nbuffers, this.makeSimulator({ effectiveIoConcurrency: v })),
        ),
      );
    }
    if (plans.some((p) => hasGather(p))) {
      const launched = gatherWorkers(plans[0]);
      series.push(
        whatIfSeries(
          'parallel workers',
          'workers',
          [0, 1, 2, 4],
          (w) => ({ value: w, label: String(w), current: w === launched }),
          (w) => replayAll(s.nbuffers, this.makeSimulator({ workers: w })),
        ),
      );
    }
    return { runs: plans.length, series };
  }
}

/** Rows a plan's ModifyTable nodes wrote: each can take a new heap page and a new page per index at most. */
function rowsWritten(n: PlanNode): number {
  const own = n.nodeType === 'ModifyTable' ? (n.actualRows ?? 0) + (n.children[0]?.actualRows ?? 0) : 0;
  return own + n.children.reduce((a, c) => a + rowsWritten(c), 0);
}

function gatherWorkers(n: PlanNode): number | undefined {
  if (n.nodeType === 'Gather' || n.nodeType === 'Gather Merge') return n.workersLaunched;
  for (const c of n.children) {
    const w = gatherWorkers(c);
    if (w !== undefined) return w;
  }
  return undefined;
}

function hasGather(n: PlanNode): boolean {
  return n.nodeType === 'Gather' || n.nodeType === 'Gather Merge' || n.children.some(hasGather);
}

/** The settings' fields that hold what a measurement read after its last run (facts.ts PgPostRunObservations). */
const OBSERVED_KEYS = [
  'heapBlocks',
  'fetchedBlocks',
  'bitmapBlocks',
  'appendedKeys',
  'deadPastInserted',
  'lookupRows',
  'indexWindows',
  'startFractions',
  'movedRows',
  'deadEntries',
  'writeDeadEntries',
  'toastValues',
  'writtenBlocks',
  'writtenKeyPositions',
  'partialEntries',
  'writtenOutOfLine',
  'insertedOutOfLine',
] as const satisfies ReadonlyArray<keyof PostRunObservations & keyof PgPredictionSettings>;

/** The facts a measurement read after its last run, apart from the engine's settings. */
function observationsOf(s: PgPredictionSettings): Partial<PostRunObservations> {
  return Object.fromEntries(OBSERVED_KEYS.map((k) => [k, s[k]])) as Partial<PostRunObservations>;
}
