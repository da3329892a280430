// The PostgreSQL benchmark-shaped corpus (test/fixtures/corpus/postgres-<major>, recorded by
// npm run accuracy:corpus:pg from real measurements on PostgreSQL 15 and 18): docs/accuracy.md must show
// what the model predicts now for every recorded run, and the corpus must hold what it says it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPgFixture, PG_STATES } from '../accuracy/postgres-corpus';
import { predictFixture } from './fixture-loop';

for (const major of [15, 18]) {
  const dir = `test/fixtures/corpus/postgres-${major}`;
  test(`PostgreSQL ${major} corpus: every state at three shared_buffers sizes`, () => {
    const files = readdirSync(dir);
    for (const state of PG_STATES) assert.ok(files.filter((f) => f.includes(`-${state}-`)).length >= 3 * 17, `${state}: ${files.length} inputs`);
  });
  test(`docs/accuracy.md shows what the model predicts now for every recorded PostgreSQL ${major} corpus run (npm run accuracy:corpus:pg -- --regenerate)`, () => {
    const saved = JSON.parse(readFileSync(`test/fixtures/corpus/postgres-${major}-runs.json`, 'utf8')) as {
      runs: Array<{ predictedLogical: number | null; predictedRead: number | null }>;
    };
    const files = readdirSync(dir).sort();
    assert.equal(saved.runs.length, files.length * 3);
    files.forEach((file, k) => {
      const got = predictFixture(readPgFixture(join(dir, file)), { whatIf: false });
      got.runs.forEach((p, i) => {
        const r = saved.runs[k * 3 + i];
        assert.deepEqual([r.predictedLogical, r.predictedRead], [p.predicted.logicalReads, p.predicted.physicalReads], `${file} run ${i + 1}`);
      });
    });
    assert.match(readFileSync('docs/accuracy.md', 'utf8'), new RegExp(`## PostgreSQL ${major} on a benchmark-shaped corpus`));
  });
}
