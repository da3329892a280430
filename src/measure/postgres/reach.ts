// The reach of statements BufferLens drives without measuring them one by one (a workload's): the same
// catalog resolution as a measurement's (side-effects.ts), on one connection, before any of them runs.
import type { ConnectionTarget } from '../../db/connection-url';
import { connectPostgres } from '../../db/postgres';
import { maskSql } from '../../sql/mask';
import { classifyStatement } from '../../sql/classify/classify';
import type { ReachOptions, StatementReach } from '../statement-reach';
import { findSideEffects } from './side-effects';
import { statementTables, writtenNames } from './statement-relations';

export async function postgresReach(target: ConnectionTarget, statements: string[], options: ReachOptions): Promise<StatementReach[]> {
  const client = await connectPostgres(target);
  try {
    const out: StatementReach[] = [];
    for (const sql of statements) {
      const writes = classifyStatement(sql, 'postgresql').role === 'write';
      const writtenOids = writes ? (await statementTables(client, writtenNames(sql))).map((t) => t.oid) : [];
      const fx = await findSideEffects(client, sql, writtenOids, /\b(INSERT|MERGE)\b/i.test(maskSql(sql, 'postgresql')));
      const warnings: string[] = [];
      if (fx.sequences.length && writes && !options.commit)
        warnings.push(
          `sequence${fx.sequences.length > 1 ? 's' : ''} ${fx.sequences.join(', ')} will advance, and the rollback does not give their values back`,
        );
      if (fx.outside.length && !options.allowSideEffects) out.push({ refusal: `refused: ${fx.outside.join('; ')}; a rollback cannot undo that`, warnings });
      else out.push({ warnings });
    }
    return out;
  } finally {
    await client.end();
  }
}
