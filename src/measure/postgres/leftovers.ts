// What rolled-back writes leave behind on PostgreSQL: every row version a run wrote stays in the heap (and
// its index entries in the indexes) as a dead tuple until VACUUM, and pages the table or its indexes grew
// by stay. Later runs, and every other statement, read past them. Read before run 1 and after the last.
import type { Client } from 'pg';

export interface Footprint {
  /** Relation name → [dead tuples (tables; null for an index), pages]. */
  byRelation: Map<string, [number | null, number]>;
}

export async function readFootprint(client: Client, oids: number[], flushStats: boolean): Promise<Footprint> {
  // The statistics of this session's transactions reach the shared counters at the next flush.
  if (flushStats) await client.query('SELECT pg_stat_force_next_flush()').catch(() => undefined);
  const r = await client.query({
    text: `SELECT c.oid::regclass::text AS name, CASE WHEN c.relkind = 'i' THEN NULL ELSE pg_stat_get_dead_tuples(c.oid) END::float8 AS dead,
                  (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 AS pages
             FROM pg_class c WHERE c.oid = ANY($1::oid[]) ORDER BY c.relkind = 'i', 1`,
    values: [oids],
  });
  return { byRelation: new Map(r.rows.map((row) => [row.name as string, [row.dead as number | null, row.pages as number]])) };
}

/** One line per relation that changed, or none. */
export function footprintWarning(before: Footprint, after: Footprint, runs: number, flushed: boolean): string | undefined {
  const parts: string[] = [];
  for (const [name, [deadAfter, pagesAfter]] of after.byRelation) {
    const [deadBefore, pagesBefore] = before.byRelation.get(name) ?? [deadAfter, pagesAfter];
    const dead = deadAfter !== null && deadBefore !== null ? deadAfter - deadBefore : 0;
    const pages = pagesAfter - pagesBefore;
    if (dead <= 0 && pages <= 0) continue;
    const what = [
      dead > 0 ? `${dead.toLocaleString('en-US')} more dead row versions` : '',
      pages > 0 ? `${pagesBefore.toLocaleString('en-US')} → ${pagesAfter.toLocaleString('en-US')} pages` : '',
    ].filter(Boolean);
    parts.push(`${name}: ${what.join(', ')}`);
  }
  if (!parts.length) return undefined;
  return `the ${runs} rolled-back run${runs > 1 ? 's' : ''} left behind ${parts.join('; ')} (dead versions stay until VACUUM, grown pages stay after it; ` +
    `later runs read past them)${flushed ? '' : '; dead-tuple counts may lag, as this user cannot force a statistics flush'}`;
}
