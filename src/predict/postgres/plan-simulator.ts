// Walks a PostgreSQL plan (as executed: rows, loops, workers launched, heap blocks) and replays the page
// requests each node makes through the PostgreSQL pool model. Pure: no database, no vscode.
import type { PlanNode } from '../../shared/report';
import { type PostgresPool } from '../../sim/policies/postgres-clock-sweep';
import { pinLimit, ringBuffers, seqScanUsesRing, type PostgresRingSettings } from '../../sim/postgres-rings';
import { scanOnce, type StreamLimits } from '../../sim/scenarios/postgres-scan';
import { SeededRandom } from '../../sim/random';
import type { PgDeadEntries, PgIndexWindow, PgMovedRows, PgRelationFacts } from './facts';

import { descentPages, indexGeometry, orderedShare, pageId } from './geometry';
import { firstKey } from './key-bounds';
import { ChurnedLeaves, keyOrderChurn, PLAIN_AFTER_EARLIER_UPDATE } from './version-churn';
import { DRAWS } from '../prediction';
import { secondaryChurn, type SecondaryChurn } from './secondary-churn';
import type { PlanSimulationNotes } from './simulation-notes';
import { beforeCommitted, betweenLoadedAndLive, earlierRuns, RUNS_PER_MEASUREMENT } from './earlier-measurements';
import { replayDelete, replayInsert, replayUpdate, tuplesPerBlock, type WriteContext } from './write-trace';
import { findNode, lookupOrder, outerReference, type LookupOrder } from './lookup-order';
import { deadEntriesPerRow, deadVersions, liveRows, notAllVisible, outOfOrder, packedFirstBlock, rowsPerFullPage, tableWideDead, type DeadVersions, type LiveRows } from './heap-layout';

export { pageId, relationOf } from './geometry';
export type { PlanSimulationNotes } from './simulation-notes';

/**
 * Dead entries per row that one measurement of a rolled-back write leaves where no scan can mark them (in
 * posting lists beside the live versions), read with pageinspect on pgbench's accounts (2,000,000 rows,
 * PostgreSQL 15) after three rolled-back runs of a 2,001-row range update: 1,237 (0.62 a row; keys with one,
 * two, three: 992, 70, 35). The next measurement's run 1 met them all (3,431 requests more than the first's
 * run 1: out to each, back once per key, one uniqueness check each) and left 1,737, as does every later one.
 */
const ONE_MEASUREMENT_LEAVES = 0.62;

/** Heap pages one visibility-map page covers: two bits each in an 8 kB page less its header (MAPSIZE × 4). */
export const HEAP_BLOCKS_PER_VM_PAGE = (8192 - 24) * 4;

