// Fixture pairs (pev2 style): each test/fixtures/predict/<engine>/NN-name.input.json holds what the
// predict step was given by a real measurement; .expect.json what it returned when recorded
// (scripts/capture-predict-fixtures.ts). No server: the predict step is pure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const DIR = 'test/fixtures/predict';
const pairs = readdirSync(DIR).flatMap((engine) =>
  readdirSync(join(DIR, engine))
    .filter((f) => f.endsWith('.input.json'))
    .map((f) => ({ engine, name: f.replace('.input.json', ''), path: join(DIR, engine, f) })),
);

test('every engine has golden fixtures', () => {
  assert.deepEqual([...new Set(pairs.map((p) => p.engine))].sort(), ['innodb', 'postgresql']);
  assert.ok(pairs.length >= 6);
});

for (const p of pairs) {
  test(`${p.engine} ${p.name}: the predict step returns what was recorded`, () => {
    const input = JSON.parse(readFileSync(p.path, 'utf8')) as PredictFixtureInput;
    const expected = JSON.parse(readFileSync(p.path.replace('.input.json', '.expect.json'), 'utf8'));
    const got = JSON.parse(JSON.stringify(predictFixture(input)));
    assert.equal(got.runs.length, input.runs.length);
    // A prediction is numbers, never a 0 standing in for "not modelled": a null must come with the
    // engine having no such number (PostgreSQL read-ahead).
    for (const r of got.runs) for (const v of [r.predicted.logicalReads, r.predicted.physicalReads]) assert.equal(typeof v, 'number');
    assert.deepEqual(got, expected);
  });
}

test('property: predicted pages read never increase when only the pool grows, on every fixture', () => {
  for (const p of pairs) {
    const got = predictFixture(JSON.parse(readFileSync(p.path, 'utf8')) as PredictFixtureInput);
    const pool = got.whatIf!.series.find((s) => s.unit === 'pages' && /buffer_pool_size|shared_buffers/.test(s.setting))!;
    const reads = pool.points.map((x) => x.physicalReads);
    for (let k = 1; k < reads.length; k++) assert.ok(reads[k] <= reads[k - 1], `${p.engine} ${p.name}: ${reads.join(' → ')}`);
  }
});
