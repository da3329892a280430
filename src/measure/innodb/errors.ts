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
  /** The statement as the user wrote it, to place a syntax error in it. */
  statement?: string;
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
    return ctx.cancelled
      ? new MeasureError(`cancelled${during}: the statement was stopped on the server and rolled back`, 'cancelled')
      : new MeasureError(`${e.message}${during}`, 'statement');
  }
  if (
    e.code === 'PROTOCOL_CONNECTION_LOST' ||
    e.code === 'ECONNRESET' ||
    e.code === 'EPIPE' ||
    e.errno === 2013 ||
    e.errno === 2006 ||
    /closed state/.test(e.message)
  ) {
    return new MeasureError(`lost the connection to the server${during}: ${e.message}`, 'connection');
  }
  const message = e.sqlMessage ?? e.message;
  const at = e.errno === 1064 && ctx.statement !== undefined ? syntaxErrorAt(message, ctx.statement) : undefined;
  return new MeasureError(`${message}${at ? ` (line ${at.line}, column ${at.column})` : ''}${during}`, 'statement', false, at);
}

/**
 * Where a syntax error is: the server quotes the text from the error on ("near 'FRM t' at line 2", the
 * line counted in what it was sent, which may be prefixed); found in the statement, it gives the column.
 */
export function syntaxErrorAt(message: string, statement: string): { line: number; column: number } | undefined {
  const m = /near '([\s\S]*)' at line \d+$/.exec(message);
  if (!m || m[1] === '') return undefined;
  // The server cuts the quote at 80 characters; its start is what locates it.
  const at = statement.lastIndexOf(m[1].slice(0, 80));
  if (at < 0) return undefined;
  const before = statement.slice(0, at).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}
