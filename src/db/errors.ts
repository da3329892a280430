// Failures drivers and sessions raise, one line each, fit to show as is. They live in db/ because the
// connection code raises them too and must not reach up into the measurement core.
/** A failure the user can act on: its message is one line, fit to show as is. */
export class MeasureError extends Error {
  constructor(
    message: string,
    /** Machine-readable kind, for callers that react differently (e.g. exit codes, retry offers). */
    readonly kind: 'connection' | 'refused' | 'statement' | 'timeout' | 'cancelled' | 'unsupported' | 'input' = 'statement',
    /** The refusal names effects a rollback cannot undo, which the user may acknowledge (allowSideEffects). */
    readonly acknowledgeable = false,
    /** Where in the measured statement the server found the error (1-based), for the editor to point at. */
    readonly at?: { line: number; column: number },
  ) {
    super(message);
  }
}

/** A connection refused for its credentials (a password to re-enter), as the drivers' messages say it. */
export function isAuthFailure(err: unknown): boolean {
  return err instanceof MeasureError && err.kind === 'connection' && /password authentication failed|access denied for user/i.test(err.message);
}
