// An earlier report of the same statement on the same server, where the caller keeps one (the editor's
// history, a harness measuring twice): when its last run read no page, every page the statement requests
// was cached then; when every page of its relations cached after that run still is, run 1 now finds them
// cached too. The prediction then starts from that fact instead of placing the statement's pages by guess.
import type { Report } from '../shared/report';
import type { ResidencySnapshot } from './engine-session';

/** Why run 1 finds every page it requests cached, or undefined where the earlier report does not show it. */
export function earlierMeasurementNote(earlier: Report | undefined, statement: string, target: string, before: ResidencySnapshot): string | undefined {
  if (!earlier || earlier.target !== target || !sameStatement(earlier.statement, statement)) return undefined;
  // Committed changes may have moved the statement's rows since.
  if (earlier.dataChanging && !earlier.rolledBack) return undefined;
  const last = earlier.runs[earlier.runs.length - 1];
  if (!last || last.measured.physicalReads !== 0 || (last.measured.readAhead ?? 0) !== 0) return undefined;
  if (last.residency.length === 0) return undefined;
  for (const r of last.residency) {
    if (!r.blocksAfter) return undefined;
    const now = before.get(r.relation);
    if (!now || !contains(now.ranges, r.blocksAfter)) return undefined;
  }
  const at = earlier.createdAt ? ` at ${earlier.createdAt}` : '';
  return `the same statement measured${at} read no page on its last run, and every page of its relations cached after that run is cached now`;
}

/**
 * How many times an earlier measurement of the same write ran it, each run rolled back, where the caller
 * hands one (the editor's history, a harness measuring twice): their aborted versions and the entries they
 * left are what this measurement's run 1 meets, as a later run of theirs would. Undefined for a read, a
 * committed write, another statement or another server.
 */
export function earlierRolledBackRuns(earlier: Report | undefined, statement: string, target: string): number | undefined {
  if (!earlier || earlier.target !== target || !sameStatement(earlier.statement, statement)) return undefined;
  if (!earlier.dataChanging || !earlier.rolledBack || earlier.runs.length === 0) return undefined;
  return earlier.runs.length;
}

const normalised = (sql: string) => sql.trim().replace(/;\s*$/, '').replace(/\s+/g, ' ');

/** The same statement, but for surrounding space, line breaks and a closing semicolon. */
export const sameStatement = (a: string, b: string): boolean => normalised(a) === normalised(b);

/** Whether every block of `inner` lies within `outer` (non-overlapping [first, last] ranges). */
export function contains(outerRanges: ReadonlyArray<[number, number]>, innerRanges: ReadonlyArray<[number, number]>): boolean {
  const outer = [...outerRanges].sort((a, b) => a[0] - b[0]);
  const inner = [...innerRanges].sort((a, b) => a[0] - b[0]);
  let k = 0;
  for (const [s, e] of inner) {
    let from = s;
    while (from <= e) {
      while (k < outer.length && outer[k][1] < from) k++;
      if (k >= outer.length || outer[k][0] > from) return false;
      from = outer[k][1] + 1;
    }
  }
  return true;
}
