// The keys a LIMIT-stopped scan looks up are asked for with the rows InnoDB's prefetch fetches past it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPrefetchedRows } from '../../../src/measure/innodb/lookup-keys';

test('a closing LIMIT is raised by the 8 rows the prefetch may fetch; anything else stays as written', () => {
  assert.equal(withPrefetchedRows('SELECT `id` FROM orders ORDER BY placed DESC LIMIT 79'), 'SELECT `id` FROM orders ORDER BY placed DESC LIMIT 87');
  assert.equal(withPrefetchedRows('SELECT id FROM t ORDER BY k limit 5 ;'), 'SELECT id FROM t ORDER BY k LIMIT 13 ;');
  // An offset, or a LIMIT inside a subquery, is left alone: the rows past it are not the scan's next ones.
  assert.equal(withPrefetchedRows('SELECT id FROM t ORDER BY k LIMIT 5 OFFSET 10'), 'SELECT id FROM t ORDER BY k LIMIT 5 OFFSET 10');
  assert.equal(
    withPrefetchedRows('SELECT id FROM t WHERE k IN (SELECT k FROM u LIMIT 3) ORDER BY k'),
    'SELECT id FROM t WHERE k IN (SELECT k FROM u LIMIT 3) ORDER BY k',
  );
});
