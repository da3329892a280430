// What a MariaDB report says when its two totals differ: the server-wide counter in the runs table, the
// statement's own tables (r_engine_stats) in the plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noiseWarnings } from '../../../src/measure/innodb/noise';

const stats = (pagesAccessed: number) => [{ table: 't', pagesAccessed, pagesUpdated: 0, pagesReadCount: 0, pagesPrefetchReadCount: 0, pagesReadTimeMs: 0 }];
const quiet = { before: [], after: [] };

test('a gap within the tolerance is explained, one past it is named as something else reading, none says nothing', () => {
  const within = noiseWarnings(1, quiet, { Innodb_buffer_pool_read_requests: 84 }, stats(71), true, 'mariadb');
  assert.equal(within.length, 1);
  assert.match(
    within[0],
    /^run 1: the runs table counts the server-wide read requests \(84 before calibration\), the plan only .* \(71, r_engine_stats\); the 13 more/,
  );
  assert.doesNotMatch(within[0], /something else/);
  assert.match(noiseWarnings(2, quiet, { Innodb_buffer_pool_read_requests: 300 }, stats(71), true, 'mariadb')[0], /by 229: something else was reading/);
  assert.deepEqual(noiseWarnings(1, quiet, { Innodb_buffer_pool_read_requests: 71 }, stats(71), true, 'mariadb'), []);
});

test("a write's plan counts only what it reads: said once, on run 1", () => {
  assert.match(noiseWarnings(1, quiet, { Innodb_buffer_pool_read_requests: 90 }, stats(10), false, 'mariadb')[0], /tables the statement reads/);
  assert.deepEqual(noiseWarnings(2, quiet, { Innodb_buffer_pool_read_requests: 90 }, stats(10), false, 'mariadb'), []);
});
