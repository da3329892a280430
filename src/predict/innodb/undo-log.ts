// A write transaction's undo log: the rollback segment it takes, its log created or reused, and the pages
// of the undo tablespace the log grows by (trx_assign_rseg_low, trx_undo_assign_low, trx_undo_add_page).
// - Each write transaction takes the next of 128 rollback segments, from a counter that starts at 0 with
//   the server: each run its own segment, so its own header page.
// - A segment keeps a rolled-back transaction's one-page log for the next transaction to reuse (its page
//   read where not cached); creating one allocates a page in the tablespace (its header and the segment
//   inode page read where not cached, the new page made without a read). Measured on MariaDB 10.11: an
//   update by id 11 gets reusing, 13 creating; a delete 15 and 17.
// - Growing the log reads the tablespace's header, its change-buffer bitmap and the inode page.
// Where the state before run 1 was read (UndoState), these are pages of the simulated pool, cached as the
// server's pool had them: after a restart the corpus's 8 MiB pool held none of the segments' headers and
// cached logs (its 32 and 128 MiB pools all 128 headers), so each run read its segment's header and its
// reused log, 2 pages, where 32 MiB read none. Without it (MySQL, older fixtures) they are gets that hit.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import type { UndoState } from './facts';

/** Gets of a created log beyond the segment's header and the log's page: the inode and the tablespace header. */
const CREATE_GETS = 2;
/** An undo log growing by a page, beyond the page itself: the inode, the tablespace header, the bitmap, the log's header. */
export const UNDO_PAGE_ADD_GETS = 4;
const SEGMENTS = 128;
/** Page numbers in the simulated undo space. */
const SPACE_HEADER = 0;
const BITMAP = 1;
const INODE = 3;
const SEGMENT_HEADERS = 0x100;
const CACHED_LOGS = 0x1000;
const CREATED_LOGS = 0x2000;
const GROWTH = 0x10000;

/**
 * The segment the first write after a restart takes: the startup's own transactions take 0–2 (measured on
 * MariaDB 10.11: three rolled-back writes after a restart left their logs in segments 3, 4 and 5).
 */
const FIRST_CLIENT_SEGMENT = 3;

/**
 * Whether run `run` (0-based) of the draw reuses a kept log. After a restart with no write since
 * (writesSinceStartup 0), run k takes segment 3 + k: where the pool shows which segments kept a log
 * (keptLogSlots), that decides; otherwise the draw shown reuses, as the segments an earlier measurement
 * after a restart rolled back in do. With writes since the restart, which segment comes next and what it
 * holds no view shows: the draw shown creates. A quarter of the draws take the other case, for the band.
 */
export function reusesLog(draw: number, undo: UndoState | undefined, run = 0): boolean {
  const afterRestart = undo?.writesSinceStartup === 0;
  const likely = afterRestart && (undo?.keptLogSlots === undefined || undo.keptLogSlots.includes((FIRST_CLIENT_SEGMENT + run) % SEGMENTS));
  return (draw % 4 === 3) !== likely;
}

export function undoLogAssumption(undo: UndoState | undefined): string {
  const kept = undo?.keptLogSlots;
  const shown =
    undo?.writesSinceStartup === 0 && kept !== undefined
      ? `the server ran no write since it started, so run k takes segment ${FIRST_CLIENT_SEGMENT} + k, as the first writes after every restart do; the ` +
        `pool's pages, in the order the restart read them, show the segments that kept a log ` +
        `(${kept.length ? kept.slice(0, 12).join(', ') + (kept.length > 12 ? ', …' : '') : 'none'}), and the prediction reuses where the run's segment ` +
        `is one of them`
      : undo?.writesSinceStartup === 0
        ? "the server ran no write since it started, so the runs take the rollback segments the first writes after every restart take, where an earlier " +
          "measurement's rolled-back runs left a log each: the prediction reuses them (the first write measured after the data was loaded finds none and " +
          "creates)"
        : 'which segment comes next and what it holds no view shows: the prediction creates a log';
  const pages =
    undo?.systemPagesCached !== undefined
      ? "; its pages are cached as the undo tablespace's pages were before run 1 (INNODB_BUFFER_PAGE_LRU by page type)"
      : '';
  return `each run's transaction takes the next of ${SEGMENTS} rollback segments and creates an undo log there, or reuses the one-page log a rolled-back ` +
    `transaction kept (2 gets fewer); ${shown}; the band holds both${pages}`;
}

export class UndoLogs {
  private slot = 0;
  /** The undo space's pages cached when the current run began (see startRun). */
  private atRunStart = new Set<number>();
  /** Pool pages: the segment headers, cached logs and tablespace pages are simulated, not counted as hits. */
  private readonly paged: boolean;

