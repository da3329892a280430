// The InnoDB benchmark-shaped corpus (test/fixtures/corpus/innodb, recorded by npm run accuracy:corpus from
// real measurements on MariaDB): every recorded run's prediction is what the model predicts now, offline,
// as the PostgreSQL corpus's are (postgres-corpus.test.ts). Pages read count read-ahead, as the table does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { predictFixture, type PredictFixtureInput } from './fixture-loop';

const DIR = 'test/fixtures/corpus/innodb';

test('every recorded InnoDB corpus prediction is what the model predicts now (npm run accuracy:corpus -- --regenerate)', () => {
  const saved = JSON.parse(readFileSync('test/fixtures/corpus/innodb-runs.json', 'utf8')) as {
    runs: Array<{ predictedLogical: number | null; predictedRead: number | null; predictedReadAhead: number | null }>;
  };
  const files = readdirSync(DIR).sort();
  assert.equal(saved.runs.length, files.length * 3);
  files.forEach((file, k) => {
    const got = predictFixture(JSON.parse(readFileSync(join(DIR, file), 'utf8')) as PredictFixtureInput, { whatIf: false });
    got.runs.forEach((p, i) => {
      const r = saved.runs[k * 3 + i];
      const read = p.predicted.physicalReads === null ? null : p.predicted.physicalReads + (p.predicted.readAhead ?? 0);
      assert.deepEqual(
        [r.predictedLogical, r.predictedRead, r.predictedReadAhead],
        [p.predicted.logicalReads, read, p.predicted.readAhead],
        `${file} run ${i + 1}`,
      );
    });
  });
});
