// Where a heap's row versions are, as far as the catalogs and the statistics tell: the live rows (spread
// over the pages, or packed where an update appended them) and the dead versions an index still points
// at. Pure: facts in, positions out.
import { SeededRandom } from '../../sim/random';
import type { PgRelationFacts } from './facts';
import type { PlanSimulationNotes } from './simulation-notes';

const formatNumber = (n: number) => Math.round(n).toLocaleString('en-US');

export interface LiveRows {
  first: number;
  pages: number;
  perPage: number;
}

export interface DeadVersions {
  /** Dead versions reached per live row. */
  perRow: number;
  /** Every one a previous run's rolled-back version, appended past the table's end: after each live row in heap order. */
  appendedOnly: boolean;
  /**
   * The block of the next dead version, given where the live row just visited sits in the live rows (0–1);
   * `inPlace`: the dead version follows that place (the live row's block is known), else it is drawn from
   * the correlation whether it does.
   */
  block: (liveFraction: number, rnd: SeededRandom, inPlace?: boolean) => number;
  /**
   * The dead versions mirror the live rows (a table-wide update's, a fifth of the rows or more: its scan
   * appended each new version as it met the old one), so a known live block places its dead one. A few
   * earlier writes' versions do not follow their live rows.
   */
  mirrorsLive: boolean;
}

/**
 * Where a table's live rows are. A heap with room for far more rows than it has (a table-wide update's
 * new versions, a mass delete) may hold them spread over every page (random deletes, random updates:
 * reltuples / relpages per page) or packed into the pages an update appended (after VACUUM, the old half
 * empty): the catalogs do not say which. The statistics give two hints: dead versions that fill the rest of
 * the heap (a table-wide update, not yet vacuumed: the live rows packed after them), and as many rows
 * updated off their pages as the table has (the versions appended together, packed). Otherwise the first
 * draw takes them spread; the band covers both (measured: a range after a table-wide update and VACUUM
 * read 715 blocks, spread predicts 1,209, packed about 720).
 */
/** Rows a full page holds (its fillfactor kept): a tuple is a 24-byte header and the data, 8-byte aligned, and a 4-byte line pointer. */
export function rowsPerFullPage(f: PgRelationFacts, blockSize: number): number | undefined {
  if (!f.rowBytes) return undefined;
  const tuple = 24 + Math.ceil(f.rowBytes / 8) * 8 + 4;
  return Math.max(1, Math.floor(((blockSize - 24) * ((f.fillfactor ?? 100) / 100)) / tuple));
}

/**
 * Where the live rows begin if packed into the table's last pages, full (as a table-wide update appends its
 * versions): the table's pages less those the rows fill. 0 where the row width is not known.
 */
export function packedFirstBlock(f: PgRelationFacts, blockSize: number): number {
  const capacity = rowsPerFullPage(f, blockSize);
  return capacity === undefined || f.tuples <= 0 ? 0 : Math.max(0, f.pages - Math.min(f.pages, Math.ceil(f.tuples / capacity)));
}

/**
 * Per row of a range's heap blocks in key order, 1 where it lies out of that order: past the rows after it,
 * where an earlier update had moved its version (in order, the next row is on the same block or the next;
 * 2 allows a page the update left short).
 */
export function outOfOrder(blocks: number[]): Uint8Array {
  const out = new Uint8Array(blocks.length);
  let inOrder = blocks[0];
  blocks.forEach((b, k) => {
    if (b - inOrder > 2) out[k] = 1;
    else if (b >= inOrder) inOrder = b;
  });
  return out;
}