  constructor(
    private readonly undo: UndoState | undefined,
    /** The first page of the simulated undo space. */
    private readonly base: number,
    /** The one first page every run used before the state was read (older fixtures). */
    private readonly legacyFirst: number,
  ) {
    this.paged = undo?.systemPagesCached !== undefined;
  }

  assumption(): string {
    return undoLogAssumption(this.undo);
  }

  /**
   * The undo pages cached before run 1, for the starting pool, in the place of as many of its other pages:
   * the segments' headers where the pool held all 128 (a restart reads them, and a pool that kept them
   * kept the logs it read with them); otherwise the headers it held are the segments the latest writes
   * took, behind the counter, and stay other pages.
   */
  cachedPages(): number[] {
    const u = this.undo;
    if (!this.paged || !u) return [];
    const spaces = Math.max(1, u.spaces ?? 1);
    const out: number[] = [];
    if ((u.systemPagesCached ?? 0) >= SEGMENTS) {
      for (let s = 0; s < SEGMENTS; s++) out.push(this.base + SEGMENT_HEADERS + s);
      if ((u.logPagesCached ?? 0) > 0) for (let s = 0; s < SEGMENTS; s++) out.push(this.base + CACHED_LOGS + s);
    }
    if ((u.spaceHeadersCached ?? 0) >= spaces) out.push(this.base + SPACE_HEADER);
    if ((u.bitmapsCached ?? 0) >= spaces) out.push(this.base + BITMAP);
    if ((u.inodePagesCached ?? 0) >= spaces) out.push(this.base + INODE);
    return out;
  }

  /**
   * On the server a write's scan and its changes interleave, so the undo pages it requests all through
   * (the segment's header, the tablespace's header, bitmap and inode) stay young; the model replays the
   * scan first. The pages cached as the run begins therefore count as cached when its changes request them.
   */
  startRun(pool: InnodbPool): void {
    if (!this.paged) return;
    this.atRunStart = new Set(this.cachedCandidates().filter((p) => pool.contains(p)));
  }

  private cachedCandidates(): number[] {
    const out = [this.base + SPACE_HEADER, this.base + BITMAP, this.base + INODE];
    for (let s = 0; s < SEGMENTS; s++) out.push(this.base + SEGMENT_HEADERS + s, this.base + CACHED_LOGS + s);
    return out;
  }

  private request(pool: InnodbPool, p: number): void {
    if (this.atRunStart.has(p) && !pool.contains(p)) pool.preload(p);
    pool.access(p);
  }

  /**
   * The transaction's first change: its segment and its log, reused or created. `page(n)` is the log's
   * n-th page. A created first page is already in the pool; a reused one the caller requests (a read
   * where it was not cached). Without the state read, the first page is the same every run and made by
   * the caller, as before.
   */
  begin(pool: InnodbPool, draw: number): { page: (n: number) => number; reused: boolean; paged: boolean } {
    const run = this.slot++;
    const slot = run % SEGMENTS;
    const reused = reusesLog(draw, this.undo, run);
    if (!this.paged) {
      pool.residentHits(reused ? 1 : 1 + CREATE_GETS);
      return { page: (n) => this.legacyFirst + n, reused, paged: false };
    }
    this.request(pool, this.base + SEGMENT_HEADERS + slot);
    // A created log's first page is new in its segment (a creation measured 2 gets above a reuse on every
    // run); the pages it grows by are the ones the previous run's rollback freed, requested again (a batch
    // update's runs 2–3 measured a get more per page than run 1).
    const growth = this.base + GROWTH;
    const first = this.base + (reused ? CACHED_LOGS : CREATED_LOGS) + slot;
    if (!reused) {
      this.request(pool, this.base + INODE);
      this.request(pool, this.base + SPACE_HEADER);
      pool.create(first);
    } else if (this.atRunStart.has(first) && !pool.contains(first)) pool.preload(first);
    return { page: (n) => (n === 0 ? first : growth + n), reused, paged: true };
  }

  /** The log grows by a page: allocated in the tablespace, made without a read. */
  grow(pool: InnodbPool, page: number): void {
    if (!this.paged) {
      pool.create(page);
      pool.residentHits(UNDO_PAGE_ADD_GETS);
      return;
    }
    this.request(pool, this.base + INODE);
    this.request(pool, this.base + SPACE_HEADER);
    this.request(pool, this.base + BITMAP);
    pool.residentHits(UNDO_PAGE_ADD_GETS - 3);
    pool.create(page);
  }
}
