// What a workload statement's text says about the rows it writes: pure, no server.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assignedColumns, insertedKey } from '../../src/workload/statement-text';

describe('statement text', () => {
  test("an UPDATE's assigned columns, not the columns its values or its WHERE name", () => {
    assert.deepEqual(assignedColumns('UPDATE sbtest1 SET k = k + 1 WHERE id = :u0;'), ['k']);
    assert.deepEqual(assignedColumns("UPDATE t SET c = 'a, b = 1 WHERE x', `pad`=:p WHERE id = 3"), ['c', 'pad']);
    assert.deepEqual(assignedColumns('UPDATE t AS x SET x.a = 1, b=2 ORDER BY id LIMIT 5'), ['a', 'b']);
    assert.deepEqual(assignedColumns('DELETE FROM t WHERE a = 1'), []);
    assert.deepEqual(assignedColumns('SELECT 1'), []);
  });

  test('an INSERT that names an auto-increment key goes where its value says; one that leaves it out appends', () => {
    const id = { firstColumn: 'id', ascending: true };
    assert.deepEqual(insertedKey("INSERT INTO sbtest1 (id, k, c, pad) VALUES (:d0, :k0, 'x', 'y');", id), { variable: 'd0' });
    assert.deepEqual(insertedKey('INSERT INTO sbtest1 (`id`, k) VALUES (42, :k0)', id), { constant: 42 });
    assert.equal(insertedKey('INSERT INTO sbtest1 (k, c) VALUES (:k0, :c)', id), 'ascending');
    assert.equal(insertedKey('INSERT INTO sbtest1 (id, k) VALUES (DEFAULT, :k0)', id), 'ascending');
    assert.deepEqual(insertedKey('INSERT INTO sbtest1 (id, k) VALUES (DEFAULT, :k0)', { firstColumn: 'k', ascending: false }), { variable: 'k0' });
  });
});
