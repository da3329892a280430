import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updatedColumns } from '../../../src/sql/classify/postgres-update-columns';

test('the columns an UPDATE assigns, at the SET clause top level', () => {
  assert.deepEqual(updatedColumns('UPDATE t SET v = v + 1 WHERE id < 10'), ['v']);
  assert.deepEqual(updatedColumns('update public.t as x set V = coalesce(a, 1), "Pad" = \'a = b, c\' from s where x.id = s.id'), ['v', 'Pad']);
  assert.deepEqual(updatedColumns('UPDATE t SET (a, b) = (1, 2), c = f(1, 2) RETURNING *'), ['a', 'b', 'c']);
  assert.deepEqual(updatedColumns('UPDATE ONLY t SET arr[1] = 3, rec.f = 2'), ['arr', 'rec']);
  assert.deepEqual(updatedColumns('UPDATE t SET v = $$x = 1, where$$ -- , k = 2\nWHERE id = 1'), ['v']);
  assert.equal(updatedColumns('DELETE FROM t'), null);
  assert.equal(updatedColumns('INSERT INTO t VALUES (1)'), null);
});
