// Measure's gate (measure/gate.ts) for a workload's statements, before any is sent, on every workload path:
// `workload run` (which runs them) and `workload predict` (whose EXPLAIN plans them, and planning evaluates
// immutable functions). What each reaches beyond its transaction is resolved through the server's catalogs
// (routines and what they call, triggers, defaults, views, rules, operators) and refused the same way as a
// measurement's, with the script and line.
import type { ConnectionTarget } from '../db/connection-url';
import { ENGINES } from '../measure/engines';
import type { GatePolicy, RunMode, RunVerdict } from '../measure/gate';
import { classifyStatement } from '../sql/classify/classify';
import { WorkloadInputError } from './load-scripts';
import type { WorkloadScript } from './script';
import { statementRole } from './statement-text';

const CONTROL = /^\s*(begin|start\s+transaction|end|commit|rollback|abort)\s*;?\s*$/i;

const RANK: Record<RunMode, number> = { 'read-only': 0, 'rolled-back': 1, committed: 2 };

export interface WorkloadGate {
  /** Each script's transaction, in the order given: read-only unless one of its statements writes. */
  modes: RunMode[];
  /** What the report must say, by script and line. */
  notes: string[];
}

const sqlOf = (s: WorkloadScript) => s.commands.flatMap((c) => (c.kind === 'sql' && !CONTROL.test(c.text) ? [c] : []));

export async function gateWorkload(scripts: WorkloadScript[], target: ConnectionTarget, policy: GatePolicy): Promise<WorkloadGate> {
  const where = (s: WorkloadScript, line: number) => `${s.name.replace(/#\d+$/, '')}:${line}`;
  const statements = scripts.flatMap((s) => sqlOf(s).map((c) => ({ sql: c.text, where: where(s, c.line) })));
  const unique = [...new Map(statements.map((st) => [st.sql, st])).values()];
  // The text's own verdict first (INTO OUTFILE, in any comment form), as measure's check gives it, after
  // the workload's own rule: DML only, which a transaction BufferLens owns can hold.
  const dialect = ENGINES[target.engine].dialect;
  for (const st of unique) {
    const role = statementRole(st.sql, dialect);
    if (role !== 'read' && role !== 'write')
      throw new WorkloadInputError(
        `${st.where}: a workload runs SELECT, INSERT, UPDATE and DELETE statements; "${st.sql.trim().split(/\s+/)[0]}" is none of them`,
      );
    const refusal = classifyStatement(st.sql, dialect, policy.commit).refusal;
    if (refusal) throw new WorkloadInputError(`${st.where}: ${refusal}`);
  }
  const verdicts = await ENGINES[target.engine].reach(
    target,
    unique.map((st) => st.sql),
    policy,
  );
  const bySql = new Map<string, RunVerdict>();
  const notes = new Set<string>();
  verdicts.forEach((v, k) => {
    if (v.decision === 'refused')
      throw new WorkloadInputError(
        `${unique[k].where}: ${v.reason}${v.remedy === 'commit' ? ' (a workload keeps changes only with --commit, on a database named as disposable)' : ''}`,
      );
    bySql.set(unique[k].sql, v);
    for (const warning of v.warnings) notes.add(`${unique[k].where}: ${warning}.`);
  });
  const modes = scripts.map((s) =>
    sqlOf(s).reduce<RunMode>((m, c) => {
      const v = bySql.get(c.text);
      return v && RANK[v.mode] > RANK[m] ? v.mode : m;
    }, 'read-only'),
  );
  return { modes, notes: [...notes] };
}
