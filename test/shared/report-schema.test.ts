import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { validateReport } from '../support/report-schema';

const minimal = {
  schemaVersion: 1,
  engine: { product: 'postgresql', version: '18.4', pageSize: 8192, settings: {} },
  statement: 'SELECT 1',
  createdAt: '2026-11-30T22:00:00.000Z',
  target: 'postgres://me@localhost:5432/db',
  rolledBack: true,
  warnings: [],
  runs: [
    {
      run: 1,
      cold: false,
      elapsedMs: 1.5,
      measured: { logicalReads: 3, physicalReads: 0, readAhead: null },
      predicted: { logicalReads: 3, physicalReads: 0, readAhead: null },
      residency: [
        { relation: 't', kind: 'table', pages: 1, cachedBefore: 1, cachedAfter: 1, predictedAfter: 1, predictedAfterRange: [1, 1], blocksAfter: [[0, 0]] },
      ],
      raw: { 'explain.shared_hit': 3 },
    },
  ],
};

test('a well-formed report validates', () => {
  assert.deepEqual(validateReport(minimal), []);
});

test('a missing measurement, a made-up negative, or a password in the target is rejected', () => {
  const noMeasured = structuredClone(minimal) as Record<string, unknown> & { runs: Array<Record<string, unknown>> };
  delete noMeasured.runs[0].measured;
  assert.ok(validateReport(noMeasured).length > 0);
  const negative = structuredClone(minimal);
  negative.runs[0].measured.physicalReads = -1;
  assert.ok(validateReport(negative).length > 0);
  const band = structuredClone(minimal) as unknown as { runs: Array<{ residency: Array<{ predictedAfterRange: unknown }> }> };
  band.runs[0].residency[0].predictedAfterRange = [-1, 2];
  assert.ok(validateReport(band).some((e) => e.includes('predictedAfterRange')));
  const leaky = structuredClone(minimal);
  leaky.target = 'postgres://me:secret@localhost/db';
  assert.ok(validateReport(leaky).some((e) => e.includes('/target')));
});

const CONTRACT = '../shared/contracts/report.schema.json';
// The public contract travels beside the project (shared/); where it is absent the check says so instead
// of passing silently. In CI it must be there.
const contractCheck = existsSync(CONTRACT) ? {} : process.env.CI === 'true' ? {} : { skip: `the public contract is not beside the project (${CONTRACT})` };

test('the project schema itself is valid and requires the measured numbers', () => {
  const own = JSON.parse(readFileSync('schemas/report.schema.json', 'utf8'));
  for (const r of ['schemaVersion', 'engine', 'statement', 'runs', 'warnings']) assert.ok(own.required.includes(r), r);
  for (const r of ['run', 'measured', 'predicted', 'residency']) assert.ok(own.properties.runs.items.required.includes(r), r);
});

test('the project schema requires everything the public contract requires', contractCheck, () => {
  const contract = CONTRACT;
  assert.ok(existsSync(contract), `${contract} is missing`);
  const own = JSON.parse(readFileSync('schemas/report.schema.json', 'utf8'));
  const pub = JSON.parse(readFileSync(contract, 'utf8'));
  for (const r of pub.required) assert.ok(own.required.includes(r), r);
  for (const r of pub.properties.runs.items.required) assert.ok(own.properties.runs.items.required.includes(r), r);
  for (const r of pub.properties.engine.required) assert.ok(own.properties.engine.required.includes(r), r);
});
