// The pages of long values stored off a row's page, read with the row: InnoDB copies an off-page column
// into the row it hands up whenever the column is in the statement's read set (row_sel_store_mysql_rec →
// btr_rec_copy_externally_stored_field), before the server evaluates the WHERE clause, so a full scan reads
// every row's long values whether the row matches or not. A read that locks rows exclusively (UPDATE,
// DELETE, SELECT … FOR UPDATE) fetches the whole row (ha_innobase::build_template: whole_row under LOCK_X).
// Measured on MariaDB 10.11, 30,000 rows with 1,200 values of 12 kB (a page each): a scan counting rows
// 1,398 gets; summing the long column's length, SELECT *, FOR UPDATE, an UPDATE or DELETE by the same scan,
// and INSERT … SELECT naming the column 2,595-2,608; LOCK IN SHARE MODE 1,398. Pure.
import type { InnodbIndexFacts, InnodbPredictionSettings } from './facts';
import { usableBytes, type IndexPages } from './index-pages';
import type { PrefetchReader } from './read-context';

/** A per-row share for the notes (a formatter made once: toLocaleString with options makes one per call). */
const THREE_DECIMALS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** Columns a record may store off its page: declared longer than half a page can hold (DYNAMIC rows). */
export function longColumns(f: InnodbIndexFacts, pageSize: number): string[] {
  return Object.entries(f.columnBytes ?? {})
    .filter(([, bytes]) => bytes > usableBytes(pageSize) / 2)
    .map(([name]) => name);
}

const EXCLUSIVE_READ = /^\s*(update|delete)\b|\bfor\s+update\b/i;
/** `*` or `t.*` in a select list. */
const ALL_COLUMNS = /(\bselect\s+(all\s+|distinct\s+)?|,\s*|[\w`]\.)\*/i;

/**
 * The clustered index's long columns the statement reads: all of them where it locks rows exclusively or
 * selects `*`, else those it names. The statement's text decides; a long column named only elsewhere (another
 * table's column of the same name) is counted as read.
 */
export function readsLongValues(statement: string | undefined, f: InnodbIndexFacts, pageSize: number): string[] {
  if ((f.offPagePages ?? 0) <= 0) return [];
  return columnsRead(statement, longColumns(f, pageSize));
}

/** Of `columns`, those the statement reads: all where it locks rows exclusively or selects `*`, else those it names. */
function columnsRead(statement: string | undefined, columns: string[]): string[] {
  if (columns.length === 0 || statement === undefined) return [];
  if (EXCLUSIVE_READ.test(statement) || ALL_COLUMNS.test(statement)) return columns;
  return columns.filter((c) => new RegExp(`(^|[^\\w$])\`?${c.replace(/[^\w$]/g, '')}\`?([^\\w$]|$)`, 'i').test(statement));
}

const LOCKING_READ = /^\s*(update|delete)\b|\bfor\s+(update|share)\b|\block\s+in\s+share\s+mode\b/i;

/**
 * How the statement reads the clustered index `f`'s rows, for InnoDB's row prefetch: locking, or handing up
 * a BLOB or TEXT column (its BLOB and TEXT columns where the catalog named them, else its long columns).
 */
export function prefetchReader(statement: string | undefined, f: InnodbIndexFacts | undefined, pageSize: number): PrefetchReader {
  const blobs = f ? (f.blobColumns ?? longColumns(f, pageSize)) : [];
  return { locking: statement !== undefined && LOCKING_READ.test(statement), readsBlob: columnsRead(statement, blobs).length > 0 };
}

/** A full scan reading long values: each leaf's rows and then the off-page pages the layout puts after it. */
export function scanLongValues(access: (page: number) => void, l: IndexPages, leaf: number): void {
  for (const p of l.offPage(leaf)) access(p);
}

/**
 * Lookups reading long values: a fetched row holds perRow off-page pages on average; they are taken from the
 * pages after the row's leaf in turn, the fractions carried from row to row so that they add up.
 */
export class LongValueLookups {
  private due = 0;
  private taken = 0;

  constructor(
    private readonly l: IndexPages,
    private readonly perRow: number,
  ) {}

  ofRows(access: (page: number) => void, leaf: number, rows = 1): void {
    this.due += rows * this.perRow;
    if (this.due < 1) return;
    const pages = this.l.offPage(leaf);
    for (; this.due >= 1; this.due -= 1) if (pages.length > 0) access(pages[this.taken++ % pages.length]);
  }
}

