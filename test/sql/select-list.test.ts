// A statement asked again for the keys it looks up (pure text rewrite).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replaceSelectList, writeAsSelect } from '../../src/sql/select-list';

const keysQuery = (sql: string, expression: string) => replaceSelectList(sql, expression, 'mysql');

test('the select list is replaced by the key; the rest of the statement is kept as written', () => {
  assert.equal(keysQuery('SELECT id, c FROM sbtest1 WHERE k BETWEEN 5 AND 9', '`id`'), 'SELECT `id` FROM sbtest1 WHERE k BETWEEN 5 AND 9');
  assert.equal(
    keysQuery("select pad from t a where a.k > 10 and c <> 'from x' order by k limit 50", '`id`'),
    "SELECT `id` from t a where a.k > 10 and c <> 'from x' order by k limit 50",
  );
  assert.equal(keysQuery('SELECT SUM(LENGTH(pad)) FROM t WHERE k BETWEEN 1 AND 9', '`id`'), 'SELECT `id` FROM t WHERE k BETWEEN 1 AND 9');
  assert.equal(
    keysQuery('SELECT COUNT(b.pad) FROM t1 AS a JOIN t2 AS b ON b.id = a.k WHERE a.id BETWEEN 1 AND 300', '`a`.`k`'),
    'SELECT `a`.`k` FROM t1 AS a JOIN t2 AS b ON b.id = a.k WHERE a.id BETWEEN 1 AND 300',
  );
});

test('statements whose rows would differ are left alone', () => {
  for (const sql of [
    'SELECT DISTINCT c FROM t WHERE k > 5',
    'SELECT k, COUNT(*) FROM t WHERE k > 5 GROUP BY k',
    'SELECT c FROM t WHERE k IN (SELECT k FROM u)',
    'SELECT c FROM t WHERE k > 5 UNION SELECT c FROM u',
    'SELECT COUNT(*) FROM t WHERE k > 5 LIMIT 10',
    'SELECT c FROM t WHERE k > 5 FOR UPDATE',
    'SELECT c INTO @x FROM t WHERE k = 5',
    'WITH w AS (SELECT 1) SELECT c FROM t',
  ])
    assert.equal(keysQuery(sql, '`id`'), undefined, sql);
});

test('PostgreSQL: the same rules, FETCH FIRST counted as a LIMIT', () => {
  assert.equal(
    replaceSelectList('SELECT c FROM sbtest1 WHERE id > 5 ORDER BY id LIMIT 1000', '(ctid::text::point)[0]::bigint', 'postgresql'),
    'SELECT (ctid::text::point)[0]::bigint FROM sbtest1 WHERE id > 5 ORDER BY id LIMIT 1000',
  );
  assert.equal(replaceSelectList('SELECT count(*) FROM t WHERE id > 5 FETCH FIRST 3 ROWS ONLY', 'ctid', 'postgresql'), undefined);
  assert.equal(replaceSelectList('SELECT DISTINCT ON (k) c FROM t', 'ctid', 'postgresql'), undefined);
});

test('unordered: the ORDER BY and what follows it cut, for a plan that sorted every row its scan returned', () => {
  const block = '(ctid::text::point)[0]::bigint';
  assert.equal(
    replaceSelectList('SELECT c FROM sbtest2 WHERE id BETWEEN 1 AND 100 ORDER BY c', block, 'postgresql', { unordered: true }),
    `SELECT ${block} FROM sbtest2 WHERE id BETWEEN 1 AND 100`,
  );
  assert.equal(
    replaceSelectList('SELECT c FROM t WHERE k > 5 ORDER BY c DESC LIMIT 10 OFFSET 2', block, 'postgresql', { unordered: true }),
    `SELECT ${block} FROM t WHERE k > 5`,
  );
  // An ORDER BY inside a subquery of the WHERE clause is not the statement's.
  assert.equal(replaceSelectList('SELECT c FROM t WHERE k IN (SELECT k FROM u ORDER BY k LIMIT 3)', block, 'postgresql', { unordered: true }), undefined);
  assert.equal(replaceSelectList('SELECT c FROM t WHERE k > 5', block, 'postgresql', { unordered: true }), undefined);
});

test("ungrouped: a GROUP BY's rows as the join produced them, the GROUP BY and what follows cut", () => {
  const ids = '`o`.`id`, `o`.`cust_id`';
  assert.equal(
    replaceSelectList(
      'SELECT c.region, count(*) FROM orders o JOIN customers c ON c.id = o.cust_id WHERE o.placed > 5 GROUP BY c.region ORDER BY 2',
      ids,
      'mysql',
      {
        ungrouped: true,
      },
    ),
    `SELECT ${ids} FROM orders o JOIN customers c ON c.id = o.cust_id WHERE o.placed > 5`,
  );
  // A HAVING filters groups, not the rows read.
  assert.equal(replaceSelectList('SELECT k, count(*) FROM t GROUP BY k HAVING count(*) > 1', ids, 'mysql', { ungrouped: true }), `SELECT ${ids} FROM t`);
  assert.equal(replaceSelectList('SELECT DISTINCT k FROM t GROUP BY k', ids, 'mysql', { ungrouped: true }), undefined);
  assert.equal(replaceSelectList('SELECT k FROM t WHERE k > 1', ids, 'mysql', { ungrouped: true }), undefined, 'no GROUP BY to cut');
  assert.equal(replaceSelectList('SELECT k, count(*) FROM t GROUP BY k', ids, 'mysql'), undefined, 'refused unless asked');
});

test('a single-table UPDATE or DELETE as the SELECT of the rows it changes; other writes give none', () => {
  assert.equal(
    writeAsSelect('UPDATE orders SET amount = amount + 1 WHERE placed BETWEEN 73 AND 80', 'mysql'),
    'SELECT * FROM orders WHERE placed BETWEEN 73 AND 80',
  );
  assert.equal(
    writeAsSelect('DELETE FROM orders WHERE cust_id = 5 ORDER BY id LIMIT 3', 'mysql'),
    'SELECT * FROM orders WHERE cust_id = 5 ORDER BY id LIMIT 3',
  );
  assert.equal(writeAsSelect("update `shop`.`orders` o set o.x = 'WHERE' where o.k > 1", 'mysql'), 'SELECT * FROM `shop`.`orders` o where o.k > 1');
  for (const other of [
    'UPDATE a JOIN b ON a.id = b.id SET a.x = 1 WHERE b.y = 2',
    'UPDATE t, u SET t.x = 1 WHERE t.id = u.id',
    'UPDATE t SET x = (SELECT 1) WHERE k = 1',
    'UPDATE t SET x = 1',
    'DELETE FROM t USING t, u WHERE t.id = u.id',
    'INSERT INTO t SELECT * FROM u WHERE k = 1',
  ])
    assert.equal(writeAsSelect(other, 'mysql'), undefined, other);
});
