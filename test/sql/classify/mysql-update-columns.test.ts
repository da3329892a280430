// The SET clause of a MySQL/MariaDB UPDATE, read from its text: which columns it assigns, and which from
// themselves (the new key then sits beside the old one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updateSetClause } from '../../../src/sql/classify/mysql-update-columns';

test('columns and self-relative assignments of a plain UPDATE', () => {
  assert.deepEqual(updateSetClause('UPDATE sbtest1 SET k = k + 1 WHERE id = 5'), { columns: ['k'], selfRelative: ['k'] });
  assert.deepEqual(updateSetClause("UPDATE t SET c = 'a, b = c + 1', `Pad` = CONCAT(pad, 'x') WHERE id BETWEEN 1 AND 9"), {
    columns: ['c', 'pad'],
    selfRelative: [],
  });
  assert.deepEqual(updateSetClause('UPDATE t AS a SET a.k = a.k - 2, v = (SELECT 1, 2) ORDER BY id LIMIT 3'), { columns: ['k', 'v'], selfRelative: ['k'] });
});

test('comments and strings do not end the clause; other statements give null', () => {
  assert.deepEqual(updateSetClause('UPDATE t SET /* WHERE */ k = 1 -- LIMIT\n, j = j+1 WHERE x'), { columns: ['k', 'j'], selfRelative: ['j'] });
  assert.equal(updateSetClause('DELETE FROM t WHERE id = 1'), null);
  assert.equal(updateSetClause("SELECT 'UPDATE t SET k = 1'"), null);
});
