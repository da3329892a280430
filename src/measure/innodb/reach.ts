// The reach of statements BufferLens drives without measuring them one by one (a workload's): the same
// catalog resolution and judgement as a measurement's (side-effects.ts), on one connection, before any runs.
import type { ConnectionTarget } from '../../db/connection-url';
import { connectMysql } from '../../db/mysql';
import { MeasureError } from '../../db/errors';
import { classifyStatement } from '../../sql/classify/classify';
import type { ReachOptions, StatementReach } from '../statement-reach';
import { findInnodbSideEffects, judgeSideEffects } from './side-effects';

export async function innodbReach(target: ConnectionTarget, statements: string[], options: ReachOptions): Promise<StatementReach[]> {
  const conn = await connectMysql(target);
  try {
    const [rows] = await conn.query('SELECT DATABASE() AS db');
    const db = (rows as Array<{ db: string | null }>)[0].db;
    const out: StatementReach[] = [];
    for (const sql of statements) {
      const writes = classifyStatement(sql, 'mysql').role === 'write';
      const fx = await findInnodbSideEffects(conn, sql, db, writes);
      const warnings: string[] = [];
      try {
        judgeSideEffects(fx, options, writes, warnings);
        out.push({ warnings });
      } catch (err) {
        if (!(err instanceof MeasureError)) throw err;
        out.push({ refusal: err.message.replace(/ \(--(commit|allow-side-effects)[^)]*\)/, ''), warnings });
      }
    }
    return out;
  } finally {
    await conn.end();
  }
}
