// What a statement reaches beyond its transaction, judged the same way for every path that sends SQL:
// measuring (the sessions), and a workload's statements before any is run. Engine-neutral; each engine
// folder resolves the reach through its server's catalogs (postgres/side-effects.ts, innodb/side-effects.ts).

export interface ReachOptions {
  /** The changes are kept: a write to a non-transactional table is allowed (it is committed anyway). */
  commit: boolean;
  /** Effects a rollback cannot undo are allowed, and said so. */
  allowSideEffects: boolean;
}

/** One statement's verdict: why it may not run, or what the report must say when it does. */
export interface StatementReach {
  refusal?: string;
  warnings: string[];
}
