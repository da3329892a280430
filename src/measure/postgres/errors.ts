// A PostgreSQL driver error as one line for the user: a timeout, a cancel, a lost connection, or the
// server's message with the position mapped back into the statement as the user wrote it.
import { lineColumn } from '../../db/postgres';
import { MeasureError } from '../../db/errors';

interface PgError {
  code?: string;
  message: string;
  position?: string;
}

export interface PostgresErrorContext {
  /** The run in progress, 0 before run 1. */
  run: number;
  cancelled: boolean;
  timeoutMs: number;
  statement: string;
  /** Characters sent before the statement (an EXPLAIN prefix), to map the error position back. */
  prefixLength: number;
}

export function postgresError(err: unknown, ctx: PostgresErrorContext): Error {
  if (err instanceof MeasureError) return err;
  const e = err as PgError;
  const during = ctx.run > 0 ? ` during run ${ctx.run}` : '';
  const limit = `${ctx.timeoutMs / 1000} s limit`;
  if (e.code === '55P03') {
    return new MeasureError(
      `waited longer than the ${limit} for a lock another session holds on a relation the statement needs${during ? during : ' (before run 1)'}: ` +
      `${e.message} (--timeout)`,
      'timeout',
    );
  }
  if (e.code === '57014' && !ctx.cancelled && ctx.run === 0) {
    return new MeasureError(`a query BufferLens asks before run 1 ran longer than the ${limit} and was stopped (--timeout): ${e.message}`, 'timeout');
  }
  if (e.code === '57014') {
    return ctx.cancelled
      ? new MeasureError(`cancelled${during}: the statement was stopped on the server and rolled back`, 'cancelled')
      : new MeasureError(`the statement ran longer than the ${ctx.timeoutMs / 1000} s limit${during} and was stopped (--timeout)`, 'timeout');
  }
  if (e.code?.startsWith('57P') || /Connection terminated|ECONNRESET|EPIPE|not queryable|Query read timeout/i.test(e.message)) {
    return new MeasureError(`lost the connection to the server${during}: ${e.message}`, 'connection');
  }
  if (e.position && ctx.prefixLength > 0) {
    const pos = Number(e.position) - ctx.prefixLength;
    if (pos > 0) {
      const { line, column } = lineColumn(ctx.statement, pos);
      return new MeasureError(`${e.message} (line ${line}, column ${column})${during}`, 'statement', false, { line, column });
    }
  }
  return new MeasureError(`${e.message}${during}`, 'statement');
}