export function liveRows(f: PgRelationFacts, blockSize: number, draw: number, notes: PlanSimulationNotes): LiveRows {
  const spread = { first: 0, pages: Math.max(1, f.pages), perPage: f.tuples > 0 && f.pages > 0 ? f.tuples / f.pages : 1 };
  const capacity = rowsPerFullPage(f, blockSize);
  if (capacity === undefined || f.tuples <= 0 || f.pages <= 0) return spread;
  if (spread.perPage >= 0.75 * capacity) return spread;
  const first = packedFirstBlock(f, blockSize);
  const pages = f.pages - first;
  const packed = { first, pages, perPage: capacity };
  // Dead versions counted where the live ones are not: the heap is full, the live rows packed after them.
  if (tableWideDead(f) && spread.perPage * (1 + deadEntriesPerRow(f)) >= 0.75 * capacity) {
    notes.assumptions.add(
      `${f.reportName}: ${formatNumber(f.tuples)} live rows and ${formatNumber(f.deadTuples ?? 0)} dead versions fill its ${formatNumber(f.pages)} ` +
      `pages: the live ones taken packed into the last ${formatNumber(pages)}, as a table-wide update appends them`,
    );
    return packed;
  }
  // Every row updated off its page since the statistics began: the versions were appended together, packed.
  const packedFirst = f.rowsUpdated !== undefined && f.rowsUpdated.all - f.rowsUpdated.hot >= 0.9 * f.tuples;
  notes.assumptions.add(
    `${f.reportName}: room for ${formatNumber(capacity * f.pages)} rows, ${formatNumber(f.tuples)} live: where they are is drawn, ` +
      `spread over all ${formatNumber(f.pages)} pages (${spread.perPage.toFixed(1)} a page) or packed into the last ${formatNumber(pages)} ` +
      `(${capacity} a page, as an update's versions after VACUUM); the prediction shown takes them ` +
      (packedFirst ? `packed, since ${formatNumber(f.rowsUpdated?.all ?? 0)} rows were updated off their pages` : 'spread') +
      ', the band covers both',
  );
  return (draw % 2 === 1) !== packedFirst ? packed : spread;
}

/**
 * Dead row versions an index scan reaches: each has its own index entry (a non-HOT update's old
 * version, a deleted row) and sits on another page than the live version of its key, so the scan pins
 * a page for it and again for the next live row. Two kinds: those the statistics count before run 1
 * (n_dead_tup less the HOT share of the updates), on the pages the live rows left; and the new versions a
 * rolled-back run of this UPDATE left behind, on the blocks it appended. A scan that finds a version dead
 * to every transaction marks its index entry dead, and later scans skip it; whether that happened is not
 * known (it depends on the oldest snapshot at the time, and on the leaf not changing before the marks are
 * set): the shown draw visits them in every run, the band holds the runs after the first skipping them.
 * The leftovers of a run are marked by the next run's visit, so a run meets those of the run just before
 * it only.
 */
export function deadVersions(
  f: PgRelationFacts,
  live: { first: number; pages: number },
  ordered: number,
  /** Per live row: dead versions the statistics count, and the previous run's rolled-back ones (and where it put the k-th). */
  { counted, left, leftAt }: { counted: number; left: number; leftAt?: (k: number) => number },
  notes: PlanSimulationNotes,
): DeadVersions | undefined {
  if (counted + left <= 0) return undefined;
  // Where the live rows are packed at the end, the dead versions are in the pages before them.
  const region = live.first > 0 ? { first: 0, pages: live.first } : { first: 0, pages: Math.max(1, f.pages) };
  if (counted > 0)
    notes.assumptions.add(
      `${f.reportName}: ${formatNumber(f.deadTuples ?? 0)} dead row versions not yet vacuumed, ${counted.toFixed(2)} per live row reached through its ` +
      `index entries`,
    );
  if (left > 0)
    notes.assumptions.add(`${f.reportName}: the previous run's rolled-back versions (${left.toFixed(2)} per row) are reached through their index entries`);
  const perBlock = Math.max(1, live.pages > 0 ? f.tuples / Math.max(1, live.pages) : 1);
  let appended = 0;
  return {
    perRow: counted + left,
    appendedOnly: counted <= 0,
    mirrorsLive: tableWideDead(f),
    block: (frac, rnd, inPlace) => {
      if (rnd.next() * (counted + left) < left) return leftAt ? leftAt(appended++) : f.pages + Math.floor(appended++ / perBlock);
      // A fraction taken from a page number lands on that page's own share (no rounding down to the one before).
      return region.first + ((inPlace ?? rnd.next() < ordered) ? Math.min(region.pages - 1, Math.floor(frac * region.pages + 1e-9)) : rnd.int(region.pages));
    },
  };
}

