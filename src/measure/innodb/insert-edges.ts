// Where a rolled-back INSERT … SELECT's rows fell in each index of its table, read after the last run: its
// SELECT asked again for the lowest and highest value it gives each index's first key column, against the
// lowest and highest the index holds (the rows were rolled back, so those are the table's own). Keys all
// above the index's last (new dates, new codes) were appended at its right edge, where a page fills before
// the next is split off; keys among the index's own land on leaves anywhere in it. Read-only, after the
// runs: the SELECT's scan would otherwise warm what run 1 reads.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts, InsertEdge } from '../../predict/innodb/facts';
import { insertSelectColumns } from '../../sql/insert-select';
import { quoteMysqlName as quote } from '../../sql/quote';
import { readOnlyAfterRuns } from './after-runs';

/** Per index of the inserted table (its name), where the new keys fell; empty where the statement is of another shape. */
export async function readInsertEdges(
  conn: Connection,
  statement: string,
  table: string,
  indexes: InnodbIndexFacts[],
  failures: string[],
): Promise<Record<string, InsertEdge>> {
  const parts = insertSelectColumns(statement);
  if (!parts) return {};
  const expressionOf = new Map(parts.columns.map((c) => [c.column.toLowerCase(), c.expression]));
  const asked = indexes
    .filter((f) => f.table === table && f.keyColumns?.[0] !== undefined && expressionOf.has(f.keyColumns[0].toLowerCase()))
    .map((f) => ({ f, column: f.keyColumns![0], expression: expressionOf.get(f.keyColumns![0].toLowerCase())! }));
  if (asked.length === 0) return {};
  const schema = asked[0].f.reportName.split('.')[0];
  const row = await readOnlyAfterRuns(conn, `where the inserted keys of ${table} fall`, failures, undefined, async () => {
    const [types] = await conn.query('SELECT COLUMN_NAME AS c, DATA_TYPE AS t FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?', [
      schema,
      table,
    ]);
    const textual = new Set((types as Array<{ c: string; t: string }>).filter((x) => TEXTUAL.test(x.t)).map((x) => x.c.toLowerCase()));
    const sides = asked.map((a) => ({ ...a, text: textual.has(a.column.toLowerCase()) }));
    const [rows] = await conn.query(edgesQuery(`${quote(schema)}.${quote(table)}`, sides, parts.rest));
    return (rows as Array<Record<string, unknown>>)[0];
  });
  if (!row) return {};
  const out: Record<string, InsertEdge> = {};
  asked.forEach(({ f }, k) => {
    if (row[`above${k}`] === null || row[`above${k}`] === undefined) return;
    out[f.index] = Number(row[`above${k}`]) === 1 ? 'above' : Number(row[`below${k}`]) === 1 ? 'below' : 'within';
  });
  return out;
}

/** String types, whose new values may come in the connection's character set rather than the column's. */
const TEXTUAL = /char|text|enum|set/i;

/**
 * One query: the new values' ends beside the index's own ends, compared by the server. Strings are compared
 * as bytes in one character set (an expression's result and the column may differ in collation, which the
 * server refuses to compare): the order of digits, hex and ASCII text, not of a case-insensitive collation.
 */
function edgesQuery(table: string, asked: Array<{ column: string; expression: string; text: boolean }>, rest: string): string {
  const inner = asked.map((a, k) => `${a.text ? `CONVERT(${a.expression} USING utf8mb4) COLLATE utf8mb4_bin` : a.expression} AS v${k}`).join(', ');
  const newEnds = asked.map((_, k) => `MIN(v${k}) AS lo${k}, MAX(v${k}) AS hi${k}`).join(', ');
  const own = (a: { column: string; text: boolean }) => (a.text ? `CONVERT(${quote(a.column)} USING utf8mb4) COLLATE utf8mb4_bin` : quote(a.column));
  const ownEnds = asked.map((a, k) => `MIN(${own(a)}) AS lo${k}, MAX(${own(a)}) AS hi${k}`).join(', ');
  const compared = asked.map((_, k) => `n.lo${k} > o.hi${k} AS above${k}, n.hi${k} < o.lo${k} AS below${k}`).join(', ');
  return `SELECT ${compared} FROM (SELECT ${newEnds} FROM (SELECT ${inner} ${rest}) AS x) AS n, (SELECT ${ownEnds} FROM ${table}) AS o`;
}
