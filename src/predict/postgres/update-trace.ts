// The page requests of a PostgreSQL UPDATE, row by row (ExecModifyTable, heap_update): the old tuple's
// page, pinned by the scan below (a hit that does not raise its usage count), twice from PostgreSQL 14 (the
// old version is fetched again to form the new); the new version on the same page when it fits and no
// indexed column changes (HOT), else on the target block, extended as it fills (the free-space map, searched
// from its root for each new block where the table has one, offers no page with room for the tuple plus the
// fillfactor's reserve), with an entry in every index (the first new block after a look at the table's last
// block, or at the session's cached target); the first update of an all-visible page pins its visibility-map
// page and clears the page's bit; the entry goes into the scan's own index at the leaf it holds, any other
// at the leaf its key lies on where that was read (else at random); a unique index whose key did not change finds the old version's entry and checks its
// tuple on the old page (_bt_check_unique), another hit. Where the server counted the run's HOT updates (a
// full page may have room that pruning freed, which no view shows), that count decides.
// A rollback touches no data page (the aborted tuples stay until VACUUM), so nothing more follows.
import type { PgRelationFacts } from './facts';
import { descentPages, indexGeometry, leafBlock, pageId } from './geometry';
import { FreeSpaceTarget, HeapTarget } from './heap-targets';
import { FSM_LEVELS } from './layout-constants';
import { GOLDEN, partialShare, predicateNames, tuplesPerBlock, type WriteContext } from './write-trace';

/** Bytes of a heap page after its header (8 kB blocks: the tuple sizes derived from it are relative anyway). */
const PAGE_BODY = 8192 - 24;

export interface UpdateShape {
  /** The relation number of the index the scan below used, if any: its leaf is pinned already. */
  scanIndex?: number;
  /** Rows on one page come one after the other (a sequential or correlated scan). */
  clustered: boolean;
  updatedColumns?: string[];
  /** Dead versions per row that a previous rolled-back run of this UPDATE left under the same keys. */
  leftoverPerRow?: number;
  /** Where the previous run put row r's version (the blocks it appended, or those the free-space map gave it). */
  leftoverAt?: (r: number) => number;
  /** Dead versions per row the statistics count under the same keys (a table-wide update's, not vacuumed). */
  deadPerRow?: number;
  /**
   * Dead versions per row an earlier rolled-back write may have left under the scan's keys, and the block of
   * the j-th; from run 3, where the run before the previous one put row r's version, which joined the same
   * posting list.
   */
  earlier?: { perRow: number; block: (j: number) => number; olderAt?: (r: number) => number };
  /** Where the free-space map offers room (pages a VACUUM emptied): the k-th block it offers, and how many versions each takes. */
  freeSpace?: { block: (k: number) => number; perBlock: number };
  /** The session's first write to the table: it has no target block cached yet. */
  firstWrite?: boolean;
  /** Pages an earlier run of this write updated: their all-visible bit is cleared (a rollback does not set it again). */
  cleared?: Set<number>;
  /** ExecModifyTable fetches each row's old version again to form the new one (PostgreSQL 14 and later). */
  refetchesOld?: boolean;
  /** This draw takes each page of a table with dead versions as having room for one version, freed by pruning one. */
  roomFromPruning?: boolean;
  /** How many rows the server updated in place (HOT) in the run, where it counted them: in place of the room's model. */
  hotCounted?: number;
  /** Rows a clustered scan returns per heap page, where the plan says (a bitmap heap scan's rows over its blocks). */
  rowsPerPage?: number;
  /** Each written row's heap block in the scan's order, where read after the runs: in place of the scan's model. */
  rowBlocks?: number[];
  /** Per index (its relation number), each written row's position along it in the scan's order (read after the runs): its new entry's leaf. */
  keyPositions?: Map<number, number[]>;
  /** Per partial index, how many of the written rows satisfy its predicate (read after the runs). */
  partialEntries?: Record<string, number>;
}

/**
 * Returns how many rows got a new version on another page, with an entry in every index (not HOT), how
 * many of the free-space map's blocks they took, and how many dead versions the statistics count that the
 * uniqueness checks visit: the same pages the scan below meets them on, which the caller replays after it.
 */
