// A MySQL/MariaDB driver error as one line for the user: a timeout (the server's limit or the client's
// KILL QUERY backstop), a cancel, a lost connection, or the server's message.
import { MeasureError } from '../../db/errors';

interface MysqlError {
  code?: string;
  errno?: number;
  message: string;
  sqlMessage?: string;
}

export interface InnodbErrorContext {
  /** The run in progress, 0 before run 1. */
  run: number;
  cancelled: boolean;
  /** The client-side backstop killed the statement. */
  timedOut: boolean;
  timeoutMs: number;
}

export function innodbError(err: unknown, ctx: InnodbErrorContext): Error {
  if (err instanceof MeasureError) return err;
  const e = err as MysqlError;
  const during = ctx.run > 0 ? ` during run ${ctx.run}` : '';
  const limit = `the statement ran longer than the ${ctx.timeoutMs / 1000} s limit${during} and was stopped (--timeout)`;
  if (e.errno === 1969 || e.errno === 3024 || (e.errno === 1317 && ctx.timedOut && !ctx.cancelled)) return new MeasureError(limit, 'timeout');
  if (e.errno === 1317 || e.errno === 1927) {
    return ctx.cancelled ? new MeasureError(`cancelled${during}: the statement was stopped on the server and rolled back`, 'cancelled') : new MeasureError(`${e.message}${during}`, 'statement');
  }
  if (e.code === 'PROTOCOL_CONNECTION_LOST' || e.code === 'ECONNRESET' || e.code === 'EPIPE' || e.errno === 2013 || e.errno === 2006 || /closed state/.test(e.message)) {
    return new MeasureError(`lost the connection to the server${during}: ${e.message}`, 'connection');
  }
  return new MeasureError(`${e.sqlMessage ?? e.message}${during}`, 'statement');
}