const sum = (a: ArrayLike<number>): number => {
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

/** Blocks each participant of a parallel scan touched, the leader first (0 where one took none). */
function participantShares(n: PlanNode): number[] | undefined {
  if (!n.parallelAware || !n.workers) return undefined;
  const workers = n.workers.map((w) => w.blocks);
  const leader = Math.max(0, n.total.sharedHit + n.total.sharedRead - workers.reduce((a, b) => a + b, 0));
  const shares = [leader, ...workers];
  return shares.some((b) => b > 0) ? shares : undefined;
}

export class PlanSimulator {
  private readonly byName = new Map<string, number>();
  /** A nested loop's inner index scans: in which order the outer rows ask them for keys. */
  private readonly lookupOrders = new Map<PlanNode, LookupOrder>();
  /** Runs replayed so far: the dead versions a run meets depend on what the runs before it left. */
  private runsDone = 0;
  /** Per table: the aborted versions per updated row that the previous rolled-back run left, with index entries. */
  private readonly leftovers = new Map<number, number>();
  /** Per table: the free-space map's blocks earlier runs' new versions took. */
  private readonly freeUsed = new Map<number, number>();
  /** Per table: where the previous run put the version of its r-th row. */
  private readonly leftoverPlace = new Map<number, (r: number) => number>();
  /** The same for the run before the previous one (a version in a posting list no run marks). */
  private readonly olderLeftoverPlace = new Map<number, (r: number) => number>();
  /** The plan being replayed writes: its rolled-back entries change the leaves it scans (see killedAfterChurn). */
  private writes = false;
  /** Per table: the blocks of the dead versions a write's scan met in this run, in order. */
  private readonly deadMet = new Map<number, number[]>();
  /** The dead versions a write's uniqueness checks visit, replayed once its scan has met them. */
  private deadChecks: { t: number; count: number } | undefined;
  /** Per table: pages an earlier run's update cleared the all-visible bit of (write-trace.ts). */
  private readonly clearedPages = new Map<number, Set<number>>();
  /** Per table: movedRanks' marks, the same every run. */
  private readonly movedRankMarks = new Map<string, Uint8Array>();
  /** Tables whose pages of dead versions a replayed scan has pruned (see prunedNow). */
  private readonly pruned = new Set<number>();
  /** Per relation: its blocks cached dirty before run 1. */
  private readonly dirty = new Map<number, number[]>();

  constructor(
    private readonly facts: PgRelationFacts[],
    private readonly ring: PostgresRingSettings & { major: number; hintsWalLogged?: boolean },
    private readonly workersOverride?: number,
    /** An UPDATE's assigned columns, for the HOT rule. */
    private readonly updatedColumns?: string[],
    /** Which draw of the heap orders the model guesses (0: the one shown; others give the band). */
    private readonly draw = 0,
    /** Where a plain SELECT's index scan found its rows, read after the runs (PgPredictionSettings.heapBlocks). */
    private readonly heapBlocks: Record<string, number[]> = {},
    /** A nested loop's lookups as they ran, read after the runs (PgPredictionSettings.lookupRows). */
    private readonly lookupRows: Record<string, { keys?: number[]; blocks: number[] }> = {},
    /** The rows around a secondary index's scan, read after the runs (PgPredictionSettings.indexWindows). */
    private readonly indexWindows: Record<string, PgIndexWindow> = {},
    /** The relations' blocks cached dirty before run 1, as [relation index, block] (bufferSeed.dirty). */
    dirtyBlocks: Array<[number, number]> = [],
    /** Rows an index scan visits that an update moved, read after the runs (PgPredictionSettings.movedRows). */
    private readonly movedRows: Record<string, PgMovedRows> = {},
    /** Dead entries a SELECT's index scan meets on every run, read after the runs (PgPredictionSettings.deadEntries). */
    private readonly deadEntries: Record<string, PgDeadEntries> = {},
    /** Dead entries counted after a rolled-back write's runs (PgPredictionSettings.writeDeadEntries): the band's run 1 meets them. */
    private readonly writeDeadEntries: Record<string, PgDeadEntries> = {},
  ) {
    facts.forEach((f, i) => this.byName.set(`${f.kind}:${f.planName}`, i));
    for (const [r, block] of dirtyBlocks) {
      const blocks = this.dirty.get(r) ?? [];
      blocks.push(block);
      this.dirty.set(r, blocks);
    }
  }

  relationIndex(kind: 'table' | 'index', name: string | undefined): number | undefined {
    return name === undefined ? undefined : this.byName.get(`${kind}:${name}`);
  }

  /**
   * What planning the statement requests before it runs (counted apart from the run: EXPLAIN reports it as
   * planning's own buffers). A join on two columns has its selectivity estimated from each side's actual
   * lowest and highest value where an index leads with the column (get_actual_variable_range): a descent to
   * the first and to the last leaf, the visibility-map page of the rows found there, and their heap pages
   * where those are not all-visible (measured on PostgreSQL 15: root, first and last leaf, and the map page
   * of both tables of an id = id join cached by planning alone). The run then finds them cached.
   */
  plan(pool: PostgresPool, root: PlanNode, notes: PlanSimulationNotes): void {
    const probed = new Set<number>();
    const probe = (table: string | undefined, column: string) => {
      const t = this.relationIndex('table', table);
      const i = this.facts.findIndex((f) => f.kind === 'index' && f.table === table && f.columns?.[0] === column);
      if (t === undefined || i < 0 || probed.has(i)) return;
      probed.add(i);
      const f = this.facts[i];
      const heap = this.facts[t];
      const g = indexGeometry(f);
      const vm = (block: number) => pageId(this.facts.length + 1 + t, Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE));
      const live = liveRows(heap, this.ring.blockSize ?? 8192, this.draw, { assumptions: new Set(), unmodelled: new Set() });
      const settled = (heap.allVisible ?? 1) >= 0.5;
      for (const [leaf, ends] of [
        [0, live.first > 0 ? [0, live.first] : [0]],
        [g.leafPages - 1, live.first > 0 ? [live.first - 1, live.first + live.pages - 1] : [heap.pages - 1]],
      ] as Array<[number, number[]]>) {
        for (const p of descentPages(i, g, leaf)) pool.access(p);
        pool.access(pageId(i, g.firstLeaf + leaf));
        pool.access(vm(ends[ends.length - 1]));
        if (!settled) for (const b of ends) pool.access(pageId(t, Math.max(0, b)));
      }
      notes.assumptions.add(`${f.reportName}: planning the join looks up ${column}'s lowest and highest value through it (root, first and last leaf, the map page${settled ? '' : ' and the rows\' heap pages'}), so the run finds them cached`);
    };
    const walk = (n: PlanNode) => {
      if (n.nodeType === 'Nested Loop' && n.children.length === 2) {
        const inner = findNode(n.children[1], (c) => (c.nodeType === 'Index Scan' || c.nodeType === 'Index Only Scan') && outerReference(c.indexCond) !== undefined);
        const ref = inner && outerReference(inner.indexCond);
        const source = ref && findNode(n.children[0], (c) => /Scan$/.test(c.nodeType) && (c.alias ?? c.relation) === ref.alias);
        if (inner && ref) {
          probe(inner.relation, ref.column);
          if (source?.relation) probe(source.relation, ref.outerColumn);
        }
      }
      n.children.forEach(walk);
    };
    walk(root);
  }

  /** Replays one execution of the plan. The generator is seeded per run, so repeated runs request the same pages. */
  run(pool: PostgresPool, root: PlanNode, notes: PlanSimulationNotes): void {
    this.writes = findNode(root, (c) => c.nodeType === 'ModifyTable') !== undefined;
    this.deadMet.clear();
    this.node(pool, root, notes, new SeededRandom(0x5eed + this.draw * 0x9e3779b1), 1);
    this.runsDone++;
  }

  private node(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom, workers: number): void {
    const launched = n.nodeType === 'Gather' || n.nodeType === 'Gather Merge' ? (this.workersOverride ?? n.workersLaunched ?? 0) : undefined;
    const childWorkers = launched ?? workers;
    // Execution order: a hash join builds its hash table from the inner side first.
    const children = n.nodeType === 'Hash Join' ? [...n.children].reverse() : n.children;
    if (n.nodeType === 'Nested Loop' && n.children.length === 2) {
      const inner = findNode(n.children[1], (c) => (c.nodeType === 'Index Scan' || c.nodeType === 'Index Only Scan') && outerReference(c.indexCond) !== undefined);
      const order = inner && lookupOrder(n.children[0], inner, this.facts);
      if (inner && order) this.lookupOrders.set(inner, order);
    }
    switch (n.nodeType) {
      case 'Seq Scan':
        this.seqScan(pool, n, notes, n.parallelAware ? childWorkers + 1 : 1, this.workersOverride === undefined ? participantShares(n) : undefined);
        break;
      case 'Index Scan':
      case 'Index Only Scan':
        this.indexScan(pool, n, notes, rnd);
        break;
      case 'Bitmap Index Scan':
        this.indexLeaves(pool, n, notes, rnd, (n.actualRows ?? 0) * (n.actualLoops ?? 1));
        break;
      case 'Bitmap Heap Scan':
        this.bitmapHeap(pool, n, notes);
        break;
      case 'ModifyTable':
        break;
      case 'Sort':
      case 'Incremental Sort':
        this.sortSupport(pool, n, notes);
        break;
      default:
        if (n.relation || n.index) notes.unmodelled.add(`${n.nodeType} on ${n.relation ?? n.index}: its page requests are left out`);
    }
    if (n.nodeType === 'ModifyTable') this.modify(pool, n, notes, rnd);
    if (n.total.tempRead + n.total.tempWritten > 0 && n.self.tempRead + n.self.tempWritten > 0) {
      notes.assumptions.add(`${n.nodeType} spilled to temporary files (${n.self.tempWritten} blocks written): temp I/O bypasses shared buffers`);
    }
    for (const c of children) this.node(pool, c, notes, rnd, childWorkers);
    if (n.nodeType === 'ModifyTable') this.checkDeadVersions(pool);
  }

  /**
   * An UPDATE's uniqueness checks go to each dead version under the row's key, where the scan below met it
   * out and back just before (its pages, cached: hits); a scan that met none leaves them at the heap's start.
   */
  private checkDeadVersions(pool: PostgresPool): void {
    const checks = this.deadChecks;
    this.deadChecks = undefined;
    if (!checks) return;
    const met = this.deadMet.get(checks.t) ?? [];
    const perBlock = tuplesPerBlock(this.facts[checks.t]);
    for (let j = 0; j < checks.count; j++) pool.access(pageId(checks.t, met.length > 0 ? met[j % met.length] : Math.floor(j / perBlock)));
  }

  /**
   * A sort's first execution in the session looks up each key's sort support function in the catalogs
   * (get_opfamily_proc, a syscache miss: an index descent and a heap page, 3 requests; measured on
   * PostgreSQL 15 and 18 for int, numeric, text and char keys, 6 for two keys, none on later runs). The
   * pages are the catalogs' own, cached since planning read its neighbours: counted as hits.
   */
  private sortSupport(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes): void {
    if (this.runsDone > 0 || !n.sortKeys) return;
    for (let k = 0; k < 3 * n.sortKeys; k++) pool.repin();
    notes.assumptions.add(`${n.nodeType}: its first execution in the session looks up the sort support of its ${n.sortKeys} key(s) in the catalogs, ${3 * n.sortKeys} cached catalog page request(s)`);
  }

  /** A write's rows are what its input produced (the plan's only child). */
  private modify(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
    const t = this.relationIndex('table', n.relation);
    if (t === undefined) return void notes.unmodelled.add(`ModifyTable (${n.operation ?? 'unknown'}) on ${n.relation}: relation facts missing`);
    const input = n.children[0];
    const rows = input ? Math.round((input.actualRows ?? 0) * Math.max(1, input.actualLoops ?? 1)) : 0;
    const heap = { t, f: this.facts[t] };
    const indexes = this.facts.map((f, i) => ({ f, i })).filter(({ f }) => f.kind === 'index' && f.table === heap.f.planName);
    // The same visibility-map pages the index-only scans consult; the free-space map past every fork.
    const vmPage = (block: number) => pageId(this.facts.length + 1 + t, Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE));
    const fsmPage = (level: number) => pageId(2 * this.facts.length + 2 + t, level);
    const context: WriteContext = { pool, heap, indexes, rows, rnd, notes, vmPage, fsmPage };
    switch (n.operation) {
      case 'Insert':
        return replayInsert(context, pageId(3 * this.facts.length + 3, 0));
      case 'Update': {
        const scan = input ? scanOf(input, heap.f.planName) : undefined;
        const scanIndex = scan?.index === undefined ? undefined : this.relationIndex('index', scan.index);
        const correlation = scanIndex === undefined ? null : (this.facts[scanIndex].correlation ?? null);
        const clustered = scan?.nodeType === 'Seq Scan' || (correlation !== null && Math.abs(correlation) >= 0.5);
        const leftoverPerRow = this.leftoversOf(t);
        const leftoverAt = this.leftoverPlace.get(t);
        // Run 1's _bt_check_unique marks each dead version it visits (ItemIdMarkDead, under the leaf's lock):
        // later runs check the previous run's aborted versions alone (measured after a table-wide update:
        // 7.87 requests a row on run 1, 7.86-7.94 on runs 2-3, as on a cold table's runs 2-3).
        const deadPerRow = this.runsDone > 0 ? 0 : this.deadMetByWrite(t, notes);
        const freeSpace = this.freeSpaceOf(t);
        // _bt_check_unique visits the versions an earlier write left under each row's key too (the range's run 1).
        const left = rows > 0 && scan?.index !== undefined && orderedShare(correlation) > 0.8 ? this.earlierUnderWrite(t) : undefined;
        // Run 1's scan goes out to them and back (indexScan). A later run's scan passes them on its way to the
        // previous run's version under the same key, so only the uniqueness check adds a request each; from run
        // 3 it also checks the version the run before the previous one left there, which joined their posting
        // list when the leaf deduplicated (the pgbench check, warm, after one earlier measurement: 0.9 a
        // version on run 2, 1.4-2.2 more on run 3; cold, with no such list, 0.25 a row more on run 3).
        const olderAt = this.runsDone >= 2 ? this.olderLeftoverPlace.get(t) : undefined;
        const earlier = left && left.farBlocks > 0 ? { perRow: left.dead / rows, block: this.earlierBlocks(heap.f, left), ...(olderAt ? { olderAt } : {}) } : undefined;
        const { moved, freeBlocks, deadChecks } = replayUpdate(context, { ...(scanIndex === undefined ? {} : { scanIndex }), clustered, leftoverPerRow, ...(leftoverAt ? { leftoverAt } : {}), deadPerRow, ...(earlier ? { earlier } : {}), ...(freeSpace ? { freeSpace } : {}), firstWrite: this.runsDone === 0, cleared: this.clearedOf(t), refetchesOld: this.ring.major >= 14, roomFromPruning: (this.draw & 4) !== 0, ...(this.updatedColumns ? { updatedColumns: this.updatedColumns } : {}) });
        this.freeUsed.set(t, (this.freeUsed.get(t) ?? 0) + freeBlocks);
        for (const b of this.earlierUnderTableWide(heap.f, rows, notes)) pool.access(pageId(t, b));
        this.deadChecks = deadChecks > 0 ? { t, count: deadChecks } : undefined;
        // Where this run's versions went, for the next run to meet them there.
        const appendedPerBlock = tuplesPerBlock(heap.f);
        if (leftoverAt) this.olderLeftoverPlace.set(t, leftoverAt);
        this.leftoverPlace.set(t, freeSpace ? (r) => freeSpace.block(Math.floor(r / freeSpace.perBlock)) : (r) => heap.f.pages + Math.floor(r / appendedPerBlock));
        // Rolled back, each moved row leaves its new version dead, with an entry in every index, for the next
        // run's scan. (An INSERT's aborted rows are dead too, but the same INSERT run again does not read them.)
        if (rows > 0) this.leftovers.set(t, moved / rows);
        return;
      }
      case 'Delete':
        return replayDelete(context);
      default:
        notes.unmodelled.add(`ModifyTable (${n.operation ?? 'unknown'}): the pages it writes are left out; the reads below it are modelled`);
    }
  }

  private seqScan(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, processesPlanned: number, shares?: number[]): void {
    const processes = shares?.length ?? processesPlanned;
    const r = this.relationIndex('table', n.relation);
    if (r === undefined) return void notes.unmodelled.add(`Seq Scan on ${n.relation}: relation facts missing`);
    const f = this.facts[r];
    const loops = n.parallelAware ? 1 : Math.max(1, n.actualLoops ?? 1);
    // A scan stopped early (LIMIT) reads only the blocks its rows came from.
    // EXPLAIN gives rows per loop; a parallel scan's loops are its participants as executed.
    const tuplesSeen = ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * (n.parallelAware ? Math.max(1, n.actualLoops ?? 1) : 1);
    const perPage = f.tuples > 0 && f.pages > 0 ? f.tuples / f.pages : 0;
    const blocks = perPage > 0 && tuplesSeen < f.tuples * 0.9 ? Math.min(f.pages, Math.ceil(tuplesSeen / perPage) + 1) : f.pages;
    const ring = seqScanUsesRing(f.pages, pool.capacity);
    const ringSize = ringBuffers(this.ring.major, 'bulkread', { ...this.ring, nbuffers: pool.capacity });
    const scanning = shares ? shares.filter((b) => b > 0).length : processes;
    if (ring) notes.assumptions.add(`${f.reportName}: ${f.pages.toLocaleString('en-US')} blocks > NBuffers/4, so each of ${scanning} scanning process(es) uses a ${ringSize}-buffer BULKREAD ring`);
    if (blocks < f.pages) notes.assumptions.add(`${f.reportName}: the scan stopped after about ${blocks.toLocaleString('en-US')} of ${f.pages.toLocaleString('en-US')} blocks`);
    // Which blocks each process took is a guess: the shown draw paces them, half the others start workers late.
    const lateWorkers = (this.draw & 1) === 1;
    if (shares) notes.assumptions.add(`${f.reportName}: blocks shared among the scanning processes as executed (${shares.join(' / ')}, the leader first); which blocks each took no counter tells: the prediction takes each at its share's pace from the start, the range also takes workers with smaller shares to have started late`);
    const dirtied = !ring ? undefined : tableWideDead(this.facts[r]) ? this.prunedNow(r, blocks, notes, n) : this.dirtiedNow(r, blocks, notes, n);
    const stream = ring ? this.streamLimits(ringSize, pool.capacity, f.reportName, notes) : undefined;
    for (let l = 0; l < loops; l++) scanOnce(pool, { firstPage: pageId(r, 0), blocks, processes, ringBuffers: ringSize, ...(shares ? { shares, lateWorkers } : {}), ...(dirtied && l === 0 ? { dirtiedBlocks: dirtied } : {}), ...(stream ? { stream } : {}) });
  }

  /**
   * PostgreSQL 18 reads a seq scan's blocks through a read stream, which may pin as many buffers ahead as
   * its I/O depth allows, at most the BULKREAD ring and the backend's pin limit. Where that reaches the
   * ring's size, a ring that skips a rejected dirty buffer comes round onto buffers the stream still
   * holds, and those pages stay cached (postgres-scan.ts StreamPins). (PostgreSQL 17 streams seq scans
   * too, with other limits; it is left as before, not measured here.)
   */
  private streamLimits(ringSize: number, nbuffers: number, table: string, notes: PlanSimulationNotes): StreamLimits | undefined {
    if (this.ring.major < 18) return undefined;
    const combine = this.ring.ioCombineLimit ?? 16;
    const maxPinned = Math.min(((this.ring.effectiveIoConcurrency ?? 16) + 1) * combine, ringSize, pinLimit({ ...this.ring, nbuffers }));
    if (maxPinned >= ringSize) {
      notes.assumptions.add(`${table}: each read stream may pin ${maxPinned} buffers ahead, as many as its ring holds: where the ring skips a dirty buffer it rejects, it comes round onto buffers the stream still holds, and those pages stay cached`);
    }
    return { maxPinned, combine };
  }

  /** Descent from the root and the leaf pages holding `tuples` index entries, per loop. Returns per-loop tuples. */
  private indexLeaves(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom, totalTuples: number): void {
    const i = this.relationIndex('index', n.index);
    if (i === undefined) return void notes.unmodelled.add(`${n.nodeType} using ${n.index}: index facts missing`);
    const f = this.facts[i];
    const g = indexGeometry(f);
    // A parallel B-tree scan hands out leaf pages from one shared position: its participants (its loops)
    // walk the leaves once between them, after one descent.
    const loops = n.parallelAware ? 1 : Math.max(1, n.actualLoops ?? 1);
    if (n.parallelAware) notes.assumptions.add(`${f.reportName}: a parallel scan's ${Math.max(1, n.actualLoops ?? 1)} participants take leaf pages from one shared position`);
    const perLeaf = f.tuples > 0 ? f.tuples / g.leafPages : 1;
    const perLoop = totalTuples / loops;
    const placed = loops === 1 && !n.parallelAware ? this.keyPlacedLeaves(i, n, perLoop) : undefined;
    // Where a table-wide update split the leaves unevenly, the replay over the scanned rows counts them.
    const churn = loops === 1 && !n.parallelAware && !placed && !n.backward ? this.churnOf(i, perLoop, notes) : undefined;
    const replayed = churn ? (this.draw === 0 ? Math.round(sum(churn.leaves) / churn.leaves.length) : churn.leaves[this.startOfDraw(churn.leaves.length)]) : undefined;
    const leaves = placed?.leaves ?? replayed ?? Math.min(g.leafPages, Math.max(1, Math.ceil(perLoop / perLeaf)));
    notes.assumptions.add(
      `${f.reportName}: B-tree of ${g.height} level(s), ~${Math.round(perLeaf)} entries per leaf; ${leaves} leaf page(s) per scan${placed ? `, from leaf ${placed.start.toLocaleString('en-US')}, where its first key lies as the keys were loaded${placed.split ? ' and a table-wide update in key order split each leaf' : ''}` : ''}${churn ? `, as the table-wide update, replayed over the rows around the scan (read after the last run), left them (${Math.min(...churn.leaves)}–${Math.max(...churn.leaves)} from ${churn.leaves.length} places of a leaf's start)` : ''}`,
    );
    // A single scan whose first key is known and the keys dense (key-range.ts), on leaves laid out otherwise,
    // starts as far along the leaves as its key is along the keys; else at the first.
    const dense = loops === 1 && !placed ? this.denseStart(i, n) : undefined;
    const along = dense ? Math.min(g.leafPages - 1, Math.floor(dense.fraction * g.leafPages)) : 0;
    const single = Math.max(0, Math.min(g.leafPages - leaves, n.backward ? along - leaves + 1 : along));
    for (let l = 0; l < loops; l++) {
      const start = placed ? placed.start : loops === 1 ? single : rnd.int(Math.max(1, g.leafPages - leaves + 1));
      for (const p of descentPages(i, g, start)) pool.access(p);
      for (let k = 0; k < leaves; k++) pool.access(pageId(i, g.firstLeaf + start + k));
      if (loops === 1) for (const k of this.leavesMarkedNow(n, leaves, notes, f.reportName)) pool.access(pageId(i, g.firstLeaf + start + k));
      if (loops === 1) for (const p of this.splitByEarlier(i, leaves, notes)) pool.access(p);
    }
  }

  /**
   * A plain index scan that meets the old versions' entries of rows an update moved, dead to every
   * snapshot, marks them dead for later scans (_bt_killitems), reading each leaf again to do it, its pin
   * having been dropped. The first scan after the updates does; whether one already has before run 1 no
   * view shows: the shown draw takes run 1 as the first, half the others as not. Measured on PostgreSQL 15
   * (pgbench, a hash join over 40,000 accounts after 24,000 updates): 1,400 on run 1, 1,291 after, 109
   * leaves.
   */
  private leavesMarkedNow(n: PlanNode, leaves: number, notes: PlanSimulationNotes, indexName: string): number[] {
    const moved = n.relation ? this.movedRows[n.relation] : undefined;
    if (n.nodeType !== 'Index Scan' || this.runsDone > 0 || this.writes || (this.draw & 2) !== 0 || !moved || moved.blocks.length === 0 || moved.scanned <= 0) return [];
    const marked = [...new Set(moved.ranks.map((r) => Math.min(leaves - 1, Math.floor(((r - 1) / moved.scanned) * leaves))))];
    notes.assumptions.add(`${indexName}: run 1 marks the old entries of the rows an update moved dead, reading again the ${marked.length.toLocaleString('en-US')} leaves that hold them (taken as the first scan to meet them since the updates; the range also takes an earlier one to have)`);
    return marked;
  }

  /**
   * The leaves a single scan of a one-column integer index walks, from where its first key lies: where the
   * keys run densely from the index's first to its last (key-range.ts) and the leaves hold as many keys each
   * as a load in key order leaves them (90 % full), key min + j × that count starts loaded leaf j; where a
   * table-wide update in key order split each loaded leaf (as many leaves as its replay gives, vacuumed
   * since or not), the leaves within one start where the replay's splits put them (version-churn.ts).
   * Elsewhere (leaves split by other inserts and updates) undefined.
   */
  private keyPlacedLeaves(i: number, n: PlanNode, rows: number): { start: number; leaves: number; split: boolean } | undefined {
    const f = this.facts[i];
    const first = this.denseStart(i, n);
    if (!first || !f.keyRange || !f.keyBytes) return undefined;
    const keys = f.keyRange.max - f.keyRange.min + 1;
    const g = indexGeometry(f);
    const churn = keyOrderChurn(f.keyBytes);
    const loaded = churn.keysPerLeaf;
    // As loaded (one leaf per loaded leaf), or as a table-wide update in key order split each (vacuumed since or not).
    const layouts = [[0], churn.pageStarts];
    const starts = layouts.find((s) => Math.abs((keys * s.length) / g.leafPages - loaded) <= 0.03 * loaded);
    if (!starts) return undefined;
    const pageOf = (rank: number) => {
      const r = Math.min(keys - 1, Math.max(0, rank));
      const within = r % loaded;
      let k = 0;
      while (k + 1 < starts.length && starts[k + 1] <= within) k++;
      return Math.min(g.leafPages - 1, Math.floor(r / loaded) * starts.length + k);
    };
    const rank = first.key - f.keyRange.min;
    const span = Math.max(1, Math.round(rows)) - 1;
    const [a, b] = [pageOf(rank), pageOf(n.backward ? rank - span : rank + span)];
    return { start: Math.min(a, b), leaves: Math.abs(b - a) + 1, split: starts.length > 1 };
  }

  /**
   * The key a single scan of index i starts at, and how far along the keys it lies, where the keys run
   * densely from the index's first to its last (one per row: key-range.ts) and the index condition or the
   * scan's direction gives it.
   */
  private denseStart(i: number, n: PlanNode): { key: number; fraction: number } | undefined {
    const f = this.facts[i];
    const column = f.columns?.[0];
    if (!f.keyRange || !column) return undefined;
    const { min, max } = f.keyRange;
    const keys = max - min + 1;
    if (Math.abs(keys - f.tuples) > 0.02 * keys) return undefined;
    const key = firstKey(n.indexCond, column, n.backward === true) ?? (n.backward ? max : min);
    return key < min || key > max ? undefined : { key, fraction: (key - min) / keys };
  }

  private indexScan(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
    if (!n.parallelAware && (n.actualLoops ?? 1) > 1) return this.repeatedIndexScan(pool, n, notes, rnd);
    const tuples = ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * Math.max(1, n.actualLoops ?? 1);
    // A parallel scan's participants share one walk, so its heap visits follow one position too.
    const loops = n.parallelAware ? 1 : Math.max(1, n.actualLoops ?? 1);
    this.indexLeaves(pool, n, notes, rnd, tuples);
    if (n.nodeType === 'Index Only Scan') this.visibilityChecks(pool, n, notes, tuples, loops);
    const heapTuples = n.nodeType === 'Index Only Scan' ? (n.heapFetches ?? 0) : tuples;
    if (heapTuples === 0) return;
    const t = this.relationIndex('table', n.relation);
    const idx = this.relationIndex('index', n.index);
    if (t === undefined) return void notes.unmodelled.add(`${n.nodeType} on ${n.relation}: table facts missing`);
    const f = this.facts[t];
    const c = idx === undefined ? null : (this.facts[idx].correlation ?? null);
    const ordered = orderedShare(c);
    notes.assumptions.add(
      `${f.reportName}: correlation ${c === null ? 'unknown (no statistics)' : c.toFixed(2)} → heap visited ${ordered > 0.8 ? 'in block order' : ordered < 0.2 ? 'in random order' : `${Math.round(ordered * 100)} % in block order`}`,
    );
    const live = liveRows(f, this.ring.blockSize ?? 8192, this.draw, notes);
    const perPage = live.perPage;
    const dead = this.deadOf(t, live, ordered, notes);
    // Which keys an earlier run marked dead, and the key the scan starts at, where both are known.
    const kills = dead && loops === 1 && idx !== undefined ? this.killedAfterChurn(idx, notes) : undefined;
    const alone = dead && !kills && loops === 1 && idx !== undefined && n.nodeType === 'Index Scan' ? this.secondaryKills(idx, t, tuples, notes) : undefined;
    const first = loops === 1 && idx !== undefined ? this.denseStart(idx, n) : undefined;
    // An index-only scan's heap fetches count the dead versions' entries as well: with the marked ones
    // known, every row is fetched (no page of a table-wide update's heap is all-visible) and the rest are dead.
    const liveVisits = n.nodeType === 'Index Only Scan' && dead ? (kills ? Math.min(tuples, heapTuples) : heapTuples / (1 + dead.perRow)) : heapTuples;
    const unsettled = n.nodeType === 'Index Only Scan' && ordered < 0.8 ? notAllVisible(this.facts[t], t, live, tuples, heapTuples, this.draw, notes, this.dirty.get(t)) : undefined;
    // A correlated scan starts where its first key lies along the live rows, where the keys are dense.
    let position = live.first + (loops === 1 ? (first && ordered > 0.8 ? first.fraction * live.pages : 0) : rnd.int(live.pages));
    let last = -1;
    let deadDue = 0;
    const start = kills ? first?.key : undefined;
    // An index-only scan whose every row went to the heap (no page all-visible) visits the rows' blocks too.
    const visitsRows = n.nodeType === 'Index Scan' || (n.nodeType === 'Index Only Scan' && heapTuples >= tuples);
    const known = visitsRows && loops === 1 && n.relation ? this.heapBlocks[n.relation] : undefined;
    if (kills && start !== undefined && !n.backward) {
      // Which rows an update moved before the table-wide one: from the rows' heap blocks where an index scan's
      // are read, else from the rows an index-only scan's heap fetches moved (read after the last run too).
      const earlier = known ? outOfOrder(known) : this.movedRanks(n.relation);
      if (earlier) this.findUpdatedEarlier(kills.leaves, earlier, start, notes, f.reportName);
    }
    // After a table-wide update of a heap loaded in key order, a row's dead version is where the load put
    // it (the key's rank over the rows a full page holds), but for rows an earlier update had moved (their
    // live block out of the update's order), whose dead version is where that update put it.
    const keyMin = idx !== undefined ? this.facts[idx].keyRange?.min : undefined;
    const capacity = rowsPerFullPage(f, this.ring.blockSize ?? 8192);
    const loadOrder = dead?.mirrorsLive && known && first && keyMin !== undefined && capacity && ordered > 0.95 && live.first > 0 ? { min: keyMin, capacity, moved: outOfOrder(known) } : undefined;
    if (loadOrder) notes.assumptions.add(`${f.reportName}: the heap was loaded in key order, ${loadOrder.capacity} rows a page: a row's dead version is where the load put it, but for rows an earlier update had moved (live block out of order)`);
    if (known) {
      // A version an update appended lies where the update's scan met the one before it, so the dead
      // version sits as far along the dead ones as its live row, found or moved, is along the live ones.
      notes.assumptions.add(`${f.reportName}: the ${known.length.toLocaleString('en-US')} rows' heap blocks as the scan found them (read after the last run), ${new Set(known).size.toLocaleString('en-US')} blocks${dead && !loadOrder ? '; each dead version as far along the dead ones as its live row is along the live ones, a row an earlier update moved included' : ''}`);
    }
    // Rows an update moved among those the scan visits, where read after the runs: they are the rows out of
    // key order, so the others are visited in block order (not a random share for a correlation below 1),
    // and where dead versions mirror the live ones (a table-wide update's, under a correlated scan), each of
    // theirs as far along the old pages.
    const moved = !known && loops === 1 && n.relation && (!dead || (dead.mirrorsLive && ordered > 0.8)) ? this.movedRows[n.relation] : undefined;
    const indexOnly = n.nodeType === 'Index Only Scan';
    const jumps = moved ? Math.min(moved.blocks.length, Math.floor(liveVisits / 2)) : 0;
    if (moved && jumps > 0) {
      notes.assumptions.add(
        `${f.reportName}: ${moved.blocks.length.toLocaleString('en-US')} of the ${moved.scanned.toLocaleString('en-US')} rows scanned were moved by an update, out of key order (read after the last run): each ${indexOnly ? 'fetch' : 'visit'} goes out to the moved version's page and back${indexOnly ? ', and to the visibility-map page and back where another covers it' : ''}`,
      );
    }
    // Dead entries every run meets, counted after the runs, where no other model of dead versions applies
    // and the scan walks the heap in key order (out to each and back to its neighbours' page): an index-only
    // scan's heap fetches include them, an index scan's rows do not.
    const counted = !known && !dead && loops === 1 && ordered > 0.8 && n.relation ? this.deadEntries[n.relation] : undefined;
    const earlier = !counted && !known && !dead && loops === 1 && ordered > 0.8 && n.relation ? this.earlierUnderWrite(t, notes) : undefined;
    const far = counted ?? earlier;
    // An index-only scan that fetched more than the last run met entries it marked dead on the way (plain
    // ones): the old entries of the rows an update moved, beside the live rows (no trip), and the rest far.
    const movedOld = n.relation ? (this.movedRows[n.relation]?.blocks.length ?? 0) : 0;
    const marked = far && indexOnly && far.lastFetches !== undefined ? Math.max(0, heapTuples - far.lastFetches - movedOld) : 0;
    const trips = far && far.farBlocks > 0 ? Math.min(far.dead + marked, indexOnly ? Math.max(0, liveVisits - jumps) : far.dead) : 0;
    if (far && !earlier && trips > 0) {
      notes.assumptions.add(
        `${f.reportName}: ${far.dead.toLocaleString('en-US')} dead entries under the scan's keys that no scan can mark (a posting list's, beside a live version)${marked > 0 ? `, and ${marked.toLocaleString('en-US')} more this run marks (its heap fetches beyond the last run's)` : ''}, on ${far.farBlocks.toLocaleString('en-US')} blocks beyond the live rows' (counted after the last run by a bitmap scan of the same condition): each run goes out to one and back${indexOnly ? ', and to its visibility-map page and back where another covers it' : ''}; which keys they lie under no view shows: taken evenly over the scan, one a key (the range also takes two), on the table's last blocks (where a rolled-back write appends its versions)`,
      );
    }
    const visits = liveVisits - jumps - (indexOnly ? trips : 0);
    // Where along the fetches each moved row lies: its rank among the rows scanned.
    const jumpAt = (j: number) => (moved!.ranks[j] / Math.max(1, moved!.scanned)) * visits;
    const tripAt = (j: number) => ((j + 0.5) * visits) / trips;
    const vmOf = (block: number) => pageId(this.facts.length + 1 + t, Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE));
    const outAndBack = (block: number, ...away: number[]) => {
      // An index-only scan asks the visibility map about every page, keeping one map page pinned.
      let [page, map] = [block, vmOf(block)];
      for (const next of [...away, block]) {
        if (next !== page) pool.access(pageId(t, next));
        if (indexOnly && vmOf(next) !== map) pool.access(vmOf(next));
        [page, map] = [next, vmOf(next)];
      }
    };
    // Whether a key holds one dead entry or several (a posting list's versions follow one another, each out
    // to its own page, one way back) no view shows: three rolled-back runs leave one to three a posting list.
    // Odd draws take two a key, the other draws of the range one, the shown draw one, one and two by turns.
    // Measured (PostgreSQL 15, index-only counts over such keys, requests per dead entry): 1.84 on runs 2-3
    // of a 60,000-key count meeting 1,029 (one a key: 2, two: 1.5, these turns: 1.75); on pgbench scale 20,
    // with the visibility map's second page out and back too, 3.0-3.1 for 1,530 (4, 2.5, 3.25).
    const perKey = (key: number) => ((this.draw & 1) !== 0 ? 2 : this.draw === 0 && key % 3 === 2 ? 2 : 1);
    const earlierAt = earlier ? this.earlierBlocks(f, earlier) : undefined;
    const farBlock = (j: number) => (earlierAt ? earlierAt(j) : f.pages - 1 - (j % Math.max(1, far?.farBlocks ?? 1)));
    const partial = indexOnly && ordered > 0.8 && !known && !dead && !unsettled && heapTuples < 0.95 * tuples ? this.fetchedInRange(t, position, tuples / perPage, Math.ceil(visits / perPage), n.backward === true, notes) : undefined;
    // Where the dead versions mirror the live ones (a table-wide update's), a moved row is one of two kinds.
    // On an old page (before the live ones): that update found room there, left by pruning, and was HOT, its
    // dead version beside the live one with no index entry of its own. Past them: an earlier update had
    // moved the row to the heap's end before the table-wide update appended after it, so the earlier version
    // has an entry too, on the pages between the rows as loaded and the live ones (where on them is drawn, the
    // same page for the same row in every run).
    const loadedPages = dead?.mirrorsLive && moved && capacity ? Math.ceil(f.tuples / capacity) : undefined;
    const twice = loadedPages !== undefined && live.first - loadedPages >= 1 ? { first: loadedPages, pages: live.first - loadedPages } : undefined;
    if (loadedPages !== undefined) {
      notes.assumptions.add(
        `${f.reportName}: of the rows moved, those on old pages were updated in place (HOT: no dead entry of their own)` +
          (twice ? `; those past the live ones had been moved by an earlier update, whose version, on the ${twice.pages.toLocaleString('en-US')} pages between the rows as loaded and the live ones (which one is drawn), has an entry too` : ''),
      );
    }
    const killedAt = (k: number) => (kills && start !== undefined ? kills.leaves.killed(n.backward ? start - k : start + k) : alone ? (alone[k] ?? 0) : 0);
    // A later run of a SELECT meets the dead entries the run before could not mark, which a bitmap scan of the
    // same condition counted after the last run: the replay places them, the count gives how many (measured on
    // pgbench after a table-wide update, runs 2-3 of a 20,001-key range: 13,332 and 11,736 logical reads with
    // 6,076 and 5,257 counted, where the replay took 4,877 and 4,438).
    const countedAfter = dead && this.runsDone > 0 && !this.writes && loops === 1 && ordered > 0.8 && n.relation ? this.deadEntries[n.relation] : undefined;
    if (countedAfter && kills && start !== undefined && this.draw === 0) fitPlainShare(kills.leaves, dead!.perRow, visits, (k) => (n.backward ? start - k : start + k), countedAfter.dead);
    const unmarked = countedAfter ? unmarkedAsCounted(dead!.perRow, visits, killedAt, countedAfter.dead) : (k: number) => dead!.perRow * (1 - killedAt(k));
    if (countedAfter) notes.assumptions.add(`${f.reportName}: ${countedAfter.dead.toLocaleString('en-US')} dead entries under the scan's keys left unmarked by the run before (counted after the last run by a bitmap scan of the same condition), under the keys where the replay of the updates leaves them, then under those it takes as marked`);
    let jumped = 0;
    let tripped = 0;
    let keysTripped = 0;
    for (let k = 0; k < visits; k++) {
      let block: number;
      if (known && k < known.length) block = known[k];
      else if (unsettled) block = unsettled[rnd.int(unsettled.length)];
      else if (partial) block = partial[Math.min(partial.length - 1, Math.floor(k / perPage))];
      else if (moved || rnd.next() < ordered) {
        position += 1 / perPage;
        block = live.first + (Math.floor(position - live.first) % Math.max(1, live.pages));
      } else block = live.first + rnd.int(Math.max(1, live.pages));
      // Consecutive entries on the same heap page reuse the pinned buffer (ReleaseAndReadBuffer): no request.
      if (block !== last) pool.access(pageId(t, block));
      last = block;
      // Out to the moved row's new version and back to the page of the rows around its old one.
      let inPlace = false;
      for (; moved && jumped < jumps && k + 1 >= jumpAt(jumped); jumped++) {
        const to = moved.blocks[jumped];
        const hot = dead?.mirrorsLive === true && to < live.first;
        inPlace = inPlace || hot;
        // The earlier version's entry, in every run: the table-wide update's entry for the same key filled the
        // leaf, which deduplicated the key's entries into one posting list with the live version, and a posting
        // list is marked only when all its versions are dead (_bt_killitems). Measured (pgbench, a count of
        // 600,000 keys at 32 MB, runs 2-3): those pages, visited some 20 times a run, stay cached; taken as
        // marked where the key's plain dead entry was, 21,878 read against 22,979 predicted, now 22,412.
        const before = twice && !hot ? twice.first + ((Math.imul(moved.ranks[jumped], 0x9e3779b1) >>> 0) % twice.pages) : undefined;
        outAndBack(block, ...(before === undefined ? [] : [before]), to);
      }
      for (let size = perKey(keysTripped); far && tripped < trips && k + 1 >= tripAt(tripped); tripped += size, size = perKey(++keysTripped)) {
        outAndBack(block, ...Array.from({ length: Math.min(size, trips - tripped) }, (_, d) => farBlock(tripped + d)));
      }
      if (!dead) continue;
      // An entry an earlier run marked is passed over: its dead version is not visited again.
      if (!inPlace) deadDue += unmarked(k);
      // The index entries of dead versions of the same keys, between the live ones: each on a page of its
      // own, as far along the dead ones as the live row is along the live ones (a row out of place had its
      // earlier version out of place too: it was moved before).
      const key = first ? (n.backward ? first.key - k : first.key + k) : undefined;
      const loaded = loadOrder && loadOrder.moved[k] === 0 && key !== undefined ? Math.min(live.first - 1, Math.max(0, Math.floor((key - loadOrder.min) / loadOrder.capacity))) : undefined;
      let map = vmOf(block);
      for (; deadDue >= 1; deadDue--) {
        // A page holding dead versions is not all-visible: an index-only scan's fetch of one is among those.
        const d = unsettled
          ? unsettled[rnd.int(unsettled.length)]
          : loaded !== undefined
            ? loaded
            : dead.block(Math.min(1, Math.max(0, (block - live.first) / Math.max(1, live.pages))), rnd, ((known && k < known.length) || moved) && dead.mirrorsLive ? true : undefined);
        if (d !== last) pool.access(pageId(t, d));
        last = d;
        // An index-only scan asks the map about the dead version's page too: where another map page covers
        // it (a table past 32,672 pages whose update appended the live versions past it), out and back.
        if (indexOnly && vmOf(d) !== map) {
          map = vmOf(d);
          pool.access(map);
        }
        if (this.writes) {
          const met = this.deadMet.get(t) ?? [];
          met.push(d);
          this.deadMet.set(t, met);
        }
      }
      if (indexOnly && map !== vmOf(block)) pool.access(vmOf(block));
    }
  }

  /**
   * An index scan started once per outer row (a nested loop's inner side): every loop descends from the
   * root, reads its leaf and pins the heap page of its first row anew, since a rescan releases the pins.
   * Where each loop's key lands follows the order the outer rows arrive in (lookup-order.ts): the next
   * entries after the previous key, or anywhere in the index. Where the first key lands is drawn.
   */
  private repeatedIndexScan(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, rnd: SeededRandom): void {
    const i = this.relationIndex('index', n.index);
    if (i === undefined) return void notes.unmodelled.add(`${n.nodeType} using ${n.index}: index facts missing`);
    const f = this.facts[i];
    const g = indexGeometry(f);
    const loops = Math.max(1, n.actualLoops ?? 1);
    const order = this.lookupOrders.get(n) ?? { ordered: 0, stride: 1, why: 'what feeds its lookups is not known: they are taken in random order' };
    notes.assumptions.add(`${f.reportName}: ${loops.toLocaleString('en-US')} lookups, ${order.why}`);
    // The visibility-map page stays pinned across rescans: asked anew only where the heap page falls under another.
    if (n.nodeType === 'Index Only Scan') this.visibilityChecks(pool, n, notes, ((n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0)) * loops, 1);
    const entries = Math.max(1, f.tuples);
    const perLeaf = f.tuples > 0 ? f.tuples / g.leafPages : 1;
    // EXPLAIN gives rows per loop, and heap fetches of an index-only scan in total.
    const perLoop = (n.actualRows ?? 0) + (n.rowsRemovedByFilter ?? 0);
    const leaves = Math.min(g.leafPages, Math.max(1, Math.ceil(perLoop / perLeaf)));
    const heapPerLoop = n.nodeType === 'Index Only Scan' ? (n.heapFetches ?? 0) / loops : perLoop;
    const t = this.relationIndex('table', n.relation);
    if (t === undefined && heapPerLoop > 0) notes.unmodelled.add(`${n.nodeType} on ${n.relation}: table facts missing`);
    const live = t === undefined ? undefined : liveRows(this.facts[t], this.ring.blockSize ?? 8192, this.draw, notes);
    const heapOrdered = orderedShare(f.correlation);
    const dead = t === undefined || !live || n.nodeType === 'Index Only Scan' ? undefined : this.deadOf(t, live, heapOrdered, notes);
    const kills = dead ? this.killedAfterChurn(i, notes) : undefined;
    const rows = n.relation ? this.lookupRows[n.relation] : undefined;
    const known = rows && rows.blocks.length === loops ? rows : undefined;
    const keyed = known?.keys && f.keyRange ? { keys: known.keys, min: f.keyRange.min } : undefined;
    if (known) notes.assumptions.add(`${f.reportName}: the ${loops.toLocaleString('en-US')} lookups' ${keyed ? 'keys and ' : ''}rows' heap blocks as the loop found them (read after the last run)`);
    let pos = rnd.int(Math.max(1, entries - Math.ceil(loops * order.stride)));
    let heapDue = 0;
    let deadDue = 0;
    let prev = pos;
    let metDead = false;
    let rereads = 0;
    for (let l = 0; l < loops; l++) {
      if (l > 0) pos = rnd.next() < order.ordered ? (pos + order.stride) % entries : rnd.int(entries);
      const key = keyed?.keys[l];
      if (key !== undefined && keyed) pos = Math.min(entries - 1, Math.max(0, key - keyed.min));
      // A rescan first marks the entries the previous loop found dead (_bt_killitems): its leaf once more.
      if (metDead) {
        pool.access(pageId(i, g.firstLeaf + Math.min(g.leafPages - 1, Math.floor(prev / perLeaf))));
        rereads++;
      }
      metDead = false;
      prev = pos;
      const leaf = Math.min(g.leafPages - leaves, Math.floor(pos / perLeaf));
      for (const p of descentPages(i, g, leaf)) pool.access(p);
      for (let k = 0; k < leaves; k++) pool.access(pageId(i, g.firstLeaf + leaf + k));
      if (t === undefined || !live) continue;
      heapDue += heapPerLoop;
      let last = -1;
      for (; heapDue >= 1; heapDue--) {
        const drawn = rnd.next() < heapOrdered ? live.first + Math.min(live.pages - 1, Math.floor((pos / entries) * live.pages)) : live.first + rnd.int(live.pages);
        const block = known ? known.blocks[l] : drawn;
        if (block !== last) pool.access(pageId(t, block));
        last = block;
        // An entry an earlier run marked dead is passed over: no heap visit, nothing for the rescan to mark.
        deadDue += (dead?.perRow ?? 0) * (kills ? 1 - kills.leaves.killed(key ?? kills.min + pos) : 1);
        for (; dead && deadDue >= 1; deadDue--) {
          const d = dead.block(Math.min(1, Math.max(0, (block - live.first) / Math.max(1, live.pages))), rnd, known && dead.mirrorsLive ? true : undefined);
          if (d !== last) pool.access(pageId(t, d));
          last = d;
          metDead = true;
        }
      }
    }
    if (rereads) notes.assumptions.add(`${f.reportName}: ${rereads.toLocaleString('en-US')} rescans read the previous loop's leaf again to mark the dead entries it met`);
  }

  /**
   * The dead versions a scan of table t meets in this run (heap-layout.ts). A few percent of dead versions
   * are where earlier writes put them, often one batch's rows, a range of the key the heap follows, which
   * no statistic locates: a scan in that order (correlated) most likely meets none of them, the shown
   * draw; through an uncorrelated index the batch's rows are spread over its keys, and the shown draw
   * spreads them (measured: 3 dead entries among 50 through k, 1 spread). Half the draws take the other
   * case. A table-wide update's, a fifth of the rows or more, are everywhere.
   */
  private deadOf(t: number, live: LiveRows, ordered: number, notes: PlanSimulationNotes): DeadVersions | undefined {
    const f = this.facts[t];
    const located = tableWideDead(f);
    // Where the dead entries under a correlated scan's keys were counted after the runs, they replace the guess.
    const countedAfter = ordered > 0.8 && this.deadEntries[f.planName] !== undefined;
    const spread = (ordered < 0.5) === ((this.draw & 4) === 0) && !countedAfter;
    // A write's later runs pass over the dead entries its run 1 marked as it checked uniqueness (modify).
    const counted = this.skipsMarked() || (this.writes && this.runsDone > 0) || this.markedSinceUpdate(f) || (!located && !spread) ? 0 : deadEntriesPerRow(f);
    const leftAt = this.leftoverPlace.get(t);
    return deadVersions(f, live, ordered, { counted, left: this.leftoversOf(t), ...(leftAt ? { leftAt } : {}) }, notes);
  }

  /**
   * Where a vacuumed heap has room: its live rows packed after the pages a VACUUM emptied (heap-layout.ts),
   * with a free-space map to offer those pages, taken in block order and, run after run, the ones after.
   */
  private freeSpaceOf(t: number): { block: (k: number) => number; perBlock: number } | undefined {
    const f = this.facts[t];
    const perBlock = rowsPerFullPage(f, this.ring.blockSize ?? 8192);
    if (!perBlock || (f.fsmPages ?? 0) === 0 || tableWideDead(f)) return undefined;
    const live = liveRows(f, this.ring.blockSize ?? 8192, this.draw, { assumptions: new Set(), unmodelled: new Set() });
    if (live.first <= 0) return undefined;
    const start = this.freeUsed.get(t) ?? 0;
    return { block: (k) => (start + k) % live.first, perBlock };
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
  private killedAfterChurn(i: number, notes: PlanSimulationNotes): { leaves: ChurnedLeaves; min: number; max: number } | undefined {
    const f = this.facts[i];
    const t = this.relationIndex('table', f.table);
    if (this.runsDone === 0 || this.writes || !f.unique || !f.keyBytes || !f.keyRange || t === undefined) return undefined;
    const heap = this.facts[t];
    const { min, max } = f.keyRange;
    const keys = max - min + 1;
    if ((heap.deadTuples ?? 0) < 0.9 * heap.tuples || Math.abs(keys - heap.tuples) > 0.02 * keys) return undefined;
    const churn = keyOrderChurn(f.keyBytes);
    const leaves = indexGeometry(f).leafPages;
    const replayed = Math.ceil(keys / churn.keysPerLeaf) * churn.leavesPerLeaf;
    if (Math.abs(replayed - leaves) > 0.05 * leaves) return undefined;
    const period = churn.keysPerLeaf;
    const posting = churn.posting.reduce((a, b) => a + b, 0);
    notes.assumptions.add(
      `${f.reportName}: a table-wide update in key order left ${Math.round((posting / period) * 100)} % of the keys' two versions in one posting list (replayed on a leaf of ${period} keys: ${replayed.toLocaleString('en-US')} leaves, ${leaves.toLocaleString('en-US')} found); the earlier run marked the other keys' dead entries, which this run skips`,
    );
    return { leaves: new ChurnedLeaves(churn, min, this.draw), min, max };
  }

  /**
   * A table-wide update replayed over the rows around a forward scan of secondary index i (secondary-churn.ts,
   * from the rows read after the last run): where the heap shows that update (its new versions packed past
   * the old pages, vacuumed since or not) and the replay gives the index's leaves within 8 %.
   */
  private churnOf(i: number, scanned: number, notes: PlanSimulationNotes): SecondaryChurn | undefined {
    const f = this.facts[i];
    const w = this.indexWindows[f.planName];
    const t = this.relationIndex('table', f.table);
    if (!w || f.unique || !f.keyBytes || t === undefined) return undefined;
    const heap = this.facts[t];
    const firstNewBlock = packedFirstBlock(heap, this.ring.blockSize ?? 8192);
    if (firstNewBlock <= 0) return undefined;
    const churn = replayedChurn(w, firstNewBlock, f.keyBytes, Math.round(scanned));
    const leaves = indexGeometry(f).leafPages;
    if (Math.abs(churn.leavesPerRow * heap.tuples - leaves) > 0.08 * leaves) {
      notes.unmodelled.add(`${f.reportName}: the replay of a table-wide update over the ${w.keys.length.toLocaleString('en-US')} rows around the scan gives ${Math.round(churn.leavesPerRow * heap.tuples).toLocaleString('en-US')} leaves, not the ${leaves.toLocaleString('en-US')} it has: the index was not built and updated as replayed, and its leaves and marked entries are modelled without it`);
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
  private secondaryKills(i: number, t: number, scanned: number, notes: PlanSimulationNotes): ArrayLike<number> | undefined {
    const f = this.facts[i];
    const heap = this.facts[t];
    if (this.runsDone === 0 || this.writes || (heap.deadTuples ?? 0) < 0.9 * heap.tuples) return undefined;
    const churn = this.churnOf(i, scanned, notes);
    if (!churn) return undefined;
    const perStart = churn.perStart.map(sum);
    notes.assumptions.add(
      `${f.reportName}: the table-wide update, replayed over the ${this.indexWindows[f.planName].keys.length.toLocaleString('en-US')} rows around the scan (read after the last run) from ${churn.perStart.length} places of a leaf's start, left about ${sum(churn.alone).toFixed(1)} of the ${churn.alone.length.toLocaleString('en-US')} rows' dead versions alone in their entries (${Math.min(...perStart)}–${Math.max(...perStart)}); the earlier run marked them, and this run skips them`,
    );
    return this.draw === 0 ? churn.alone : churn.perStart[this.startOfDraw(churn.perStart.length)];
  }

  /** The replay's start a draw other than the shown one takes: spread over the starts. */
  private startOfDraw(starts: number): number {
    return Math.floor(((this.draw - 1) * starts) / (DRAWS - 1)) % starts;
  }

  /**
   * After a table-wide update, the pages of dead versions before the packed live rows are pruned by the
   * first scan that reads them since (heap_page_prune_opt, WAL-logged): a BULKREAD ring then rejects each as
   * dirty with WAL not yet flushed (StrategyRejectBuffer), and it stays in the main pool (measured: run 2
   * of such a scan read 4,022 of 8,109 pages at 128 MB, 4,257 at 32 MB, 6,243 at 16 MB). Whether an earlier
   * statement's index scans pruned them first no statistic says (pruning non-HOT versions leaves n_dead_tup
   * as it was), but run 1's executed plan does: the blocks its scan dirtied (measured: 3,594 and 4,058 where
   * run 1 was the first visit, 1–19 where an earlier statement had pruned them). Half the draws take the
   * other case, for the band.
   */
  private prunedNow(t: number, blocks: number, notes: PlanSimulationNotes, scan: PlanNode): Set<number> | undefined {
    const f = this.facts[t];
    if (this.pruned.has(t)) return undefined;
    const live = liveRows(f, this.ring.blockSize ?? 8192, this.draw, { assumptions: new Set(), unmodelled: new Set() });
    if (live.first <= 0) return undefined;
    this.pruned.add(t);
    const dead = Math.min(blocks, live.first);
    const firstVisit = scan.self.sharedDirtied >= 0.5 * dead;
    notes.assumptions.add(
      firstVisit
        ? `${f.reportName}: run 1's scan dirtied ${scan.self.sharedDirtied.toLocaleString('en-US')} blocks, so it pruned the ${live.first.toLocaleString('en-US')} pages of dead versions as it read them, and its BULKREAD ring left them cached, dirty with WAL not yet flushed (the band: pruned before)`
        : `${f.reportName}: run 1's scan dirtied ${scan.self.sharedDirtied.toLocaleString('en-US')} blocks, so earlier scans had pruned its ${live.first.toLocaleString('en-US')} pages of dead versions (the band: pruned by run 1, its ring leaving them cached)`,
    );
    if (firstVisit === ((this.draw & 4) !== 0)) return undefined;
    // As many as run 1 dirtied where it was the first visit (others an earlier scan had pruned); all of them in the band.
    const count = firstVisit ? Math.min(dead, scan.self.sharedDirtied) : dead;
    const dirtied = new Set<number>();
    for (let k = 0; k < count; k++) dirtied.add(Math.floor((k * dead) / count));
    return dirtied;
  }

  /**
   * The pages a correlated index-only scan fetches from, where it fetched from some of its range only: those
   * the visibility map does not mark all-visible, written since the last VACUUM. A page cached dirty was
   * written since the last checkpoint, so it is one of them (pgbench's updates leave them so); the rest are
   * taken evenly over the range. In block order, as the scan meets them (descending for a backward scan).
   */
  private fetchedInRange(t: number, start: number, span: number, count: number, backward: boolean, notes: PlanSimulationNotes): number[] {
    // A backward scan starts at its range's last page.
    const from = Math.max(0, Math.floor(backward ? start - span : start));
    const to = Math.min(this.facts[t].pages, Math.ceil(backward ? start + 1 : start + span));
    const dirty = [...new Set(this.dirty.get(t) ?? [])].filter((b) => b >= from && b < to).sort((a, b) => a - b);
    const taken = new Set(dirty.length > count ? Array.from({ length: count }, (_, k) => dirty[Math.floor((k * dirty.length) / count)]) : dirty);
    // The range's other pages in a low-discrepancy order (golden-ratio steps), so that any count of them is
    // spread evenly and a run that fetches fewer takes a subset of the pages a run fetching more took.
    const others: Array<[number, number]> = [];
    for (let b = from; b < to; b++) if (!taken.has(b)) others.push([((b - from) * 0.6180339887498949) % 1, b]);
    others.sort((a, b) => a[0] - b[0]);
    for (let k = 0; taken.size < count && k < others.length; k++) taken.add(others[k][1]);
    notes.assumptions.add(
      `${this.facts[t].reportName}: the heap fetches go to about ${count.toLocaleString('en-US')} of the ${(to - from).toLocaleString('en-US')} pages of the scan's range, those not all-visible: the ${dirty.length.toLocaleString('en-US')} cached dirty ones (written since the last checkpoint) and the rest taken evenly over the range`,
    );
    return [...taken].sort((a, b) => (backward ? b - a : a - b));
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
  private dirtiedNow(t: number, blocks: number, notes: PlanSimulationNotes, scan: PlanNode): Set<number> | undefined {
    const f = this.facts[t];
    const logged = this.ring.hintsWalLogged === true;
    const count = Math.min(blocks, scan.self.sharedDirtied, logged ? Infinity : (f.deadTuples ?? 0));
    if (count <= 0) return undefined;
    notes.assumptions.add(
      `${f.reportName}: the scan dirtied ${scan.self.sharedDirtied.toLocaleString('en-US')} blocks as executed; ${count.toLocaleString('en-US')} taken as WAL-logged (${logged ? 'data checksums or wal_log_hints log hint bits too' : `pruned: the table has ${(f.deadTuples ?? 0).toLocaleString('en-US')} dead versions`}), which its BULKREAD ring rejects, leaving them cached; which blocks no counter tells: taken evenly over the scan (the range also takes them at its end)`,
    );
    const atEnd = (this.draw & 1) !== 0;
    const dirtied = new Set<number>();
    for (let k = 0; k < count; k++) dirtied.add(atEnd ? blocks - count + k : Math.floor((k * blocks) / count));
    return dirtied;
  }

  /**
   * Rows updated before the table-wide update, among a forward range's rows whose heap blocks were read: the
   * update appended each row's version as its scan met the one before, in key order but for those rows,
   * whose versions an earlier update had moved to the heap's end; theirs lie past the ones after them. (A
   * row whose block lies before the others' the update changed in place, HOT, where the earlier update had
   * left room: no entry more.)
   */
  private findUpdatedEarlier(leaves: ChurnedLeaves, moved: Uint8Array, start: number, notes: PlanSimulationNotes, table: string): void {
    // Whether a scan had marked the row's dead entry first no view shows: the band's odd draws take it so.
    if ((this.draw & 1) !== 0) return;
    moved.forEach((m, k) => m && leaves.updatedEarlier(start + k));
    if (leaves.leavesUpdatedEarlier > 0) notes.assumptions.add(`${table}: ${leaves.leavesUpdatedEarlier.toLocaleString('en-US')} leaf/leaves held, in the second half, a row updated before the table-wide update (its version out of the update's order), and kept no posting list past its first keys (${Math.round(PLAIN_AFTER_EARLIER_UPDATE * 100)} % of such leaves, each whole, which ones drawn; the others had its dead entry marked and removed first, as the band's odd draws take every such leaf)`);
  }

  /**
   * The rows out of key order among those a scan fetched, by rank, as the moved-rows query read them after
   * the last run (an index-only scan's, whose rows' own blocks are not read). After pgbench's transactions
   * and a table-wide update, a count over 600,000 keys found 13,153, in 1,565 leaves' second halves: the
   * replay then leaves 24.7 % of the keys' dead entries unmarked, and a bitmap scan after the last run
   * counted 25.2 % (151,437), where the replay alone gives 69 %.
   */
  private movedRanks(table: string | undefined): Uint8Array | undefined {
    const moved = table ? this.movedRows[table] : undefined;
    if (!table || !moved || moved.ranks.length === 0) return undefined;
    const known = this.movedRankMarks.get(table);
    if (known) return known;
    const out = new Uint8Array(moved.scanned);
    for (const r of moved.ranks) if (r >= 1 && r <= moved.scanned) out[r - 1] = 1;
    this.movedRankMarks.set(table, out);
    return out;
  }

  /**
   * The dead entries counted after a rolled-back write's runs that run 1 is taken to have met: the odd draws
   * (the range's top) all of them up to the dead versions the statistics counted before it, the shown draw
   * what one earlier measurement of the write leaves where the statistics show rolled-back updates, the
   * other draws none.
   */
  private earlierUnderWrite(t: number, notes?: PlanSimulationNotes): PgDeadEntries | undefined {
    const f = this.facts[t];
    const e = this.writeDeadEntries[f.planName];
    if (!e || (f.deadTuples ?? 0) <= 0 || e.dead <= 0 || e.farBlocks <= 0) return undefined;
    const all = Math.min(e.dead, Math.round(f.deadTuples ?? 0));
    // Updates are counted tried, committed or not (n_tup_upd), changes only once committed (n_mod_since_analyze,
    // pgstat_relation.c): the updates beyond the changes were rolled back, where none came before the last
    // ANALYZE. Pruning may have removed their heap versions (n_dead_tup falls), not their entries. After a
    // table-wide update, whose inserts made room by deleting entries dead to all, the versions it left model
    // the entries instead (heap-layout.ts).
    const tableWide = tableWideDead(f);
    const rolledBack = f.changedSinceAnalyze === undefined || !f.rowsUpdated || tableWide ? 0 : Math.max(0, Math.round(f.rowsUpdated.all - f.changedSinceAnalyze));
    // Which of those lie under these keys no view shows: taken as an earlier measurement of this write, which
    // leaves about ONE_MEASUREMENT_LEAVES a row in posting lists (more after a second). Fewer updates rolled
    // back than one run of it writes are another write's (a single-row update measured before it: 3 versions
    // on other keys, which the cold range update's run 1 never met: 48 pages read, 51 predicted with them).
    const shown = earlierRuns(f, e.live) ? Math.min(all, rolledBack, Math.round(ONE_MEASUREMENT_LEAVES * e.live)) : 0;
    // No scan marks them, so every run meets them again (measured: three measurements of one range update on
    // a fresh server, runs 2-3 19,712-19,764, 22,035-23,656 and 23,471-23,555 logical reads).
    notes?.assumptions.add(
      `${f.reportName}: an earlier rolled-back write may have left dead entries under these keys that no scan can mark, which every run meets (out to each version and back, and again as each row's new entry is checked for uniqueness) and no view shows before run 1; after the runs a bitmap scan of the same condition counted ${all.toLocaleString('en-US')}, this write's own runs' among them. ` +
        (shown > 0
          ? `The statistics count ${rolledBack.toLocaleString('en-US')} updates tried beyond the changes committed since the last ANALYZE, that is rolled back (updates committed before that ANALYZE would count too): the prediction takes ${shown.toLocaleString('en-US')} entries as under these keys (what one earlier measurement of this write leaves), the range none to ${all.toLocaleString('en-US')}`
          : rolledBack > 0
            ? `The statistics count ${rolledBack.toLocaleString('en-US')} updates rolled back (tried beyond the changes committed since the last ANALYZE), fewer than one run of this write makes, so another write's, on other keys: the prediction takes none, the range up to all of them`
            : `The statistics count no rolled-back updates (updates tried beyond the changes committed since the last ANALYZE)${tableWide ? ' or show a table-wide update, whose versions model the dead entries' : ''}: the prediction takes none, the range up to all of them`) +
        ", on the table's last blocks where nothing was committed since (cached ones first: a scan of the keys since met them), else on the blocks before those the committed updates appended, its last run's on every block, the run's before on one in two and older runs' on one in three (a guess: the share varies), the range also spread over the heap",
    );
    if ((this.draw & 1) === 1) return { ...e, dead: all };
    return this.draw === 0 && shown > 0 ? { ...e, dead: shown } : undefined;
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
  private earlierBlocks(f: PgRelationFacts, e: PgDeadEntries): (j: number) => number {
    const n = Math.max(1, Math.min(e.farBlocks, f.pages));
    const before = this.draw === 0 && (f.changedSinceAnalyze ?? 0) > 0 ? beforeCommitted(f, e, this.ring.blockSize ?? 8192) : undefined;
    if (before) return before;
    if (this.draw !== 0 || f.changedSinceAnalyze !== 0) return (j) => Math.min(f.pages - 1, Math.floor((((j % n) + 0.5) * f.pages) / n));
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
  private earlierUnderTableWide(f: PgRelationFacts, rows: number, notes: PlanSimulationNotes): number[] {
    if (!tableWideDead(f) || this.runsDone > 1) return [];
    const earlier = earlierRuns(f, rows);
    const between = betweenLoadedAndLive(f, rows, this.ring.blockSize ?? 8192);
    if (!earlier || !between) return [];
    notes.assumptions.add(
      `${f.reportName}: the statistics count ${(earlier.runs * rows).toLocaleString('en-US')} updates rolled back (${earlier.measurements} earlier measurement(s) of this write, taken as ${RUNS_PER_MEASUREMENT} runs each), whose versions lie between the rows as loaded and the table-wide update's: runs 1 and 2 visit their pages as their new entries fill the leaves holding theirs (deleting them to make room, checking uniqueness); how many no view shows: the prediction takes one block in five of each measurement's on run 1 and one in ten more on run 2, the range none to all ${between.blocks.toLocaleString('en-US')} blocks between on run 1`,
    );
    if (this.runsDone === 1) return this.draw === 0 ? between.visitedOnRun2 : [];
    if ((this.draw & 1) === 1) return Array.from({ length: between.blocks }, (_, k) => between.first + k);
    return this.draw === 0 ? between.visited : [];
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
  private splitByEarlier(i: number, leaves: number, notes: PlanSimulationNotes): number[] {
    const x = this.facts[i];
    const t = this.facts.findIndex((f) => f.kind === 'table' && f.planName === x.table);
    if (!this.writes || this.runsDone > 0 || this.draw !== 0 || t < 0) return [];
    const f = this.facts[t];
    const e = this.writeDeadEntries[f.planName];
    if (!e || tableWideDead(f) || !this.earlierUnderWrite(t)) return [];
    const measurements = earlierRuns(f, e.live)?.measurements ?? 0;
    const split = Math.min(x.pages - 1, measurements * leaves);
    if (split <= 0) return [];
    notes.assumptions.add(`${x.reportName}: the earlier measurement(s) of this write split each of the ${leaves} leaves under its keys (taken as ${measurements} of ${RUNS_PER_MEASUREMENT} runs from the updates rolled back): the scan also reads the ${split} halves they appended at the index's end`);
    return Array.from({ length: split }, (_, k) => pageId(i, x.pages - split + k));
  }

  /**
   * Dead versions per row a write's run 1 checks under its keys (its scan meets them alike: deadOf). After a
   * table-wide update, all of them where no scan met these keys since; whether one did (and marked the plain
   * entries, leaving the posting lists' few) no view shows, so half the draws take none (pgbench check: a
   * range update measured after a count over its keys, 14,527-16,595 logical reads on run 1, 20,160
   * predicted, 14,159 with none).
   */
  private deadMetByWrite(t: number, notes: PlanSimulationNotes): number {
    const f = this.facts[t];
    if (!tableWideDead(f)) return deadEntriesPerRow(f);
    notes.assumptions.add(`${f.reportName}: whether a scan since the table-wide update marked the dead entries under these keys no view shows: the prediction takes none marked, the range also all of them`);
    return this.markedSinceUpdate(f) ? 0 : deadEntriesPerRow(f);
  }

  /** Whether this draw takes a write's run 1 as meeting a table-wide update's dead entries marked by a scan since. */
  private markedSinceUpdate(f: PgRelationFacts): boolean {
    return this.writes && this.runsDone === 0 && tableWideDead(f) && (this.draw & 2) !== 0;
  }

  /** The pages of table t whose all-visible bit an earlier run's update cleared, shared with the next run's replay. */
  private clearedOf(t: number): Set<number> {
    const pages = this.clearedPages.get(t) ?? new Set<number>();
    this.clearedPages.set(t, pages);
    return pages;
  }

  /** Draws that take the dead entries a previous run met as already marked dead (see heap-layout.ts). */
  private skipsMarked(): boolean {
    return this.runsDone > 0 && (this.draw & 2) !== 0;
  }

  /** Per row, the rolled-back versions the previous run left under the same keys, where this draw meets them. */
  private leftoversOf(t: number): number {
    return this.runsDone > 0 && !this.skipsMarked() ? (this.leftovers.get(t) ?? 0) : 0;
  }

  /**
   * An index-only scan asks the visibility map about every entry's heap page (visibilitymap_get_status),
   * keeping the map page it last read pinned: a request each time an entry's heap page falls under another
   * map page. One map page covers HEAP_BLOCKS_PER_VM_PAGE heap pages, so a table under that size costs one
   * request per scan, and a larger one, read in random order, about one per entry.
   */
  private visibilityChecks(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes, tuples: number, loops: number): void {
    const t = this.relationIndex('table', n.relation);
    if (t === undefined) return;
    const f = this.facts[t];
    const idx = this.relationIndex('index', n.index);
    const c = idx === undefined ? null : (this.facts[idx].correlation ?? null);
    const ordered = orderedShare(c);
    const vmPages = Math.max(1, Math.ceil(f.pages / HEAP_BLOCKS_PER_VM_PAGE));
    // The map is the table's fork: its pages are simulated apart from every relation's (past the facts).
    const vm = (page: number) => pageId(this.facts.length + 1 + t, page);
    // Its own generator, so the heap visits draw as they did.
    const rnd = new SeededRandom(0x7153 + t + this.draw * 0x9e3779b1);
    const perPage = f.tuples > 0 && f.pages > 0 ? f.tuples / f.pages : 1;
    let requests = 0;
    for (let l = 0; l < loops; l++) {
      let last = -1;
      let position = loops === 1 ? 0 : rnd.int(Math.max(1, f.pages));
      const perLoop = Math.round(tuples / loops);
      for (let k = 0; k < perLoop; k++) {
        let block: number;
        if (vmPages === 1) block = 0;
        else if (rnd.next() < ordered) {
          position += 1 / perPage;
          block = Math.floor(position) % Math.max(1, f.pages);
        } else block = rnd.int(Math.max(1, f.pages));
        const page = Math.floor(block / HEAP_BLOCKS_PER_VM_PAGE);
        if (page !== last) {
          pool.access(vm(page));
          requests++;
          if (vmPages === 1) break;
        }
        last = page;
      }
    }
    notes.assumptions.add(`${f.reportName}: visibility map of ${vmPages} page(s) consulted per index entry, ${requests.toLocaleString('en-US')} map page request(s)`);
  }

  private bitmapHeap(pool: PostgresPool, n: PlanNode, notes: PlanSimulationNotes): void {
    const t = this.relationIndex('table', n.relation);
    if (t === undefined) return void notes.unmodelled.add(`Bitmap Heap Scan on ${n.relation}: table facts missing`);
    const f = this.facts[t];
    const blocks = Math.min(f.pages, (n.exactHeapBlocks ?? 0) + (n.lossyHeapBlocks ?? 0));
    notes.assumptions.add(`${f.reportName}: bitmap heap scan of ${blocks.toLocaleString('en-US')} heap blocks (as executed), in block order`);
    const stride = blocks > 0 ? f.pages / blocks : 1;
    for (let k = 0; k < blocks; k++) pool.access(pageId(t, Math.floor(k * stride)));
  }
}

/**
 * Where leaves with a row updated before a table-wide update lie under the scan, how many of them kept no
 * posting list past their first keys (version-churn.ts) follows from the count after the last run: the share
 * whose whole leaves leave that many dead entries unmarked (found by halving; 108 of 127 where the count
 * cannot say), so a later run goes to the heap pages of some leaves' keys for every dead version and to the
 * others' for few (measured on pgbench after a table-wide update: 147,947 counted over 600,000 keys, where
 * the pattern at 85 % leaves about 130,000).
 */
function fitPlainShare(leaves: ChurnedLeaves, perRow: number, visits: number, keyAt: (k: number) => number, counted: number): void {
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
  for (let i = 0; i < 20; i++) {
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
function unmarkedAsCounted(perRow: number, visits: number, killedAt: (k: number) => number, counted: number): (k: number) => number {
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