/** The statistics count dead versions for a fifth of the rows or more: a table-wide update's, not vacuumed. */
export function tableWideDead(f: PgRelationFacts): boolean {
  return (f.deadTuples ?? 0) > 0.2 * f.tuples;
}

/** Dead versions per live row that have an index entry: n_dead_tup less the HOT share of the updates. */
export function deadEntriesPerRow(f: PgRelationFacts): number {
  const dead = f.deadTuples ?? 0;
  if (dead <= 0 || f.tuples <= 0) return 0;
  const hot = f.rowsUpdated && f.rowsUpdated.all > 0 ? Math.min(1, f.rowsUpdated.hot / f.rowsUpdated.all) : 0;
  return (dead * (1 - hot)) / f.tuples;
}

/**
 * The pages an index-only scan's heap fetches go to: those the visibility map does not mark all-visible,
 * that is the pages written since the last VACUUM. Their number follows from the fetches (each such page
 * holds the scan's share of entries); which they are, no view shows (pg_class.relallvisible is only
 * counted again by VACUUM and ANALYZE), but the pool does for some: a page cached dirty was written since
 * the last checkpoint, after that VACUUM's hints, so it is not all-visible, and it holds one of the scanned
 * entries as likely as any page (1 − (1 − scanned share)^rows a page). Those are taken first; the rest the
 * shown draw takes anywhere in the heap, other draws among the cached pages, where pages written lately are.
 */
export function notAllVisible(
  f: PgRelationFacts,
  t: number,
  live: { first: number; pages: number },
  entries: number,
  fetches: number,
  draw: number,
  notes: PlanSimulationNotes,
  dirty: number[] = [],
): number[] | undefined {
  if (f.pages <= 0) return undefined;
  const cached = f.cachedBefore.reduce((a, [s, e]) => a + e - s + 1, 0);
  // The scan's entries lie on the pages holding live rows (after a table-wide update and VACUUM, the later half).
  const pages = Math.max(1, Math.min(f.pages, live.pages));
  const perPage = Math.max(1, entries / Math.min(pages, Math.max(1, entries)));
  const count = Math.max(1, Math.min(pages, Math.ceil(fetches / perPage)));
  const rowsPerPage = f.tuples > 0 ? f.tuples / pages : 1;
  const reached = 1 - Math.pow(1 - Math.min(1, entries / Math.max(1, f.tuples)), rowsPerPage);
  const fromDirty = Math.min(count, Math.round(reached * dirty.length));
  const blocks: number[] = [];
  for (let k = 0; k < fromDirty; k++) blocks.push(dirty[Math.floor((k * dirty.length) / fromDirty)]);
  const fromCache = draw % 2 === 1 ? Math.min(count - fromDirty, cached) : 0;
  const flat = f.cachedBefore.flatMap(([s, e]) => (e - s < 1_000_000 ? Array.from({ length: e - s + 1 }, (_, k) => s + k) : []));
  for (let k = 0; k < fromCache && flat.length; k++) blocks.push(flat[Math.floor((k * flat.length) / fromCache)]);
  const rnd = new SeededRandom(0x4a11 + t + draw * 0x9e3779b1);
  while (blocks.length < count) blocks.push(live.first + rnd.int(pages));
  notes.assumptions.add(
    `${f.reportName}: ${fetches.toLocaleString('en-US')} heap fetches go to about ${count.toLocaleString('en-US')} pages not all-visible ` +
      '(written since the last VACUUM)' +
      (fromDirty
        ? `, ${fromDirty.toLocaleString('en-US')} of them among the ${dirty.length.toLocaleString('en-US')} cached dirty (written since the last checkpoint)`
        : '') +
      `: which ${fromDirty ? 'others' : 'ones'} is drawn, anywhere in the heap (the prediction shown) or among its cached pages, ` +
      'where pages written lately are (the band)',
  );
  return blocks;
}
