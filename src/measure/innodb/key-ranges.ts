// The lowest and highest value of each index's first key column that the statement's ranges use, and of
// the clustered key of each table it looks rows up in, read after the last run (MIN and MAX each descend
// to one end of the index, so before run 1 they would touch pages the statement reads). The prediction
// places a range on those values: where the key's values lie is not in InnoDB's statistics. The clustered
// key's ends also give an AUTO_INCREMENT table's rows exactly, where the statistics only sample them.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import type { TableAccess } from '../../predict/innodb/plan';
import { keyRangeName } from '../../predict/innodb/facts';
import { quoteMysqlName as quote } from '../../sql/quote';
import { readOnlyAfterRuns } from './after-runs';

export async function readKeyRanges(
  conn: Connection,
  accesses: TableAccess[],
  indexes: InnodbIndexFacts[],
  failures: string[],
): Promise<Record<string, [number, number]>> {
  const out: Record<string, [number, number]> = {};
  for (const f of indexesRead(accesses, indexes)) {
    const column = f.keyColumns?.[0];
    if (!column || out[keyRangeName(f.table, column)]) continue;
    const range = await readColumnRange(conn, f.reportName.split('.')[0], f.table, column, failures);
    if (range) out[keyRangeName(f.table, column)] = range;
  }
  return out;
}

/** A column's lowest and highest value, where both are whole numbers (other types leave a range drawn). */
export async function readColumnRange(
  conn: Connection,
  schema: string,
  table: string,
  column: string,
  failures: string[],
): Promise<[number, number] | undefined> {
  const range = await readOnlyAfterRuns(conn, `the key range of ${table}.${column}`, failures, undefined, async () => {
    const [rows] = await conn.query(`SELECT MIN(${quote(column)}) AS lo, MAX(${quote(column)}) AS hi FROM ${quote(schema)}.${quote(table)}`);
    return (rows as Array<{ lo: unknown; hi: unknown }>)[0];
  });
  const { lo, hi } = range ?? {};
  if (lo === null || hi === null || lo === undefined || hi === undefined) return undefined;
  return Number.isSafeInteger(Number(lo)) && Number.isSafeInteger(Number(hi)) ? [Number(lo), Number(hi)] : undefined;
}

/**
 * The index each ranged access reads, the clustered index it looks its rows up in (not for a covering read),
 * and every possible key, whose ranges the optimizer estimates by a dive whether it uses them or not.
 */
function indexesRead(accesses: TableAccess[], indexes: InnodbIndexFacts[]): InnodbIndexFacts[] {
  const named = (table: string, key: string | undefined) =>
    indexes.find((g) => g.table === table && (key === undefined || key === 'PRIMARY' ? g.clustered : g.index === key));
  return accesses.flatMap((a) => {
    const possible = (a.possibleKeys ?? []).map((k) => named(a.table, k));
    const read = named(a.table, a.key);
    // A scan of a secondary index in its order (ORDER BY … LIMIT) looks its rows up by their keys, placed from the key's ends.
    const scanned = a.accessType === 'index' && read && !read.clustered && !a.usingIndex;
    if (a.accessType !== 'range' && a.accessType !== 'ref' && a.accessType !== 'const' && a.accessType !== 'eq_ref' && !scanned)
      return possible.filter((f): f is InnodbIndexFacts => f !== undefined);
    const clustered = read && !read.clustered && !a.usingIndex ? indexes.find((g) => g.table === a.table && g.clustered) : undefined;
    return [read, clustered, ...possible].filter((f): f is InnodbIndexFacts => f !== undefined);
  });
}