/** What every updated row of one replayed UPDATE follows: HOT room, the indexes' entries, the heap's target and its visibility map. */
interface UpdateRules {
  perBlock: number;
  roomLeft: boolean;
  hotRoom: number;
  hotEligible: boolean;
  /** Whether row r of `rows` is updated in place, where the server counted how many were. */
  hotAt: ((r: number) => boolean) | undefined;
  entries: Array<{ i: number; g: ReturnType<typeof indexGeometry>; checksOldVersion: boolean; share: number }>;
  target: FreeSpaceTarget | HeapTarget;
  allVisible: (page: number) => boolean;
  visibleShare: number;
  cleared: Set<number>;
  fsm: boolean;
}

/** Where the replay is: versions per page so far, versions placed off their page, earlier versions met, dead versions to check. */
interface UpdateProgress {
  onPage: Map<number, number>;
  placed: number;
  earlierMet: number;
  deadChecks: number;
}

export function replayUpdate(context: WriteContext, shape: UpdateShape): { moved: number; freeBlocks: number; deadChecks: number; pages: Set<number> } {
  if (context.rows <= 0) return { moved: 0, freeBlocks: 0, deadChecks: 0, pages: new Set() };
  const rules = updateRules(context, shape);
  const progress: UpdateProgress = { onPage: new Map(), placed: 0, earlierMet: 0, deadChecks: 0 };
  for (let r = 0; r < context.rows; r++) updateRow(context, shape, rules, progress, r);
  const freeBlocks = rules.target instanceof FreeSpaceTarget ? rules.target.used : 0;
  return { moved: progress.placed, freeBlocks, deadChecks: progress.deadChecks, pages: new Set(progress.onPage.keys()) };
}

