// Stops the statement a connection is running, from a second connection: the first is busy waiting for it.
import type { ConnectionTarget } from '../../db/connection-url';
import { connectMysql } from '../../db/mysql';

export async function killQuery(target: ConnectionTarget, connectionId: number): Promise<void> {
  const second = await connectMysql(target).catch(() => undefined);
  if (!second) return;
  try {
    await second.query(`KILL QUERY ${connectionId}`);
  } catch {
    // the query already ended
  } finally {
    await second.end().catch(() => undefined);
  }
}
