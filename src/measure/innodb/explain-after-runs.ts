// The plan for runs that had none of their own (MySQL: EXPLAIN before run 1 would touch the statement's
// pages), asked for once every run is over, in a read-only transaction; the session sends it only where
// the gate lets the statement's own text be re-asked.
import type { Connection } from 'mysql2/promise';
import type { InnodbPostRunObservations } from './post-run';
import { parseServerJson } from './server-json';
import { readOnlyAfterRuns } from './after-runs';

/** The plan, or why there is none. */
export async function explainAfterRuns(conn: Connection, statement: string): Promise<Pick<InnodbPostRunObservations, 'explainPlan' | 'planMissing'>> {
  // No plan, no prediction of the reads: the prediction says so rather than showing 0.
  const failures: string[] = [];
  const plan = await readOnlyAfterRuns(conn, 'EXPLAIN FORMAT=JSON', failures, undefined, async () => {
    const [rows] = await conn.query(`EXPLAIN FORMAT=JSON ${statement}`);
    return parseServerJson(Object.values((rows as Array<Record<string, string>>)[0])[0], statement);
  });
  return plan === undefined ? { planMissing: failures[0] ?? 'EXPLAIN FORMAT=JSON after the runs gave no plan' } : { explainPlan: plan };
}
