// The index dives the optimizer makes for ranges it then does not use. While it optimises a statement, the
// range optimizer estimates every possible key with a range on constants (records_in_range), and only then
// chooses one access: the chosen range's dive is replayed with its access (lookup-trace.ts), the others'
// here. Measured on MariaDB 10.11: `k BETWEEN 100 AND 130 AND u BETWEEN 1000 AND 90000` through k requested
// 12 pages more than k's access (u's dive across about 75 leaves: its two bounds and 9 leaves between);
// with `id BETWEEN 1000 AND 50000` beside k, 14. Pure.
import type { InnodbPool } from '../../sim/policies/innodb-lru';
import { boundsThroughEquality, constantBounds, inListValues } from './key-bounds';
import { diveBetween } from './lookup-trace';
import { placeBounds, placeValues } from './range-placement';
import type { TableAccess } from './plan';
import type { IndexLayouts } from './index-layout';
import type { InnodbIndexFacts, InnodbPredictionSettings } from './facts';

/** What the dives read of the predictor (a part of read-replay's context). */
interface DiveContext {
  facts: InnodbIndexFacts[];
  settings: InnodbPredictionSettings;
  layouts: IndexLayouts;
  statement: string | undefined;
  indexOf(table: string, key: string | undefined): number;
}

const n = (x: number) => x.toLocaleString('en-US');

/**
 * Replays the dives of `a`'s possible keys other than a range or lookup it runs (whose own dive is replayed
 * with it); says which it could not place. A scan in an index's order (ORDER BY … LIMIT) was chosen after
 * its key's range was estimated too.
 */
export function replayRejectedDives(
  ctx: DiveContext,
  pool: InnodbPool,
  a: TableAccess,
  keyRanges: Record<string, [number, number]>,
  assumptions: Set<string>,
  unmodelled: Set<string>,
): void {
  if (!ctx.statement) return;
  const scan = a.accessType === 'ALL' || a.accessType === 'index';
  // A range or a lookup by constants replays its own key's dive (read-replay.ts diveOf); a join's lookup
  // (eq_ref, ref on another table's column) has none, yet its key's range on constants was estimated.
  const ownDive = a.accessType === 'range' || (a.accessType === 'ref' && (a.ref?.length ?? 0) > 0 && a.ref!.every((r) => r === 'const'));
  for (const key of a.possibleKeys ?? []) {
    if (key === a.key && !scan && ownDive) continue;
    const i = ctx.indexOf(a.table, key);
    const f = i >= 0 ? ctx.facts[i] : undefined;
    const column = f?.keyColumns?.[0];
    if (!f || !column) continue;
    const unique = f.unique && f.keyColumns!.length === 1;
    const listed = inListValues(ctx.statement, a.table, column);
    // A join's lookup key equal to another table's column with constant bounds takes them too: MariaDB's
    // optimizer propagates the equality (EXPLAIN of `o.cust_id = c.id AND c.id BETWEEN …` dived both; not
    // checked on MySQL, which keeps to the constants the statement gives the key itself).
    const own = listed ? undefined : constantBounds(ctx.statement, a.table, column);
    const propagated = !listed && !own && !ownDive && ctx.settings.product === 'mariadb' ? boundsThroughEquality(ctx.statement, a.table, column) : undefined;
    const bounds = own ?? propagated;
    // One value of a unique key is at most one row: not dived. A key compared with no constant (a join's
    // column) has no range to estimate here.
    if ((!listed && !bounds) || (unique && (listed || bounds!.from === bounds!.to))) continue;
    const where = { statement: ctx.statement, pageSize: ctx.settings.pageSize, keyRanges };
    const l = ctx.layouts.of(i);
    const shared = ctx.settings.product === 'mariadb';
    if (listed) {
      const limit = ctx.settings.eqRangeIndexDiveLimit ?? 200;
      if (limit !== 0 && listed.length >= limit) continue;
      const leaves = placeValues(where, f, listed);
      if (!leaves) {
        unmodelled.add(`${f.reportName}: the optimizer's dives for the IN list on ${column} it did not use (the values' places in the index are not known)`);
        continue;
      }
      for (const { leaf } of leaves) diveBetween(pool, l, leaf, leaf, shared);
      assumptions.add(`${f.reportName}: ${n(listed.length)} dives for the IN list on ${column}, estimated while optimising and not used`);
      continue;
    }
    const placed = placeBounds(where, f, bounds!.from, bounds!.to);
    if (!placed) {
      unmodelled.add(`${f.reportName}: the optimizer's dive for the range on ${column} it did not use (where the range lies in the index is not known)`);
      continue;
    }
    diveBetween(pool, l, placed.first, placed.last, shared);
    assumptions.add(
      `${f.reportName}: the optimizer's dive for the range on ${column}${propagated ? " (the join equality carries the other table's constants)" : ''}, ` +
      `estimated while optimising and not used: ` +
        `leaves ${n(placed.first + 1)}–${n(placed.last + 1)} of ${n(f.leafPages)}, its bounds' paths and at most 9 leaves between`,
    );
  }
}
