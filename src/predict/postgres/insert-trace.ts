// The page requests of a PostgreSQL INSERT, row by row (heap_insert, RelationGetBufferForTuple,
// _bt_doinsert):
// - the heap: the relation's target block, its last; when full, the relation is extended by a block
//   (a buffer taken and zeroed, not read), since a table loaded and never vacuumed has no free space to
//   offer in its free-space map;
// - each B-tree: for an ascending key (identity, or a nextval() default) the cached right-most leaf (the
//   fast path of _bt_search_insert), extended as leaves fill; for any other key a descent from the root
//   and the leaf the key falls on, taken at random (keys uncorrelated with the index order).
// A rollback touches no data page (the aborted tuples stay until VACUUM), so nothing more follows.
import type { PostgresPool } from '../../sim/policies/postgres-clock-sweep';
import type { SeededRandom } from '../../sim/random';
import type { PgRelationFacts } from './facts';
import { descentPages, indexGeometry, pageId } from './geometry';
import type { PlanSimulationNotes } from './plan-simulator';

/** Heap tuples a new block takes when the table has no statistics: a small row. */
const DEFAULT_TUPLES_PER_BLOCK = 100;

export function replayInsert(
  pool: PostgresPool,
  heap: { t: number; f: PgRelationFacts },
  indexes: Array<{ f: PgRelationFacts; i: number }>,
  rows: number,
  rnd: SeededRandom,
  notes: PlanSimulationNotes,
  /** Where the simulation keeps the page of an ascending key's sequence. */
  sequencePage: number,
): void {
  if (rows <= 0) return;
  const { t, f } = heap;
  const perBlock = f.tuples > 0 && f.pages > 0 ? Math.max(1, Math.round(f.tuples / f.pages)) : DEFAULT_TUPLES_PER_BLOCK;
  notes.assumptions.add(
    `${f.reportName}: ${rows.toLocaleString('en-US')} rows inserted, into its last block and then ${Math.ceil(rows / perBlock).toLocaleString('en-US')} new blocks of ~${perBlock} tuples (extended, not read: no free space assumed in the free-space map)`,
  );
  const shapes = indexes.map(({ f: x, i }) => {
    const g = indexGeometry(x);
    const perLeaf = x.tuples > 0 ? Math.max(1, Math.round(x.tuples / g.leafPages)) : DEFAULT_TUPLES_PER_BLOCK;
    notes.assumptions.add(
      x.ascending
        ? `${x.reportName}: ascending key, so each entry goes to the cached right-most leaf; a new leaf every ~${perLeaf} rows`
        : `${x.reportName}: each entry descends ${g.height} level(s) to a random one of ${g.leafPages.toLocaleString('en-US')} leaves (keys uncorrelated with the index order)`,
    );
    return { x, i, g, perLeaf, descent: descentPages(i, g.height) };
  });
  // An identity or serial column draws its value from a sequence: nextval() reads the sequence's page.
  const drawsSequence = shapes.some((s) => s.x.ascending);
  if (drawsSequence) notes.assumptions.add('the ascending key takes its default: nextval() requests its sequence\'s page once per row');
  notes.assumptions.add('page splits and the free-space and visibility maps are not modelled; a rollback reads nothing');
  let heapBlock = Math.max(0, f.pages - 1);
  for (let r = 0; r < rows; r++) {
    if (drawsSequence) pool.access(sequencePage);
    // The first row lands on the last block; every perBlock rows a block is added.
    if (r > 0 && r % perBlock === 0) pool.extend(pageId(t, ++heapBlock));
    else pool.readBuffer(pageId(t, heapBlock), -1, true);
    for (const s of shapes) {
      if (s.x.ascending) {
        const leaf = s.g.firstLeaf + s.g.leafPages - 1 + Math.floor(r / s.perLeaf);
        if (r === 0) for (const p of s.descent) pool.access(p);
        if (r > 0 && r % s.perLeaf === 0) pool.extend(pageId(s.i, leaf));
        else pool.readBuffer(pageId(s.i, leaf), -1, true);
      } else {
        for (const p of s.descent) pool.access(p);
        pool.readBuffer(pageId(s.i, s.g.firstLeaf + rnd.int(s.g.leafPages)), -1, true);
      }
    }
  }
}
