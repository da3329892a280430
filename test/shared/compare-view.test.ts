// Two reports compared: changes in pages and percent, measured and predicted, what was cached before
// run 1, the settings that differ, and the plans node by node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Report } from '../../src/shared/report';
import { change, compareView } from '../../src/shared/compare-view';

const load = (name: string): Report => JSON.parse(readFileSync(`test/fixtures/reports/${name}.json`, 'utf8'));

test('a change reads in pages and percent, and says when a side has no number', () => {
  assert.equal(change(1200, 900), '1,200 → 900 (−300, −25 %)');
  assert.equal(change(100, 100), '100 → 100 (±0, 0 %)');
  assert.equal(change(1000, 1001), '1,000 → 1,001 (+1, +0.1 %)');
  assert.equal(change(0, 5), '0 → 5 (+5, new)');
  assert.equal(change(null, 5), 'n/a → 5');
  // Past ten times the first, the factor: a percentage of +137,000 % says less.
  assert.equal(change(3, 4113), '3 → 4,113 (+4,110, 1,371×)');
  assert.equal(change(10, 95), '10 → 95 (+85, +850 %)');
});

test('the same statement on a cold and a warm pool: the runs, the cache before run 1 and the settings explain it', () => {
  const before = load('mariadb-seed001');
  const after = load('mariadb-seed001');
  after.runs[0].measured = { ...after.runs[0].measured, physicalReads: 0, readAhead: 0 };
  after.runs[0].residency = after.runs[0].residency.map((r) => ({ ...r, cachedBefore: r.pages }));
  after.engine.settings = { ...after.engine.settings, innodb_buffer_pool_size: 268435456 };
  const v = compareView(before, after);
  const physical = v.runs.find((r) => r[0] === 'run 1 physical')!;
  assert.equal(physical[1], `${before.runs[0].measured.physicalReads} → 0 (−${before.runs[0].measured.physicalReads}, −100 %)`);
  assert.match(v.cachedBefore[0][1], /^\d[\d,]* → 3,621 \(\+/);
  assert.deepEqual(v.settings, [['innodb_buffer_pool_size', String(before.engine.settings.innodb_buffer_pool_size), '268435456']]);
  assert.equal(v.plan[1][0].trim(), '1. t: ALL');
  assert.equal(v.plan[1][1], '3,574 → 3,574 (±0, 0 %)');
});

test('PostgreSQL: no read-ahead rows where neither report has any', () => {
  const pg = load('postgres18-ring');
  assert.ok(!compareView(pg, pg).runs.some((r) => /read-ahead/.test(r[0])));
});
