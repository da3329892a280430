// Table aliases from a MySQL/MariaDB statement's text: the plans name tables by alias.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableAliases, tableReferences } from '../../src/sql/aliases';

test('table references with and without aliases, qualified, quoted, joined and listed', () => {
  assert.deepEqual(tableReferences('SELECT * FROM t1 a, `odd``name` c JOIN db.t2 AS b ON a.id = b.id WHERE 1'), [
    { table: 't1', alias: 'a' },
    { table: 'odd`name', alias: 'c' },
    { table: 't2', alias: 'b' },
  ]);
  assert.deepEqual(tableReferences('UPDATE t SET v = 1 WHERE id IN (1, 2, 3)'), [{ table: 't' }]);
  assert.deepEqual(tableReferences('SELECT v FROM t WHERE id = 1'), [{ table: 't' }]);
  // A derived table is no table; a keyword after the name is no alias; numbers are not names.
  assert.deepEqual(tableReferences('SELECT * FROM (SELECT 1) AS d JOIN t2 USING (id) LIMIT 10'), [{ table: 't2' }]);
  assert.deepEqual(tableReferences("SELECT 'FROM x y' FROM t -- FROM c d\n"), [{ table: 't' }]);
  assert.deepEqual(
    [...tableAliases('SELECT * FROM t1 a STRAIGHT_JOIN t2 b ON 1 = 1')],
    [
      ['a', 't1'],
      ['b', 't2'],
    ],
  );
});

test('a statement of millions of numbers is read in one pass without holding a token per character', () => {
  const list = Array.from({ length: 1_000_000 }, (_, k) => k).join(', ');
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const refs = tableReferences(`SELECT v FROM t x WHERE id IN (${list}) ORDER BY v`);
  // What is still on the heap right after: a token array would be, its garbage not yet collected.
  const peak = process.memoryUsage().heapUsed;
  assert.deepEqual(refs, [{ table: 't', alias: 'x' }]);
  // The masked copy of the text is the one thing of its size (7 MB here); a token per character was 600 MB.
  assert.ok(peak - before < 120e6, `${Math.round((peak - before) / 1e6)} MB over the text`);
});
