// The gate's verdicts for statements BufferLens drives without measuring them one by one (a workload's):
// the same catalog resolution as a measurement's (side-effects.ts), on one connection, before any runs.
import type { ConnectionTarget } from '../../db/connection-url';
import { connectPostgres } from '../../db/postgres';
import { maskSql } from '../../sql/mask';
import { classifyStatement } from '../../sql/classify/classify';
import { decide, NOTHING_REACHED, type GatePolicy, type GateVerdict } from '../gate';
import { findSideEffects } from './side-effects';
import { statementTables, writtenNames } from './statement-relations';

export async function postgresReach(target: ConnectionTarget, statements: string[], policy: GatePolicy): Promise<GateVerdict[]> {
  const client = await connectPostgres(target);
  try {
    const out: GateVerdict[] = [];
    for (const sql of statements) {
      const role = classifyStatement(sql, 'postgresql').role === 'write' ? 'write' : 'read';
      const writtenOids = role === 'write' ? (await statementTables(client, writtenNames(sql))).map((t) => t.oid) : [];
      const fx = await findSideEffects(client, sql, writtenOids, /\b(INSERT|MERGE)\b/i.test(maskSql(sql, 'postgresql')));
      out.push(decide(role, { ...NOTHING_REACHED, outside: fx.outside, sequences: fx.sequences, routines: fx.volatile }, policy));
    }
    return out;
  } finally {
    await client.end();
  }
}