function updateRules({ pool, heap, indexes, rows, notes }: WriteContext, shape: UpdateShape): UpdateRules {
  const { t, f } = heap;
  const perBlock = tuplesPerBlock(f);
  const fillfactor = f.fillfactor ?? 100;
  const tupleBytes = (PAGE_BODY * fillfactor) / 100 / perBlock;
  // What a page holds beyond its tuples: the fillfactor's reserve, which only same-page updates may use.
  const hotPerPage = Math.max(0, Math.floor((PAGE_BODY - perBlock * tupleBytes) / tupleBytes));
  const changed = shape.updatedColumns;
  // A column a partial index's predicate names blocks HOT as its key columns do.
  const indexed = indexes.some(
    ({ f: x }) =>
      x.columns === undefined ||
      changed === undefined ||
      x.columns.some((c) => c === null || changed.includes(c)) ||
      (!!x.predicate && predicateNames(x.predicate, changed)),
  );
  // A full page may still have room for one version where pruning removed a dead one that an earlier write
  // left (a committed update's old version, a deleted row): which pages do, no view shows before run 1.
  const counted = shape.hotCounted;
  const hotAt = counted === undefined ? undefined : evenly(Math.min(counted, rows), rows);
  const roomLeft =
    counted !== undefined ? counted > 0 && hotPerPage === 0 : !indexed && hotPerPage === 0 && (f.deadTuples ?? 0) > 0 && shape.roomFromPruning === true;
  const hotRoom = roomLeft ? 1 : hotPerPage;
  if (counted !== undefined) {
    notes.assumptions.add(
      `${f.reportName}: ${counted.toLocaleString('en-US')} of the ${rows.toLocaleString('en-US')} rows updated in place (HOT), as the server counted ` +
      `them in the run ` +
        "(pg_stat_get_xact_tuples_hot_updated, read in the run's transaction): no new block, no index entry; taken evenly over the rows",
    );
  } else if (!indexed && hotPerPage === 0 && (f.deadTuples ?? 0) > 0) {
    notes.assumptions.add(
      `${f.reportName}: it counts ${Math.round(f.deadTuples ?? 0).toLocaleString('en-US')} dead versions; where pruning removed one from a row's page, ` +
        "that page has room for the row's new version (HOT, no index entry), which no view shows before run 1: the prediction takes none, the range the " +
        "first update of every page",
    );
  }
  if (counted === undefined)
    notes.assumptions.add(
      `${f.reportName}: ${rows.toLocaleString('en-US')} rows updated; ` +
        (indexed
          ? `an indexed column changes${changed === undefined ? ' (the SET clause was not read)' : ''}, so no update is HOT`
          : hotPerPage > 0
            ? `fillfactor ${fillfactor} leaves room for ${hotPerPage} new version(s) per page (HOT), the rest go to new blocks with an entry in every index`
            : `fillfactor ${fillfactor}: a full page has no room for a new version, so each goes to a new block with an entry in every index`),
    );
  const entries = indexes.map(({ f: x, i }) => {
    const g = indexGeometry(x);
    const keyKept = changed !== undefined && x.columns !== undefined && x.columns.every((c) => c !== null && !changed.includes(c));
    // A new version takes an entry in a partial index only where it satisfies the predicate.
    const share = partialShare(x, f, rows, shape.partialEntries ?? {}, notes, 'updated');
    return { i, g, checksOldVersion: x.unique === true && keyKept, share };
  });
  // Loaded pages have no room beyond the reserve: the first version that leaves its page needs a new block.
  const target = shape.freeSpace
    ? new FreeSpaceTarget(pool, t, shape.freeSpace.perBlock, shape.freeSpace.block)
    : new HeapTarget(pool, t, f.pages, perBlock, true);
  if (shape.freeSpace)
    notes.assumptions.add(
      `${f.reportName}: the free-space map offers the pages a VACUUM emptied: the new versions go there, ${shape.freeSpace.perBlock} a page, each page ` +
      `read, not added; ` +
        'a later run takes the pages after them (the earlier ones are full)',
    );
  // A version that leaves its page first asks the free-space map for a page with room, where it has one.
  // heap_update pins the visibility-map page of an all-visible page and clears the page's bit: only the
  // first update of each such page pins it (measured: 34 map requests for 2,001 rows on 34 pages), and no
  // later run finds the bit set again. Which pages are all-visible pg_class.relallvisible tells as of the
  // last VACUUM or ANALYZE: taken as that share of the pages, spread evenly.
  const cleared = shape.cleared ?? new Set<number>();
  const { visibleShare, allVisible } = visibility(f, cleared);
  const fsm = (f.fsmPages ?? 0) > 0;
  if (visibleShare > 0 || fsm) noteMaps(notes, f, visibleShare);
  if (shape.refetchesOld)
    notes.assumptions.add(`${f.reportName}: each row's old version is fetched again to form the new one, a request on the page the scan holds`);
  return { perBlock, roomLeft, hotRoom, hotEligible: !indexed && hotRoom > 0, hotAt, entries, target, allVisible, visibleShare, cleared, fsm };
}

/** Picks `count` of `rows` spread evenly: row r is picked where the running share crosses a whole number. */
function evenly(count: number, rows: number): (r: number) => boolean {
  return (r) => Math.floor(((r + 1) * count) / rows) > Math.floor((r * count) / rows);
}

/**
 * Which pages are all-visible: pg_class.relallvisible tells the share as of the last VACUUM or ANALYZE,
 * taken spread evenly over the pages, less those an earlier run's write cleared (a rollback sets no bit again).
 */
export function visibility(f: PgRelationFacts, cleared: Set<number>): { visibleShare: number; allVisible: (page: number) => boolean } {
  const visibleShare = Math.min(1, Math.max(0, f.allVisible ?? 0));
  return { visibleShare, allVisible: (page) => !cleared.has(page) && (visibleShare >= 1 || (page * GOLDEN) % 1 < visibleShare) };
}

function noteMaps(notes: WriteContext['notes'], f: WriteContext['heap']['f'], visibleShare: number): void {
  const visible =
    visibleShare > 0
      ? `${Math.round(visibleShare * 100)} % of its pages all-visible (pg_class.relallvisible, as of the last VACUUM or ANALYZE): ` +
        "the first update of each such page pins its visibility-map page and clears the page's bit, which a rollback leaves cleared"
      : '';
  const fsm =
    (f.fsmPages ?? 0) > 0 ? `a free-space map of ${f.fsmPages} page(s), searched from its root (${FSM_LEVELS} levels) for each new block a version needs` : '';
  notes.assumptions.add(`${f.reportName}: ${[visible, fsm].filter(Boolean).join('; ')}`);
}

