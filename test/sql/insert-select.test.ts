// INSERT … SELECT read as its columns' expressions and the query that gives its rows: pure.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { insertSelectColumns } from '../../src/sql/insert-select';

describe('INSERT … SELECT parts', () => {
  test('each named column with its expression, commas inside calls and strings kept', () => {
    const parts = insertSelectColumns(
      "INSERT INTO shop.orders (`id`, seq, note) SELECT MD5(CONCAT(seq, 'a,b')), seq + 10, 'x, y' FROM orders WHERE seq < 5 LIMIT 3;",
    );
    assert.deepEqual(parts, {
      table: 'shop.orders',
      columns: [
        { column: 'id', expression: "MD5(CONCAT(seq, 'a,b'))" },
        { column: 'seq', expression: 'seq + 10' },
        { column: 'note', expression: "'x, y'" },
      ],
      rest: 'FROM orders WHERE seq < 5 LIMIT 3',
    });
  });
  test('IGNORE and no INTO are the same shape', () => {
    assert.equal(insertSelectColumns('INSERT IGNORE t (a) SELECT b FROM u')?.columns[0].expression, 'b');
  });
  test('other shapes are not read', () => {
    for (const sql of [
      'INSERT INTO t (a) VALUES (1)',
      'INSERT INTO t SELECT * FROM u',
      'INSERT INTO t (a, b) SELECT c FROM u',
      'INSERT INTO t (a) SELECT DISTINCT b FROM u',
      'INSERT INTO t (a) SELECT b FROM u UNION SELECT c FROM v',
      'INSERT INTO t (a) SELECT b FROM u ON DUPLICATE KEY UPDATE a = 1',
      'UPDATE t SET a = 1',
    ])
      assert.equal(insertSelectColumns(sql), undefined, sql);
  });
});
