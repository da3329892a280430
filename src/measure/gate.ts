// The one decision of whether a user's statement may run and how, for every path that sends one: measure
// (and check, which measures), workload run, and the queries BufferLens re-asks from the statement's own
// text after the runs. The engines resolve what a statement reaches through their catalogs
// (postgres/side-effects.ts, innodb/side-effects.ts); this module alone judges it, so every path refuses
// the same statement with the same words. The text's own verdict (sql/classify) comes first, as a first
// line only.
import { MeasureError } from '../db/errors';

export interface GatePolicy {
  /** The changes are kept: a write to a non-transactional table is allowed (it is committed anyway). */
  commit: boolean;
  /** The user consented to effects a rollback cannot undo ("Measure Anyway"): run them, and say so. */
  allowSideEffects: boolean;
}

/** What an engine's catalogs resolved a statement to reach beyond the rows it reads and writes. */
export interface Reached {
  /** Effects a rollback cannot undo: a file, a remote commit, a signalled session, a global setting. */
  outside: string[];
  /** Non-transactional tables the statement writes, directly or through what it reaches. */
  nonTransactional: Array<{ table: string; engine: string }>;
  /** Sequences the statement advances, which no rollback gives back. */
  sequences: string[];
  /** Whether the sequences surely advance (a nextval is reached) or only may (a routine names one). */
  sequencesSurely: boolean;
  /** User-defined routines the statement reaches, named in the report. */
  routines: string[];
}

export const NOTHING_REACHED: Reached = { outside: [], nonTransactional: [], sequences: [], sequencesSurely: true, routines: [] };

/** How a statement that may run is sent: reads in a read-only transaction, writes rolled back unless kept. */
export type RunMode = 'read-only' | 'rolled-back' | 'committed';

/** What the user can do about a refusal: keep the changes, or consent to what a rollback cannot undo. */
export type Remedy = 'commit' | 'consent';

export type GateVerdict =
  | { decision: 'refused'; reason: string; remedy?: Remedy }
  | {
      decision: 'run';
      mode: RunMode;
      /** What the report must say of the run. */
      warnings: string[];
      /** Effects a rollback cannot undo that run only because the user consented. */
      consented: string[];
    };

export type RunVerdict = Extract<GateVerdict, { decision: 'run' }>;

const plural = (n: number, one: string, many: string) => (n > 1 ? many : one);

/** The decision for one statement, from its role and what it reaches, under the user's policy. */
export function decide(role: 'read' | 'write', reached: Reached, policy: GatePolicy): GateVerdict {
  const writes = role === 'write';
  // A read runs in a read-only transaction: whatever it reaches cannot write a table, transactional or not.
  if (writes && reached.nonTransactional.length && !policy.commit) {
    const many = reached.nonTransactional.length > 1;
    return {
      decision: 'refused',
      reason:
        `${reached.nonTransactional.map((x) => `${x.table} uses the ${x.engine} engine`).join(' and ')}, which ${many ? 'are' : 'is'} not transactional: ` +
        `the statement reaches ${many ? 'them' : 'it'} and a rollback would undo nothing there`,
      remedy: 'commit',
    };
  }
  if (reached.outside.length && !policy.allowSideEffects) {
    return { decision: 'refused', reason: `refused: ${reached.outside.join('; ')}; a rollback cannot undo that`, remedy: 'consent' };
  }
  const warnings: string[] = [];
  if (reached.outside.length) warnings.push(`measured although a rollback cannot undo it (--allow-side-effects): ${reached.outside.join('; ')}`);
  if (reached.routines.length) {
    const n = reached.routines.length;
    warnings.push(
      `the statement reaches user-defined ${plural(n, 'routine', 'routines')} ${reached.routines.join(', ')}: ` +
        (writes
          ? policy.commit
            ? 'what they write is kept'
            : 'their table changes are rolled back'
          : 'a reading statement runs in a read-only transaction, so they cannot write a table'),
    );
  }
  if (reached.sequences.length && writes && !policy.commit) {
    warnings.push(
      `${plural(reached.sequences.length, 'sequence', 'sequences')} ${reached.sequences.join(', ')} ${reached.sequencesSurely ? 'will' : 'may'} advance: ` +
      `sequences are not transactional, and the rollback does not give their values back`,
    );
  }
  const mode: RunMode = !writes ? 'read-only' : policy.commit ? 'committed' : 'rolled-back';
  return { decision: 'run', mode, warnings, consented: [...reached.outside] };
}

/** The refusal as the failure every path raises; the command line's words for the remedy, which the editor turns into a button. */
export function refusalError(v: Extract<GateVerdict, { decision: 'refused' }>): MeasureError {
  const hint =
    v.remedy === 'consent' ? ' (--allow-side-effects measures anyway)' : v.remedy === 'commit' ? ' (--commit measures it and keeps its changes)' : '';
  return new MeasureError(`${v.reason}${hint}`, 'refused', v.remedy === 'consent');
}

/** Throws the refusal; otherwise returns the verdict to run under. */
export function mustRun(v: GateVerdict): RunVerdict {
  if (v.decision === 'refused') throw refusalError(v);
  return v;
}

/**
 * Why the queries BufferLens builds from the statement's own text (its conditions, its EXPLAIN) may not be
 * sent after the runs, or undefined when they may: they would run again what ran only with consent.
 */
export function reaskBlocked(v: RunVerdict): string | undefined {
  if (!v.consented.length) return undefined;
  return `the queries BufferLens asks after the runs from the statement's own text were not sent, since they would run again what a rollback cannot undo ` +
    `(${v.consented.join('; ')}): the prediction models what they would have told`;
}
