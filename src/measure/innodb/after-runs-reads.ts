// The facts read after the last run for the prediction, each read-only (after-runs.ts): the plan where the runs
// gave none (EXPLAIN), the ranges' key ends,
// the rows' stored lengths, the keys a statement looked up, the secondary keys of the rows a rolled-back UPDATE
// or DELETE changed, each index's levels, and where a rolled-back INSERT … SELECT's keys fell.
// The reads that carry the statement's own text are sent only where the gate lets it be re-asked.
import type { Connection } from 'mysql2/promise';
import type { InnodbIndexFacts } from '../../predict/innodb/facts';
import type { TableAccess } from '../../predict/innodb/plan';
import { writeAsSelect } from '../../sql/select-list';
import { readKeyRanges } from './key-ranges';
import { readRowStorage } from './off-page';
import { readLookupKeys } from './lookup-keys';
import { readInsertEdges } from './insert-edges';
import { readWrittenKeys } from './written-keys';
import { readIndexLevels } from './index-levels';
import { writtenTables } from '../../sql/classify/classify';
import { explainAfterRuns } from './explain-after-runs';
import type { InnodbPostRunObservations } from './post-run';
import { reaskBlocked, type RunVerdict } from '../gate';

export interface AfterRunsReads {
  conn: Connection;
  statement: string;
  kind: string;
  commit: boolean;
  /** The gate's verdict on the runs, which decides whether the statement's own text may be re-asked. */
  verdict: RunVerdict | undefined;
  /** Whether the runs gave no plan, so EXPLAIN is asked for one; the last run's plan otherwise. */
  needsExplain: boolean;
  lastPlan: unknown;
  accessesOf: (plan: unknown) => TableAccess[];
  indexes: InnodbIndexFacts[];
  aliases: Map<string, string>;
  pageSize: number;
  /** The table the runs inserted into (an INSERT). */
  insertedTable: string | undefined;
  /** MariaDB counts a statement's page gets (r_engine_stats), which the indexes' levels are read by. */
  product: 'mariadb' | 'mysql';
  failures: string[];
}

export async function readAfterRuns(o: AfterRunsReads): Promise<InnodbPostRunObservations> {
  // The EXPLAIN, the lookup keys and the inserted keys carry the statement's own text: the gate decides whether they are sent.
  const blocked = o.verdict && reaskBlocked(o.verdict);
  if (blocked) o.failures.push(blocked);
  const explained = !o.needsExplain
    ? {}
    : blocked
      ? { planMissing: 'no EXPLAIN after the runs: the statement reaches what a rollback cannot undo' }
      : await explainAfterRuns(o.conn, o.statement);
  const plan = o.lastPlan ?? explained.explainPlan;
  const out: InnodbPostRunObservations = { ...explained, keyRanges: {}, lookupKeys: {}, rowStorage: {}, insertEdges: {}, writtenKeys: {}, indexLevels: {} };
  if (plan && o.indexes.length > 0) {
    const accesses = o.accessesOf(plan);
    out.keyRanges = await readKeyRanges(o.conn, accesses, o.indexes, o.failures);
    out.rowStorage = await readRowStorage(o.conn, o.indexes, o.pageSize, o.failures);
    if (o.product === 'mariadb') out.indexLevels = await readIndexLevels(o.conn, o.indexes, o.failures);
    // A rolled-back write's rows are where they were: the SELECT of the rows it changes finds them in its order.
    const asked = o.kind === 'read' ? o.statement : o.kind === 'dml' && !o.commit ? writeAsSelect(o.statement, 'mysql') : undefined;
    if (asked && !blocked) out.lookupKeys = await readLookupKeys(o.conn, asked, accesses, o.indexes, o.aliases, o.failures);
    const table = writtenTables(o.statement, 'mysql')[0]?.split('.').pop();
    if (asked && !blocked && o.kind === 'dml' && table) {
      const written = await readWrittenKeys(o.conn, asked, o.statement, table, o.indexes, o.failures);
      out.writtenKeys = written.keys;
      out.keyRanges = { ...written.ranges, ...out.keyRanges };
    }
  }
  // The rolled-back rows are gone again: the index ends are the table's own, the SELECT gives the rows' keys.
  if (o.insertedTable && !blocked && !o.commit) out.insertEdges = await readInsertEdges(o.conn, o.statement, o.insertedTable, o.indexes, o.failures);
  return out;
}
