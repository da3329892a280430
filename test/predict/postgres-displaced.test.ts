// After a table-wide update, a range's dead versions are placed by where its live rows were found: each as
// far along the dead versions as its live row is along the live ones, also for the rows an earlier update
// had moved (whose new versions the update's scan appended where it met them). Pure replay of the
// PostgreSQL 15 corpus's recorded inputs against what the server measured (313–317 pages read for 5,000
// rows); before, the moved rows' dead versions went to random pages: 338–345 predicted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const DIR = join(__dirname, '..', 'fixtures', 'corpus', 'postgres-15');
const runs = (JSON.parse(readFileSync(join(DIR, '..', 'postgres-15-runs.json'), 'utf8')) as { runs: Array<{ measuredRead: number | null }> }).runs;

test("updated, run 1: a 5,000-row range's pages read within 5 % in every pool", () => {
  const files = readdirSync(DIR).sort();
  const wide = files.map((f, k) => ({ f, k })).filter(({ f }) => f.includes('-updated-wide-primary-range'));
  assert.equal(wide.length, 3, 'one per pool');
  for (const { f, k } of wide) {
    const input = JSON.parse(gunzipSync(readFileSync(join(DIR, f))).toString()) as PredictFixtureInput;
    assert.ok((input.facts as { settings: { heapBlocks?: unknown } }).settings.heapBlocks, `${f}: the rows' blocks were recorded`);
    const predicted = predictFixture(input, { whatIf: false }).runs[0].predicted.physicalReads!;
    const measured = runs[k * 3].measuredRead!;
    assert.ok(Math.abs(predicted - measured) <= 0.05 * measured, `${f}: ${measured} measured, ${predicted} predicted`);
  }
});