function updateRow(context: WriteContext, shape: UpdateShape, rules: UpdateRules, progress: UpdateProgress, r: number): void {
  const { pool, heap, rnd, vmPage, fsmPage } = context;
  const { t, f } = heap;
  const { perBlock } = rules;
  pool.repin();
  if (shape.refetchesOld) pool.repin();
  const page = shape.rowBlocks?.[r] ?? (shape.clustered ? Math.floor(r / (shape.rowsPerPage ?? perBlock)) : rnd.int(Math.max(1, f.pages)));
  pool.markDirty(pageId(t, page));
  const n = progress.onPage.get(page) ?? 0;
  progress.onPage.set(page, n + 1);
  // A page pruning left room on was written since the last VACUUM: not all-visible.
  if (rules.allVisible(page) && !rules.roomLeft) pool.access(vmPage(page));
  rules.cleared.add(page);
  if (rules.hotAt ? rules.hotAt(r) : rules.hotEligible && n < rules.hotRoom) return;
  if (rules.fsm && progress.placed % perBlock === 0) for (let l = 0; l < FSM_LEVELS; l++) pool.access(fsmPage(l));
  if (progress.placed === 0 && !shape.freeSpace && shape.firstWrite) {
    // With no target block cached in the session, RelationGetBufferForTuple tries the table's last block
    // before it extends, pinning its visibility-map page where the page is all-visible: taken so where
    // the map marks the table so and no update since the statistics were reset appended a version (a
    // later run finds its cached target, the block run 1 extended, at once).
    pool.access(pageId(t, f.pages - 1));
    const appended = f.rowsUpdated ? f.rowsUpdated.all - f.rowsUpdated.hot : 0;
    if (rules.visibleShare >= 0.5 && appended === 0) pool.access(vmPage(f.pages - 1));
  }
  const e = progress.placed++;
  rules.target.put();
  for (const s of rules.entries) if (s.share >= 1 || Math.floor((e + 1) * s.share) > Math.floor(e * s.share)) indexEntry(context, shape, rules, progress, s, r);
}

/** The new version's entry in one index, and the uniqueness check of the versions under its key. */
function indexEntry(
  context: WriteContext,
  shape: UpdateShape,
  rules: UpdateRules,
  progress: UpdateProgress,
  s: UpdateRules['entries'][number],
  r: number,
): void {
  const { pool, heap, rnd } = context;
  const { t, f } = heap;
  // The scan's own index: the entry goes to the leaf the scan holds (taken at the index's start, as the scan's
  // leaves are); another beside the row's key, where its position was read, else at a random leaf.
  const at = shape.keyPositions?.get(s.i)?.[r];
  const leaf = s.i === shape.scanIndex ? 0 : at !== undefined ? Math.min(s.g.leafPages - 1, Math.floor(at * s.g.leafPages)) : rnd.int(s.g.leafPages);
  for (const p of descentPages(s.i, s.g, leaf)) pool.access(p);
  if (s.i === shape.scanIndex) pool.repin();
  else pool.readBuffer(pageId(s.i, leafBlock(s.g, leaf)), -1, true);
  if (!s.checksOldVersion) return;
  pool.repin();
  // _bt_check_unique checks every version under the key: a previous run's aborted one on its appended
  // page, and a dead one the statistics count where the scan met it (counted here, replayed after the scan).
  for (let d = 0; d < Math.round(shape.leftoverPerRow ?? 0); d++)
    pool.access(pageId(t, shape.leftoverAt ? shape.leftoverAt(r) : f.pages + Math.floor(r / rules.perBlock)));
  progress.deadChecks += Math.round(shape.deadPerRow ?? 0);
  // Those an earlier write left were counted under the scan's index.
  for (const e = s.i === shape.scanIndex ? shape.earlier : undefined; e && progress.earlierMet < (r + 1) * e.perRow - 1e-9; progress.earlierMet++) {
    pool.access(pageId(t, e.block(progress.earlierMet)));
    if (e.olderAt) pool.access(pageId(t, e.olderAt(r)));
  }
}
