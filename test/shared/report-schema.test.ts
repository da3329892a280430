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
      residency: [{ relation: 't', kind: 'table', pages: 1, cachedBefore: 1, cachedAfter: 1, predictedAfter: 1, blocksAfter: [[0, 0]] }],
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
  const leaky = structuredClone(minimal);
  leaky.target = 'postgres://me:secret@localhost/db';
  assert.ok(validateReport(leaky).some((e) => e.includes('/target')));
});

test('the project schema requires everything the public contract requires', () => {
  const contract = '../shared/contracts/report.schema.json';
  if (!existsSync(contract)) return; // the contract travels beside the project in CI and on developer machines
  const own = JSON.parse(readFileSync('schemas/report.schema.json', 'utf8'));
  const pub = JSON.parse(readFileSync(contract, 'utf8'));
  for (const r of pub.required) assert.ok(own.required.includes(r), r);
  for (const r of pub.properties.runs.items.required) assert.ok(own.properties.runs.items.required.includes(r), r);
  for (const r of pub.properties.engine.required) assert.ok(own.properties.engine.required.includes(r), r);
});
