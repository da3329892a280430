// A statement run for its page requests, not its result: a big SELECT must not fill memory.
import type { Connection } from 'mysql2/promise';

/** Runs a statement without keeping a result set's rows (a big SELECT must not fill memory); returns the rows only for ANALYZE/EXPLAIN. */
export function discardingQuery(conn: Connection, text: string): Promise<Array<Record<string, unknown>>> {
  const keep = /^(ANALYZE|EXPLAIN) /.test(text);
  return new Promise((resolve, reject) => {
    const rows: Array<Record<string, unknown>> = [];
    const core = (conn as unknown as { connection: NodeJS.EventEmitter & { query(sql: string): NodeJS.EventEmitter } }).connection;
    // A query emitter says nothing when the connection dies under it (a killed or restarted server):
    // the connection's own events end the wait.
    const lost = (err?: Error) => done(() => reject(err ?? Object.assign(new Error('the server closed the connection'), { code: 'PROTOCOL_CONNECTION_LOST' })));
    const onEnd = () => lost();
    const done = (settle: () => void) => {
      core.off('error', lost);
      core.off('end', onEnd);
      settle();
    };
    core.once('error', lost);
    core.once('end', onEnd);
    const q = core.query(text);
    q.on('result', (row: Record<string, unknown>) => {
      if (keep && rows.length < 10) rows.push(row);
    });
    q.on('error', (err: Error) => done(() => reject(err)));
    q.on('end', () => done(() => resolve(rows)));
  });
}