/** Off-page pages per row of the table. */
export function offPagePerRow(f: InnodbIndexFacts): number {
  return f.rows > 0 ? (f.offPagePages ?? 0) / f.rows : 0;
}

/** What the prediction assumes of the long values a statement reads, and of which were cached before run 1. */
export function longValuesAssumption(f: InnodbIndexFacts, columns: string[], scan: boolean, seed: InnodbPredictionSettings['lruSeed'], index: number): string {
  const perRow = offPagePerRow(f);
  const cached = seed?.longValues?.filter(([i]) => i === index).length;
  const before =
    cached === undefined
      ? 'before run 1 each cached leaf taken with its long values (their pages were not read from the pool)'
      : `${cached.toLocaleString('en-US')} of them cached before run 1 (BLOB pages of its tablespace in INNODB_BUFFER_PAGE_LRU)`;
  return (
    `${f.reportName}: ${columns.join(', ')} read with each row ${scan ? 'the scan passes (before the WHERE clause is applied)' : 'fetched'}: ` +
    `${f.offPagePages!.toLocaleString('en-US')} off-page pages, ${THREE_DECIMALS.format(perRow)} a row, each after its row's leaf; ${before}`
  );
}

/**
 * The residency does not name the pages of long values (INNODB_BUFFER_PAGE_LRU gives BLOB pages no table or
 * index), so they are among the pool's other pages: each cached leaf's off-page pages are taken as cached
 * with it. Keyed by the leaf's simulated page.
 */
export function offPagesByLeaf(l: IndexPages, leafPages: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let k = 0; k < leafPages; k++) {
    const pages = l.offPage(k);
    if (pages.length > 0) out.set(l.leaves(k), pages);
  }
  return out;
}

/**
 * The server's LRU order, head to tail, with each cached leaf's off-page pages in the places of the other
 * pages nearest after it; past the list's last other page, in the last ones left (nearest the tail). A page
 * is never listed twice.
 */
export function placeOffPages(headToTail: Int32Array, isOther: (page: number) => boolean, byLeaf: Map<number, number[]>): void {
  let cursor = 0;
  let back = headToTail.length - 1;
  const nextOther = (from: number) => {
    let k = from;
    while (k < headToTail.length && !isOther(headToTail[k])) k++;
    return k;
  };
  // A page the list holds already (a cached leaf the layout put where it places another leaf's long values) stays where it is.
  const listed = new Set(headToTail);
  for (let pos = 0; pos < headToTail.length; pos++) {
    for (const p of byLeaf.get(headToTail[pos]) ?? []) {
      if (listed.has(p)) continue;
      listed.add(p);
      cursor = nextOther(Math.max(cursor, pos + 1));
      if (cursor < headToTail.length) {
        headToTail[cursor++] = p;
        continue;
      }
      while (back >= 0 && !isOther(headToTail[back])) back--;
      if (back < 0) return;
      headToTail[back--] = p;
    }
  }
}

/**
 * The server's LRU order, head to tail, with the long values' pages where the walk found them (`longValues`:
 * [clustered index, file page, position from the head]). Their file pages are not the layout's, so each takes
 * an off-page page of its table: those after the cached leaves first, from the head (a row's long values are
 * read with its leaf), then any. `indexOf`: the index a simulated page belongs to.
 */
export function placeMeasuredOffPages(
  headToTail: Int32Array,
  longValues: ReadonlyArray<readonly number[]>,
  byLeaf: Map<number, number[]>,
  indexOf: (page: number) => number,
): void {
  const candidates = new Map<number, number[]>();
  const add = (leaf: number, pages: number[]) => {
    const i = indexOf(leaf);
    const list = candidates.get(i) ?? [];
    for (const p of pages) list.push(p);
    candidates.set(i, list);
  };
  for (const leaf of headToTail) {
    const pages = byLeaf.get(leaf);
    if (pages) add(leaf, pages);
  }
  for (const [leaf, pages] of byLeaf) add(leaf, pages);
  const listed = new Set(headToTail);
  const next = new Map<number, number>();
  for (const [i, , pos] of [...longValues].sort((a, b) => a[2] - b[2])) {
    const list = candidates.get(i) ?? [];
    let k = next.get(i) ?? 0;
    while (k < list.length && listed.has(list[k])) k++;
    next.set(i, k + 1);
    if (k >= list.length || pos >= headToTail.length) continue;
    listed.add(list[k]);
    headToTail[pos] = list[k];
  }
}
