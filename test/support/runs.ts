// One assertion for measurement tests: every run's logical and physical reads predicted within 5 % of the
// measurement (or within `floor` pages, for runs too small for 5 % to be a whole page).
import assert from 'node:assert/strict';
import type { Report } from '../../src/shared/report';

export function assertRunsWithin(report: Report, label: string, floor = 0): void {
  for (const r of report.runs) {
    for (const k of ['logicalReads', 'physicalReads'] as const) {
      const [m, p] = [r.measured[k]!, r.predicted[k]!];
      assert.ok(Math.abs(p - m) <= Math.max(floor, 0.05 * m), `${label}, run ${r.run}, ${k}: measured ${m}, predicted ${p}`);
    }
  }
}
