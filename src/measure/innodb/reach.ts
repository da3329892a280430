// The gate's verdicts for statements BufferLens drives without measuring them one by one (a workload's):
// the same catalog resolution as a measurement's (side-effects.ts), on one connection, before any runs.
import type { ConnectionTarget } from '../../db/connection-url';
import { connectMysql } from '../../db/mysql';
import { classifyStatement } from '../../sql/classify/classify';
import { decide, type GatePolicy, type GateVerdict } from '../gate';
import { findInnodbSideEffects, innodbReached } from './side-effects';

export async function innodbReach(target: ConnectionTarget, statements: string[], policy: GatePolicy): Promise<GateVerdict[]> {
  const conn = await connectMysql(target);
  try {
    const [rows] = await conn.query('SELECT DATABASE() AS db');
    const db = (rows as Array<{ db: string | null }>)[0].db;
    const out: GateVerdict[] = [];
    for (const sql of statements) {
      const role = classifyStatement(sql, 'mysql').role === 'write' ? 'write' : 'read';
      out.push(decide(role, innodbReached(await findInnodbSideEffects(conn, sql, db, role === 'write')), policy));
    }
    return out;
  } finally {
    await conn.end();
  }
}
