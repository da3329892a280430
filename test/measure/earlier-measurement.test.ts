// When an earlier report of the same statement says run 1 will find every page cached: its last run read
// none, and every page of its relations then cached still is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contains, earlierMeasurementNote, earlierRolledBackRuns, sameStatement } from '../../src/measure/earlier-measurement';
import type { ResidencySnapshot } from '../../src/measure/engine-session';
import type { Report } from '../../src/shared/report';

const TARGET = 'postgresql://me@127.0.0.1:5432/db';

function earlier(o: { read?: number; readAhead?: number | null; blocks?: Array<[number, number]>; statement?: string; committed?: boolean } = {}): Report {
  const reads = { logicalReads: 40, physicalReads: o.read ?? 0, readAhead: o.readAhead ?? null };
  const residency = [
    { relation: 't', kind: 'table' as const, pages: 100, cachedBefore: 5, cachedAfter: 5, predictedAfter: null, blocksAfter: o.blocks ?? [[3, 7]] },
  ];
  const run = { run: 3, cold: false, elapsedMs: 1, measured: reads, predicted: reads, residency, raw: {} };
  return {
    schemaVersion: 1,
    engine: { product: 'postgresql', version: '15', pageSize: 8192, settings: {} },
    statement: o.statement ?? 'SELECT * FROM t WHERE k = 1',
    createdAt: '2026-12-05T16:00:00.000Z',
    target: TARGET,
    rolledBack: !o.committed,
    dataChanging: o.committed === true,
    runs: [run],
    warnings: [],
  } as unknown as Report;
}

const now = (ranges: Array<[number, number]>): ResidencySnapshot => new Map([['t', { pages: 100, cached: 0, ranges }]]);

test('block ranges: contained across adjacent ranges, not where one block is missing', () => {
  assert.equal(
    contains(
      [
        [0, 4],
        [5, 9],
      ],
      [[3, 7]],
    ),
    true,
  );
  assert.equal(
    contains(
      [
        [0, 4],
        [6, 9],
      ],
      [[3, 7]],
    ),
    false,
  );
  assert.equal(
    contains(
      [
        [6, 9],
        [0, 4],
      ],
      [
        [7, 8],
        [1, 1],
      ],
    ),
    true,
  );
  assert.equal(contains([], [[1, 1]]), false);
  assert.equal(contains([[1, 1]], []), true);
});

test('the same statement but for space, line breaks and a closing semicolon', () => {
  assert.equal(sameStatement('SELECT *\n  FROM t;', ' SELECT * FROM t'), true);
  assert.equal(sameStatement('SELECT * FROM t', 'SELECT * FROM u'), false);
});

test('run 1 finds its pages cached only when the earlier last run read none and its cached pages still are', () => {
  const sql = 'SELECT * FROM t WHERE k = 1;';
  assert.match(earlierMeasurementNote(earlier(), sql, TARGET, now([[0, 9]])) ?? '', /read no page on its last run/);
  assert.equal(earlierMeasurementNote(undefined, sql, TARGET, now([[0, 9]])), undefined);
  assert.equal(earlierMeasurementNote(earlier({ read: 2 }), sql, TARGET, now([[0, 9]])), undefined, 'the last run read pages');
  assert.equal(earlierMeasurementNote(earlier({ readAhead: 8 }), sql, TARGET, now([[0, 9]])), undefined, 'it read ahead');
  assert.equal(earlierMeasurementNote(earlier(), sql, TARGET, now([[0, 5]])), undefined, 'pages left the pool since');
  assert.equal(earlierMeasurementNote(earlier(), sql, 'postgresql://me@127.0.0.1:5433/db', now([[0, 9]])), undefined, 'another server');
  assert.equal(earlierMeasurementNote(earlier({ statement: 'SELECT 1' }), sql, TARGET, now([[0, 9]])), undefined, 'another statement');
  assert.equal(earlierMeasurementNote(earlier({ committed: true }), sql, TARGET, now([[0, 9]])), undefined, 'committed changes');
});

test("an earlier measurement of the same write, rolled back, hands its runs; a read, a committed write, another statement or server none", () => {
  const write = (o: { rolledBack?: boolean; statement?: string; target?: string; dataChanging?: boolean } = {}): Report =>
    ({
      ...earlier({ statement: o.statement ?? 'UPDATE t SET v = v + 1 WHERE k < 9' }),
      dataChanging: o.dataChanging ?? true,
      rolledBack: o.rolledBack ?? true,
      target: o.target ?? TARGET,
    }) as Report;
  const statement = 'UPDATE t SET v = v + 1 WHERE k < 9;';
  assert.equal(earlierRolledBackRuns(write(), statement, TARGET), 1);
  assert.equal(earlierRolledBackRuns(write({ rolledBack: false }), statement, TARGET), undefined);
  assert.equal(earlierRolledBackRuns(write({ dataChanging: false }), statement, TARGET), undefined);
  assert.equal(earlierRolledBackRuns(write({ statement: 'UPDATE t SET v = v + 2 WHERE k < 9' }), statement, TARGET), undefined);
  assert.equal(earlierRolledBackRuns(write({ target: 'postgresql://me@127.0.0.1:5433/db' }), statement, TARGET), undefined);
  assert.equal(earlierRolledBackRuns(undefined, statement, TARGET), undefined);
});
