// How many rows an INSERT … SELECT gives each partial index of its target: only a row that satisfies the
// index's predicate takes an entry (a partial index of the open orders takes one row in ten). Which of the
// inserted rows do is in no statistic: the SELECT is asked again after the runs (they were rolled back, so it
// finds the same rows), in a read-only transaction, with each predicate as the catalog deparses it, evaluated
// over the rows as they would be inserted. A predicate naming a column the INSERT leaves to its default is
// not asked (the default is not in the rows).
import type { Client } from 'pg';
import type { PgRelationFacts } from '../../predict/postgres/facts';
import { readOnly } from './after-runs';
import { insertedRows, insertSelectParts, tableColumns, targetTable } from './appended-keys';

/** Per partial index (plan name) of the target, the inserted rows that satisfy its predicate. */
export async function readPartialEntries(client: Client, statement: string, facts: PgRelationFacts[], timeoutMs: number): Promise<Record<string, number>> {
  const parts = insertSelectParts(statement);
  if (!parts) return {};
  const target = targetTable(parts);
  const partial = facts.filter((f) => f.kind === 'index' && f.table === target && f.predicate);
  if (partial.length === 0) return {};
  return readOnly(
    client,
    timeoutMs,
    {},
    async () => {
      const { cte, columns: cols } = await insertedRows(client, parts);
      const all = await tableColumns(client, parts.table);
      // A predicate may name only the columns the INSERT gives: the others take defaults the rows do not hold.
      const names = (c: string) => new RegExp(`(^|[^\\w$"])"?${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?([^\\w$"]|$)`);
      const askable = partial.filter((f) => all.filter((c) => !cols.includes(c)).every((c) => !names(c).test(f.predicate!)));
      if (askable.length === 0) return {};
      const counts = askable.map((f, k) => `count(*) FILTER (WHERE ${f.predicate}) AS p${k}`);
      const res = await client.query<Record<string, string>>(
        `${cte} SELECT ${counts.join(', ')} FROM s`,
      );
      const row = res.rows[0];
      return Object.fromEntries(askable.map((f, k) => [f.planName, Number(row?.[`p${k}`])]).filter(([, n]) => Number.isSafeInteger(n)));
    },
    'the inserted rows a partial index takes',
  );
}
