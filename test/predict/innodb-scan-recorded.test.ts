// Full scans of the schema corpus (test/fixtures/corpus/schemas/, measured on MariaDB 10.11 by
// npm run accuracy:schemas), replayed through the model: what each run read, as measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';
import { fixtureName, type SchemaRecording } from '../accuracy/schemas/recordings';

const DIR = 'test/fixtures/corpus/schemas';

function replay(key: string, k: number, shape: string, pool: string) {
  const recording = JSON.parse(readFileSync(`${DIR}/${key}-runs.json`, 'utf8')) as SchemaRecording;
  const file = fixtureName(k, `${pool}-cold-${shape}`);
  const input = JSON.parse(gunzipSync(readFileSync(`${DIR}/${key}/${file}`)).toString('utf8')) as PredictFixtureInput;
  const measured = recording.runs.slice(3 * k, 3 * k + 3);
  assert.ok(
    measured.every((m) => m.shape === shape && m.pool === pool && m.state === 'cold'),
    file,
  );
  const predicted = predictFixture(input, { whatIf: false }).runs.map((r) => r.predicted);
  return measured.map((m, i) => ({ m, p: predicted[i] }));
}

const within = (measured: number, predicted: number) => Math.abs(predicted - measured) <= 0.05 * measured;

test('a scan with no LIMIT reads every leaf, however many rows the sampled statistics count (seed 3: 60,000 rows read, 68,262 counted)', () => {
  for (const { m, p } of replay('mariadb-3', 33, 'aggregate over the table', '43 MiB')) {
    // Cut to the rows read, the scan was 3,272 pages where 3,689 were read.
    assert.ok(within(m.measuredLogical!, p.logicalReads!), `run ${m.run}: ${m.measuredLogical} measured, ${p.logicalReads} predicted`);
  }
});

test('a scan a little larger than the pool: the page cleaner, woken on demand, keeps its free pages through runs 2 and 3 (seed 1 at 93 MiB)', () => {
  for (const { m, p } of replay('mariadb-1', 36, 'aggregate over the table', '93 MiB')) {
    const read = p.physicalReads! + (p.readAhead ?? 0);
    // Woken once a second of the run's pace, runs 2 and 3 were 1,361 pages where 2,865 and 2,747 were read.
    assert.ok(within(m.measuredRead!, read), `run ${m.run}: ${m.measuredRead} read, ${read} predicted`);
  }
});
